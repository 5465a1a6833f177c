#include "ui/timeline/timelinelayout.h"

#include "core/analysis/why_chain.h"
#include "ui/models/format.h"

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

namespace {
bool timed(const Compile& c)
{
    return c.timeSource != TimeSource::None && c.endUs >= c.startUs && c.startUs > 0;
}

void finish(Row& row)
{
    std::sort(row.spans.begin(), row.spans.end(), [](const Span& a, const Span& b) {
        return a.start < b.start || (a.start == b.start && a.end > b.end);
    });
    row.starts.reserve(row.spans.size());
    std::vector<double> ends;
    ends.reserve(row.spans.size());
    for (const Span& s : row.spans) {
        row.starts.push_back(s.start);
        ends.push_back(s.end);
    }
    row.maxEnds = runningMax(ends);
}

// The phase group of each of a compile's phases, as the report attributes time: a span whose
// name maps to a group has it; one whose name does not inherits the group of the span around it
// (one depth up, covering its start); the outermost unmapped ones are Other.
std::vector<PhaseGroup> groupsOf(const Compile& c)
{
    std::vector<PhaseGroup> out(c.phases.size(), PhaseGroup::Other);
    std::vector<size_t> order(c.phases.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const PhaseSpan& x = c.phases[a];
        const PhaseSpan& y = c.phases[b];
        return x.startUs < y.startUs || (x.startUs == y.startUs && x.depth < y.depth);
    });
    std::vector<size_t> open; // enclosing spans, outermost first
    for (size_t i : order) {
        const PhaseSpan& p = c.phases[i];
        while (!open.empty()
            && (c.phases[open.back()].depth >= p.depth
                || (c.phases[open.back()].endUs > 0 && c.phases[open.back()].endUs < p.startUs)))
            open.pop_back();
        const PhaseGroup enclosing = open.empty() ? PhaseGroup::Other : out[open.back()];
        out[i] = phaseGroupOf(p.name()).value_or(enclosing);
        open.push_back(i);
    }
    return out;
}
} // namespace

void TimelineLayout::clear()
{
    m_rows.clear();
    m_markers.clear();
    m_laneOfCompile.clear();
    m_groups.clear();
    m_bounds = {};
    m_data = {};
    m_hasTime = false;
    m_compactRanks = false;
    m_expandedFile = kNone;
    m_height = 0;
    m_folding = {};
    m_idleGaps = 0;
    m_fileShift.clear();
    m_alignOrigin = 0;
}

uint64_t TimelineLayout::laneKey(const Row& lane)
{
    return lane.frame != kNone ? lane.frame : (uint64_t { 1 } << 40) + lane.file;
}

