#include "ui/models/guardtreemodel.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QColor>
#include <QFont>

namespace dynascope::ui {

GuardTreeModel::GuardTreeModel(QObject* parent)
    : FlatTreeModel(parent)
{
}

void GuardTreeModel::setCompile(std::shared_ptr<const Trace> trace, uint32_t compile)
{
    beginResetModel();
    clearNodes();
    m_trace = std::move(trace);
    m_compile = compile;
    m_tree = nullptr;
    m_highlighted = -1;
    if (m_trace && compile < m_trace->compiles.size())
        m_tree = m_trace->compiles[compile].guards.get();
    if (m_tree) {
        // Node numbers equal GuardTree::nodes indices: parents always come before children.
        for (size_t i = 0; i < m_tree->nodes.size(); ++i) {
            int p = m_tree->nodes[i].parent;
            if (p >= static_cast<int>(i))
                p = -1; // malformed: never let a node hang under a later one
            addNode(p);
        }
    }
    endResetModel();
}

void GuardTreeModel::setHighlightedNode(int node)
{
    if (!m_tree || node >= static_cast<int>(m_tree->nodes.size()))
        node = -1;
    if (node == m_highlighted)
        return;
    const int old = m_highlighted;
    m_highlighted = node;
    for (int n : { old, node }) {
        if (n >= 0)
            Q_EMIT dataChanged(indexOfNode(n, 0), indexOfNode(n, ColumnCount - 1));
    }
}

int GuardTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && parent.column() != 0 ? 0 : ColumnCount;
}

QVariant GuardTreeModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant GuardTreeModel::dataFor(const QModelIndex& index, int role) const
{
    const int n = nodeOf(index);
    if (!m_tree || n < 0 || n >= static_cast<int>(m_tree->nodes.size()))
        return {};
    const GuardNode& g = m_tree->nodes[static_cast<size_t>(n)];
    const bool hot = n == m_highlighted;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case KindColumn:
            return hot ? QStringLiteral("✕ ") + qs(g.kind) : qs(g.kind);
        case ExpressionColumn:
            return qs(g.expr);
        case WhereColumn:
            if (!g.userCode.empty()) // "x * 2  ·  proj/train.py:4 in f"
                return QString(qs(g.userCode) + QStringLiteral("  ·  ") + qs(g.where));
            return g.where.empty() ? firstLine(g.userStack) : qs(g.where);
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = qs(g.kind) + QStringLiteral(": ") + qs(g.expr);
        if (!g.where.empty())
            tip += QStringLiteral("\nmade at ") + qs(g.where);
        if (!g.userCode.empty())
            tip += QStringLiteral("\nby the user code: ") + qs(g.userCode);
        if (!g.userStack.empty())
            tip += QStringLiteral("\n") + qs(g.userStack);
        if (hot)
            tip = QStringLiteral("This guard failed: it is why the later compile recompiled.\n")
                + tip;
        return tip;
    }
    case Qt::FontRole:
        if (hot) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        if (hot) {
            QColor tint = severityColor(2); // vermillion tint: reads on light and dark
            tint.setAlpha(70);
            return tint;
        }
        return {};
    case GuardNodeRole:
        return n;
    case HighlightRole:
        return hot;
    }
    return {};
}

QVariant GuardTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case ExpressionColumn:
        return tr("Expression");
    case WhereColumn:
        return tr("Where");
    }
    return {};
}

} // namespace dynascope::ui
