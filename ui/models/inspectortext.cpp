#include "ui/models/inspectortext.h"

#include "ui/models/format.h"
#include "ui/models/statusstyle.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace dynascope::ui {

namespace {
// "label      value" with the labels in one column.
void field(QString& out, const QString& label, const QString& value)
{
    if (value.isEmpty())
        return;
    out += QStringLiteral("  ") + label.leftJustified(11) + value + QLatin1Char('\n');
}

void heading(QString& out, const QString& title)
{
    out += QLatin1Char('\n') + title + QLatin1Char('\n');
}

// Indents every line of a multi-line text.
QString indented(const QString& text, int spaces)
{
    const QString pad(spaces, QLatin1Char(' '));
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& l : lines)
        l = pad + l;
    return lines.join(QLatin1Char('\n'));
}

QString idOf(const Trace& t, uint32_t compile)
{
    return compile < t.compiles.size() ? qs(t.compiles[compile].id.display()) : QString();
}

QString timeSourceText(TimeSource s)
{
    switch (s) {
    case TimeSource::None:
        return QStringLiteral("none (no time in the log)");
    case TimeSource::Glog:
        return QStringLiteral("glog prefixes (millisecond resolution)");
    case TimeSource::Metrics:
        return QStringLiteral("compilation_metrics");
    case TimeSource::Chromium:
        return QStringLiteral("chromium events");
    }
    return {};
}
// compilation_metrics as "key  value" lines, nulls left out; values that are JSON documents
// in a string (dynamo_config, inductor_config) are expanded at the end.
QString metricsText(const std::string& json)
{
    const QByteArray raw = QByteArray::fromStdString(json);
    const QJsonDocument doc = QJsonDocument::fromJson(raw);
    if (!doc.isObject())
        return QString::fromUtf8(raw) + QLatin1Char('\n');
    const QJsonObject obj = doc.object();
    int width = 0;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        width = std::max(width, static_cast<int>(it.key().size()));
    width = std::min(width, 28);
    QString out, nested;
    int nulls = 0;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QJsonValue v = it.value();
        if (v.isNull() || v.isUndefined()) {
            ++nulls;
            continue;
        }
        QString value;
        if (v.isString()) {
            const QString str = v.toString();
            const QJsonDocument inner = str.startsWith(QLatin1Char('{'))
                ? QJsonDocument::fromJson(str.toUtf8())
                : QJsonDocument();
            if (inner.isObject()) {
                nested += QLatin1Char('\n') + it.key() + QStringLiteral(":\n")
                    + indented(
                        QString::fromUtf8(inner.toJson(QJsonDocument::Indented)).trimmed(), 2)
                    + QLatin1Char('\n');
                value = QStringLiteral("(%1 settings, below)").arg(inner.object().size());
            } else {
                value = str.contains(QLatin1Char('\n'))
                    ? QLatin1Char('\n') + indented(str.trimmed(), 6)
                    : str;
            }
        } else if (v.isArray()) {
            value = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        } else if (v.isObject()) {
            value = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        } else if (v.isBool()) {
            value = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        } else {
            const double d = v.toDouble();
            value = d == static_cast<double>(static_cast<qint64>(d))
                ? QString::number(static_cast<qint64>(d))
                : QString::number(d, 'g', 16);
        }
        out += QStringLiteral("  ") + it.key().leftJustified(width) + QStringLiteral("  ") + value
            + QLatin1Char('\n');
    }
    if (nulls)
        out += QStringLiteral("  (%1 more fields are null)\n").arg(nulls);
    return out + nested;
}
} // namespace

QString matchedGuardText(const Trace& trace, const RecompileReason& r)
{
    if (r.earlierCompile >= trace.compiles.size() || r.guardNode < 0)
        return {};
    const auto& guards = trace.compiles[r.earlierCompile].guards;
    if (!guards || static_cast<size_t>(r.guardNode) >= guards->nodes.size())
        return {};
    const GuardNode& g = guards->nodes[static_cast<size_t>(r.guardNode)];
    QString s = qs(g.kind);
    if (!g.expr.empty())
        s += QStringLiteral(": ") + qs(g.expr);
    return s;
}

