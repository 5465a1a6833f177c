#include "ui/models/shapeeventmodel.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/plaintooltip.h"

namespace dynascope::ui {

ShapeEventModel::ShapeEventModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ShapeEventModel::setCompile(std::shared_ptr<const Trace> trace, uint32_t compile)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_events = m_trace && compile < m_trace->compiles.size()
        ? &m_trace->compiles[compile].shapeEvents
        : nullptr;
    endResetModel();
}

const ShapeEvent* ShapeEventModel::event(int row) const
{
    if (!m_events || row < 0 || static_cast<size_t>(row) >= m_events->size())
        return nullptr;
    return &(*m_events)[static_cast<size_t>(row)];
}

const StackFrame* ShapeEventModel::userFrame(int row) const
{
    const ShapeEvent* e = event(row);
    if (!e)
        return nullptr;
    if (!e->userStack.empty())
        return &e->userStack.back();
    if (!e->stack.empty())
        return &e->stack.back();
    return nullptr;
}

int ShapeEventModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_events ? 0 : static_cast<int>(m_events->size());
}

int ShapeEventModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ShapeEventModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant ShapeEventModel::dataFor(const QModelIndex& index, int role) const
{
    const ShapeEvent* e = index.isValid() ? event(index.row()) : nullptr;
    if (!e)
        return {};
    const StackFrame* f = userFrame(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case KindColumn:
            return qs(e->kind);
        case ExpressionColumn:
            return e->sources.empty() || e->kind == "guard_added_fast"
                ? qs(e->expr)
                : qs(e->expr) + QStringLiteral("  (") + qs(e->sources) + QLatin1Char(')');
        case ValueColumn:
            return qs(e->value);
        case ReasonColumn:
            return firstLine(e->reason);
        case UserCodeColumn:
            return f ? fileLine(f->file, f->line) : QString();
        case CodeColumn:
            return f ? qs(f->loc).trimmed() : QString();
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        QString tip = qs(e->kind) + QStringLiteral(": ") + qs(e->expr);
        if (!e->reason.empty())
            tip += QLatin1Char('\n') + qs(e->reason);
        if (f)
            tip += QStringLiteral("\nat ") + qs(f->file) + QLatin1Char(':')
                + QString::number(f->line)
                + (f->loc.empty() ? QString() : QStringLiteral("\n    ") + qs(f->loc));
        if (index.column() == UserCodeColumn && f)
            tip += QStringLiteral("\n(click to open the source)");
        return tip;
    }
    if (role == RecordRole)
        return e->record == kNone ? -1 : static_cast<int>(e->record);
    return {};
}

QVariant ShapeEventModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case ExpressionColumn:
        return tr("Expression");
    case ValueColumn:
        return tr("Value");
    case ReasonColumn:
        return tr("Reason");
    case UserCodeColumn:
        return tr("User code");
    case CodeColumn:
        return tr("Code");
    }
    return {};
}

} // namespace dynascope::ui
