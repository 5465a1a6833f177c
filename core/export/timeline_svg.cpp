#include "core/export/timeline_svg.h"

#include "core/export/svg_text.h"
#include "core/export/timeline_svg_marks.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dynascope {

using namespace timeline_svg;

namespace {
constexpr int kAxisH = 20;
constexpr int kRankH = 20;
constexpr size_t kLabelChars = 40;
constexpr const char* kGrid = "#d4d4d4";
constexpr const char* kBand = "#f3f3f3";
constexpr const char* kRankBg = "#e4e4e4";

struct Lane {
    uint32_t file = 0;
    uint32_t frame = kNone; // kNone: the file's compiles without a frame id
    std::vector<uint32_t> compiles; // trace order
    bool highlighted = false;
    bool troubled = false; // a compile of it failed, broke the graph or recompiled
};

// Lanes as the app has them: per file, its frames in order of first appearance, then the
// compiles without a frame.
std::vector<Lane> buildLanes(const Trace& t, const std::vector<char>& hl)
{
    std::vector<std::vector<uint32_t>> framesOf(t.files.size()), framelessOf(t.files.size());
    for (const Frame& f : t.frames)
        if (f.file < t.files.size())
            framesOf[f.file].push_back(f.index);
    for (const Compile& c : t.compiles)
        if (c.frame == kNone && c.file < t.files.size())
            framelessOf[c.file].push_back(c.index);
    std::vector<Lane> lanes;
    auto add = [&](uint32_t file, uint32_t frame, const std::vector<uint32_t>& compiles) {
        if (compiles.empty())
            return;
        Lane lane { file, frame, compiles, false, false };
        for (uint32_t ci : compiles) {
            lane.highlighted = lane.highlighted || (ci < hl.size() && hl[ci]);
            const Compile& c = t.compiles[ci];
            lane.troubled = lane.troubled || c.status == CompileStatus::Error
                || c.status == CompileStatus::GraphBreak || c.isRecompile();
        }
        lanes.push_back(std::move(lane));
    };
    for (uint32_t fi = 0; fi < t.files.size(); ++fi) {
        for (uint32_t fr : framesOf[fi])
            add(fi, fr, t.frames[fr].compiles);
        add(fi, kNone, framelessOf[fi]);
    }
    return lanes;
}

// The lanes kept when there are more than maxLanes: highlighted ones first, then those with a
// failure, a graph break or a recompile (what the picture is looked at for), then the busiest;
// drawn in trace order.
std::vector<size_t> keptLanes(const std::vector<Lane>& lanes, size_t maxLanes)
{
    std::vector<size_t> idx(lanes.size());
    std::iota(idx.begin(), idx.end(), size_t { 0 });
    if (lanes.size() <= maxLanes)
        return idx;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        if (lanes[a].highlighted != lanes[b].highlighted)
            return lanes[a].highlighted;
        if (lanes[a].troubled != lanes[b].troubled)
            return lanes[a].troubled;
        return lanes[a].compiles.size() > lanes[b].compiles.size();
    });
    idx.resize(maxLanes);
    std::sort(idx.begin(), idx.end());
    return idx;
}

std::string functionOf(const Trace& t, const Lane& lane)
{
    std::string fn;
    if (lane.frame != kNone)
        fn = t.frames[lane.frame].coName;
    else
        return "(no frame id)";
    if (fn.empty()) {
        const Compile& c = t.compiles[lane.compiles.front()];
        fn = !c.coName.empty() ? c.coName
            : !c.stack.empty() ? std::string(c.stack.back().name)
                               : "";
    }
    return fn.empty() ? "(unknown function)" : fn;
}

std::string whereOf(const Trace& t, const Lane& lane)
{
    if (lane.frame == kNone || t.frames[lane.frame].coFilename.empty())
        return {};
    const Frame& f = t.frames[lane.frame];
    std::string s(text::baseName(f.coFilename));
    if (f.coFirstLineno > 0)
        s += ":" + std::to_string(f.coFirstLineno);
    return s;
}

// file:line as the app cuts it when it does not fit: on the left, so the line number stays ("…
// ple.py:24"); empty when not even that much fits.
std::string tail(const std::string& where, size_t chars)
{
    if (where.size() <= chars)
        return where;
    if (chars < 8)
        return {};
    size_t from = where.size() - (chars - 1);
    while (from < where.size() && (static_cast<unsigned char>(where[from]) & 0xC0) == 0x80)
        ++from; // not inside a UTF-8 sequence
    return "…" + where.substr(from);
}