QString inspectorText(const Trace& t, uint32_t ci)
{
    if (ci >= t.compiles.size())
        return {};
    const Compile& c = t.compiles[ci];
    const int tz = c.file < t.files.size() ? t.files[c.file].tzOffsetMinutes : 0;
    const auto st = statusStyle(c.status);

    QString out;
    out += qs(c.id.display()) + QStringLiteral("  ") + st.label();
    if (c.isRecompile())
        out += QStringLiteral("  ↻ recompile");
    out += QLatin1Char('\n');

    field(out, QStringLiteral("function"), compileFunction(c));
    const QString file = compileFile(c);
    if (!file.isEmpty())
        field(
            out, QStringLiteral("file"), file + QLatin1Char(':') + QString::number(compileLine(c)));
    if (c.file < t.files.size()) {
        const TraceFile& f = t.files[c.file];
        if (f.rank)
            field(out, QStringLiteral("rank"), QString::number(*f.rank));
        field(out, QStringLiteral("trace"), qs(f.path));
    }
    if (c.timeSource != TimeSource::None) {
        field(out, QStringLiteral("started"), formatDateTime(c.startUs, tz));
        field(out, QStringLiteral("duration"), formatDuration(c.durationUs()));
    }
    field(out, QStringLiteral("time from"), timeSourceText(c.timeSource));
    if (c.guardCount)
        field(out, QStringLiteral("guards"), QString::number(*c.guardCount));
    if (c.graphOpCount)
        field(out, QStringLiteral("graph ops"), QString::number(*c.graphOpCount));
    if (c.attempts.size() > 1)
        field(out, QStringLiteral("attempts"), QString::number(c.attempts.size()));

    if (!c.recompileReasons.empty() || !c.recompileReasonMetric.empty()) {
        heading(out,
            QStringLiteral("↻ Recompiled because (%1):")
                .arg(std::max<size_t>(c.recompileReasons.size(), 1)));
        for (const RecompileReason& r : c.recompileReasons) {
            QString earlier = r.earlierCompile != kNone
                ? idOf(t, r.earlierCompile)
                : (r.earlierKey.empty() ? QString()
                                        : QLatin1Char('[') + qs(r.earlierKey) + QLatin1Char(']'));
            const QString detail = qs(r.detail.empty() ? r.text : r.detail);
            if (!earlier.isEmpty())
                out += QStringLiteral("  vs ") + earlier + QStringLiteral(": ") + detail.trimmed()
                    + QLatin1Char('\n');
            else
                out += QStringLiteral("  ") + detail.trimmed() + QLatin1Char('\n');
            const QString guard = matchedGuardText(t, r);
            if (!guard.isEmpty())
                out += QStringLiteral("      └ failed guard in ") + earlier + QStringLiteral(": ")
                    + guard + QLatin1Char('\n');
            else if (!r.source.empty())
                out += QStringLiteral("      └ guarded source ") + qs(r.source) + QLatin1Char('\n');
            if ((!r.expected.empty() || !r.actual.empty())
                && r.detail.find("expected") == std::string::npos)
                out += QStringLiteral("        expected %1, actual %2\n")
                           .arg(qs(r.expected), qs(r.actual));
        }
        if (c.recompileReasons.empty())
            out += QStringLiteral("  ") + qs(c.recompileReasonMetric).trimmed() + QLatin1Char('\n');
    }

    if (!c.graphBreaks.empty()) {
        heading(out, QStringLiteral("⚡ Graph breaks (%1):").arg(c.graphBreaks.size()));
        int i = 0;
        for (const GraphBreak& g : c.graphBreaks) {
            out += QStringLiteral("  %1. ").arg(++i) + qs(g.reason).trimmed() + QLatin1Char('\n');
            if (!g.file.empty())
                out += QStringLiteral("     at ") + qs(g.file) + QLatin1Char(':')
                    + QString::number(g.line) + QLatin1Char('\n');
            if (g.resumeCompile != kNone)
                out += QStringLiteral("     resumes in ") + idOf(t, g.resumeCompile)
                    + QLatin1Char('\n');
        }
    }

    if (c.failure) {
        const Failure& f = *c.failure;
        heading(out, QStringLiteral("✕ Failure: ") + qs(f.type));
        if (!f.reason.empty())
            out += indented(qs(f.reason).trimmed(), 2) + QLatin1Char('\n');
        if (!f.file.empty())
            out += QStringLiteral("  at ") + qs(f.file) + QLatin1Char(':') + QString::number(f.line)
                + QLatin1Char('\n');
    }

    if (!c.restartReasons.empty() && c.graphBreaks.empty()) {
        heading(out, QStringLiteral("Restart reasons:"));
        for (const auto& r : c.restartReasons)
            out += QStringLiteral("  • ") + qs(r) + QLatin1Char('\n');
    }

    heading(out, QStringLiteral("Metrics:"));
    if (c.metricsJson.empty())
        out += QStringLiteral(
            "  (no compilation_metrics: the compile did not finish or the log is cut)\n");
    else
        out += metricsText(c.metricsJson);
    return out;
}

} // namespace dynascope::ui
