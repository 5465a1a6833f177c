#include "ui/compilebrowser.h"

#include "ui/compileselection.h"
#include "ui/models/compilefilterproxy.h"
#include "ui/models/compiletreemodel.h"
#include "ui/models/itemroles.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

CompileBrowser::CompileBrowser(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_model(new CompileTreeModel(this))
    , m_proxy(new CompileFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_filterBar(new QWidget(this))
    , m_filterStatus(new QLabel(m_filterBar))
    , m_clearFilter(new QToolButton(m_filterBar))
    , m_view(new QTreeView(this))
{
    m_proxy->setCompileModel(m_model);

    m_filter->setPlaceholderText(
        tr("Filter compiles: id, status (recompile, failure…), function, file, reason"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("compileFilter"));
    m_filter->setAccessibleName(tr("Filter compiles"));
    connect(m_filter, &QLineEdit::textChanged, this, &CompileBrowser::applyFilter);

    m_filterStatus->setObjectName(QStringLiteral("filterStatus"));
    m_filterStatus->setTextFormat(Qt::PlainText);
    m_clearFilter->setObjectName(QStringLiteral("clearFilter"));
    m_clearFilter->setText(tr("Clear Filter"));
    m_clearFilter->setAutoRaise(true);
    connect(m_clearFilter, &QToolButton::clicked, m_filter, &QLineEdit::clear);
    auto* bar = new QHBoxLayout(m_filterBar);
    bar->setContentsMargins(4, 0, 0, 0);
    bar->addWidget(m_filterStatus, 1);
    bar->addWidget(m_clearFilter);
    m_filterBar->hide();

    m_view->setObjectName(QStringLiteral("compileTree"));
    m_view->setAccessibleName(tr("Compiles"));
    m_view->setAccessibleDescription(
        tr("Every compile by rank and frame, with its status, duration and reason"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->header()->setStretchLastSection(true);
    sizeColumns();
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current, const QModelIndex&) { onCurrentRowChanged(current); });
    connect(m_selection, &CompileSelection::currentChanged, this, &CompileBrowser::followSelection);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_view);
}

void CompileBrowser::sizeColumns()
{
    // Widths from the font, so a larger font does not clip the headers or the ids; the reason
    // gets room for "x.size(0) 128→256  (+3)", the function and file take what is left.
    const QFontMetrics fm(m_view->font());
    const QFontMetrics hm(m_view->header()->font());
    auto fit = [&](const QString& sample, const QString& header) {
        return std::max(fm.horizontalAdvance(sample), hm.horizontalAdvance(header) + 20) + 14;
    };
    m_view->setColumnWidth(CompileTreeModel::IdColumn,
        fit(QStringLiteral("[00/000_0]"), tr("Compile")) + m_view->indentation() * 3);
    m_view->setColumnWidth(
        CompileTreeModel::StatusColumn, fit(QStringLiteral("↻ ⚡ graph break"), tr("Status")));
    m_view->setColumnWidth(CompileTreeModel::ReasonColumn,
        fit(QStringLiteral("x.size(0) 128→256  (+3)"), tr("Reason")));
    m_view->setColumnWidth(
        CompileTreeModel::DurationColumn, fit(QStringLiteral("88.8 ms"), tr("Duration")));
    m_view->setColumnWidth(
        CompileTreeModel::GraphBreaksColumn, fit(QStringLiteral("88"), tr("Breaks")));
    m_view->setColumnWidth(
        CompileTreeModel::FunctionColumn, fit(QStringLiteral("forward_step_x"), tr("Function")));
    m_view->setColumnWidth(
        CompileTreeModel::LocationColumn, fit(QStringLiteral("model.py:123"), tr("File:line")));
}

void CompileBrowser::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        sizeColumns();
}

void CompileBrowser::setTrace(std::shared_ptr<const Trace> trace)
{
    // A reload of the same files keeps the filter (and says so); other files open unfiltered.
    std::vector<std::string> files;
    if (trace) {
        for (const TraceFile& f : trace->files)
            files.push_back(f.path);
    }
    const bool sameFiles = files == m_files;
    m_files = std::move(files);
    m_model->setTrace(std::move(trace));
    if (!sameFiles && !m_filter->text().isEmpty()) {
        m_filter->clear(); // applies the empty filter
    } else {
        m_proxy->setFilterText(m_filter->text());
        updateFilterStatus();
    }
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
    m_proxy->setFilterText(text);
    updateFilterStatus();
    expandDefault();
    followSelection(m_selection->current());
}

QString CompileBrowser::filterStatusText() const
{
    if (!m_model->isFiltered() || !m_model->trace())
        return {};
    const size_t all = m_model->compileCount();
    if (m_model->matchCount() == 0)
        return tr("No compile matches “%1” (%2 in the trace)").arg(m_model->filter()).arg(all);
    return tr("%1 of %2 compiles shown").arg(m_model->matchCount()).arg(all);
}

void CompileBrowser::updateFilterStatus()
{
    const QString text = filterStatusText();
    m_filterStatus->setText(text);
    m_filterStatus->setForegroundRole(m_model->isFiltered() && m_model->matchCount() == 0
            ? QPalette::Text
            : QPalette::PlaceholderText);
    m_filterBar->setVisible(!text.isEmpty());
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
        // Nothing (or a compile the filter hides) is selected: no row stays current either.
        m_view->selectionModel()->clear();
        return;
    }
    m_view->selectionModel()->setCurrentIndex(
        target, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(target);
}

} // namespace dynascope::ui
