// RangePass: the time range selected by Shift+drag (or --range), as a tint with edges from the
// axis to the bottom of the lanes and a box beside it: its duration and times (bold), then what
// it holds (rangesummary.h: compiles, compile time, recompiles, graph breaks, failures). Owns the
// range, in display time. Cost: a summary of the trace's compiles per paint while a range is set.
#pragma once

#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelinerenderpass.h"

#include <optional>

namespace dynascope::ui::timeline {

class RangePass : public TimelineRenderPass {
public:
    const std::optional<TimeRange>& range() const { return m_range; }
    // Returns whether the range changed.
    bool setRange(std::optional<TimeRange> range);

    // The range in trace time.
    std::optional<TimeRange> traceRange(const TimelineLayout& layout) const
    {
        return m_range ? std::optional(layout.toTrace(*m_range)) : std::nullopt;
    }
    // What the range holds (empty without a trace or a range).
    RangeSummary summary(const Trace* trace, const TimelineLayout& layout) const;
    // Where the box goes: beside the range on the side with room, inside the lanes, never over
    // the labels; null without a range.
    QRect boxRect(const Trace* trace, const TimelineLayout& layout, const TimelineAreas& areas,
        const TimelineViewport& viewport, int tzOffsetMinutes) const;

    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    QStringList boxLines(const Trace* trace, const TimelineLayout& layout, int tz) const;

    std::optional<TimeRange> m_range; // display time
};

} // namespace dynascope::ui::timeline
