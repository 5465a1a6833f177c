// MetricsModel: a compile's compilation_metrics as readable key / value rows. Values that are
// JSON documents inside a string (dynamo_config, inductor_config: several KB each) and lists
// (restart_reasons) become expandable rows instead of one unreadable line; null fields are
// gathered under one row at the end so the ~95 fields of 2025+ logs stay scannable. Numbers whose
// field name gives a unit read as times, dates or sizes; the logged number is in the tooltip.
#pragma once

#include "ui/models/flattreemodel.h"

#include <QString>

#include <vector>

class QJsonValue;

namespace dynascope::ui {

class MetricsModel : public FlatTreeModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, ColumnCount };

    explicit MetricsModel(QObject* parent = nullptr);

    // The compilation_metrics object as logged; empty or unparsable text gives one message row.
    // `absent` is what the "(none)" row says when json is empty (default: the compile did not
    // finish or the log is cut).
    void setMetricsJson(const QByteArray& json, const QString& absent = {});
    // The value shown for a top-level key, empty when absent (for tests and the summary).
    QString valueOf(const QString& key) const;
    // A number as its field name says it should read ("0.009149" for "..._time_s" -> "9.15 ms",
    // an epoch "..._us" -> a date, "..._bytes" -> "1.5 MB"); empty when the name says nothing.
    // Dates in the traced process's local time: tzOffsetMinutes as TraceFile has it.
    static QString readableNumber(const QString& key, double value, int tzOffsetMinutes = 0);
    void setTzOffsetMinutes(int minutes) { m_tz = minutes; }

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // data() before plainToolTip() (ui/plaintooltip.h) makes trace text in tooltips literal.
    QVariant dataFor(const QModelIndex& index, int role) const;
    int add(int parent, const QString& key, const QJsonValue& value);
    std::vector<QString> m_keys, m_values;
    int m_tz = 0;
    std::vector<QString> m_raw; // per node: the number as logged when the value is reformatted
};

} // namespace dynascope::ui
