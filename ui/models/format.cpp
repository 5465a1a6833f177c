#include "ui/models/format.h"

#include "core/analysis/why_chain.h"
#include "core/load/finish/graph_break_text.h"
#include "core/model/trace.h"
#include "core/util/text_format.h"
#include "core/util/trim.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTimeZone>

#include <cmath>

namespace dynascope::ui {

QString formatDuration(double us)
{
    return qs(text::compactDuration(us));
}

QString formatLongDuration(double us)
{
    const double hours = us / 3600e6;
    if (hours >= 48 && std::isfinite(hours)) {
        const auto h = static_cast<int64_t>(hours);
        return QStringLiteral("%1 d %2 h").arg(h / 24).arg(h % 24);
    }
    return formatDuration(us);
}

QString formatOffset(double us, double stepUs)
{
    const QString sign = us < 0 ? QStringLiteral("-") : QStringLiteral("+");
    const double a = std::fabs(us);
    auto decimals = [](double step) {
        // Enough decimals to tell ticks `step` apart.
        int d = 0;
        while (d < 3 && std::fabs(step - std::round(step)) > 1e-9) {
            step *= 10;
            ++d;
        }
        return d;
    };
    if (stepUs < 1000)
        return sign + QString::number(a, 'f', decimals(stepUs)) + QStringLiteral(" µs");
    if (stepUs < 1e6)
        return sign + QString::number(a / 1e3, 'f', decimals(stepUs / 1e3)) + QStringLiteral(" ms");
    return sign + QString::number(a / 1e6, 'f', decimals(stepUs / 1e6)) + QStringLiteral(" s");
}

static QDateTime toDateTime(double epochUs, int tzOffsetMinutes)
{
    const auto ms = static_cast<qint64>(std::floor(epochUs / 1000.0));
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone(tzOffsetMinutes * 60));
}

QString formatWallClock(double epochUs, int tzOffsetMinutes, bool withMillis)
{
    if (epochUs <= 0)
        return {};
    return toDateTime(epochUs, tzOffsetMinutes)
        .toString(withMillis ? QStringLiteral("HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss"));
}

QStringList axisLabels(const std::vector<double>& ticks, double stepUs, int tzOffsetMinutes)
{
    QStringList out;
    if (ticks.empty())
        return out;
    // One format for every label of the axis: whole seconds for steps of a second or more,
    // milliseconds for steps of a millisecond or more; below that the first tick's wall-clock
    // time and then offsets from it. A date where the day changes (and on the first tick when
    // the view spans more than one day), so an axis across midnight never reads backwards.
    const QDate firstDay = toDateTime(ticks.front(), tzOffsetMinutes).date();
    const QDate lastDay = toDateTime(ticks.back(), tzOffsetMinutes).date();
    const bool days = firstDay != lastDay;
    const QString timeFormat
        = stepUs >= 1e6 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm:ss.zzz");
    QDate previous;
    for (size_t i = 0; i < ticks.size(); ++i) {
        const QDateTime dt = toDateTime(ticks[i], tzOffsetMinutes);
        if (stepUs < 1000 && i > 0) {
            out << formatOffset(ticks[i] - ticks.front(), stepUs);
            continue;
        }
        QString label = dt.toString(timeFormat);
        if (days && (i == 0 || dt.date() != previous))
            label = dt.toString(QStringLiteral("yyyy-MM-dd ")) + label;
        previous = dt.date();
        out << label;
    }
    return out;
}

