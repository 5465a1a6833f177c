#include "ui/models/probetablemodel.h"

#include "core/util/text_format.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QFont>

namespace dynascope::ui {

namespace {

QColor outcomeHue(ProbeOutcome o)
{
    switch (o) {
    case ProbeOutcome::Ok:
        return statusStyle(CompileStatus::Ok).color; // bluish green
    case ProbeOutcome::WrongResult:
        return severityColor(1); // orange
    case ProbeOutcome::Failed:
        return severityColor(2); // vermillion
    case ProbeOutcome::NotRun:
    case ProbeOutcome::NoMeasurements:
        break;
    }
    return {};
}

QString duration(const std::optional<double>& us)
{
    return us ? QString::fromStdString(text::duration(*us)) : QStringLiteral("—");
}

QString detail(const EvidenceRow& row)
{
    QStringList lines;
    if (!row.exitText.empty())
        lines << QObject::tr("The program %1 after %2.")
                     .arg(QString::fromStdString(row.exitText),
                         QString::fromStdString(text::duration(row.seconds * 1e6)));
    if (row.failingCompile != kNone)
        lines << QObject::tr("First failing compile %1 in %2 (%3:%4): %5: %6")
                     .arg(QString::fromStdString(row.failingId),
                         QString::fromStdString(row.failingFunction),
                         QString::fromStdString(std::string(text::baseName(row.failingFile))))
                     .arg(row.failingLine)
                     .arg(QString::fromStdString(row.failingType),
                         QString::fromStdString(std::string(text::firstLine(row.failingReason))));
    if (!row.errorType.empty())
        lines << QObject::tr("%1: %2").arg(QString::fromStdString(row.errorType),
            QString::fromStdString(text::headLines(row.errorMessage, 6)));
    if (!row.mismatchMessage.empty())
        lines << QObject::tr("First mismatch with eager (call %1 of %2):\n%3")
                     .arg(row.mismatchCall.value_or(0) + 1)
                     .arg(QString::fromStdString(row.mismatchCallable),
                         QString::fromStdString(text::headLines(row.mismatchMessage, 8)));
    for (const auto& n : row.notes)
        lines << QString::fromStdString(n);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString outcomeLabel(const EvidenceRow& row)
{
    QString glyph;
    switch (row.outcome) {
    case ProbeOutcome::Ok:
        glyph = QStringLiteral("✓");
        break;
    case ProbeOutcome::WrongResult:
        glyph = QStringLiteral("≠");
        break;
    case ProbeOutcome::Failed:
        glyph = QStringLiteral("✕");
        break;
    case ProbeOutcome::NotRun:
    case ProbeOutcome::NoMeasurements:
        glyph = QStringLiteral("–");
        break;
    }
    return glyph + QLatin1Char(' ') + QString::fromStdString(row.outcomeText);
}

void ProbeTableModel::setReport(const ProbeReport& report)
{
    beginResetModel();
    m_report = report;
    m_open = -1;
    endResetModel();
}

void ProbeTableModel::setOpenRow(int row)
{
    if (row == m_open)
        return;
    m_open = row;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::FontRole });
}

int ProbeTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_report.rows.size());
}

int ProbeTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProbeTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const EvidenceRow& row = m_report.rows[static_cast<size_t>(index.row())];
    const bool ran = row.outcome != ProbeOutcome::NotRun;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Configuration:
            return QString::fromStdString(row.config.label());
        case FirstCall:
            return duration(row.firstCallUs);
        case Steady:
            return duration(row.steadyUs);
        case Recompiles:
            return ran ? QVariant(qulonglong(row.recompiles)) : QVariant(QStringLiteral("—"));
        case GraphBreaks:
            return ran ? QVariant(qulonglong(row.graphBreaks)) : QVariant(QStringLiteral("—"));
        case PeakMib:
            return row.peakMib ? QString::number(*row.peakMib, 'f', *row.peakMib < 10 ? 1 : 0)
                               : QStringLiteral("—");
        case Outcome:
            return outcomeLabel(row);
        }
    } else if (role == Qt::ForegroundRole && index.column() == Outcome) {
        const QColor hue = outcomeHue(row.outcome);
        if (hue.isValid())
            return itemTextColor(hue);
    } else if (role == Qt::FontRole && index.row() == m_open) {
        QFont f;
        f.setBold(true);
        return f;
    } else if (role == Qt::TextAlignmentRole) {
        if (index.column() != Configuration && index.column() != Outcome)
            return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ToolTipRole) {
        const QString d = detail(row);
        return d.isEmpty() ? QVariant() : QVariant(plainToolTip(d));
    }
    return {};
}

QVariant ProbeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Configuration:
        return tr("Configuration");
    case FirstCall:
        return tr("First call");
    case Steady:
        return tr("Steady state / call");
    case Recompiles:
        return tr("Recompiles");
    case GraphBreaks:
        return tr("Graph breaks");
    case PeakMib:
        return tr("Peak MiB");
    case Outcome:
        return tr("Outcome");
    }
    return {};
}

} // namespace dynascope::ui
