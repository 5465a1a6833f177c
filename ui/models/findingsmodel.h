// FindingsModel: the trace's findings (core/analysis/findings.h), most costly first, as a flat
// table: severity, finding (its title), cost (compile time), count, rule.
#pragma once

#include "core/analysis/findings.h"

#include <QAbstractTableModel>

#include <vector>

namespace dynascope::ui {

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeverityColumn, TitleColumn, CostColumn, CountColumn, RuleColumn, ColumnCount };

    explicit FindingsModel(QObject* parent = nullptr);

    void setFindings(std::vector<Finding> findings);
    const std::vector<Finding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant dataFor(const QModelIndex& index, int role) const;
    std::vector<Finding> m_findings;
};

// The tooltip text of a finding: its evidence, why, next step and code, as plain lines.
QString findingDetails(const Finding& f);

} // namespace dynascope::ui
