// CompileFilterProxy: the compile tree as the filter leaves it. Matching is the model's
// (CompileTreeModel::setFilter: a compile matches on its own text, so "recompile" finds
// recompiles, not every compile of a frame that has some); this proxy shows the matching compile
// and attempt rows and the rank and frame rows above them, and sorts by SortRole.
#pragma once

#include <QSortFilterProxyModel>

namespace dynascope::ui {

class CompileTreeModel;

class CompileFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit CompileFilterProxy(QObject* parent = nullptr);

    void setCompileModel(CompileTreeModel* model);
    // Filters by `text` (see CompileTreeModel::setFilter).
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    CompileTreeModel* m_model = nullptr;
};

} // namespace dynascope::ui