QString formatDateTime(double epochUs, int tzOffsetMinutes)
{
    if (epochUs <= 0)
        return {};
    QString s
        = toDateTime(epochUs, tzOffsetMinutes).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    const int h = std::abs(tzOffsetMinutes) / 60, m = std::abs(tzOffsetMinutes) % 60;
    s += QStringLiteral(" UTC%1%2:%3")
             .arg(tzOffsetMinutes < 0 ? QLatin1Char('-') : QLatin1Char('+'))
             .arg(h, 2, 10, QLatin1Char('0'))
             .arg(m, 2, 10, QLatin1Char('0'));
    return s;
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString baseName(std::string_view path)
{
    if (path.empty())
        return {};
    // Paths in traces may be Windows paths; take the part after the last separator of either kind.
    const auto slash = path.find_last_of("/\\");
    return qs(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

QString filePlace(const QString& path, int64_t line)
{
    return line > 0 ? path + QLatin1Char(':') + QString::number(line) : path;
}

QString fileLine(std::string_view path, int64_t line)
{
    if (path.empty())
        return {};
    QString s = baseName(path);
    if (line > 0)
        s += QLatin1Char(':') + QString::number(line);
    return s;
}

QString compileFunction(const Compile& c)
{
    if (!c.coName.empty())
        return qs(c.coName);
    if (!c.stack.empty())
        return qs(c.stack.back().name);
    return {};
}

QString compileFile(const Compile& c)
{
    if (!c.coFilename.empty())
        return qs(c.coFilename);
    if (!c.stack.empty())
        return qs(c.stack.back().file);
    return {};
}

int64_t compileLine(const Compile& c)
{
    if (!c.coFilename.empty())
        return c.coFirstLineno;
    if (!c.stack.empty())
        return c.stack.back().line;
    return 0;
}

QString rankLabel(const TraceFile& f)
{
    if (!f.label.empty())
        return qs(f.label);
    if (f.rank)
        return QStringLiteral("rank %1").arg(*f.rank);
    return baseName(f.path);
}

QString plural(uint64_t n, const QString& one, const QString& many)
{
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

QString firstLine(const std::string& text)
{
    const auto nl = text.find('\n');
    return qs(nl == std::string::npos ? text : text.substr(0, nl)).trimmed();
}

namespace {
QString elided(QString s, qsizetype max)
{
    s = s.simplified();
    return s.size() > max ? s.left(max - 1) + QStringLiteral("…") : s;
}

// "x" from "L['x']", "tensor 'x'"; else the source as logged.
QString shortSource(const std::string& source)
{
    QString s = qs(source);
    if (s.startsWith(QLatin1String("L['")) && s.endsWith(QLatin1String("']")) && s.size() > 5)
        return s.mid(3, s.size() - 5);
    return s;
}
} // namespace

QString shortRecompileReason(const RecompileReason& r)
{
    const QString src = shortSource(r.source);
    const QString detail = qs(r.detail.empty() ? r.text : r.detail);
    const bool values = !r.expected.empty() || !r.actual.empty();
    // "requires_grad=0" -> "0": the kind is said before the values.
    auto value = [&](const std::string& v) {
        const QString s = qs(v), prefix = qs(r.mismatch) + QLatin1Char('=');
        return s.startsWith(prefix) ? s.mid(prefix.size()) : s;
    };
    // A value guard's reason names only the value the earlier compile was made for: "≠2".
    QString change;
    if (values && r.actual.empty())
        change = QStringLiteral("≠") + value(r.expected);
    else if (values)
        change = (r.expected.empty() ? QString() : value(r.expected)) + QStringLiteral("→")
            + value(r.actual);
    if ((r.mismatch == "size" || r.mismatch == "stride") && !src.isEmpty()) {
        // "tensor 'x' size mismatch at index 0. expected 4, actual 5" -> "x.size(0) 4→5"
        QString index;
        const qsizetype at = detail.indexOf(QLatin1String("at index "));
        if (at >= 0) {
            qsizetype e = at + 9;
            while (e < detail.size() && detail[e].isDigit())
                ++e;
            index = detail.mid(at + 9, e - at - 9);
        }
        return src + QLatin1Char('.') + qs(r.mismatch)
            + (index.isEmpty() ? QString() : QLatin1Char('(') + index + QLatin1Char(')'))
            + (values ? QLatin1Char(' ') + change : QString());
    }
    if (!r.mismatch.empty() && !src.isEmpty())
        return src + QLatin1Char(' ') + qs(r.mismatch)
            + (values ? QLatin1Char(' ') + change : QString());
    if (r.mismatch == "id") {
        // "___check_obj_id(fn, 140439264606080)" -> "id(fn) changed"
        const qsizetype open = detail.indexOf(QLatin1Char('('));
        const qsizetype comma = detail.indexOf(QLatin1Char(','), open);
        if (open >= 0 && comma > open)
            return QStringLiteral("id(%1) changed")
                .arg(detail.mid(open + 1, comma - open - 1).trimmed());
    }
    if (values && !r.mismatch.empty())
        return qs(r.mismatch) + QLatin1Char(' ') + change;
    return elided(firstLine(detail.toStdString()), 48);
}

QString shortReason(const Compile& c)
{
    if (!c.recompileReasons.empty()) {
        QString s = shortRecompileReason(*primaryReason(c));
        if (c.recompileReasons.size() > 1)
            s += QStringLiteral("  (+%1)").arg(c.recompileReasons.size() - 1);
        return s;
    }
    if (!c.recompileReasonMetric.empty())
        return elided(firstLine(c.recompileReasonMetric), 48);
    if (c.failure)
        return qs(c.failure->type.empty() ? std::string("failed") : c.failure->type);
    if (!c.graphBreaks.empty()) {
        const std::string_view lead = text::firstLine(c.graphBreaks.front().reason);
        return elided(qs(withoutReasonLead(trimBlanks(lead))), 48);
    }
    return {};
}

} // namespace dynascope::ui
