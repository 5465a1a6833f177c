// ChangesModel: what changed between the open trace (A) and a compared one (B)
// (core/analysis/trace_diff.h), one row per change, most impact first: the frame, its status,
// the change's kind, A's and B's side, and the sentence. Rows of run-level changes come first
// and have no frame.
#pragma once

#include "core/analysis/trace_diff.h"

#include <QAbstractTableModel>

namespace dynascope::ui {

class ChangesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        FrameColumn,
        StatusColumn,
        KindColumn,
        AColumn,
        BColumn,
        TextColumn,
        ColumnCount
    };

    struct Row {
        const FrameDiff* frame = nullptr; // null: a change of the runs
        const DiffChange* change = nullptr;
    };

    explicit ChangesModel(QObject* parent = nullptr);

    // The model keeps a copy of the diff; rows point into it.
    void setDiff(TraceDiff diff);
    const TraceDiff& diff() const { return m_diff; }
    const Row& row(int r) const { return m_rows[static_cast<size_t>(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant dataFor(const QModelIndex& index, int role) const;
    TraceDiff m_diff;
    std::vector<Row> m_rows;
};

} // namespace dynascope::ui
