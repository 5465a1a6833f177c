// Folding idle time out of the timeline's axis. A trace folder often holds compiles minutes,
// hours or days apart (a recompile at step 5,000, two runs eleven days apart); drawn to scale,
// every compile is a hairline at one edge. TimeFolding is a piecewise-linear map from trace time
// to "display time": outside the folds one display microsecond is one trace microsecond (so
// durations, zoom and the tick step stay true), and each fold squeezes an idle gap into a short,
// fixed stretch that the view marks as a break on the axis ("11 d idle").
//
// findIdleGaps() decides which gaps fold: busy intervals (compiles, their phases, cache events)
// are merged into bursts wherever they are less than minGapUs apart, and a gap between two bursts
// folds when it is at least `ratio` times as long as the longer of the two. Pure functions, no
// widgets: tests drive them with tables. Cost: a sort of the intervals, then O(log folds) per
// mapped time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace dynascope::ui::timeline {

struct IdleGap {
    double start = 0, end = 0; // trace time: the end of one burst, the start of the next
    double span() const { return end - start; }
    // The gap's identity across rebuilds (Alt+click unfolds it): its start, whole microseconds.
    int64_t key() const { return static_cast<int64_t>(start); }
};

struct GapRules {
    double minGapUs = 1e6; // shorter gaps never fold: they are part of a burst
    double ratio = 10; // a gap folds when >= ratio x the longer of its two bursts
};

struct IdleGaps {
    std::vector<IdleGap> gaps; // in time order
    double busyUs = 0; // the bursts' time together
};

// The idle gaps that fold. `busy`: [start, end] intervals in any order (instants have
// start == end).
IdleGaps findIdleGaps(std::vector<std::pair<double, double>> busy, const GapRules& rules = {});

class TimeFolding {
public:
    struct Fold {
        IdleGap gap;
        double at = 0; // display time where the fold starts
        double width = 0; // display time it takes
    };

    TimeFolding() = default;
    // Folds `gaps` (sorted, disjoint) to `foldWidth` display microseconds each (at most the gap).
    // Display time equals trace time before the first fold.
    TimeFolding(const std::vector<IdleGap>& gaps, double foldWidth);

    bool empty() const { return m_folds.empty(); }
    const std::vector<Fold>& folds() const { return m_folds; }
    // Trace time -> display time and back; monotonic, inverse of each other.
    double toDisplay(double t) const;
    double toTrace(double d) const;
    // The fold whose display stretch holds d, or null.
    const Fold* foldAt(double d) const;
    // Trace time the folds hide between display times a and b (a <= b).
    double hiddenBetween(double a, double b) const;

private:
    std::vector<Fold> m_folds; // by time
};

// How wide (display µs) each of `folds` folds is drawn: 12% of the busy time (room for its label
// when the view shows everything), but all of them
// together at most a third of it (1 ms when nothing is busy); TimeFolding never makes a fold wider
// than its gap.
double foldWidthFor(double busyUs, size_t folds);

} // namespace dynascope::ui::timeline
