#include "ui/diagnosticsdock.h"

#include "ui/models/diagnosticsmodel.h"
#include "ui/models/itemroles.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTreeView>

namespace dynascope::ui {

DiagnosticsDock::DiagnosticsDock(QWidget* parent)
    : QDockWidget(tr("Diagnostics"), parent)
    , m_model(new DiagnosticsModel(this))
    , m_view(new QTreeView(this))
{
    setObjectName(QStringLiteral("diagnosticsDock"));
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(SortRole);
    m_view->setModel(proxy);
    m_view->setAccessibleName(tr("Diagnostics"));
    m_view->setAccessibleDescription(tr("What could not be read in the trace, with file and line"));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(DiagnosticsModel::SeverityColumn, 90);
    m_view->setColumnWidth(DiagnosticsModel::LocationColumn, 220);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    setWidget(m_view);
}

void DiagnosticsDock::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    const auto n = diagnostics.size();
    m_model->setDiagnostics(std::move(diagnostics));
    setWindowTitle(n ? tr("Diagnostics (%1)").arg(n) : tr("Diagnostics"));
}

} // namespace dynascope::ui
