// FindingsDock: what is wrong in the trace (core/analysis/findings.h), most costly first, filled
// as soon as a trace opens. A click selects the finding's first compile (tree, timeline) and
// opens its Why tab; the finding's other compiles are a click away in its tooltip's list. Copy
// (Ctrl+C, or the context menu) puts the finding on the clipboard as Markdown for an issue.
#pragma once

#include "core/analysis/findings.h"

#include <QDockWidget>

#include <memory>
#include <vector>

class QTreeView;
class QSortFilterProxyModel;

namespace dynascope::ui {

class CompileSelection;
class FindingsModel;

class FindingsDock : public QDockWidget {
    Q_OBJECT
public:
    FindingsDock(CompileSelection* selection, QWidget* parent = nullptr);

    void setFindings(std::vector<Finding> findings);
    FindingsModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    // The finding of a view row (null when none).
    const Finding* findingAt(int viewRow) const;
    // The current row's finding as Markdown ("" when none is current).
    QString currentMarkdown() const;

Q_SIGNALS:
    // A finding was clicked: its compiles, the first selected.
    void findingActivated(const dynascope::Finding& finding);

private:
    void activate(const QModelIndex& index);
    void copyCurrent();

    CompileSelection* m_selection;
    FindingsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
};

} // namespace dynascope::ui