std::string rankLabel(const TraceFile& f)
{
    if (!f.label.empty())
        return f.label;
    if (f.rank)
        return "rank " + std::to_string(*f.rank);
    return std::string(text::baseName(f.path));
}

std::string plural(uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::string timelineSvg(const Trace& trace, const TimelineSvgOptions& options)
{
    const int width = std::clamp(options.width, 320, 4000);
    const size_t maxLanes = static_cast<size_t>(std::clamp(options.maxLanes, 1, 10000));
    Picture p { trace, {}, std::vector<char>(trace.compiles.size(), 0) };
    for (uint32_t ci : options.highlight)
        if (ci < trace.compiles.size())
            p.hl[ci] = p.fade = true;

    const std::vector<Lane> lanes = buildLanes(trace, p.hl);
    const std::vector<size_t> kept = keptLanes(lanes, maxLanes);
    const bool ranks = trace.files.size() > 1;

    // Time: from the trace's first compile start to its last compile end.
    double lo = INFINITY, hi = -INFINITY;
    for (const Compile& c : trace.compiles)
        if (timed(c)) {
            lo = std::min(lo, c.startUs);
            hi = std::max(hi, c.endUs);
        }
    const bool anyTime = std::isfinite(lo);
    p.t0 = anyTime ? lo : 0;
    p.spanUs = anyTime && hi > lo ? hi - lo : 1000;
    const int labelWidth = std::clamp(width * 32 / 100, 130, 260);
    p.plotLeft = labelWidth + 6;
    p.plotWidth = width - p.plotLeft - 14;

    // What is drawn, and what is not.
    size_t drawn = 0, untimed = 0, hiddenCompiles = 0;
    std::vector<char> keep(lanes.size(), 0);
    for (size_t li : kept)
        keep[li] = 1;
    for (size_t li = 0; li < lanes.size(); ++li)
        for (uint32_t ci : lanes[li].compiles) {
            if (!keep[li])
                ++hiddenCompiles;
            else if (timed(trace.compiles[ci]))
                ++drawn;
            else
                ++untimed;
        }
    const bool merge = drawn > kTimelineMergeAbove;

    // Rows: a header per rank that has a lane drawn (several files only), then its lanes.
    struct Row {
        bool rank;
        size_t lane;
        uint32_t file;
    };
    std::vector<Row> rows;
    std::vector<size_t> compilesOfFile(trace.files.size(), 0);
    for (const Compile& c : trace.compiles)
        if (c.file < trace.files.size())
            ++compilesOfFile[c.file];
    for (size_t li : kept) {
        if (ranks && (rows.empty() || rows.back().file != lanes[li].file))
            rows.push_back({ true, 0, lanes[li].file });
        rows.push_back({ false, li, lanes[li].file });
    }

    int y = kPad;
    const bool titled = !options.title.empty();
    const int headerBase = y + 12;
    y += titled ? 2 * kLineH + 2 : kLineH + 2;
    const int axisTop = y;
    y += kAxisH;
    const int rowsTop = y;
    for (const Row& r : rows)
        y += r.rank ? kRankH : kLaneH;
    const int rowsBottom = y;

    // Header: the title, then what the trace holds.
    int line = headerBase;
    const size_t headerChars = static_cast<size_t>((width - 2 * kPad) / 7.2);
    if (titled) {
        p.text(kPad, line, svg::text(options.title, std::min(headerChars, kTitleChars)), kInk, 13,
            " font-weight=\"bold\"");
        line += kLineH;
    }
    std::string summary = plural(trace.compileCount(), "compile", "compiles") + " · "
        + plural(trace.recompileCount(), "recompile", "recompiles") + " · "
        + plural(trace.graphBreakCount(), "graph break", "graph breaks") + " · "
        + plural(trace.failureCount(), "failure", "failures");
    if (ranks)
        summary += " · " + plural(trace.files.size(), "rank", "ranks");
    if (anyTime)
        summary += " · " + text::duration(hi - lo) + " first to last";
    p.text(
        kPad, line, svg::text(summary, static_cast<size_t>((width - 2 * kPad) / kCharW)), kMuted);

    // Axis: round ticks from the first compile's start, with grid lines through the lanes.
    p.text(kPad, axisTop + 14,
        svg::text(anyTime ? "since first compile" : "no compile has a time",
            static_cast<size_t>((labelWidth - kPad) / 5.8)),
        kMuted, 10);
    const std::vector<svg::Tick> ticks = anyTime
        ? svg::ticks(p.spanUs, std::clamp(static_cast<int>(p.plotWidth / 90), 2, 10))
        : std::vector<svg::Tick> {};
    std::string grid;
    for (size_t i = 0; i < ticks.size(); ++i) {
        const double tx = p.x(p.t0 + ticks[i].us);
        const double half = static_cast<double>(ticks[i].label.size()) * 2.9;
        const char* anchor = i == 0 ? " text-anchor=\"start\""
            : tx + half > width - 2 ? " text-anchor=\"end\""
                                    : " text-anchor=\"middle\"";
        p.text(tx, axisTop + 14, svg::text(ticks[i].label, 16), kMuted, 10, anchor);
        grid += "<path d=\"M" + svg::num(tx) + " " + std::to_string(axisTop + kAxisH - 3) + "V"
            + std::to_string(rowsBottom) + "\" stroke=\"" + kGrid + "\" stroke-width=\"1\"/>\n";
    }

    // Row backgrounds and labels.
    int ry = rowsTop;
    bool band = false;
    const size_t labelChars
        = std::min(kLabelChars, static_cast<size_t>((labelWidth - kPad - 30) / kCharW));
    for (const Row& r : rows) {
        if (r.rank) {
            p.rect(0, ry, width, kRankH, kRankBg);
            const std::string label = rankLabel(trace.files[r.file]) + " · "
                + plural(compilesOfFile[r.file], "compile", "compiles");
            p.text(kPad, ry + 14, svg::text(label, 2 * kLabelChars), kInk, 11,
                " font-weight=\"bold\"");
            ry += kRankH;
            band = false;
            continue;
        }
        const Lane& lane = lanes[r.lane];
        band = !band;
        if (band)
            p.rect(0, ry, width, kLaneH, kBand);
        // The function whole when it fits, then as much of file:line as fits, in grey.
        const std::string name = functionOf(trace, lane);
        std::string label = svg::text(name, labelChars);
        const size_t nameChars = std::min(labelChars, name.size());
        const std::string where = nameChars + 1 < labelChars
            ? tail(whereOf(trace, lane), labelChars - nameChars - 1)
            : std::string();
        if (!where.empty())
            label += "<tspan dx=\"3\" fill=\"" + std::string(kMuted) + "\"> " + svg::text(where, 40)
                + "</tspan>";
        p.text(kPad, ry + kBarTop + kBarH - 2, label, kInk);
        p.text(labelWidth - 2, ry + kBarTop + kBarH - 2, std::to_string(lane.compiles.size()),
            kMuted, 10, " text-anchor=\"end\"");
        ry += kLaneH;
    }
    p.out += grid;

    // The compiles.
    Seen seen;
    ry = rowsTop;
    for (const Row& r : rows) {
        if (r.rank) {
            ry += kRankH;
            continue;
        }
        LaneMarks marks;
        for (const Group& g : groupsOf(p, lanes[r.lane].compiles, merge))
            drawGroup(p, g, ry, marks, seen);
        ry += kLaneH;
    }

    // Below: what is not shown, then the legend.
    y = rowsBottom + 4;
    auto note = [&](const std::string& s) {
        y += kLineH;
        p.text(kPad, y - 4, svg::text(s, 200), kMuted);
    };
    if (lanes.empty())
        note("no compiles in this trace");
    if (kept.size() < lanes.size())
        note("+" + plural(lanes.size() - kept.size(), "more frame", "more frames") + " ("
            + plural(hiddenCompiles, "compile", "compiles") + ") not shown");
    if (untimed)
        note(plural(untimed, "compile", "compiles") + " without a time not drawn");
    if (seen.mergedRects)
        note(plural(seen.mergedCompiles, "compile", "compiles") + " less than a pixel apart share "
            + plural(seen.mergedRects, "rect", "rects") + " (hover for counts)");
    if (drawn || p.fade)
        y = drawLegend(p, seen, y + 14, width);
    const int height = y + kPad;

    std::string out;
    out.reserve(p.out.size() + 512);
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
        + std::to_string(width) + "px\" height=\"" + std::to_string(height) + "px\" viewBox=\"0 0 "
        + std::to_string(width) + " " + std::to_string(height)
        + "\" font-family=\"sans-serif\" font-size=\"11px\">\n";
    out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\""
        + std::to_string(height) + "\" fill=\"#ffffff\"/>\n";
    out += p.out;
    out += "</svg>\n";
    return out;
}

} // namespace dynascope
