// FlatTreeModel: the base of Dynascope's read-only tree models. The tree is a flat node table
// built once (the Trace behind it is immutable), and an index's internalId is its node number, so
// index() and parent() are O(1) and no pointers into the table are ever handed out.
#pragma once

#include <QAbstractItemModel>

#include <vector>

namespace dynascope::ui {

class FlatTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    using QAbstractItemModel::QAbstractItemModel;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;

    // The row of a node (column 0); invalid for -1.
    QModelIndex indexOfNode(int node, int column = 0) const;
    // The node of an index, -1 when invalid.
    static int nodeOf(const QModelIndex& index)
    {
        return index.isValid() ? static_cast<int>(index.internalId()) : -1;
    }

protected:
    // Appends a node under `parent` (-1: top level) and returns its number. Only between
    // beginResetModel() and endResetModel().
    int addNode(int parent);
    void clearNodes();
    int nodeCount() const { return static_cast<int>(m_parent.size()); }
    int parentNode(int node) const { return m_parent[static_cast<size_t>(node)]; }
    const std::vector<int>& childNodes(int node) const
    {
        return node < 0 ? m_roots : m_children[static_cast<size_t>(node)];
    }

private:
    std::vector<int> m_parent, m_row;
    std::vector<std::vector<int>> m_children;
    std::vector<int> m_roots;
};

} // namespace dynascope::ui
