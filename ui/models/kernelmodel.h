// KernelModel: the kernels Inductor generated for one compile (core/analysis/kernels.h), one row
// each: name, kind, the graph (forward, backward, inference), the fused ATen ops, the Triton
// compile time and what the autotune cache said (state, configs benchmarked or the config run).
// Trace text, so plain text only (tooltips through plainToolTip).
#pragma once

#include "core/analysis/kernels.h"

#include <QAbstractTableModel>

#include <memory>

namespace dynascope::ui {

class KernelModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        KindColumn,
        GraphColumn,
        OpsColumn,
        TimeColumn,
        AutotuneColumn,
        ColumnCount
    };

    explicit KernelModel(QObject* parent = nullptr);

    void setCompile(std::shared_ptr<const Trace> trace, uint32_t compile);
    const CompileKernels& kernels() const { return m_kernels; }
    const Kernel* kernel(int row) const;
    // "only 1 config: XBLOCK=1, ...", "miss (2 configs)", "hit: XBLOCK=8", "–".
    static QString autotuneText(const Kernel& k);
    static QString kindText(KernelKind k); // "pointwise", "persistent reduction", ...

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::shared_ptr<const Trace> m_trace;
    CompileKernels m_kernels;
};

} // namespace dynascope::ui
