// DiagnosticsModel: the problems found while loading (bad lines, unmatched events, unreadable
// inputs) as a flat table: severity, location (file:line), message.
#pragma once

#include "core/model/diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace dynascope::ui {

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

    explicit DiagnosticsModel(QObject* parent = nullptr);

    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace dynascope::ui
