#include "ui/models/metricsmodel.h"

#include "ui/models/format.h"
#include "ui/plaintooltip.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dynascope::ui {

namespace {
QString scalarText(const QJsonValue& v)
{
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == static_cast<double>(static_cast<qint64>(d))
            ? QString::number(static_cast<qint64>(d))
            : QString::number(d, 'g', 16);
    }
    if (v.isNull())
        return QStringLiteral("null");
    return v.toString();
}

QString byteSize(double b)
{
    const char* units[] = { "B", "KB", "MB", "GB", "TB" };
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    return (u == 0 ? QString::number(b, 'f', 0) : QString::number(b, 'f', b < 10 ? 2 : 1))
        + QLatin1Char(' ') + QLatin1String(units[u]);
}
} // namespace

QString MetricsModel::readableNumber(const QString& key, double v, int tz)
{
    // By the unit PyTorch's field names carry: times in the unit that reads best, epoch times
    // as dates, sizes in bytes as KB/MB; everything else as logged.
    const QString k = key.toLower();
    if (k.endsWith(QLatin1String("_us")) || k.endsWith(QLatin1String("_time_us"))) {
        if (v > 1e14) // microseconds since the epoch: after 1973
            return formatDateTime(v, tz);
        return formatDuration(v);
    }
    if (k.endsWith(QLatin1String("_ns")))
        return v > 1e17 ? formatDateTime(v / 1000, tz) : formatDuration(v / 1000);
    if (k.endsWith(QLatin1String("_ms")))
        return formatDuration(v * 1000);
    if (k.endsWith(QLatin1String("_s")) || k.endsWith(QLatin1String("_seconds")))
        return v > 1e8 ? formatDateTime(v * 1e6, tz) : formatDuration(v * 1e6);
    if (k.endsWith(QLatin1String("_bytes")) || k.endsWith(QLatin1String("_size_bytes")))
        return byteSize(v);
    return {};
}

MetricsModel::MetricsModel(QObject* parent)
    : FlatTreeModel(parent)
{
}

int MetricsModel::add(int parent, const QString& key, const QJsonValue& value)
{
    const int n = addNode(parent);
    m_keys.push_back(key);
    m_values.emplace_back();
    QString text;
    if (value.isString()) {
        const QString s = value.toString();
        const QString trimmed = s.trimmed();
        QJsonDocument inner;
        if (trimmed.startsWith(QLatin1Char('{')) || trimmed.startsWith(QLatin1Char('[')))
            inner = QJsonDocument::fromJson(trimmed.toUtf8());
        if (inner.isObject()) {
            const QJsonObject o = inner.object();
            for (auto it = o.begin(); it != o.end(); ++it)
                add(n, it.key(), it.value());
            text = plural(static_cast<uint64_t>(o.size()), tr("setting"), tr("settings"));
        } else if (inner.isArray()) {
            const QJsonArray a = inner.array();
            for (qsizetype i = 0; i < a.size(); ++i)
                add(n, QString::number(i), a.at(i));
            text = plural(static_cast<uint64_t>(a.size()), tr("item"), tr("items"));
        } else {
            text = s;
        }
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            add(n, it.key(), it.value());
        text = plural(static_cast<uint64_t>(o.size()), tr("field"), tr("fields"));
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        bool simple = true;
        for (const QJsonValue& e : a)
            simple = simple && !e.isObject() && !e.isArray()
                && !(e.isString() && e.toString().size() > 40);
        if (simple) {
            QStringList parts;
            for (const QJsonValue& e : a)
                parts << scalarText(e);
            text = QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
        } else {
            for (qsizetype i = 0; i < a.size(); ++i)
                add(n, QString::number(i), a.at(i));
            text = plural(static_cast<uint64_t>(a.size()), tr("item"), tr("items"));
        }
    } else {
        text = scalarText(value);
        if (value.isDouble()) {
            const QString readable = readableNumber(key, value.toDouble(), m_tz);
            if (!readable.isEmpty()) {
                m_raw.resize(m_values.size());
                m_raw[static_cast<size_t>(n)] = text; // the number as logged, in the tooltip
                text = readable;
            }
        }
    }
    m_values[static_cast<size_t>(n)] = text;
    return n;
}

void MetricsModel::setMetricsJson(const QByteArray& json, const QString& absent)
{
    beginResetModel();
    clearNodes();
    m_keys.clear();
    m_values.clear();
    m_raw.clear();
    QJsonObject obj;
    if (!json.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(json);
        if (doc.isObject())
            obj = doc.object();
    }
    if (obj.isEmpty()) {
        add(-1, tr("(none)"),
            json.isEmpty() ? QJsonValue(absent.isEmpty()
                    ? tr("no compilation_metrics: the compile did not finish or the log is cut")
                    : absent)
                           : QJsonValue(QString::fromUtf8(json)));
    } else {
        QStringList nulls;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            if (it.value().isNull() || it.value().isUndefined())
                nulls << it.key();
            else
                add(-1, it.key(), it.value());
        }
        if (!nulls.isEmpty()) {
            const int n = add(-1, tr("(null fields)"), QJsonValue(QString()));
            for (const QString& k : nulls)
                add(n, k, QJsonValue(QStringLiteral("null")));
            m_values[static_cast<size_t>(n)]
                = plural(static_cast<uint64_t>(nulls.size()), tr("field"), tr("fields"))
                + tr(" not logged");
        }
    }
    endResetModel();
}

QString MetricsModel::valueOf(const QString& key) const
{
    for (int n : childNodes(-1)) {
        if (m_keys[static_cast<size_t>(n)] == key)
            return m_values[static_cast<size_t>(n)];
    }
    return {};
}

int MetricsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() && parent.column() != 0 ? 0 : ColumnCount;
}

QVariant MetricsModel::data(const QModelIndex& index, int role) const
{
    if (role == Qt::ToolTipRole)
        return plainToolTip(dataFor(index, role));
    return dataFor(index, role);
}

QVariant MetricsModel::dataFor(const QModelIndex& index, int role) const
{
    const int n = nodeOf(index);
    if (n < 0 || n >= nodeCount())
        return {};
    const QString& text = index.column() == KeyColumn ? m_keys[static_cast<size_t>(n)]
                                                      : m_values[static_cast<size_t>(n)];
    if (role == Qt::DisplayRole) {
        // Multi-line values (fail_reason) show their first line; the tooltip has all of it.
        const qsizetype nl = text.indexOf(QLatin1Char('\n'));
        return nl < 0 ? text : text.left(nl) + QStringLiteral(" …");
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == ValueColumn && static_cast<size_t>(n) < m_raw.size()
            && !m_raw[static_cast<size_t>(n)].isEmpty())
            return tr("%1 (as logged: %2)").arg(text, m_raw[static_cast<size_t>(n)]);
        return text.size() > 4000 ? text.left(4000) + QStringLiteral(" …") : text;
    }
    return {};
}

QVariant MetricsModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Metric") : tr("Value");
}

} // namespace dynascope::ui
