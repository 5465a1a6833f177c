#include "core/export/timeline_svg_marks.h"

#include "core/analysis/why_chain.h"
#include "core/export/svg_text.h"
#include "core/load/finish/graph_break_text.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <cmath>

namespace dynascope::timeline_svg {

namespace {
constexpr const char* kRecompile = "#0072B2"; // markerStyle(Recompile)
constexpr const char* kBreak = "#E69F00"; // markerStyle(GraphBreak)
constexpr const char* kBreakEdge = "#7a5400";
constexpr const char* kFailure = "#D55E00"; // markerStyle(Failure)

// The app's status look (statusStyle(): Okabe-Ito hues for a light base), with an outline where
// the fill alone would be the only signal, and the text colour that reads on the fill.
struct Look {
    const char* fill;
    const char* word;
    const char* text;
    const char* edge = nullptr;
    const char* dash = nullptr;
};
Look look(CompileStatus s)
{
    switch (s) {
    case CompileStatus::Ok:
        return { "#009E73", "ok", "#ffffff" };
    case CompileStatus::GraphBreak:
        return { "#E69F00", "graph break", kInk };
    case CompileStatus::Empty:
        return { "#999999", "empty", kInk, "#404040", "3 2" };
    case CompileStatus::Error:
        return { "#D55E00", "error", "#ffffff" };
    case CompileStatus::Missing:
        break;
    }
    return { "#CC79A7", "missing", kInk, "#6b2c52", "1 1.5" };
}
constexpr CompileStatus kStatuses[] = { CompileStatus::Ok, CompileStatus::GraphBreak,
    CompileStatus::Empty, CompileStatus::Error, CompileStatus::Missing };
size_t slot(CompileStatus s)
{
    return static_cast<size_t>(s);
}

bool breaks(const Compile& c)
{
    return !c.graphBreaks.empty() || c.status == CompileStatus::GraphBreak;
}
bool fails(const Compile& c)
{
    return c.failure || c.status == CompileStatus::Error;
}

std::string stroke(const char* colour, const char* width)
{
    return std::string(" stroke=\"") + colour + "\" stroke-width=\"" + width + "\"";
}

// Marker shapes centred on (cx, cy).
void triangle(Picture& p, double cx, double cy, const std::string& extra)
{
    p.out += "<path d=\"M" + svg::num(cx - 4.5) + " " + svg::num(cy - 3.5) + "h9l-4.5 7z\" fill=\""
        + kBreak + "\"" + stroke(kBreakEdge, "0.8") + extra + "/>\n";
}
void cross(Picture& p, double cx, double cy, const std::string& extra)
{
    p.out += "<path d=\"M" + svg::num(cx - 3) + " " + svg::num(cy - 3)
        + "l6 6m0 -6l-6 6\" fill=\"none\"" + stroke(kFailure, "2") + extra + "/>\n";
}
void ring(Picture& p, double cx, double cy, const std::string& extra)
{
    p.out += "<circle cx=\"" + svg::num(cx) + "\" cy=\"" + svg::num(cy)
        + "\" r=\"2.6\" fill=\"#ffffff\"" + stroke(kRecompile, "1.6") + extra + "/>\n";
}

std::string functionOf(const Trace& t, const Compile& c)
{
    if (!c.coName.empty())
        return c.coName;
    if (!c.stack.empty())
        return std::string(c.stack.back().name);
    return c.frame != kNone ? t.frames[c.frame].coName : std::string();
}

// Id, function, status, duration; then the first line of the recompile reason, of the first
// graph break and of the failure.
std::string compileTitle(const Trace& t, const Compile& c)
{
    std::string s = svg::text(c.id.display() + " #" + std::to_string(c.index) + " "
            + functionOf(t, c) + " · " + look(c.status).word
            + (c.isRecompile() ? " · recompile" : "") + " · " + text::duration(c.durationUs()),
        kTitleChars);
    auto line = [&](const char* what, std::string_view body) {
        if (!body.empty())
            s += "\n" + svg::text(what + std::string(text::firstLine(body)), kTitleChars);
    };
    if (c.isRecompile()) {
        const RecompileReason* r = primaryReason(c);
        line("recompile: ", r ? std::string_view(r->text) : c.recompileReasonMetric);
    }
    if (!c.graphBreaks.empty())
        line("graph break: ", c.graphBreaks.front().reason);
    else if (!c.restartReasons.empty()) {
        const RestartKind k = restartKindOf(c.restartReasons.front());
        if (k.kind.empty())
            line("graph break: ", c.restartReasons.front());
        else
            line("restarted (no graph break): ", k.kind);
    }
    if (c.failure)
        line("failure: ", c.failure->type + ": " + std::string(text::firstLine(c.failure->reason)));
    return s;
}

std::string groupTitle(const Trace& t, const Group& g)
{
    const Compile& first = t.compiles[g.members.front()];
    const Compile& last = t.compiles[g.members.back()];
    size_t counts[5] = {};
    double busy = 0;
    for (uint32_t ci : g.members) {
        ++counts[slot(t.compiles[ci].status)];
        busy += t.compiles[ci].durationUs();
    }
    std::string s = std::to_string(g.members.size()) + " compiles less than a pixel apart, "
        + first.id.display() + " #" + std::to_string(first.index) + " to " + last.id.display()
        + " #" + std::to_string(last.index) + " · " + text::duration(busy) + " compiling";
    for (CompileStatus st : kStatuses)
        if (counts[slot(st)])
            s += std::string("\n") + look(st).word + ": " + std::to_string(counts[slot(st)]);
    return svg::text(s, 2 * kTitleChars, true);
}

// The status a merged rect shows: its most frequent one (ties: the later, worse one).
CompileStatus groupStatus(const Trace& t, const Group& g)
{
    size_t counts[5] = {};
    for (uint32_t ci : g.members)
        ++counts[slot(t.compiles[ci].status)];
    CompileStatus best = CompileStatus::Ok;
    for (CompileStatus st : kStatuses)
        if (counts[slot(st)] >= counts[slot(best)])
            best = st;
    return best;
}
} // namespace

bool timed(const Compile& c)
{
    return c.timeSource != TimeSource::None && std::isfinite(c.startUs) && std::isfinite(c.endUs)
        && c.startUs > 0 && c.endUs >= c.startUs;
}

void Picture::text(double x, int y, const std::string& escaped, const char* fill, int size,
    const std::string& extra)
{
    out += "<text x=\"" + svg::num(x) + "\" y=\"" + std::to_string(y) + "\" fill=\"" + fill + "\""
        + (size != 11 ? " font-size=\"" + std::to_string(size) + "px\"" : "") + extra + ">"
        + escaped + "</text>\n";
}

void Picture::rect(
    double x, double y, double w, double h, const char* fill, const std::string& extra)
{
    out += "<rect x=\"" + svg::num(x) + "\" y=\"" + svg::num(y) + "\" width=\"" + svg::num(w)
        + "\" height=\"" + svg::num(h) + "\" fill=\"" + fill + "\"" + extra + "/>\n";
}

std::vector<Group> groupsOf(const Picture& p, const std::vector<uint32_t>& compiles, bool merge)
{
    std::vector<uint32_t> order;
    for (uint32_t ci : compiles)
        if (timed(p.t.compiles[ci]))
            order.push_back(ci);
    std::stable_sort(order.begin(), order.end(),
        [&](uint32_t a, uint32_t b) { return p.t.compiles[a].startUs < p.t.compiles[b].startUs; });
    std::vector<Group> groups;
    for (uint32_t ci : order) {
        const Compile& c = p.t.compiles[ci];
        const double x0 = p.x(c.startUs), x1 = std::max(p.x(c.endUs), x0 + 2);
        if (merge && !groups.empty() && x0 < groups.back().x1 + 1) {
            groups.back().x1 = std::max(groups.back().x1, x1);
            groups.back().members.push_back(ci);
        } else {
            groups.push_back({ x0, x1, { ci } });
        }
    }
    return groups;
}

void drawGroup(Picture& p, const Group& g, int laneY, LaneMarks& marks, Seen& seen)
{
    const bool single = g.members.size() == 1;
    const Compile& c = p.t.compiles[g.members.front()];
    bool lit = false, recompile = false, broke = false, failed = false;
    for (uint32_t ci : g.members) {
        const Compile& m = p.t.compiles[ci];
        lit = lit || p.lit(ci);
        recompile = recompile || m.isRecompile();
        broke = broke || breaks(m);
        failed = failed || fails(m);
        seen.status[slot(m.status)] = true;
    }
    seen.graphBreak = seen.graphBreak || broke;
    seen.failure = seen.failure || failed;
    seen.recompile = seen.recompile || recompile;
    if (!single) {
        ++seen.mergedRects;
        seen.mergedCompiles += g.members.size();
    }
    const Look lk = look(single ? c.status : groupStatus(p.t, g));
    const std::string opacity = p.fade && !lit ? " opacity=\"0.28\"" : "";
    std::string attrs = single ? " class=\"compile\"" : " class=\"compile merged\"";
    if (p.fade && lit)
        attrs += stroke(kInk, "2");
    else if (recompile)
        attrs += stroke(kRecompile, "1.5");
    else if (lk.edge)
        attrs += std::string(" stroke=\"") + lk.edge + "\" stroke-dasharray=\"" + lk.dash + "\"";
    const double w = g.x1 - g.x0;
    p.out += "<rect x=\"" + svg::num(g.x0) + "\" y=\"" + std::to_string(laneY + kBarTop)
        + "\" width=\"" + svg::num(w) + "\" height=\"" + std::to_string(kBarH) + "\" fill=\""
        + lk.fill + "\"" + attrs + opacity + "><title>"
        + (single ? compileTitle(p.t, c) : groupTitle(p.t, g)) + "</title></rect>\n";
    const std::string label = single ? c.id.display() : std::to_string(g.members.size()) + "×";
    if (w > static_cast<double>(label.size()) * 5.5 + 6)
        p.text(g.x0 + 3, laneY + kBarTop + kBarH - 3, svg::text(label, 24), lk.text, 9,
            " pointer-events=\"none\"" + opacity);
    // A marker a few pixels from the previous one of its kind in the lane would only blur it.
    const double below = laneY + kBarTop + kBarH + 4.5;
    auto room = [&](double& last, double x) {
        const bool free = x - last >= 6 || (p.fade && lit);
        last = free ? x : last;
        return free;
    };
    if (broke && room(marks.graphBreak, g.x1))
        triangle(p, g.x1, laneY + 4, opacity);
    if (failed && room(marks.failure, g.x1))
        cross(p, g.x1, below, opacity);
    const double ringX = failed ? std::min(g.x0 + 2.5, g.x1 - 9) : g.x0 + 2.5;
    if (recompile && room(marks.recompile, ringX))
        ring(p, ringX, below, opacity);
}

int drawLegend(Picture& p, const Seen& seen, int y, int width)
{
    // A status swatch and the marker that goes with it share an item.
    struct Item {
        const char* swatch; // fill, or null
        const char* edge;
        const char* dash;
        int marker; // 0 none, 1 graph break, 2 failure, 3 recompile, 4 highlighted
        const char* word;
    };
    std::vector<Item> items;
    for (CompileStatus st : kStatuses) {
        const Look lk = look(st);
        const int marker = st == CompileStatus::GraphBreak && seen.graphBreak ? 1
            : st == CompileStatus::Error && seen.failure                      ? 2
                                                                              : 0;
        if (seen.status[slot(st)] || marker)
            items.push_back({ seen.status[slot(st)] ? lk.fill : nullptr, lk.edge, lk.dash, marker,
                marker == 2 && !seen.status[slot(st)] ? "failure" : lk.word });
    }
    if (seen.recompile)
        items.push_back({ nullptr, nullptr, nullptr, 3, "recompile" });
    if (p.fade)
        items.push_back({ nullptr, nullptr, nullptr, 4, "highlighted (others faded)" });
    double x = kPad;
    for (const Item& it : items) {
        const double w = (it.swatch ? 15 : 0) + (it.marker ? 13 : 0)
            + static_cast<double>(std::string_view(it.word).size()) * kCharW + 14;
        if (x > kPad && x + w > width - kPad) {
            x = kPad;
            y += kLineH;
        }
        const double cy = y - 4;
        if (it.swatch) {
            std::string extra;
            if (it.edge)
                extra = std::string(" stroke=\"") + it.edge + "\" stroke-dasharray=\"" + it.dash
                    + "\"";
            p.rect(x, cy - 5, 11, 10, it.swatch, extra);
            x += 15;
        }
        if (it.marker == 1)
            triangle(p, x + 5, cy, "");
        else if (it.marker == 2)
            cross(p, x + 5, cy, "");
        else if (it.marker == 3) {
            p.rect(x - 1, cy - 5, 12, 10, "#ffffff", stroke(kRecompile, "1.5"));
            ring(p, x + 5, cy, "");
        } else if (it.marker == 4)
            p.rect(x - 1, cy - 5, 12, 10, "#ffffff", stroke(kInk, "2"));
        if (it.marker)
            x += 13;
        p.text(x + 1, y, it.word, kInk);
        x += static_cast<double>(std::string_view(it.word).size()) * kCharW + 14;
    }
    return y + 5;
}

} // namespace dynascope::timeline_svg
