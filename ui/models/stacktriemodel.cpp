#include "ui/models/stacktriemodel.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QHash>

namespace dynascope::ui {

StackTrieModel::StackTrieModel(QObject* parent)
    : FlatTreeModel(parent)
{
}

void StackTrieModel::setTrace(std::shared_ptr<const Trace> trace)
{
    beginResetModel();
    clearNodes();
    m_nodes.clear();
    m_trace = std::move(trace);
    m_leafOfCompile.clear();
    if (m_trace) {
        const Trace& t = *m_trace;
        m_leafOfCompile.assign(t.compiles.size(), -1);
        // (parent node, frame key) -> child node
        QHash<QPair<int, QString>, int> childOf;
        std::vector<int> rankNode(t.files.size(), -1);
        auto add = [&](int parent, Node node) {
            const int n = addNode(parent);
            m_nodes.push_back(std::move(node));
            return n;
        };
        for (const Compile& c : t.compiles) {
            int parent = -1;
            if (t.files.size() > 1 && c.file < t.files.size()) {
                if (rankNode[c.file] < 0)
                    rankNode[c.file] = add(-1,
                        Node { rankLabel(t.files[c.file]), qs(t.files[c.file].path), kNone, 0 });
                parent = rankNode[c.file];
            }
            for (const StackFrame& f : c.stack) {
                const QString label = qs(f.name) + QStringLiteral(" (") + fileLine(f.file, f.line)
                    + QLatin1Char(')');
                const QString key = qs(f.file) + QLatin1Char(':') + QString::number(f.line)
                    + QLatin1Char(':') + qs(f.name);
                auto it = childOf.constFind({ parent, key });
                if (it != childOf.constEnd()) {
                    parent = it.value();
                    continue;
                }
                QString tip = qs(f.name) + QStringLiteral("\n") + qs(f.file) + QLatin1Char(':')
                    + QString::number(f.line);
                if (!f.loc.empty())
                    tip += QStringLiteral("\n    ") + qs(f.loc);
                const int n = add(parent, Node { label, tip, kNone, 0 });
                childOf.insert({ parent, key }, n);
                parent = n;
            }
            const StatusStyle st = statusStyle(c.status);
            QString label = qs(c.id.display()) + QLatin1Char(' ') + st.glyph;
            if (c.isRecompile())
                label += QStringLiteral(" ↻");
            if (c.stack.empty())
                label += QStringLiteral("  ") + tr("(no stack logged)");
            const int leaf = add(parent,
                Node { label,
                    qs(c.id.display()) + QLatin1Char(' ') + st.label() + QStringLiteral("\n")
                        + compileFunction(c),
                    c.index, 0 });
            m_leafOfCompile[c.index] = leaf;
            for (int p = parentNode(leaf); p >= 0; p = parentNode(p))
                ++m_nodes[static_cast<size_t>(p)].compilesBelow;
        }
    }
    endResetModel();
}

QModelIndex StackTrieModel::indexForCompile(uint32_t compile) const
{
    if (compile >= m_leafOfCompile.size())
        return {};
    return indexOfNode(m_leafOfCompile[compile]);
}

uint32_t StackTrieModel::compileAt(const QModelIndex& index) const
{
    const int n = nodeOf(index);
    return n < 0 || n >= nodeCount() ? kNone : m_nodes[static_cast<size_t>(n)].compile;
}

int StackTrieModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && parent.column() != 0 ? 0 : 2;
}

QVariant StackTrieModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant StackTrieModel::dataFor(const QModelIndex& index, int role) const
{
    const int n = nodeOf(index);
    if (n < 0 || n >= nodeCount())
        return {};
    const Node& node = m_nodes[static_cast<size_t>(n)];
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == 0)
            return node.label;
        return node.compile == kNone ? QVariant(node.compilesBelow) : QVariant();
    case Qt::ToolTipRole:
        return node.tooltip;
    case Qt::ForegroundRole:
        if (node.compile != kNone && m_trace && index.column() == 0)
            return itemTextColor(statusStyle(m_trace->compiles[node.compile].status).color);
        return {};
    case CompileIndexRole:
        return node.compile == kNone ? -1 : static_cast<int>(node.compile);
    }
    return {};
}

QVariant StackTrieModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Frame") : tr("Compiles");
}

} // namespace dynascope::ui
