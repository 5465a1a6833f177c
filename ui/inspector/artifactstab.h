// ArtifactsTab: the compile's graphs, generated code, named artifacts, guard dumps and metrics in
// a list; the selected one in a viewer with Python / JSON colouring, find and copy. Selecting one
// also tells the Raw tab which record to show.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeView;

namespace dynascope::ui {

class ArtifactListModel;
class CodeViewer;

class ArtifactsTab : public QWidget {
    Q_OBJECT
public:
    explicit ArtifactsTab(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);
    // Selects the row of `record`; false when the compile's list does not have it.
    bool selectRecord(uint32_t record);
    uint32_t currentRecord() const { return m_record; }

    ArtifactListModel* model() const { return m_model; }
    QTreeView* list() const { return m_list; }
    CodeViewer* viewer() const { return m_viewer; }

Q_SIGNALS:
    void recordSelected(uint32_t record);

private:
    void showRow(int row);

    std::shared_ptr<const Trace> m_trace;
    uint32_t m_record = kNone;
    ArtifactListModel* m_model;
    QTreeView* m_list;
    QLabel* m_title;
    CodeViewer* m_viewer;
};

} // namespace dynascope::ui
