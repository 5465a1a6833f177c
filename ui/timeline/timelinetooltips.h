// The timeline's tooltip texts, one per kind of hit (timelinescene.h): a compile span (id,
// status, duration, function, file:line and the first line of why it recompiled, broke or
// failed), a phase span, a folded block ("12 compiles too narrow to draw; zoom in"), a marker (its
// kind, compile and reason; how many more it folds), an idle gap's break (its length and times,
// how to unfold it) and a rank's mark (the findings' titles). Raw trace text: show it through
// plainToolTip(). Pure functions of the trace and the scene; no widget.
#pragma once

#include "ui/timeline/timelinescene.h"

#include <QCoreApplication>

namespace dynascope::ui::timeline {

class RankMarksPass;

class TimelineToolTips {
    Q_DECLARE_TR_FUNCTIONS(TimelineToolTips)
public:
    static QString text(const Hit& hit, const Trace& trace, const TimelineLayout& layout,
        const TimelineScene& scene, const RankMarksPass& rankMarks, int tzOffsetMinutes);
    // An idle gap's break: "11 d 0 h without compiles, folded (from – to)".
    static QString gap(uint32_t fold, const TimelineLayout& layout, int tzOffsetMinutes);

private:
    static QString marker(const Hit& hit, const Trace& trace, const TimelineLayout& layout,
        const TimelineScene& scene);
    static QString span(const Span& s, const Trace& trace);
};

} // namespace dynascope::ui::timeline
