#include "ui/inspector/kernelstab.h"

#include "ui/models/format.h"
#include "ui/models/kernelmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

KernelsTab::KernelsTab(QWidget* parent)
    : QWidget(parent)
    , m_model(new KernelModel(this))
{
    setObjectName(QStringLiteral("kernelsTab"));
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("kernelSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(4, 4, 4, 4);
    m_table = new QTreeView;
    m_table->setObjectName(QStringLiteral("kernelTable"));
    m_table->setAccessibleName(tr("Kernels"));
    m_table->setModel(m_model);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setAllColumnsShowFocus(true);
    const int ch = QFontMetrics(m_table->font()).averageCharWidth();
    m_table->header()->setStretchLastSection(true);
    m_table->header()->resizeSection(KernelModel::NameColumn, ch * 44);
    m_table->header()->resizeSection(KernelModel::KindColumn, ch * 20);
    m_table->header()->resizeSection(KernelModel::GraphColumn, ch * 10);
    m_table->header()->resizeSection(KernelModel::OpsColumn, ch * 36);
    m_table->header()->resizeSection(KernelModel::TimeColumn, ch * 13);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTreeView::activated, this,
        [this](const QModelIndex& index) { activate(index.row()); });
}

void KernelsTab::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showCompile(kNone);
}

void KernelsTab::showCompile(uint32_t compile)
{
    m_model->setCompile(m_trace, compile);
    // Columns as wide as what they hold (a kind, a graph, a time), the names and ops capped.
    const int ch = QFontMetrics(m_table->font()).averageCharWidth();
    for (int c = 0; c + 1 < KernelModel::ColumnCount; ++c) {
        m_table->resizeColumnToContents(c);
        const int cap = c == KernelModel::NameColumn || c == KernelModel::OpsColumn ? 52 : 24;
        if (m_table->columnWidth(c) > ch * cap)
            m_table->setColumnWidth(c, ch * cap);
    }
    if (!m_trace || compile == kNone) {
        m_summary->clear();
        return;
    }
    const CompileKernels& ks = m_model->kernels();
    if (ks.kernels.empty()) {
        m_summary->setText(ks.outputCodes
                ? tr("Inductor's output code for this compile defines no kernel and calls none.")
                : tr("No kernels: this compile logged no Inductor output code (another backend, "
                     "a failure before code generation, or nothing to compile)."));
        return;
    }
    KernelCounts n;
    n.add(ks.kernels);
    QString text = qs(kernelSentence(n)) + QLatin1Char('.');
    if (ks.fxGraphCacheHit)
        text += tr(" The FX graph cache hit: the code was loaded, not compiled or tuned.");
    if (!ks.diagnostics.empty())
        text += tr(" %1 triton_kernel_info payload(s) did not read as expected (%2).")
                    .arg(ks.diagnostics.size())
                    .arg(qs(ks.diagnostics.front().format()));
    text += tr(" Double-click a kernel to read its code.");
    m_summary->setText(text);
}

void KernelsTab::activate(int row)
{
    const Kernel* k = m_model->kernel(row);
    if (k && k->codeRecord != kNone)
        Q_EMIT codeRequested(k->codeRecord, k->codeLine);
}

} // namespace dynascope::ui
