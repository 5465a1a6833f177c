// ProbeTableModel: the probe report's evidence table (core/report/probe_report.h) as an item model,
// one row per configuration: configuration, first call, steady state per call, recompiles, graph
// breaks, peak MiB, outcome. The outcome has a glyph and an Okabe-Ito colour (never colour alone);
// its tooltip holds the failure, the mismatch or the exception, as plain text.
#pragma once

#include "core/report/probe_report.h"

#include <QAbstractTableModel>

namespace dynascope::ui {

class ProbeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Configuration,
        FirstCall,
        Steady,
        Recompiles,
        GraphBreaks,
        PeakMib,
        Outcome,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;
    void setReport(const ProbeReport& report);
    const ProbeReport& report() const { return m_report; }
    // The row whose trace the window shows (bold), -1 for none.
    void setOpenRow(int row);
    int openRow() const { return m_open; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    ProbeReport m_report;
    int m_open = -1;
};

// "✓ ok", "≠ wrong result", "✕ failed at [0/0]", "– not run".
QString outcomeLabel(const EvidenceRow& row);

} // namespace dynascope::ui
