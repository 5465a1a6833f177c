#include "ui/models/findingsmodel.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QColor>

namespace dynascope::ui {

FindingsModel::FindingsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void FindingsModel::setFindings(std::vector<Finding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString findingDetails(const Finding& f)
{
    QString s = qs(f.title) + QLatin1Char('\n');
    for (const auto& [k, v] : f.evidence)
        s += QLatin1Char('\n') + qs(k) + QStringLiteral(": ") + qs(v);
    if (!f.why.empty())
        s += QStringLiteral("\n\nWhy: ") + qs(f.why);
    if (!f.hint.empty())
        s += QStringLiteral("\nNext: ") + qs(f.hint);
    if (!f.code.empty())
        s += QStringLiteral("\n    ") + qs(f.code);
    return s;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant FindingsModel::dataFor(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Finding& f = m_findings[static_cast<size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return findingDetails(f);
    switch (index.column()) {
    case SeverityColumn:
        if (role == SortRole)
            return static_cast<int>(f.severity) * -1; // errors first when ascending
        if (role == Qt::DisplayRole) {
            switch (f.severity) {
            case FindingSeverity::Error:
                return tr("✕ error");
            case FindingSeverity::Warning:
                return tr("⚠ warning");
            case FindingSeverity::Note:
                return tr("note");
            }
        }
        if (role == Qt::ForegroundRole && f.severity == FindingSeverity::Error)
            return severityColor(2);
        break;
    case TitleColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return qs(f.title);
        break;
    case CostColumn:
        if (role == SortRole)
            return -f.costUs;
        if (role == Qt::DisplayRole)
            return f.costUs > 0 ? formatDuration(f.costUs) : QString();
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case CountColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return static_cast<qulonglong>(f.count);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case RuleColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return qs(toString(f.rule));
        break;
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case TitleColumn:
        return tr("Finding");
    case CostColumn:
        return tr("Cost");
    case CountColumn:
        return tr("Count");
    case RuleColumn:
        return tr("Rule");
    }
    return {};
}

} // namespace dynascope::ui
