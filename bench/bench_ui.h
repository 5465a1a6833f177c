// The GUI half of dynascope-bench, built only when dynascope_ui exists: timeline paint and hover
// times on an offscreen 1920x1080 image, and the app's window opening the bench trace.
#pragma once

#include "core/model/trace.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dynascope::bench {

struct RenderFigures {
    std::optional<double> renderMsMedian, renderMsP95, hoverMsMedian;
    // The window (ui/mainwindow.h) opening `paths`: from openPaths to loadFinished (the load,
    // the findings, the marks: the trace shown), and the longest the GUI thread went without
    // handling events meanwhile (gaps of a 2 ms timer): what a user feels while a trace opens.
    std::optional<double> windowLoadMs, guiStallMs;
    uint64_t spans = 0; // phase spans the timeline held
    uint64_t compiles = 0;
    int frames = 0;
    int hovers = 0;
};

// Replicates `trace`'s compiles along time until at least `minSpans` phase spans exist, then
// paints frames at several zoom levels and pans, and hover repaints. Returns nulls when the
// timeline widget was not compiled in (ui/timeline/timelineview.h absent at configure time).
RenderFigures measureTimeline(const std::shared_ptr<const Trace>& trace,
    const std::vector<std::string>& paths, uint64_t minSpans, int argc, char** argv);

} // namespace dynascope::bench
