#include "ui/timeline/timelineviewport.h"

#include "ui/timeline/timelineconstants.h"

#include <algorithm>
#include <chrono>

namespace dynascope::ui::timeline {

TimelineViewport::TimelineViewport()
    : m_clock([] {
        return static_cast<int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
    })
{
}

void TimelineViewport::setContent(std::optional<TimeRange> bounds, const TimeFolding& folding)
{
    m_bounds = bounds.value_or(TimeRange {});
    m_folding = bounds ? folding : TimeFolding {};
    m_hasContent = bounds.has_value();
}

void TimelineViewport::relayout(
    const TimeRange& bounds, const TimeFolding& folding, bool timeChanged)
{
    const TimeRange kept = traceView();
    setContent(bounds, folding);
    if (timeChanged) {
        place(limits());
        clearHistory();
    } else {
        place(toDisplay(kept));
    }
}

TimeRange TimelineViewport::limits() const
{
    // Enough on each side that a marker glyph at the first or last event is drawn whole (the ✕ of
    // a failure at the end of the trace was cut in half).
    const double w = m_width;
    const double margin
        = w > 2 * kEdgeMarginPx ? m_bounds.span() * kEdgeMarginPx / (w - 2 * kEdgeMarginPx) : 0;
    return { m_bounds.start - margin, m_bounds.end + margin };
}

std::vector<TimeRange> TimelineViewport::stretches() const
{
    std::vector<TimeRange> out;
    double from = m_view.start;
    for (const auto& f : m_folding.folds()) {
        if (f.at + f.width < m_view.start)
            continue;
        if (f.at > m_view.end)
            break;
        if (f.at > from)
            out.push_back({ from, f.at });
        from = f.at + f.width;
    }
    if (from < m_view.end)
        out.push_back({ from, m_view.end });
    return out;
}

bool TimelineViewport::moveTo(const TimeRange& display, Step step)
{
    const TimeRange r = m_hasContent ? clampTo(display, limits()) : display;
    if (r == m_view)
        return false;
    // A gesture's many small steps make one history entry: the place before the gesture began.
    const int64_t now = m_clock();
    const bool gestureGoesOn = m_gestureAt && now - *m_gestureAt <= kGesturePauseMs;
    if (m_recording && (step == Step::NewPlace || !gestureGoesOn))
        m_history.push(here());
    if (step == Step::NewPlace)
        m_gestureAt.reset();
    else
        m_gestureAt = now;
    m_view = r;
    return true;
}

bool TimelineViewport::zoomAround(double anchor, double factor)
{
    return moveTo(zoomAt(m_view, anchor, factor, limits(), kMinSpanUs), Step::Gesture);
}

bool TimelineViewport::pan(double fraction)
{
    return moveTo(panBy(m_view, m_view.span() * fraction, limits()), Step::Gesture);
}

bool TimelineViewport::panPixels(double dx)
{
    return moveTo(panBy(m_view, -dx / m_width * m_view.span(), limits()), Step::Gesture);
}

bool TimelineViewport::zoomToPixels(double x0, double x1)
{
    const double a = timeAt(x0), b = timeAt(x1);
    return moveTo({ a, std::max(b, a + kMinSpanUs) }, Step::NewPlace);
}

bool TimelineViewport::fitAll()
{
    return moveTo(m_hasContent ? limits() : TimeRange {}, Step::NewPlace);
}

bool TimelineViewport::fitSpan(double start, double end, double length)
{
    const double pad = std::max(length * 0.1, kMinSpanUs);
    return moveTo({ start - pad, end + pad }, Step::NewPlace);
}

bool TimelineViewport::reveal(double start, double end, double length, bool keepZoom)
{
    // Keep the user's zoom while the span is visible and wide enough to see; otherwise centre it,
    // zooming in (never out, unless it does not fit) to an eighth of the width, so its neighbours
    // stay in view.
    const double px = length / std::max(m_view.span(), 1e-9) * m_width;
    const bool visible = end >= m_view.start && start <= m_view.end;
    const bool narrow = px < kFollowMinPx && !keepZoom;
    if (visible && !narrow)
        return false;
    double span = m_view.span();
    if (narrow)
        span = std::min(span, std::max(length * 8, kMinSpanUs * 20));
    span = std::max(span, length * 1.2);
    const double mid = (start + end) / 2;
    return moveTo({ mid - span / 2, mid + span / 2 }, Step::NewPlace);
}

bool TimelineViewport::follow(std::optional<TimeRange> bounds, const TimeFolding& folding)
{
    // Measured against the old bounds themselves, not limits(): its margins change with the
    // width, which changes as the window lays out a first trace.
    const TimeRange was = m_bounds;
    const double span = m_view.span();
    const double slack = 0.02 * span;
    const bool showedAll = m_view.start <= was.start + slack && m_view.end >= was.end - slack;
    const bool atEnd = m_view.end >= was.end - slack;
    const TimeRange place = traceView();
    setContent(bounds, folding);
    const TimeRange now = limits();
    if (showedAll)
        return moveTo(now, Step::Gesture);
    if (atEnd)
        return moveTo({ now.end - span, now.end }, Step::Gesture);
    return moveTo(toDisplay(place), Step::Gesture);
}

void TimelineViewport::place(const TimeRange& display)
{
    m_view = m_hasContent ? clampTo(display, limits()) : display;
}

void TimelineViewport::leavePlace()
{
    m_history.push(here());
    m_gestureAt.reset();
}

bool TimelineViewport::back()
{
    if (!m_history.canBack())
        return false;
    restore(m_history.back(here()));
    return true;
}

bool TimelineViewport::forward()
{
    if (!m_history.canForward())
        return false;
    restore(m_history.forward(here()));
    return true;
}

void TimelineViewport::restore(const Place& place)
{
    m_view = m_hasContent ? clampTo(toDisplay(place.range), limits()) : place.range;
    m_gestureAt.reset();
    m_compile = place.compile;
}

void TimelineViewport::clearHistory()
{
    m_history.clear();
}

} // namespace dynascope::ui::timeline
