// A small timeline of a trace's compiles as a standalone SVG 1.1 picture, drawn without Qt: for
// the Python package's notebook views (_repr_html_ of a trace, a compile, a finding) and
// `dynascope-cli export svg`.
//
// Lanes as the app has them: one per frame (code object), under a header per rank when the trace
// has several files, labelled with the function and its file:line; past maxLanes the frames with
// the most compiles (highlighted ones first) are kept and a "+N more frames" line counts the rest.
// Each compile is a rect from its start to its end (at least 2 px wide) in the app's status
// colours (ui/models/statusstyle.cpp), with a shape for what colour alone would say: a triangle at
// the end of a graph break, a cross at the end of a failure, a ring and a blue outline on a
// recompile, dashed and dotted outlines on empty and missing compiles; a legend names them. The
// axis counts time from the trace's first compile start, to scale (idle gaps are not folded).
// Compiles without a time are not drawn; a note counts them. Every rect has a <title> (id, index,
// function, status, duration, the first recompile, graph-break and failure lines), shown on hover.
//
// Trace text is untrusted: it is cut (40 characters in labels, 200 per title line), stripped of
// control and bidi characters, made valid UTF-8 and XML-escaped; the picture has no script, no
// event attribute, no foreignObject, no link and no id (several pictures can share a page).
//
// Cost: O(compiles + frames) to lay out, and output O(lanes drawn + compiles drawn). When more
// than kTimelineMergeAbove compiles would be drawn, the compiles of a lane less than a pixel apart
// share one rect (its title counts them), so a lane holds at most about a rect per 3 pixels and
// 100,000 compiles give tens of KB (the tests hold it under 2 MB).
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dynascope {

struct TimelineSvgOptions {
    int width = 720; // pixels, clamped to [320, 4000]; the height follows the lane count
    int maxLanes = 12; // frames drawn (at least 1); the others are counted in a "+N more" line
    // Trace::compiles indices to emphasise: outlined, and every other compile faded. Their lanes
    // are kept first when lanes are cut.
    std::vector<uint32_t> highlight;
    std::string title; // a line above the picture (untrusted text: escaped and cut)
};

// Drawn compiles above which neighbours closer than a pixel share a rect.
inline constexpr size_t kTimelineMergeAbove = 2000;

std::string timelineSvg(const Trace& trace, const TimelineSvgOptions& options = {});

} // namespace dynascope
