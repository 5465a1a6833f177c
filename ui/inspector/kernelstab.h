// KernelsTab: the kernels Inductor generated for the selected compile (ui/models/kernelmodel.h)
// in a table, under one line that sums them up (how many of each kind, the Triton compile time,
// the autotuning a cache miss caused). Activating a row (double-click, Enter) asks for the
// kernel's code: the output code record and the line where the kernel is defined.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeView;

namespace dynascope::ui {

class KernelModel;

class KernelsTab : public QWidget {
    Q_OBJECT
public:
    explicit KernelsTab(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);

    KernelModel* model() const { return m_model; }
    QTreeView* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }

Q_SIGNALS:
    // The output code record that holds the kernel and the 1-based line of its definition.
    void codeRequested(uint32_t record, uint32_t line);

private:
    void activate(int row);

    std::shared_ptr<const Trace> m_trace;
    KernelModel* m_model;
    QTreeView* m_table;
    QLabel* m_summary;
};

} // namespace dynascope::ui
