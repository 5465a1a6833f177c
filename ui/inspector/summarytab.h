// SummaryTab: the selected compile at a glance: id, status, function and where, times per phase,
// guard count, graph size, cache size and cache hits/misses; and all of its compilation_metrics
// as a filterable key / value tree whose config blobs expand. Plain-text labels only.
#pragma once

#include "core/model/phase_groups.h"
#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QFormLayout;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace dynascope::ui {

class MetricsModel;

class SummaryTab : public QWidget {
    Q_OBJECT
public:
    explicit SummaryTab(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);

    // "label: value" lines of the facts column, for tests and copy.
    QString factsText() const;
    MetricsModel* metricsModel() const { return m_metrics; }
    QTreeView* metricsView() const { return m_metricsView; }

    // Time by phase group (µs, exclusive, as the report counts it), longest first; groups under
    // a microsecond are left out.
    static std::vector<std::pair<PhaseGroup, double>> phaseTotals(const Compile& c);

Q_SIGNALS:
    void sourceRequested(const QString& file, qint64 line);

private:
    void addRow(
        const QString& label, const QString& value, bool mono = false, const QString& tip = {});

    std::shared_ptr<const Trace> m_trace;
    QWidget* m_facts;
    QFormLayout* m_form;
    MetricsModel* m_metrics;
    QSortFilterProxyModel* m_metricsProxy;
    QTreeView* m_metricsView;
    QLineEdit* m_metricsFilter;
};

} // namespace dynascope::ui
