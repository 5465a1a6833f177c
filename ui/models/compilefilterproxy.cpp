#include "ui/models/compilefilterproxy.h"

#include "ui/models/compiletreemodel.h"
#include "ui/models/itemroles.h"

namespace dynascope::ui {

CompileFilterProxy::CompileFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    // A rank or frame row stays while a row under it matches.
    setRecursiveFilteringEnabled(true);
    setSortRole(SortRole);
}

void CompileFilterProxy::setCompileModel(CompileTreeModel* model)
{
    m_model = model;
    setSourceModel(model);
}

void CompileFilterProxy::setFilterText(const QString& text)
{
    if (!m_model)
        return;
    m_model->setFilter(text);
    invalidateFilter();
}

bool CompileFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_model || !m_model->isFiltered())
        return true;
    return m_model->rowMatches(m_model->index(sourceRow, 0, sourceParent));
}

} // namespace dynascope::ui
