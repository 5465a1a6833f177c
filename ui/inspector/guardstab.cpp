#include "ui/inspector/guardstab.h"

#include "ui/inspector/whatifpanel.h"
#include "ui/models/format.h"
#include "ui/models/guardtreemodel.h"
#include "ui/models/itemroles.h"
#include "ui/models/shapeeventmodel.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace dynascope::ui {

GuardsTab::GuardsTab(QWidget* parent)
    : QWidget(parent)
    , m_model(new GuardTreeModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_shapes(new ShapeEventModel(this))
{
    setObjectName(QStringLiteral("guardsTab"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    m_chooser = new QComboBox;
    m_chooser->setObjectName(QStringLiteral("guardTreeChooser"));
    m_chooser->setAccessibleName(tr("Guard tree"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("guardFilter"));
    m_filter->setAccessibleName(tr("Filter guards"));
    m_filter->setPlaceholderText(tr("Search guards (kind, expression, source, where)"));
    m_filter->setClearButtonEnabled(true);
    m_caption = new QLabel;
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);

    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("guardTree"));
    m_view->setAccessibleName(tr("Guards"));
    m_view->setAccessibleDescription(tr("The guards of this compile; the failed one is marked ✕"));
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setFont(mono);
    // At least six guards in view, however much the What if section below asks for.
    m_view->setMinimumHeight(7 * (QFontMetrics(mono).height() + 4));
    m_view->header()->resizeSection(0, 260);
    m_view->header()->resizeSection(1, 620);

    m_shapeView = new QTreeView;
    m_shapeView->setObjectName(QStringLiteral("shapeEvents"));
    m_shapeView->setAccessibleName(tr("Shape events"));
    m_shapeView->setModel(m_shapes);
    m_shapeView->setRootIsDecorated(false);
    m_shapeView->setUniformRowHeights(true);
    m_shapeView->setFont(mono);
    m_shapeCaption = new QLabel;
    m_shapeCaption->setTextFormat(Qt::PlainText);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Guards of")));
    top->addWidget(m_chooser);
    top->addWidget(m_filter, 1);
    auto* upper = new QWidget;
    auto* ul = new QVBoxLayout(upper);
    ul->setContentsMargins(0, 0, 0, 0);
    ul->addLayout(top);
    ul->addWidget(m_caption);
    ul->addWidget(m_view, 1);
    auto* lower = new QWidget;
    auto* ll = new QVBoxLayout(lower);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_shapeCaption);
    ll->addWidget(m_shapeView, 1);
    m_whatIf = new WhatIfPanel;
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(lower);
    split->addWidget(m_whatIf);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& s) {
        m_proxy->setFilterFixedString(s);
        if (!s.isEmpty())
            m_view->expandAll();
        else
            revealHighlighted();
    });
    connect(m_chooser, &QComboBox::activated, this, [this](int i) {
        const QVariantList v = m_chooser->itemData(i).toList();
        if (v.size() == 2)
            showTree(v[0].toUInt(), v[1].toInt());
    });
    connect(m_shapeView, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const int rec = index.data(RecordRole).toInt();
        if (rec >= 0)
            Q_EMIT recordSelected(static_cast<uint32_t>(rec));
        if (index.column() == ShapeEventModel::UserCodeColumn) {
            if (const StackFrame* f = m_shapes->userFrame(index.row()))
                Q_EMIT sourceRequested(qs(f->file), f->line);
        }
    });
}

void GuardsTab::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_whatIf->setTrace(m_trace);
    showCompile(kNone);
}

