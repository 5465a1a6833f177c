#include "ui/timeline/timelinegeometry.h"

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

double timeToX(const TimeRange& view, double widthPx, double t)
{
    const double span = view.span();
    return span > 0 ? (t - view.start) / span * widthPx : 0;
}

double xToTime(const TimeRange& view, double widthPx, double x)
{
    return widthPx > 0 ? view.start + x / widthPx * view.span() : view.start;
}

TimeRange clampTo(TimeRange v, const TimeRange& limits)
{
    const double maxSpan = limits.span();
    if (v.span() >= maxSpan)
        return limits;
    if (v.start < limits.start) {
        v.end += limits.start - v.start;
        v.start = limits.start;
    }
    if (v.end > limits.end) {
        v.start -= v.end - limits.end;
        v.end = limits.end;
    }
    return v;
}

TimeRange zoomAt(
    const TimeRange& view, double anchor, double factor, const TimeRange& limits, double minSpan)
{
    const double span = view.span();
    double newSpan = std::clamp(span * factor, minSpan, std::max(minSpan, limits.span()));
    // The anchor keeps its fraction of the width.
    const double frac = span > 0 ? (anchor - view.start) / span : 0.5;
    TimeRange r { anchor - frac * newSpan, anchor - frac * newSpan + newSpan };
    return clampTo(r, limits);
}

TimeRange panBy(const TimeRange& view, double delta, const TimeRange& limits)
{
    return clampTo({ view.start + delta, view.end + delta }, limits);
}

double tickStep(double spanUs, double widthPx, double minLabelPx)
{
    if (spanUs <= 0 || widthPx <= 0)
        return 1;
    const double maxTicks = std::max(1.0, widthPx / std::max(1.0, minLabelPx));
    const double raw = spanUs / maxTicks;
    // Trace times are whole microseconds, and at epoch scale (1.7e15 µs) a double cannot tell
    // apart times closer than 0.25 µs: no step below 1 µs.
    if (raw <= 1)
        return 1;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 5.0, 10.0 }) {
        if (m * mag >= raw)
            return m * mag;
    }
    return 10 * mag;
}

std::vector<double> tickPositions(const TimeRange& view, double step)
{
    std::vector<double> out;
    if (!(step > 0) || !(view.span() > 0) || view.span() / step > 10000)
        return out;
    // From an integer index, not by adding step to a running time: at epoch scale `t += step`
    // may not change t at all (issue 17: the loop never ended).
    const double first = std::ceil(view.start / step);
    const double last = std::floor(view.end / step);
    const auto n = static_cast<int64_t>(last - first) + 1;
    if (n <= 0 || n > 10001)
        return out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
        const double t = (first + static_cast<double>(k)) * step;
        if (t >= view.start && t <= view.end && (out.empty() || t > out.back()))
            out.push_back(t);
    }
    return out;
}

std::vector<double> runningMax(const std::vector<double>& ends)
{
    std::vector<double> out(ends.size());
    double m = -INFINITY;
    for (size_t i = 0; i < ends.size(); ++i) {
        m = std::max(m, ends[i]);
        out[i] = m;
    }
    return out;
}

std::pair<size_t, size_t> visibleSpans(
    const std::vector<double>& starts, const std::vector<double>& maxEnds, double a, double b)
{
    const auto first = static_cast<size_t>(
        std::lower_bound(maxEnds.begin(), maxEnds.end(), a) - maxEnds.begin());
    const auto last
        = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), b) - starts.begin());
    return { first, std::max(first, last) };
}

std::vector<FoldedSpan> foldSpans(const std::vector<PixelSpan>& spans, double minWidth)
{
    std::vector<FoldedSpan> out;
    out.reserve(spans.size());
    bool pending = false;
    FoldedSpan group;
    auto flush = [&] {
        if (pending)
            out.push_back(group);
        pending = false;
    };
    for (const PixelSpan& s : spans) {
        if (s.x1 - s.x0 >= minWidth) {
            flush();
            out.push_back({ s.x0, s.x1, s.item, 1 });
            continue;
        }
        if (pending && s.x0 <= group.x1 + minWidth) {
            group.x1 = std::max(group.x1, s.x1);
            ++group.count;
            continue;
        }
        flush();
        group = { s.x0, s.x1, s.item, 1 };
        pending = true;
    }
    flush();
    // A block is at least one pixel wide, so a single thin span still shows.
    for (FoldedSpan& f : out)
        f.x1 = std::max(f.x1, f.x0 + 1);
    return out;
}

int hitTest(const std::vector<FoldedSpan>& spans, double x, double slop)
{
    // Last span starting at or before x + slop, then walk back over overlapping ones.
    auto it = std::upper_bound(spans.begin(), spans.end(), x + slop,
        [](double v, const FoldedSpan& s) { return v < s.x0; });
    int best = -1;
    double bestDistance = INFINITY;
    for (auto i = it; i != spans.begin();) {
        --i;
        const double d = x < i->x0 ? i->x0 - x : (x > i->x1 ? x - i->x1 : 0);
        if (d == 0)
            return static_cast<int>(i - spans.begin());
        if (d <= slop && d < bestDistance) {
            best = static_cast<int>(i - spans.begin());
            bestDistance = d;
        }
        if (it - i > 64) // spans are sorted by start; far-left ones cannot reach x
            break;
    }
    return best;
}

} // namespace dynascope::ui::timeline
