#include "ui/timeline/rangesummary.h"

#include "ui/models/format.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

RangeSummary summarizeRange(
    const Trace& trace, const TimeRange& range, const std::vector<double>& fileShifts)
{
    RangeSummary s;
    s.range = range;
    for (const Compile& c : trace.compiles) {
        if (c.timeSource == TimeSource::None || c.startUs <= 0 || c.endUs < c.startUs)
            continue;
        const double shift = c.file < fileShifts.size() ? fileShifts[c.file] : 0;
        const double start = c.startUs - shift, end = c.endUs - shift;
        if (end < range.start || start > range.end)
            continue;
        ++s.compiles;
        s.compileUs += std::max(0.0, std::min(end, range.end) - std::max(start, range.start));
        s.recompiles += c.isRecompile() ? 1 : 0;
        s.graphBreaks += c.graphBreakCount();
        s.failures += c.failure ? 1 : 0;
    }
    return s;
}

QStringList rangeSummaryLines(const RangeSummary& s, int tz, std::optional<double> origin)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("RangeSummary", text); };
    const QString sep = QStringLiteral(" · ");
    auto when = [&](double t) {
        return origin ? QStringLiteral("+") + formatDuration(std::max(0.0, t - *origin))
                      : formatWallClock(t, tz);
    };
    QStringList lines;
    lines << formatDuration(s.range.span()) + QStringLiteral("  (") + when(s.range.start)
            + QStringLiteral(" – ") + when(s.range.end) + QLatin1Char(')');
    lines << plural(s.compiles, tr("compile"), tr("compiles")) + sep
            + tr("%1 compiling").arg(formatDuration(s.compileUs));
    QString third = plural(s.recompiles, tr("recompile"), tr("recompiles")) + sep
        + plural(s.graphBreaks, tr("graph break"), tr("graph breaks"));
    if (s.failures)
        third += sep + plural(s.failures, tr("failure"), tr("failures"));
    lines << third;
    return lines;
}

namespace {
// One end of a range in epoch microseconds, or NaN.
double parseEnd(const QString& token, double start, int tz)
{
    static const QRegularExpression wall(
        QStringLiteral("^(\\d{1,2}):(\\d{2}):(\\d{2}(?:\\.\\d+)?)$"));
    static const QRegularExpression rel(
        QStringLiteral("^(\\d+(?:\\.\\d*)?|\\.\\d+)(s|ms|us|µs)?$"));
    if (const auto m = wall.match(token); m.hasMatch()) {
        const int h = m.captured(1).toInt(), mi = m.captured(2).toInt();
        const double sec = m.captured(3).toDouble();
        if (h > 23 || mi > 59 || sec >= 60)
            return NAN;
        constexpr double day = 86400e6;
        const double tzUs = tz * 60e6;
        // Midnight of the trace start's local day, as epoch microseconds.
        const double midnight = std::floor((start + tzUs) / day) * day - tzUs;
        double t = midnight + (h * 3600.0 + mi * 60.0 + sec) * 1e6;
        if (t < start - day / 2)
            t += day; // the trace ran past midnight
        return t;
    }
    if (const auto m = rel.match(token); m.hasMatch()) {
        const double v = m.captured(1).toDouble();
        const QString unit = m.captured(2);
        const double scale = unit == QLatin1String("ms")                    ? 1e3
            : (unit == QLatin1String("us") || unit == QStringLiteral("µs")) ? 1.0
                                                                            : 1e6;
        return start + v * scale;
    }
    return NAN;
}
} // namespace

std::optional<TimeRange> parseTimeRange(
    const QString& text, double traceStartUs, int tz, QString* error)
{
    auto fail = [&](const QString& why) -> std::optional<TimeRange> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    // Wall-clock ends contain ':' themselves, so try every separator position.
    const QString t = text.trimmed();
    QString a, b;
    if (const qsizetype dots = t.indexOf(QStringLiteral("..")); dots >= 0) {
        a = t.left(dots).trimmed();
        b = t.mid(dots + 2).trimmed();
    } else {
        const qsizetype colons = t.count(QLatin1Char(':'));
        qsizetype at = -1;
        if (colons == 1)
            at = t.indexOf(QLatin1Char(':'));
        else if (colons == 5) // HH:MM:SS.mmm:HH:MM:SS.mmm
            at = t.indexOf(
                QLatin1Char(':'), t.indexOf(QLatin1Char(':'), t.indexOf(QLatin1Char(':')) + 1) + 1);
        if (at < 0)
            return fail(QStringLiteral("--range wants START:END, in seconds from the trace start "
                                       "(e.g. 1.5:3) or wall-clock HH:MM:SS.mmm:HH:MM:SS.mmm; "
                                       "got \"%1\"")
                            .arg(text));
        a = t.left(at).trimmed();
        b = t.mid(at + 1).trimmed();
    }
    const double s = parseEnd(a, traceStartUs, tz), e = parseEnd(b, traceStartUs, tz);
    if (std::isnan(s) || std::isnan(e))
        return fail(QStringLiteral("--range: cannot read \"%1\" as a time (seconds from the trace "
                                   "start, e.g. 1.5 or 250ms, or wall-clock HH:MM:SS.mmm)")
                        .arg(std::isnan(s) ? a : b));
    if (!(e > s))
        return fail(
            QStringLiteral("--range: the end must come after the start (\"%1\")").arg(text));
    return TimeRange { s, e };
}

} // namespace dynascope::ui::timeline
