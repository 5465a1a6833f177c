// TimelinePasses: TimelineView's render passes, one of each, and the order they paint in: rows
// (backgrounds, labels), rank marks, spans, search hits, finding marks, axis, markers, folds,
// range, legend. Later passes draw over earlier ones. Header only; the passes hold their own data.
#pragma once

#include "ui/timeline/timelineaxispass.h"
#include "ui/timeline/timelinefindingmarkspass.h"
#include "ui/timeline/timelinefoldspass.h"
#include "ui/timeline/timelinelegendpass.h"
#include "ui/timeline/timelinemarkerspass.h"
#include "ui/timeline/timelinerangepass.h"
#include "ui/timeline/timelinerankmarkspass.h"
#include "ui/timeline/timelinerowspass.h"
#include "ui/timeline/timelinesearchhitspass.h"
#include "ui/timeline/timelinespanspass.h"

#include <array>

namespace dynascope::ui::timeline {

struct TimelinePasses {
    RowsPass rows;
    RankMarksPass rankMarks;
    SpansPass spans;
    SearchHitsPass searchHits;
    FindingMarksPass findingMarks;
    AxisPass axis;
    MarkersPass markers;
    FoldsPass folds;
    RangePass range;
    LegendPass legend;

    std::array<TimelineRenderPass*, 10> inOrder()
    {
        return { &rows, &rankMarks, &spans, &searchHits, &findingMarks, &axis, &markers, &folds,
            &range, &legend };
    }
    // A new trace: the overlays MainWindow feeds are its owners' to set again.
    void clearOverlays()
    {
        searchHits.clear();
        findingMarks.clear();
        rankMarks.setMarks({});
    }
};

} // namespace dynascope::ui::timeline