void TimelineLayout::build(const Trace& t, const LayoutOptions& options)
{
    clear();
    m_laneOfCompile.assign(t.compiles.size(), -1);
    double lo = INFINITY, hi = -INFINITY;
    bool groupSeen[kPhaseGroupCount] = {};
    std::vector<std::vector<PhaseGroup>> groups(t.compiles.size());
    // Compiles and cache events, for folding idle gaps (phases lie inside their compiles).
    std::vector<std::pair<double, double>> busy;
    auto extend = [&](double a, double b) {
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    };
    auto occupy = [&](double a, double b) {
        extend(a, b);
        busy.push_back({ a, b });
    };
    // Aligned ranks: each file's times shifted so that its first record is at the common origin.
    if (options.alignRanks)
        alignFiles(t);
    auto at = [this](uint32_t file, double us) {
        return file < m_fileShift.size() ? us - m_fileShift[file] : us;
    };

    // Frames per file in order of first appearance, plus the frameless compiles.
    std::vector<std::vector<uint32_t>> framesOfFile(t.files.size());
    for (const Frame& f : t.frames) {
        if (f.file < t.files.size())
            framesOfFile[f.file].push_back(f.index);
    }

    auto addLane = [&](uint32_t file, uint32_t frame, const std::vector<uint32_t>& compiles) {
        Row lane;
        lane.kind = Row::Kind::Lane;
        lane.file = file;
        lane.frame = frame;
        QString fn, where;
        if (frame != kNone) {
            const Frame& f = t.frames[frame];
            fn = qs(f.coName);
            where = fileLine(f.coFilename, f.coFirstLineno);
            lane.tooltip = fn + QStringLiteral("  ") + filePlace(qs(f.coFilename), f.coFirstLineno);
        } else {
            fn = QStringLiteral("(no frame id)");
        }
        if (fn.isEmpty() && !compiles.empty())
            fn = compileFunction(t.compiles[compiles.front()]);
        lane.label = where.isEmpty() ? fn : fn + QStringLiteral("  ") + where;
        lane.name = fn;
        lane.where = where;
        lane.compileCount = static_cast<int>(compiles.size());
        int maxDepth = -1;
        for (uint32_t ci : compiles) {
            const Compile& c = t.compiles[ci];
            if (!timed(c))
                continue;
            lane.spans.push_back(
                { at(file, c.startUs), at(file, c.endUs), ci, -1, PhaseGroup::Other });
            occupy(at(file, c.startUs), at(file, c.endUs));
            groups[ci] = groupsOf(c);
            for (size_t pi = 0; pi < c.phases.size(); ++pi) {
                if (c.phases[pi].startUs > 0)
                    groupSeen[static_cast<size_t>(groups[ci][pi])] = true;
            }
            for (const PhaseSpan& p : c.phases) {
                maxDepth = std::max(maxDepth, p.depth);
                // Bounds cover every phase, shown or not, so folding a lane never moves the view.
                if (p.startUs > 0)
                    extend(at(file, p.startUs),
                        at(file,
                            p.endUs > p.startUs
                                ? p.endUs
                                : (p.openEnd ? std::max(p.startUs, c.endUs) : p.startUs)));
            }
        }
        finish(lane);
        const int laneIndex = static_cast<int>(m_rows.size());
        for (const Span& s : lane.spans)
            m_laneOfCompile[s.compile] = laneIndex;
        lane.phaseDepths = std::min(maxDepth, 12) + 1;
        lane.expanded = !options.compact != (options.toggled.count(laneKey(lane)) > 0);
        lane.shownDepths
            = lane.expanded ? std::min(lane.phaseDepths, std::max(0, options.maxPhaseRows)) : 0;
        const int shown = lane.shownDepths;
        const int depths = lane.phaseDepths;
        m_rows.push_back(std::move(lane));
        for (int d = 0; d < shown; ++d) {
            Row pr;
            pr.kind = Row::Kind::Phases;
            pr.file = file;
            pr.frame = frame;
            pr.depth = d;
            // Say when deeper rows are hidden (View > Show All Phase Depths shows them).
            pr.label = d > 0     ? QString()
                : shown < depths ? QStringLiteral("phases (%1 of %2 rows)").arg(shown).arg(depths)
                                 : QStringLiteral("phases");
            for (uint32_t ci : compiles) {
                const Compile& c = t.compiles[ci];
                for (size_t pi = 0; pi < c.phases.size(); ++pi) {
                    const PhaseSpan& p = c.phases[pi];
                    if (p.depth != d || p.startUs <= 0)
                        continue;
                    const double end = p.endUs > p.startUs
                        ? p.endUs
                        : (p.openEnd ? std::max(p.startUs, c.endUs) : p.startUs);
                    const PhaseGroup g
                        = pi < groups[ci].size() ? groups[ci][pi] : PhaseGroup::Other;
                    pr.spans.push_back(
                        { at(file, p.startUs), at(file, end), ci, static_cast<int32_t>(pi), g });
                }
            }
            finish(pr);
            m_rows.push_back(std::move(pr));
        }
    };

    // Compiles per file, in trace order: one pass (a loop over every compile per file made 1,024
    // ranks cost a billion steps).
    std::vector<std::vector<uint32_t>> compilesOfFile(t.files.size());
    std::vector<std::vector<uint32_t>> framelessOfFile(t.files.size());
    for (const Compile& c : t.compiles) {
        if (c.file >= t.files.size())
            continue;
        compilesOfFile[c.file].push_back(c.index);
        if (c.frame == kNone)
            framelessOfFile[c.file].push_back(c.index);
    }
    m_compactRanks = t.files.size() > options.compactRanksAbove;
    m_expandedFile = m_compactRanks
        ? (options.expandedFile < t.files.size() ? options.expandedFile : 0)
        : kNone;
    for (uint32_t fi = 0; fi < t.files.size(); ++fi) {
        Row header;
        header.kind = Row::Kind::Rank;
        header.file = fi;
        header.label = rankLabel(t.files[fi]);
        header.compileCount = static_cast<int>(compilesOfFile[fi].size());
        header.tooltip = qs(t.files[fi].path);
        if (m_compactRanks && fi != m_expandedFile) {
            // One thin row: the rank's compiles as marks; its lanes open when it is expanded.
            header.compactRank = true;
            const int rowIndex = static_cast<int>(m_rows.size());
            for (uint32_t ci : compilesOfFile[fi]) {
                const Compile& c = t.compiles[ci];
                if (!timed(c))
                    continue;
                header.spans.push_back(
                    { at(fi, c.startUs), at(fi, c.endUs), ci, -1, PhaseGroup::Other });
                occupy(at(fi, c.startUs), at(fi, c.endUs));
                m_laneOfCompile[ci] = rowIndex;
            }
            finish(header);
            m_rows.push_back(std::move(header));
            continue;
        }
        m_rows.push_back(std::move(header));
        for (uint32_t fr : framesOfFile[fi]) {
            if (fr < t.frames.size())
                addLane(fi, fr, t.frames[fr].compiles);
        }
        if (!framelessOfFile[fi].empty())
            addLane(fi, kNone, framelessOfFile[fi]);
    }

    // Instant markers: recompiles at the compile's start, graph breaks and failures at its end
    // (the break is found while tracing; what follows it compiles after), cache events at their
    // time.
    for (const Compile& c : t.compiles) {
        if (!timed(c))
            continue;
        if (c.isRecompile()) {
            const RecompileReason* primary = primaryReason(c);
            QString why = primary ? firstLine(primary->text) : firstLine(c.recompileReasonMetric);
            m_markers.push_back({ at(c.file, c.startUs), MarkerKind::Recompile, c.index, why });
        }
        if (!c.graphBreaks.empty())
            m_markers.push_back({ at(c.file, c.endUs), MarkerKind::GraphBreak, c.index,
                firstLine(c.graphBreaks.front().reason) });
        if (c.failure)
            m_markers.push_back({ at(c.file, c.endUs), MarkerKind::Failure, c.index,
                qs(c.failure->type) + QStringLiteral(": ") + firstLine(c.failure->reason) });
        for (const CacheEvent& e : c.cacheEvents) {
            if (e.tsUs <= 0 || e.kind == CacheKind::Bypass)
                continue;
            m_markers.push_back({ at(c.file, e.tsUs),
                e.kind == CacheKind::Hit ? MarkerKind::CacheHit : MarkerKind::CacheMiss, c.index,
                qs(e.cache)
                    + (e.kind == CacheKind::Hit ? QStringLiteral(" hit")
                                                : QStringLiteral(" miss")) });
            occupy(at(c.file, e.tsUs), at(c.file, e.tsUs));
        }
    }
    std::stable_sort(m_markers.begin(), m_markers.end(),
        [](const Marker& a, const Marker& b) { return a.t < b.t; });

    // Compact rank rows share about 2,000 pixels, between 4 and compactRankHeight each.
    const int compactHeight = std::clamp(
        static_cast<int>(2000 / std::max<size_t>(1, t.files.size())), 4, options.compactRankHeight);
    int y = 0;
    for (Row& r : m_rows) {
        r.y = y;
        r.height = r.compactRank        ? compactHeight
            : r.kind == Row::Kind::Rank ? options.rankHeight
            : r.kind == Row::Kind::Lane ? options.laneHeight
                                        : options.phaseHeight;
        y += r.height;
    }
    m_height = y;
    for (PhaseGroup g : legendPhaseGroups()) {
        if (groupSeen[static_cast<size_t>(g)])
            m_groups.push_back(g);
    }
    m_hasTime = std::isfinite(lo) && std::isfinite(hi);
    if (m_hasTime && options.foldGaps)
        foldIdleGaps(std::move(busy), options.unfoldedGaps, lo, hi);
    if (m_hasTime) {
        m_data = { lo, hi };
        const double pad = std::max((hi - lo) * 0.02, 50.0);
        m_bounds = { lo - pad, hi + pad };
    }
}

