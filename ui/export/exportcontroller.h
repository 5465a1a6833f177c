// ExportController: File > Export Image (Ctrl+E), Edit > Copy Image, Edit > Copy as Bug Report,
// and the Report dock. Images go only where the user chose in a file dialog (or to the
// clipboard); the default file name never comes from trace content. The window only creates it;
// it follows the session (TraceSession), and the bug report and the report reuse its findings.
#pragma once

#include "core/model/trace.h"

#include <QObject>
#include <QSize>

#include <memory>

class QDockWidget;
class QMainWindow;

namespace dynascope::ui {

class CompileSelection;
class MainActions;
class ReportView;
class TimelineView;
class TraceSession;

class ExportController : public QObject {
    Q_OBJECT
public:
    enum class Target { Timeline, Window };
    enum class Format { Png1x, Png2x, Svg };

    // The Report dock goes into `window`; "Whole window" images are of it.
    ExportController(
        TraceSession* session, QMainWindow* window, MainActions* actions, TimelineView* timeline);

    // The footer of every image: trace file, selected compile, visible range, version.
    QString footerText() const;
    // Writes the image to `path` (chosen by the user). False with a message in *error.
    bool exportTo(const QString& path, Target target, Format format, QString* error) const;
    // The Markdown that "Copy as bug report" puts on the clipboard; empty without a selection.
    QString bugReportText() const;
    ReportView* reportView() const { return m_report; }
    QDockWidget* reportDock() const { return m_reportDock; }

public Q_SLOTS:
    void exportImageInteractive();
    void copyImage();
    void copyBugReport();

private:
    void onTraceChanged(const std::shared_ptr<const Trace>& trace);
    void updateActions();

    TraceSession* m_session;
    QMainWindow* m_window;
    MainActions* m_actions;
    TimelineView* m_timeline;
    CompileSelection* m_selection;
    ReportView* m_report = nullptr;
    QDockWidget* m_reportDock = nullptr;
    std::shared_ptr<const Trace> m_trace;
    QString m_lastDir;
};

} // namespace dynascope::ui
