// SourceTab: the user's file at the line a trace names, with the line highlighted and Python
// colouring. Traces come from other machines, so a path goes through the user's prefix
// remappings ("from → to", remembered in QSettings and edited right here); when no file is found,
// the source lines the trace itself carries are shown instead, and the tab says so.
//
// A file is read only when the tab is shown or a link asks for it, only for reading, and is
// never executed.
#pragma once

#include "core/model/trace.h"
#include "ui/models/sourcelookup.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;

namespace dynascope::ui {

class CodeViewer;

class SourceTab : public QWidget {
    Q_OBJECT
public:
    enum class Origin { None, LocalFile, TraceText, Nothing };

    explicit SourceTab(QWidget* parent = nullptr);
    ~SourceTab() override;

    void setTrace(std::shared_ptr<const Trace> trace);
    // Remembers the location; it is read when the tab is visible (at once if it is).
    void setLocation(const QString& file, qint64 line);
    // Reads and shows the location now.
    void showLocation(const QString& file, qint64 line);

    Origin origin() const { return m_origin; }
    QString requestedPath() const { return m_file; }
    qint64 requestedLine() const { return m_line; }
    QString resolvedPath() const { return m_resolved; }
    QString statusText() const;
    CodeViewer* viewer() const { return m_viewer; }
    QLineEdit* fromEdit() const { return m_from; }
    QLineEdit* toEdit() const { return m_to; }

    QList<SourceRemap> remaps() const { return m_remaps; }
    // Replaces the remappings (and saves them when persist) and re-reads the current location.
    void setRemaps(const QList<SourceRemap>& remaps, bool persist = true);
    void addRemap(const SourceRemap& remap);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void load();
    void editRemaps();

    std::shared_ptr<const Trace> m_trace;
    std::unique_ptr<TraceSourceIndex> m_index;
    QList<SourceRemap> m_remaps;
    QString m_file, m_resolved;
    qint64 m_line = 0;
    bool m_pending = false;
    Origin m_origin = Origin::None;
    QLabel* m_status;
    CodeViewer* m_viewer;
    QWidget* m_remapRow;
    QLineEdit* m_from;
    QLineEdit* m_to;
};

} // namespace dynascope::ui
