// Internal to timeline_svg.cpp: the marks of the SVG timeline. The picture being written (text
// appended to one string, x from trace time), a lane's compiles as rects (one each, or merged when
// they are less than a pixel apart) with their <title>s and marker shapes, and the legend. The
// status look is the app's (ui/models/statusstyle.cpp). Each call costs O(what it draws).
#pragma once

#include "core/model/trace.h"

#include <string>
#include <vector>

namespace dynascope::timeline_svg {

// Geometry in pixels. A lane: markers above its compiles (graph breaks), the compiles, markers
// below (failures, recompiles).
inline constexpr int kPad = 8;
inline constexpr int kLineH = 16; // a line of text: header, notes, legend
inline constexpr int kLaneH = 28;
inline constexpr int kBarTop = 8, kBarH = 12;
inline constexpr double kCharW = 6.3; // a generous average advance of 11 px sans-serif
inline constexpr size_t kTitleChars = 200;

inline constexpr const char* kInk = "#1a1a1a";
inline constexpr const char* kMuted = "#5f5f5f";

// A compile the timeline draws: one with a time (as the app's timeline decides).
bool timed(const Compile& c);

// The SVG being written, with the mapping from trace time to x.
struct Picture {
    const Trace& t;
    std::string out;
    std::vector<char> hl; // highlighted, per compile
    bool fade = false; // some compile is highlighted: the others are faded
    double t0 = 0, spanUs = 1;
    double plotLeft = 0, plotWidth = 1;

    double x(double us) const { return plotLeft + (us - t0) / spanUs * plotWidth; }
    bool lit(uint32_t ci) const { return ci < hl.size() && hl[ci]; }
    // `escaped` is XML already (svg::text, or markup of it).
    void text(double x, int y, const std::string& escaped, const char* fill, int size = 11,
        const std::string& extra = "");
    void rect(
        double x, double y, double w, double h, const char* fill, const std::string& extra = "");
};

// Compiles of a lane that share a rect: one each, or (merge) neighbours less than a pixel apart.
struct Group {
    double x0 = 0, x1 = 0;
    std::vector<uint32_t> members;
};
// The timed compiles of `compiles` as groups, left to right.
std::vector<Group> groupsOf(const Picture& p, const std::vector<uint32_t>& compiles, bool merge);

// What the drawn compiles showed, for the legend.
struct Seen {
    bool status[5] = {};
    bool graphBreak = false, failure = false, recompile = false;
    size_t mergedRects = 0, mergedCompiles = 0;
};
// Where a lane's last markers of each kind are (a marker within a few pixels of the last one of
// its kind is left out).
struct LaneMarks {
    double graphBreak = -1e9, failure = -1e9, recompile = -1e9;
};
// A group's rect with its <title>, its id when it fits, and its markers.
void drawGroup(Picture& p, const Group& g, int laneY, LaneMarks& marks, Seen& seen);
// The legend lines, the first with its baseline at y, wrapping at `width`; returns their bottom.
int drawLegend(Picture& p, const Seen& seen, int y, int width);

} // namespace dynascope::timeline_svg
