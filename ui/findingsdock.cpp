#include "ui/findingsdock.h"

#include "core/report/findings_render.h"
#include "ui/compileselection.h"
#include "ui/models/findingsmodel.h"
#include "ui/models/itemroles.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTreeView>

namespace dynascope::ui {

FindingsDock::FindingsDock(CompileSelection* selection, QWidget* parent)
    : QDockWidget(tr("Findings"), parent)
    , m_selection(selection)
    , m_model(new FindingsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
{
    setObjectName(QStringLiteral("findingsDock"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_view->setModel(m_proxy);
    m_view->setAccessibleName(tr("Findings"));
    m_view->setAccessibleDescription(
        tr("What is wrong with the trace, worst first; Enter opens a finding's compile"));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder); // the ranking as computed
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    // The title is what is read: the other columns stay narrow (a dock 500 px wide left the
    // title 140 px), the count is in most titles and in the tooltip.
    m_view->setColumnWidth(FindingsModel::SeverityColumn, 78);
    m_view->setColumnWidth(FindingsModel::CostColumn, 64);
    m_view->setColumnWidth(FindingsModel::RuleColumn, 118);
    m_view->setColumnHidden(FindingsModel::CountColumn, true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("Copy as Markdown"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &FindingsDock::copyCurrent);
    m_view->addAction(copy);
    connect(m_view, &QTreeView::clicked, this, &FindingsDock::activate);
    connect(m_view, &QTreeView::activated, this, &FindingsDock::activate);
    setWidget(m_view);
}

void FindingsDock::setFindings(std::vector<Finding> findings)
{
    const FindingCounts n = countFindings(findings);
    m_model->setFindings(std::move(findings));
    setWindowTitle(m_model->findings().empty()
            ? tr("Findings")
            : tr("Findings (%1 ✕, %2 ⚠, %3 notes)").arg(n.errors).arg(n.warnings).arg(n.notes));
}

const Finding* FindingsDock::findingAt(int viewRow) const
{
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(viewRow, 0));
    if (!source.isValid())
        return nullptr;
    return &m_model->findings()[static_cast<size_t>(source.row())];
}

QString FindingsDock::currentMarkdown() const
{
    const QModelIndex current = m_view->currentIndex();
    const Finding* f = current.isValid() ? findingAt(current.row()) : nullptr;
    return f ? QString::fromStdString(findingMarkdown(*f)) : QString();
}

void FindingsDock::activate(const QModelIndex& index)
{
    const Finding* f = index.isValid() ? findingAt(index.row()) : nullptr;
    if (!f)
        return;
    if (!f->compiles.empty())
        m_selection->setCurrent(f->compiles.front());
    Q_EMIT findingActivated(*f);
}

void FindingsDock::copyCurrent()
{
    const QString md = currentMarkdown();
    if (!md.isEmpty())
        QApplication::clipboard()->setText(md);
}

} // namespace dynascope::ui
