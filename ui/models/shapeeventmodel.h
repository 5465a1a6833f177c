// ShapeEventModel: a compile's shape reasoning (Compile::shapeEvents: guard_added_fast,
// symbolic_shape_specialization, create_symbol, ...) as a table, each row with the user line
// that caused it, so "why is this dimension dynamic / specialised" has an answer.
#pragma once

#include "core/model/trace.h"

#include <QAbstractTableModel>

#include <memory>

namespace dynascope::ui {

class ShapeEventModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        ExpressionColumn,
        ValueColumn,
        ReasonColumn,
        UserCodeColumn,
        CodeColumn,
        ColumnCount
    };

    explicit ShapeEventModel(QObject* parent = nullptr);

    void setCompile(std::shared_ptr<const Trace> trace, uint32_t compile);
    // The user frame of a row (the innermost frame of its user stack, else of its stack); null
    // when the event carries none.
    const StackFrame* userFrame(int row) const;
    const ShapeEvent* event(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::shared_ptr<const Trace> m_trace;
    const std::vector<ShapeEvent>* m_events = nullptr;
};

} // namespace dynascope::ui
