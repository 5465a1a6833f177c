// What a time range on the timeline holds (the Shift+drag overlay): compiles that overlap it, the
// compile time inside it, and the recompiles, graph breaks and failures among those compiles. Also
// the text form of a time range for the command line (--range) and for image footers. Pure
// functions over the Trace, tested without a widget.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/timelinegeometry.h"

#include <QString>

#include <optional>

namespace dynascope::ui::timeline {

struct RangeSummary {
    TimeRange range;
    uint64_t compiles = 0; // timed compiles whose [start, end] overlaps the range
    double compileUs = 0; // their time inside the range
    uint64_t recompiles = 0;
    uint64_t graphBreaks = 0;
    uint64_t failures = 0;
};

// `fileShifts` (aligned ranks: timelinelayout.h): subtracted from the times of each file's
// compiles before they are compared with the range.
RangeSummary summarizeRange(
    const Trace& trace, const TimeRange& range, const std::vector<double>& fileShifts = {});

// "812 ms  (10:41:02.100 – 10:41:02.912)" and "3 compiles · 410 ms compiling" lines. With an
// `origin` (aligned ranks), the range is told as offsets from it: "(+1.2 s – +2.0 s)".
QStringList rangeSummaryLines(
    const RangeSummary& summary, int tzOffsetMinutes, std::optional<double> origin = {});

// Parses a --range value: START:END (also START..END) where both are seconds relative to
// `traceStart` ("1.5:3", "250ms..400ms") or wall-clock times of the trace's day
// ("10:41:02.100:10:41:02.900", local time of the traced process). On failure returns nullopt and
// says why in *error.
std::optional<TimeRange> parseTimeRange(
    const QString& text, double traceStartUs, int tzOffsetMinutes, QString* error);

} // namespace dynascope::ui::timeline
