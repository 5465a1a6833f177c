// Timeline geometry as pure functions: time <-> pixel mapping, zoom and pan that keep the point
// under the cursor fixed, "nice" axis tick steps, visible-range queries by binary search over
// start-sorted spans (with a running maximum of ends, so a long span that began off-screen is not
// lost), folding of spans narrower than a few pixels, and hit-testing. No widgets and no painting,
// so tests drive them with data tables (as in Qt Creator's timelinecoordinates.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dynascope::ui::timeline {

struct TimeRange {
    double start = 0; // epoch microseconds
    double end = 1;
    double span() const { return end - start; }
    double centre() const { return (start + end) / 2; }
    bool operator==(const TimeRange&) const = default;
};

double timeToX(const TimeRange& view, double widthPx, double t);
double xToTime(const TimeRange& view, double widthPx, double x);

// Zooms by `factor` (< 1 zooms in) keeping `anchor` (a time) at the same pixel. The result keeps a
// span of at least minSpan and at most the limits' span, and stays inside the limits.
TimeRange zoomAt(const TimeRange& view, double anchor, double factor, const TimeRange& limits,
    double minSpan = 1.0);
// Moves the view by delta microseconds, stopping at the limits.
TimeRange panBy(const TimeRange& view, double delta, const TimeRange& limits);
// The view shifted/shrunk to lie inside the limits.
TimeRange clampTo(TimeRange view, const TimeRange& limits);

// The tick step (1, 2 or 5 times a power of ten, microseconds, at least 1 µs) that puts ticks at
// least minLabelPx apart on an axis widthPx wide showing spanUs.
double tickStep(double spanUs, double widthPx, double minLabelPx);
// Multiples of step inside the view, strictly increasing, at most 10,001 of them (none when the
// view would need more). Exact at epoch-scale times: computed from an integer index.
std::vector<double> tickPositions(const TimeRange& view, double step);

// Running maximum of ends, for visibleSpans(). ends[i] belongs to the i-th start-sorted span.
std::vector<double> runningMax(const std::vector<double>& ends);
// Index range [first, last) of start-sorted spans that may intersect [a, b]: the spans before
// `first` all end before a; those from `last` on start after b. Spans inside the range can still
// end before a (nested under a long one); callers check each.
std::pair<size_t, size_t> visibleSpans(
    const std::vector<double>& starts, const std::vector<double>& maxEnds, double a, double b);

struct PixelSpan {
    double x0 = 0, x1 = 0;
    uint32_t item = 0;
};
struct FoldedSpan {
    double x0 = 0, x1 = 0;
    uint32_t item = 0; // the first item
    uint32_t count = 1; // > 1: a folded block of narrow items
    bool folded() const { return count > 1; }
};
// Merges runs of spans narrower than minWidth (that touch within minWidth) into one block;
// wider spans pass through. Input sorted by x0.
std::vector<FoldedSpan> foldSpans(const std::vector<PixelSpan>& spans, double minWidth = 3.0);
// Index of the span under x (within slop pixels for thin ones), -1 for none. Input sorted by x0;
// when spans overlap, the last one that starts at or before x wins (it is drawn on top).
int hitTest(const std::vector<FoldedSpan>& spans, double x, double slop = 2.0);

} // namespace dynascope::ui::timeline
