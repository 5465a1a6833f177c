#include "ui/models/diagnosticsmodel.h"

#include "ui/models/format.h"
#include "ui/models/itemroles.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QColor>

namespace dynascope::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiagnosticsModel::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    endResetModel();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_diagnostics.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant DiagnosticsModel::dataFor(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Diagnostic& d = m_diagnostics[static_cast<size_t>(index.row())];
    if (role == DiagnosticSeverityRole)
        return static_cast<int>(d.severity);
    switch (index.column()) {
    case SeverityColumn:
        if (role == Qt::DisplayRole || role == SortRole) {
            switch (d.severity) {
            case Severity::Info:
                return tr("info");
            case Severity::Warning:
                return tr("⚠ warning");
            case Severity::Error:
                return tr("✕ error");
            }
        }
        if (role == Qt::ForegroundRole && d.severity == Severity::Error)
            return severityColor(2);
        if (role == Qt::ToolTipRole)
            return QString::fromLatin1(toString(d.code));
        break;
    case LocationColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return d.line ? baseName(d.file) + QLatin1Char(':') + QString::number(d.line)
                          : baseName(d.file);
        if (role == Qt::ToolTipRole)
            return qs(d.file);
        break;
    case MessageColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return qs(d.message);
        if (role == Qt::ToolTipRole)
            return qs(d.format());
        break;
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("File:line");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace dynascope::ui
