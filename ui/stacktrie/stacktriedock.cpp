#include "ui/stacktrie/stacktriedock.h"

#include "ui/compileselection.h"
#include "ui/models/itemroles.h"
#include "ui/models/stacktriemodel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

StackTrieDock::StackTrieDock(CompileSelection* selection, QWidget* parent)
    : QDockWidget(tr("Stack trie"), parent)
    , m_selection(selection)
    , m_model(new StackTrieModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("stackTrieDock"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter frames and compiles"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter frames and compiles"));
    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("stackTrie"));
    m_view->setAccessibleName(tr("Stack trie"));
    m_view->setAccessibleDescription(tr("Compiles grouped by the user stack that led to them"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_filter);
    l->addWidget(m_view, 1);
    setWidget(w);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& s) {
        m_proxy->setFilterFixedString(s);
        m_view->expandAll();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            const int ci = current.data(CompileIndexRole).toInt();
            if (ci >= 0)
                m_selection->setCurrent(static_cast<uint32_t>(ci));
        });
    connect(m_selection, &CompileSelection::currentChanged, this, &StackTrieDock::followSelection);
}

void StackTrieDock::setTrace(std::shared_ptr<const Trace> trace)
{
    m_model->setTrace(std::move(trace));
    m_view->expandAll();
}

void StackTrieDock::followSelection(uint32_t compile)
{
    const QModelIndex idx = m_proxy->mapFromSource(m_model->indexForCompile(compile));
    if (!idx.isValid()) {
        m_view->selectionModel()->clearCurrentIndex();
        return;
    }
    if (m_view->currentIndex() == idx)
        return;
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx);
}

} // namespace dynascope::ui
