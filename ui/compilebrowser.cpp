#include "ui/compilebrowser.h"

#include "ui/compileselection.h"
#include "ui/models/compiletreemodel.h"
#include "ui/models/itemroles.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

CompileBrowser::CompileBrowser(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new CompileTreeModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortRole(SortRole);

    m_filter->setPlaceholderText(tr("Filter compiles: id, function, file, status, reason…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("compileFilter"));
    connect(m_filter, &QLineEdit::textChanged, this, &CompileBrowser::applyFilter);

    m_view->setObjectName(QStringLiteral("compileTree"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(CompileTreeModel::IdColumn, 120);
    m_view->setColumnWidth(CompileTreeModel::StatusColumn, 100);
    m_view->setColumnWidth(CompileTreeModel::FunctionColumn, 150);
    m_view->setColumnWidth(CompileTreeModel::LocationColumn, 110);
    m_view->setColumnWidth(CompileTreeModel::DurationColumn, 68);
    m_view->setColumnWidth(CompileTreeModel::GraphBreaksColumn, 48);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current, const QModelIndex&) { onCurrentRowChanged(current); });
    connect(m_selection, &CompileSelection::currentChanged, this, &CompileBrowser::followSelection);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
}

void CompileBrowser::setTrace(std::shared_ptr<const Trace> trace)
{
    m_model->setTrace(std::move(trace));
    expandDefault();
}

void CompileBrowser::expandDefault()
{
    if (!m_filter->text().isEmpty()) {
        m_view->expandAll();
        return;
    }
    // Ranks and frames open, attempts folded: the compiles are what one looks for first.
    m_view->expandToDepth(1);
}

void CompileBrowser::applyFilter(const QString& text)
{
    m_proxy->setFilterFixedString(text);
    expandDefault();
    followSelection(m_selection->current());
}

void CompileBrowser::onCurrentRowChanged(const QModelIndex& current)
{
    const QModelIndex source = m_proxy->mapToSource(current);
    const uint32_t compile = m_model->compileAt(source);
    if (compile != kNone)
        m_selection->setCurrent(compile);
}

void CompileBrowser::followSelection(uint32_t compile)
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (compile != kNone && m_model->compileAt(current) == compile)
        return;
    const QModelIndex target = m_proxy->mapFromSource(m_model->indexForCompile(compile));
    if (!target.isValid()) {
        m_view->selectionModel()->clearSelection();
        return;
    }
    m_view->selectionModel()->setCurrentIndex(
        target, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(target);
}

} // namespace dynascope::ui
