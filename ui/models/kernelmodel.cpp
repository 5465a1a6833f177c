#include "ui/models/kernelmodel.h"

#include "ui/models/format.h"
#include "ui/plaintooltip.h"

namespace dynascope::ui {

KernelModel::KernelModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void KernelModel::setCompile(std::shared_ptr<const Trace> trace, uint32_t compile)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_kernels = {};
    if (m_trace && compile < m_trace->compiles.size())
        m_kernels = compileKernels(*m_trace, m_trace->compiles[compile]);
    endResetModel();
}

const Kernel* KernelModel::kernel(int row) const
{
    return row >= 0 && static_cast<size_t>(row) < m_kernels.kernels.size()
        ? &m_kernels.kernels[static_cast<size_t>(row)]
        : nullptr;
}

QString KernelModel::kindText(KernelKind k)
{
    return qs(toString(k)).replace(QLatin1Char('_'), QLatin1Char(' '));
}

QString KernelModel::autotuneText(const Kernel& k)
{
    if (k.autotuneState.empty())
        return k.kind == KernelKind::Extern || !k.hasInfo ? QStringLiteral("–")
                                                          : tr("no cache lookup");
    QString s = qs(k.autotuneState);
    if (k.numConfigs)
        s += tr(" (%1 configs)").arg(*k.numConfigs);
    if (!k.config.empty())
        s += QStringLiteral(": ") + qs(k.config);
    return s;
}

int KernelModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_kernels.kernels.size());
}

int KernelModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant KernelModel::dataFor(const QModelIndex& index, int role) const
{
    const Kernel* k = index.isValid() ? kernel(index.row()) : nullptr;
    if (!k)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return k->kind == KernelKind::Extern && k->calls > 1
                ? qs(k->name) + tr(" ×%1").arg(k->calls)
                : qs(k->name);
        case KindColumn:
            return kindText(k->kind);
        case GraphColumn:
            return qs(k->graph);
        case OpsColumn: {
            QStringList ops;
            for (const std::string& op : k->fusedOps)
                ops << qs(op);
            return ops.join(QStringLiteral(", "));
        }
        case TimeColumn:
            return k->compileTimeUs ? formatDuration(static_cast<double>(*k->compileTimeUs))
                                    : QStringLiteral("–");
        case AutotuneColumn:
            return autotuneText(*k);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        QString tip = qs(k->name) + QStringLiteral(" (") + kindText(k->kind) + QLatin1Char(')');
        if (index.column() == OpsColumn && k->opsFromName)
            tip += tr("\nThe output code names no ATen ops for it: these are from its name.");
        if (k->codeRecord != kNone)
            tip += tr("\nDouble-click or Enter: its code, line %1 of the output code")
                       .arg(k->codeLine);
        if (!k->hasInfo && isTriton(k->kind))
            tip += m_kernels.fxGraphCacheHit
                ? tr("\nLoaded from the FX graph cache: not compiled nor tuned in this run.")
                : tr("\nNo triton_kernel_info names it.");
        return tip;
    }
    if (role == Qt::TextAlignmentRole && index.column() == TimeColumn)
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole && index.column() == TimeColumn)
        return static_cast<qlonglong>(k->compileTimeUs.value_or(-1));
    return {};
}

QVariant KernelModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Kernel");
    case KindColumn:
        return tr("Kind");
    case GraphColumn:
        return tr("Graph");
    case OpsColumn:
        return tr("Fused ops");
    case TimeColumn:
        return tr("Compile time");
    case AutotuneColumn:
        return tr("Autotune");
    }
    return {};
}

} // namespace dynascope::ui
