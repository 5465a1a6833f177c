// CompareController: File > Compare With… and `dynascope A --compare B`. Loads B off the GUI
// thread, compares it with the open trace A (core/analysis/trace_diff.h) and shows
//  - B's timeline under A's (its own selection, its time from its own start), headed by what B
//    is and how many frames changed;
//  - the Changes dock: every change, most impact first (ChangesModel); a click selects the
//    frame's first compile in A and in B and brings both into view.
// A new trace in the session ends the comparison (B's view and the dock are hidden). A's
// findings are the session's; B's are worked out with its load, off the GUI thread.
#pragma once

#include "core/analysis/trace_diff.h"

#include <QObject>
#include <QString>

#include <memory>

class QDockWidget;
class QLabel;
class QMainWindow;
class QSplitter;
class QTreeView;
class QWidget;

namespace dynascope::ui {

class BackgroundJob;
class ChangesModel;
class CompileSelection;
class TimelineView;
class TraceSession;

class CompareController : public QObject {
    Q_OBJECT
public:
    // B's timeline goes under A's (`timelineA`) in `centre`; the Changes dock into `window`.
    CompareController(
        TraceSession* session, QMainWindow* window, QSplitter* centre, TimelineView* timelineA);

    // Compares the open trace with the trace at `path`; compareFinished() says how it went.
    void compareWith(const QString& path);
    void clear();

    bool active() const { return m_traceB != nullptr; }
    const std::shared_ptr<const Trace>& traceB() const { return m_traceB; }
    ChangesModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    QDockWidget* dock() const { return m_dock; }
    TimelineView* timelineB() const { return m_timelineB; }
    CompileSelection* selectionB() const { return m_selectionB; }
    // Selects what row `viewRow` of the Changes view is about, in both runs.
    void activateRow(int viewRow);

Q_SIGNALS:
    void compareFinished(bool ok, const QString& error);

private:
    TraceSession* m_session;
    QMainWindow* m_window;
    TimelineView* m_timelineA;
    QSplitter* m_centre;
    BackgroundJob* m_job;
    std::shared_ptr<const Trace> m_traceB;
    CompileSelection* m_selectionB;
    QWidget* m_panel;
    QLabel* m_header;
    TimelineView* m_timelineB;
    QDockWidget* m_dock;
    ChangesModel* m_model;
    QTreeView* m_view;
};

} // namespace dynascope::ui
