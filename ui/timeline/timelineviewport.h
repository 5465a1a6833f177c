// TimelineViewport: where the timeline looks, without painting (as Qt Creator's
// TimelineZoomControl). It owns the visible range, the range there is to see (the layout's bounds
// plus room for a marker glyph at each edge), the width in pixels the range is drawn on, and the
// arithmetic on them: zoom around a point (the time under it stays under it), pan, fit, clamping,
// and the time <-> pixel mapping. Ranges inside are display time (timelinelayout.h: idle gaps
// folded by the TimeFolding given with the content); traceView(), toTrace() and the history's
// places are trace time, so refolding keeps what is shown.
//
// It also keeps the NavigationHistory: every move to a new place (a fit, a double-click, a search
// step) remembers the place left, and a gesture's many small steps (wheel, drag, keys, less than
// kGesturePauseMs apart) make one entry. A place holds the selected compile too (compile()), which
// the view sets. Plain data: no widget, no signals (every change returns whether the view moved),
// tested in tst_timelineviewport. Cost: O(1) per step, O(log folds) per folded mapping.
#pragma once

#include "ui/timeline/navigationhistory.h"
#include "ui/timeline/timefolding.h"
#include "ui/timeline/timelinegeometry.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace dynascope::ui::timeline {

class TimelineViewport {
public:
    // A move to a new place is remembered at once; a gesture's steps make one history entry.
    enum class Step { NewPlace, Gesture };
    // Milliseconds of a monotonic clock; tests set their own.
    using Clock = std::function<int64_t()>;

    TimelineViewport();

    // What there is to see: the layout's bounds and its folding (display time). Without content
    // (no trace, or one without timing) the view is neither clamped nor mapped through folds.
    void setContent(const TimeRange& bounds, const TimeFolding& folding)
    {
        setContent(std::optional(bounds), folding);
    }
    void setContent(std::optional<TimeRange> bounds, const TimeFolding& folding); // nullopt: none
    void clearContent() { setContent(std::nullopt, {}); }
    // The same content laid out again with other options. `timeChanged` (ranks aligned or not:
    // trace time itself moved): the view shows all of the new limits and the history, whose
    // places mean other times now, is forgotten. Otherwise (gaps folded or not, rows changed)
    // the view keeps its trace range. Neither is a place of the history.
    void relayout(const TimeRange& bounds, const TimeFolding& folding, bool timeChanged);
    bool hasContent() const { return m_hasContent; }
    TimeRange bounds() const { return m_bounds; }
    const TimeFolding& folding() const { return m_folding; }
    // Pixels the view is drawn on (the lanes' width, labels left out), at least one.
    void setWidth(double px) { m_width = std::max(1.0, px); }
    double width() const { return m_width; }
    // How far the view may go: the bounds plus kEdgeMarginPx on each side at this width.
    TimeRange limits() const;

    // The visible range: display time, and the same in trace time.
    TimeRange view() const { return m_view; }
    TimeRange traceView() const { return toTrace(m_view); }

    // Trace time <-> display time (identity outside the folds and without content).
    double toDisplay(double t) const { return m_folding.toDisplay(t); }
    double toTrace(double d) const { return m_folding.toTrace(d); }
    TimeRange toDisplay(const TimeRange& t) const
    {
        return { toDisplay(t.start), toDisplay(t.end) };
    }
    TimeRange toTrace(const TimeRange& d) const { return { toTrace(d.start), toTrace(d.end) }; }
    // Display time <-> pixels from the left edge of the lanes; xOfTrace() maps a trace time.
    double xOf(double d) const { return timeToX(m_view, m_width, d); }
    double timeAt(double x) const { return xToTime(m_view, m_width, x); }
    double xOfTrace(double t) const { return xOf(toDisplay(t)); }
    // The view cut at each fold: inside one stretch a display µs is a trace µs (axis ticks).
    std::vector<TimeRange> stretches() const;

    // Moves. Each clamps to limits() (with content) and returns whether the view changed.
    bool moveTo(const TimeRange& display, Step step);
    bool moveToTrace(const TimeRange& trace, Step step) { return moveTo(toDisplay(trace), step); }
    // factor < 1 zooms in; the time at `anchor` (display time) or at pixel x stays where it is.
    bool zoomAround(double anchor, double factor);
    bool zoomAroundX(double x, double factor) { return zoomAround(timeAt(x), factor); }
    // By a fraction of the view's span or by pixels (a drag: content follows the mouse).
    bool pan(double fraction);
    bool panPixels(double dx);
    // The stretch between two pixels, at least kMinSpanUs, as a new place (a folded block).
    bool zoomToPixels(double x0, double x1);
    // All of the limits (a new place); without content the default range.
    bool fitAll();
    // [start, end] (display time) with a tenth of `length` (its duration), at least kMinSpanUs,
    // on each side: a new place (F on a compile, a double-click on a span).
    bool fitSpan(double start, double end, double length);
    // Brings [start, end] (a compile `length` long) into view as a new place when it is off the
    // view, or narrower than kFollowMinPx unless `keepZoom`: centred, zoomed in to eight times its
    // length (at least 20 x kMinSpanUs; never out, unless it does not fit in 1.2 x its length).
    // A visible, wide enough span leaves the view as it is.
    bool reveal(double start, double end, double length, bool keepZoom);
    // A newer state of the content (live following; nullopt bounds: no timing). A view that
    // showed all of the old bounds shows all of the new limits; one that showed their end keeps
    // its width and ends at the new end; any other keeps its trace range. A gesture's step.
    bool follow(std::optional<TimeRange> bounds, const TimeFolding& folding);
    // Sets the view with no history and no gesture (a relayout keeps what is shown); clamped.
    void place(const TimeRange& display);

    // History. compile() is the selection of the place shown.
    uint32_t compile() const { return m_compile; }
    void setCompile(uint32_t compile) { m_compile = compile; }
    Place here() const { return { traceView(), m_compile }; }
    // A new place is about to be shown by other means (a new selection): remember this one.
    void leavePlace();
    // Off: moves are not remembered (a live update, a selection that pushed its own place).
    void setRecording(bool on) { m_recording = on; }
    bool canBack() const { return m_history.canBack(); }
    bool canForward() const { return m_history.canForward(); }
    // To the place before / after; the view and compile() become that place's. False if none.
    bool back();
    bool forward();
    void clearHistory();
    size_t backCount() const { return m_history.backCount(); }
    // The gesture going on ends: the next step is a new history entry.
    void endGesture() { m_gestureAt.reset(); }
    void setClock(Clock clock) { m_clock = std::move(clock); }

private:
    void restore(const Place& place);

    TimeRange m_view;
    TimeRange m_bounds;
    TimeFolding m_folding;
    bool m_hasContent = false;
    double m_width = 1;
    NavigationHistory m_history;
    uint32_t m_compile = kNone;
    bool m_recording = true;
    std::optional<int64_t> m_gestureAt; // the clock at the gesture's last step
    Clock m_clock;
};

} // namespace dynascope::ui::timeline
