#include "ui/compare/changesmodel.h"

#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QColor>

namespace dynascope::ui {

ChangesModel::ChangesModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ChangesModel::setDiff(TraceDiff diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_rows.clear();
    for (const auto& c : m_diff.runChanges)
        m_rows.push_back({ nullptr, &c });
    for (const auto& f : m_diff.frames)
        for (const auto& c : f.changes)
            m_rows.push_back({ &f, &c });
    endResetModel();
}

int ChangesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ChangesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChangesModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant ChangesModel::dataFor(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return qs(r.change->text);
    if (role == Qt::ForegroundRole && r.change->worse && index.column() == KindColumn)
        return severityColor(2);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case FrameColumn: {
        if (!r.frame)
            return tr("(the runs)");
        QString label = qs(r.frame->label);
        if (r.frame->rank)
            label += tr(" (rank %1)").arg(*r.frame->rank);
        return label;
    }
    case StatusColumn:
        return r.frame ? QString::fromLatin1(toString(r.frame->status)) : QString();
    case KindColumn:
        return QString((r.change->worse ? QStringLiteral("✗ ") : QString()) + qs(r.change->kind));
    case AColumn:
        return qs(r.change->a);
    case BColumn:
        return qs(r.change->b);
    case TextColumn:
        return qs(r.change->text);
    }
    return {};
}

QVariant ChangesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FrameColumn:
        return tr("Frame");
    case StatusColumn:
        return tr("Status");
    case KindColumn:
        return tr("Change");
    case AColumn:
        return tr("A");
    case BColumn:
        return tr("B");
    case TextColumn:
        return tr("What changed");
    }
    return {};
}

} // namespace dynascope::ui
