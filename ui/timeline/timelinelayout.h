// TimelineLayout: a Trace turned into timeline rows, once per load. Per rank a header row, per
// frame (code object) a lane with its compiles side by side, then one row per phase depth with
// the chromium phase spans of those compiles (with many ranks, every rank but one is a single
// compact row of its compiles); above all of it, one row of instant markers. Each
// row's spans are sorted by start with a running maximum of ends, so the view finds what is
// visible by binary search (timelinegeometry.h).
//
// Spans, markers and bounds are in display time: trace time (shifted to each rank's start when
// ranks are aligned) with the idle gaps folded (timefolding.h). displayTime() and traceTime()
// convert; outside the folds one display microsecond is one trace microsecond.
#pragma once

#include "core/model/trace.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timefolding.h"
#include "ui/timeline/timelinegeometry.h"

#include <QString>

#include <set>
#include <vector>

namespace dynascope::ui::timeline {

struct Span {
    double start = 0, end = 0;
    uint32_t compile = kNone;
    int32_t phase = -1; // index into Compile::phases; -1: the compile itself
    PhaseGroup group = PhaseGroup::Other; // phases: the report's phase group (inherited)
};

// Which phase depth rows a lane shows. A lane is "expanded" when (not compact) XOR toggled;
// an expanded lane shows at most maxPhaseRows depth rows, a collapsed one none (compiles only), so
// a frame with 15 compiles and deep phase nesting stays one readable lane.
struct LayoutOptions {
    bool compact = false;
    int maxPhaseRows = 3;
    std::set<uint64_t> toggled; // laneKey()s the user flipped
    // Many ranks: past this many files each rank is one compact row of its compiles (thin
    // marks in their status colours), except `expandedFile` (kNone: the first), whose frames get
    // their lanes as usual.
    size_t compactRanksAbove = 24;
    uint32_t expandedFile = kNone;
    // Row heights in pixels; the view sets them from its font, so larger fonts get taller rows.
    // Compact rank rows share about 2,000 pixels: between 4 (1,024 ranks: 4,096 pixels) and
    // compactRankHeight each.
    int compactRankHeight = 10;
    // Time: idle gaps much longer than the bursts around them fold into a marked break
    // (timefolding.h), except those the user unfolded (IdleGap::key()); ranks may be aligned on
    // their own start (each file's time counted from its first record) instead of wall-clock.
    bool foldGaps = true;
    std::set<int64_t> unfoldedGaps;
    bool alignRanks = false;
    int rankHeight = 22;
    int laneHeight = 24;
    int phaseHeight = 12;
    bool operator==(const LayoutOptions&) const = default;
};

struct Row {
    enum class Kind { Rank, Lane, Phases };
    Kind kind = Kind::Lane;
    QString label; // "kernel  gen_many_frames.py:6", "rank 1", "phases"
    QString name, where; // lanes: the function and its file:line, the two parts of the label
    QString tooltip;
    int compileCount = 0; // lanes: the badge
    uint32_t file = kNone;
    uint32_t frame = kNone; // kNone: compiles without a frame id
    int depth = 0; // phase rows
    int phaseDepths = 0; // lanes: depth rows the lane's phases need (shown or not)
    int shownDepths = 0; // lanes: depth rows shown now
    bool expanded = false; // lanes: phase rows shown
    bool compactRank = false; // a rank row that holds its compiles (many ranks), no lanes below
    int y = 0; // top, in content pixels
    int height = 0;
    std::vector<Span> spans; // sorted by start
    std::vector<double> starts, maxEnds; // for visibleSpans()
};

struct Marker {
    double t = 0;
    MarkerKind kind = MarkerKind::Recompile;
    uint32_t compile = kNone;
    QString text; // first line of the reason, for the tooltip
};

class TimelineLayout {
public:
    void build(const Trace& trace, const LayoutOptions& options = {});
    void clear();
    // Identity of a lane across rebuilds: its frame, or its file for frameless compiles.
    static uint64_t laneKey(const Row& lane);

    const std::vector<Row>& rows() const { return m_rows; }
    const std::vector<Marker>& markers() const { return m_markers; } // sorted by time
    TimeRange bounds() const { return m_bounds; } // every span and marker, padded
    TimeRange dataRange() const { return m_data; } // the same, unpadded (the trace start)
    bool hasTime() const { return m_hasTime; }
    int contentHeight() const { return m_height; }
    // The phase groups some span belongs to, in legend order.
    const std::vector<PhaseGroup>& phaseGroups() const { return m_groups; }
    // Whether rank rows are compact (more files than LayoutOptions::compactRanksAbove), and the
    // file whose lanes are shown then.
    bool compactRanks() const { return m_compactRanks; }
    uint32_t expandedFile() const { return m_expandedFile; }
    // The lane row that holds a compile (a compact rank row for a collapsed rank), -1 if none.
    int laneOf(uint32_t compile) const;
    // Row index at a content y, -1 outside.
    int rowAt(int y) const;

    // Time. displayTime: a time of `file`'s records -> display time. traceTime: display time ->
    // trace time (with aligned ranks, time since the ranks' common origin plus alignOrigin()).
    double displayTime(double t, uint32_t file) const;
    double traceTime(double d) const { return m_folding.toTrace(d); }
    TimeRange toTrace(const TimeRange& d) const { return { traceTime(d.start), traceTime(d.end) }; }
    TimeRange toDisplay(const TimeRange& t) const
    {
        return { m_folding.toDisplay(t.start), m_folding.toDisplay(t.end) };
    }
    double compileStart(const Compile& c) const { return displayTime(c.startUs, c.file); }
    double compileEnd(const Compile& c) const { return displayTime(c.endUs, c.file); }
    const TimeFolding& folding() const { return m_folding; }
    // Idle gaps found, folded or not (the menu offers to fold them again).
    size_t idleGapCount() const { return m_idleGaps; }
    bool aligned() const { return !m_fileShift.empty(); }
    // Aligned ranks: what is subtracted from each file's times (empty otherwise).
    const std::vector<double>& fileShifts() const { return m_fileShift; }
    // Aligned ranks: the earliest rank start; every rank's start is drawn there.
    double alignOrigin() const { return m_alignOrigin; }

private:
    void alignFiles(const Trace& t);
    void foldIdleGaps(std::vector<std::pair<double, double>> busy,
        const std::set<int64_t>& unfolded, double& lo, double& hi);

    std::vector<Row> m_rows;
    std::vector<Marker> m_markers;
    std::vector<int> m_laneOfCompile;
    std::vector<PhaseGroup> m_groups;
    TimeRange m_bounds;
    TimeRange m_data;
    bool m_hasTime = false;
    bool m_compactRanks = false;
    uint32_t m_expandedFile = kNone;
    int m_height = 0;
    TimeFolding m_folding;
    size_t m_idleGaps = 0;
    std::vector<double> m_fileShift; // aligned ranks: subtracted from each file's times
    double m_alignOrigin = 0;
};

} // namespace dynascope::ui::timeline