void GuardsTab::showCompile(uint32_t ci)
{
    m_compile = ci;
    m_chooser->clear();
    m_shapes->setCompile(m_trace, ci);
    m_whatIf->showCompile(ci);
    if (!m_trace || ci >= m_trace->compiles.size()) {
        m_model->setCompile(nullptr, kNone);
        m_caption->clear();
        m_shapeCaption->clear();
        return;
    }
    const Trace& t = *m_trace;
    const Compile& c = t.compiles[ci];
    // The earlier compiles a reason names come first: their failed guard is the point.
    uint32_t firstEarlier = kNone;
    int firstNode = -1;
    for (const RecompileReason& r : c.recompileReasons) {
        if (r.earlierCompile >= t.compiles.size())
            continue;
        m_chooser->addItem(qs(t.compiles[r.earlierCompile].id.display())
                + tr("  (its guard failed: why %1 recompiled)").arg(qs(c.id.display())),
            QVariantList { r.earlierCompile, r.guardNode });
        if (firstEarlier == kNone && r.guardNode >= 0) {
            firstEarlier = r.earlierCompile;
            firstNode = r.guardNode;
        }
    }
    m_chooser->insertItem(firstEarlier == kNone ? 0 : m_chooser->count(),
        qs(c.id.display()) + tr("  (this compile)"), QVariantList { ci, -1 });
    m_chooser->setCurrentIndex(0);
    if (firstEarlier != kNone)
        showTree(firstEarlier, firstNode);
    else
        showTree(ci, -1);

    m_shapeCaption->setText(c.shapeEvents.empty()
            ? tr("Shape guards and specialisations: none logged for this compile.")
            : tr("Shape guards and specialisations (%1): click a user line to open it.")
                  .arg(c.shapeEvents.size()));
    m_shapeView->setVisible(!c.shapeEvents.empty());
    for (int col = 0; col < ShapeEventModel::ColumnCount; ++col)
        m_shapeView->resizeColumnToContents(col);
    // No taller than its rows (up to eight; more scroll), so a compile with one or two shape
    // events leaves the height to the guard tree and the What if section.
    const int rows = std::min<int>(int(c.shapeEvents.size()), 8);
    const int rowHeight = m_shapeView->fontMetrics().height() + 4;
    m_shapeView->setMaximumHeight(m_shapeView->header()->sizeHint().height() + rows * rowHeight
        + m_shapeView->horizontalScrollBar()->sizeHint().height() + 2 * m_shapeView->frameWidth()
        + 2);
}

void GuardsTab::showGuard(uint32_t compile, int node)
{
    if (!m_trace || compile >= m_trace->compiles.size())
        return;
    for (int i = 0; i < m_chooser->count(); ++i) {
        const QVariantList v = m_chooser->itemData(i).toList();
        if (v.size() == 2 && v[0].toUInt() == compile) {
            m_chooser->setCurrentIndex(i);
            break;
        }
    }
    showTree(compile, node);
}

void GuardsTab::showTree(uint32_t compile, int node)
{
    m_model->setCompile(m_trace, compile);
    m_model->setHighlightedNode(node);
    if (!m_trace || compile >= m_trace->compiles.size())
        return;
    const Compile& c = m_trace->compiles[compile];
    const QString id = qs(c.id.display());
    const auto hot = static_cast<size_t>(std::max(0, m_model->highlightedNode()));
    if (!m_model->tree())
        m_caption->setText(tr("%1 logged no guards (no dynamo_cpp_guards_str or dynamo_guards "
                              "record).")
                               .arg(id));
    else if (compile != m_compile && m_model->highlightedNode() >= 0)
        m_caption->setText(
            tr("Guards of %1. The highlighted guard (✕) failed for the new "
               "inputs, which is why %2 recompiled:\n%3")
                .arg(id,
                    m_compile < m_trace->compiles.size()
                        ? qs(m_trace->compiles[m_compile].id.display())
                        : QString(),
                    QString(qs(m_model->tree()->nodes[hot].kind) + QStringLiteral(": ")
                        + qs(m_model->tree()->nodes[hot].expr))));
    else
        m_caption->setText(
            tr("Guards of %1: %2%3.")
                .arg(id, plural(m_model->tree()->guardCount(), tr("guard"), tr("guards")),
                    m_model->tree()->latency.empty()
                        ? QString()
                        : tr(", checked in %1").arg(qs(m_model->tree()->latency))));
    // Managers open, so guards show under their source; large trees only two levels.
    if (m_model->rowCount() > 0) {
        if (m_model->tree()->nodes.size() < 400)
            m_view->expandAll();
        else
            m_view->expandToDepth(0);
    }
    revealHighlighted();
}

void GuardsTab::revealHighlighted()
{
    const QModelIndex src = m_model->indexOfNode(m_model->highlightedNode());
    const QModelIndex idx = m_proxy->mapFromSource(src);
    if (!idx.isValid())
        return;
    for (QModelIndex p = idx.parent(); p.isValid(); p = p.parent())
        m_view->expand(p);
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
}

} // namespace dynascope::ui
