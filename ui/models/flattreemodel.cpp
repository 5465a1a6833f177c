#include "ui/models/flattreemodel.h"

namespace dynascope::ui {

QModelIndex FlatTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= columnCount(parent))
        return {};
    const int p = nodeOf(parent);
    const auto& kids = childNodes(p);
    if (static_cast<size_t>(row) >= kids.size())
        return {};
    return createIndex(row, column, static_cast<quintptr>(kids[static_cast<size_t>(row)]));
}

QModelIndex FlatTreeModel::parent(const QModelIndex& index) const
{
    const int n = nodeOf(index);
    if (n < 0 || n >= nodeCount())
        return {};
    return indexOfNode(parentNode(n));
}

int FlatTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(childNodes(nodeOf(parent)).size());
}

QModelIndex FlatTreeModel::indexOfNode(int node, int column) const
{
    if (node < 0 || node >= nodeCount())
        return {};
    return createIndex(m_row[static_cast<size_t>(node)], column, static_cast<quintptr>(node));
}

int FlatTreeModel::addNode(int parent)
{
    const int n = nodeCount();
    auto& siblings = parent < 0 ? m_roots : m_children[static_cast<size_t>(parent)];
    m_row.push_back(static_cast<int>(siblings.size()));
    siblings.push_back(n);
    m_parent.push_back(parent);
    m_children.emplace_back();
    return n;
}

void FlatTreeModel::clearNodes()
{
    m_parent.clear();
    m_row.clear();
    m_children.clear();
    m_roots.clear();
}

} // namespace dynascope::ui