void TimelineLayout::alignFiles(const Trace& t)
{
    // A file's start: its first record's glog time, else its earliest compile.
    std::vector<double> start(t.files.size(), INFINITY);
    for (uint32_t fi = 0; fi < t.files.size(); ++fi) {
        const TraceFile& f = t.files[fi];
        const uint32_t end = f.firstRecord + std::min<uint32_t>(f.recordCount, 64);
        for (uint32_t r = f.firstRecord; r < end && r < t.records.size(); ++r) {
            const double us = t.glogEpochUs(r);
            if (us > 0) {
                start[fi] = us;
                break;
            }
        }
    }
    for (const Compile& c : t.compiles) {
        if (c.file < start.size() && std::isinf(start[c.file]) && timed(c))
            start[c.file] = std::min(start[c.file], c.startUs); // only when no record had a time
    }
    double origin = INFINITY;
    for (double s : start)
        origin = std::min(origin, s);
    if (!std::isfinite(origin))
        origin = 0;
    m_alignOrigin = origin;
    m_fileShift.assign(t.files.size(), 0);
    for (size_t fi = 0; fi < start.size(); ++fi)
        m_fileShift[fi] = std::isfinite(start[fi]) ? start[fi] - origin : 0;
}

void TimelineLayout::foldIdleGaps(std::vector<std::pair<double, double>> busy,
    const std::set<int64_t>& unfolded, double& lo, double& hi)
{
    IdleGaps found = findIdleGaps(std::move(busy));
    m_idleGaps = found.gaps.size();
    std::vector<IdleGap> gaps;
    for (const IdleGap& g : found.gaps) {
        if (!unfolded.count(g.key()))
            gaps.push_back(g);
    }
    if (gaps.empty())
        return;
    m_folding = TimeFolding(gaps, foldWidthFor(found.busyUs, gaps.size()));
    // Everything to display time: the map is increasing, so sort orders and running maxima hold.
    for (Row& r : m_rows) {
        for (Span& s : r.spans) {
            s.start = m_folding.toDisplay(s.start);
            s.end = m_folding.toDisplay(s.end);
        }
        for (double& v : r.starts)
            v = m_folding.toDisplay(v);
        for (double& v : r.maxEnds)
            v = m_folding.toDisplay(v);
    }
    for (Marker& m : m_markers)
        m.t = m_folding.toDisplay(m.t);
    lo = m_folding.toDisplay(lo);
    hi = m_folding.toDisplay(hi);
}

double TimelineLayout::displayTime(double t, uint32_t file) const
{
    return m_folding.toDisplay(file < m_fileShift.size() ? t - m_fileShift[file] : t);
}

int TimelineLayout::laneOf(uint32_t compile) const
{
    return compile < m_laneOfCompile.size() ? m_laneOfCompile[compile] : -1;
}

int TimelineLayout::rowAt(int y) const
{
    auto it = std::upper_bound(
        m_rows.begin(), m_rows.end(), y, [](int v, const Row& r) { return v < r.y; });
    if (it == m_rows.begin())
        return -1;
    --it;
    return y < it->y + it->height ? static_cast<int>(it - m_rows.begin()) : -1;
}

} // namespace dynascope::ui::timeline
