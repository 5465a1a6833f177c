// GuardTreeModel: one compile's guard tree (Compile::guards) as Kind / Expression / Where rows,
// managers as parents of their guards. One node can be marked as the guard that failed (the
// reason a later compile recompiled): it reads "✕ KIND", bold, on a tinted row.
#pragma once

#include "core/model/trace.h"
#include "ui/models/flattreemodel.h"

#include <memory>

namespace dynascope::ui {

class GuardTreeModel : public FlatTreeModel {
    Q_OBJECT
public:
    enum Column { KindColumn, ExpressionColumn, WhereColumn, ColumnCount };

    explicit GuardTreeModel(QObject* parent = nullptr);

    // The guards of `compile` (kNone or a compile without guards: empty).
    void setCompile(std::shared_ptr<const Trace> trace, uint32_t compile);
    uint32_t compile() const { return m_compile; }
    const GuardTree* tree() const { return m_tree; }
    void setHighlightedNode(int node);
    int highlightedNode() const { return m_highlighted; }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    const GuardTree* m_tree = nullptr;
    int m_highlighted = -1;
};

} // namespace dynascope::ui
