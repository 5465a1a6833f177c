#include "core/analysis/trace_diff.h"

#include "core/analysis/findings.h"
#include "core/analysis/torch_version.h"
#include "core/analysis/why_chain.h"
#include "core/model/phase_groups.h"
#include "core/util/text_format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace dynascope {

namespace {

// The file's rank, else its position: ranks match ranks, unranked files match by position.
int64_t rankKey(const Trace& t, uint32_t file)
{
    const auto& r = t.files[file].rank;
    return r ? *r : -1 - static_cast<int64_t>(file);
}

// "torch_dynamo_resume_in_step_at_31" -> "torch_dynamo_resume_in_step": the line moves with
// the code around the break.
std::string frameName(const Frame& f)
{
    std::string n = f.coName;
    if (n.starts_with("torch_dynamo_resume_in_")) {
        const size_t at = n.rfind("_at_");
        if (at != std::string::npos
            && n.find_first_not_of("0123456789", at + 4) == std::string::npos)
            n.resize(at);
    }
    return n;
}

std::string label(const Trace& t, uint32_t frame)
{
    const Frame& f = t.frames[frame];
    const std::string place = text::codePlace(text::baseName(f.coFilename), f.coFirstLineno);
    return place.empty() ? f.coName : f.coName + " (" + place + ")";
}

RunCounts countsOf(const Trace& t, const std::vector<uint32_t>& compiles)
{
    RunCounts n;
    for (uint32_t ci : compiles) {
        const Compile& c = t.compiles[ci];
        if (c.startRecord != kNone) {
            ++n.compiles;
            if (c.isRecompile())
                ++n.recompiles;
            n.compileUs += c.durationUs();
        }
        n.graphBreaks += c.graphBreakCount();
        if (c.failure)
            ++n.failures;
        for (const auto& e : c.cacheEvents)
            e.kind == CacheKind::Hit        ? ++n.cacheHits
                : e.kind == CacheKind::Miss ? ++n.cacheMisses
                                            : 0;
    }
    return n;
}

void add(RunCounts& into, const RunCounts& n)
{
    into.compiles += n.compiles;
    into.recompiles += n.recompiles;
    into.graphBreaks += n.graphBreaks;
    into.failures += n.failures;
    into.compileUs += n.compileUs;
    into.cacheHits += n.cacheHits;
    into.cacheMisses += n.cacheMisses;
}

// A graph break as both runs can name it: type, user file name and line, GB code.
struct BreakKey {
    std::string type, file, gb;
    int64_t line = 0;
    auto operator<=>(const BreakKey&) const = default;
    std::string where() const { return file + ":" + std::to_string(line); }
};

std::set<BreakKey> breaksOf(const Trace& t, const std::vector<uint32_t>& compiles)
{
    std::set<BreakKey> out;
    for (uint32_t ci : compiles)
        for (size_t i = 0; i < t.compiles[ci].graphBreaks.size(); ++i) {
            const BreakWhy b = describeBreak(t.compiles[ci].graphBreaks[i], i);
            out.insert({ b.type.empty() ? std::string(text::firstLine(b.reason)) : b.type,
                std::string(text::baseName(b.userLine.file)), b.gbCode, b.userLine.line });
        }
    return out;
}

// Recompile reasons as (mismatch kind, guarded source) -> the values seen.
std::map<std::pair<std::string, std::string>, std::vector<std::string>> reasonsOf(
    const Trace& t, const std::vector<uint32_t>& compiles)
{
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> out;
    for (uint32_t ci : compiles) {
        const RecompileReason* r = primaryReason(t.compiles[ci]);
        if (!r || !t.compiles[ci].isRecompile())
            continue;
        auto& values = out[{ r->mismatch, treeFormSource(r->source) }];
        if (values.empty() && !r->expected.empty())
            values.push_back(r->expected);
        if (!r->actual.empty() && values.size() < 16)
            values.push_back(r->actual);
    }
    return out;
}

// The sizes a compile's guards expect per tensor source: "L['x']" -> "size=[32, 128]".
std::map<std::string, std::string> guardedSizes(const Compile& c)
{
    std::map<std::string, std::string> out;
    const GuardTree* tree = c.guards.get();
    if (!tree)
        return out;
    for (size_t i = 0; i < tree->nodes.size(); ++i) {
        const GuardNode& n = tree->nodes[i];
        if (n.kind != "TENSOR_MATCH")
            continue;
        const size_t s = n.expr.find("size=[");
        if (s == std::string::npos)
            continue;
        const size_t e = n.expr.find(']', s);
        if (e == std::string::npos)
            continue;
        std::string source = tree->sourceOf(static_cast<int>(i));
        if (source.empty()) { // check_tensor(L['x'], ...)
            const size_t open = n.expr.find('(');
            const size_t comma = n.expr.find(',');
            if (open != std::string::npos && comma != std::string::npos && comma > open)
                source = n.expr.substr(open + 1, comma - open - 1);
        }
        out[source] = n.expr.substr(s, e + 1 - s);
    }
    return out;
}

uint32_t firstWithGuards(const Trace& t, const std::vector<uint32_t>& compiles)
{
    for (uint32_t ci : compiles)
        if (t.compiles[ci].guards)
            return ci;
    return kNone;
}

std::string fmtUs(double us)
{
    return text::duration(us);
}

std::string ratio(double a, double b)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", a > 0 ? b / a : 0.0);
    return buf;
}

bool beyondNoise(double a, double b, const DiffOptions& o, double minScale = 1)
{
    if (!std::isfinite(a) || !std::isfinite(b) || a == b) // times of 1e308 in a hostile log
        return false;
    if (std::abs(b - a) <= o.minTimeUs * minScale)
        return false;
    return b >= a * o.timeRatio || a >= b * o.timeRatio;
}

void compareFrames(const Trace& ta, const Trace& tb, const Frame& fa, const Frame& fb, FrameDiff& d,
    const DiffOptions& o)
{
    auto& ch = d.changes;
    const double avgUs = std::max(d.a.compiles ? d.a.compileUs / double(d.a.compiles) : 0.0,
        d.b.compiles ? d.b.compileUs / double(d.b.compiles) : 0.0);
    if (d.a.recompiles != d.b.recompiles) {
        const bool worse = d.b.recompiles > d.a.recompiles;
        ch.push_back({ "recompiles", std::to_string(d.a.recompiles), std::to_string(d.b.recompiles),
            "recompiles " + std::to_string(d.a.recompiles) + " → " + std::to_string(d.b.recompiles),
            worse,
            avgUs
                * double(
                    worse ? d.b.recompiles - d.a.recompiles : d.a.recompiles - d.b.recompiles) });
    } else if (d.a.compiles != d.b.compiles) {
        const bool worse = d.b.compiles > d.a.compiles;
        ch.push_back({ "compiles", std::to_string(d.a.compiles), std::to_string(d.b.compiles),
            "compiles " + std::to_string(d.a.compiles) + " → " + std::to_string(d.b.compiles),
            worse, avgUs });
    }
    // Graph breaks: added, removed, or moved (the same break at another line).
    const auto ba = breaksOf(ta, fa.compiles), bb = breaksOf(tb, fb.compiles);
    std::vector<BreakKey> added, removed;
    std::set_difference(bb.begin(), bb.end(), ba.begin(), ba.end(), std::back_inserter(added));
    std::set_difference(ba.begin(), ba.end(), bb.begin(), bb.end(), std::back_inserter(removed));
    for (auto it = added.begin(); it != added.end();) {
        auto moved = std::find_if(removed.begin(), removed.end(),
            [&](const BreakKey& r) { return r.type == it->type && r.gb == it->gb; });
        if (moved == removed.end()) {
            ++it;
            continue;
        }
        ch.push_back({ "graph_break_moved", moved->where(), it->where(),
            "graph break moved: " + it->type + " from " + moved->where() + " to " + it->where(),
            false, 0 });
        removed.erase(moved);
        it = added.erase(it);
    }
    for (const auto& k : added)
        ch.push_back({ "graph_break_added", "", k.where(),
            "new graph break at " + k.where() + ": " + k.type
                + (k.gb.empty() ? "" : " (" + k.gb + ")"),
            true, std::max(avgUs, 1.0) * 2 });
    for (const auto& k : removed)
        ch.push_back({ "graph_break_removed", k.where(), "",
            "graph break gone from " + k.where() + ": " + k.type, false, std::max(avgUs, 1.0) });
    // Recompile reasons by what failed.
    const auto ra = reasonsOf(ta, fa.compiles), rb = reasonsOf(tb, fb.compiles);
    auto values = [](const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? " → " : "") + v[i];
        return s;
    };
    for (const auto& [key, v] : rb)
        if (!ra.count(key))
            ch.push_back({ "recompile_reason_added", "", key.first + " of " + key.second,
                "now recompiles on the " + key.first + " of " + key.second
                    + (v.empty() ? "" : ": " + values(v)),
                true, avgUs });
    for (const auto& [key, v] : ra)
        if (!rb.count(key))
            ch.push_back({ "recompile_reason_removed", key.first + " of " + key.second, "",
                "no longer recompiles on the " + key.first + " of " + key.second
                    + (v.empty() ? "" : " (was " + values(v) + ")"),
                false, avgUs });
    // Guards of the first compile: sizes that became dynamic or static, and the guard count.
    const uint32_t ga = firstWithGuards(ta, fa.compiles), gb = firstWithGuards(tb, fb.compiles);
    if (ga != kNone && gb != kNone) {
        const auto sa = guardedSizes(ta.compiles[ga]), sb = guardedSizes(tb.compiles[gb]);
        for (const auto& [source, size] : sb) {
            auto it = sa.find(source);
            if (it != sa.end() && it->second != size)
                ch.push_back({ "guard_shape", source + " " + it->second, source + " " + size,
                    "the first compile guards " + source + " " + size + ", was " + it->second,
                    false, 0 });
        }
        const size_t na = ta.compiles[ga].guards->guardCount();
        const size_t nb = tb.compiles[gb].guards->guardCount();
        if (na != nb)
            ch.push_back({ "guard_count", std::to_string(na), std::to_string(nb),
                "guards of the first compile " + std::to_string(na) + " → " + std::to_string(nb),
                nb > na * 2 && nb > na + 100, 0 });
    }
    // Failures by type.
    std::set<std::string> fa_, fb_;
    for (uint32_t ci : fa.compiles)
        if (ta.compiles[ci].failure)
            fa_.insert(ta.compiles[ci].failure->type);
    for (uint32_t ci : fb.compiles)
        if (tb.compiles[ci].failure)
            fb_.insert(tb.compiles[ci].failure->type);
    for (const auto& f : fb_)
        if (!fa_.count(f))
            ch.push_back({ "failure_new", "", f, "now fails: " + f, true, 1e15 });
    for (const auto& f : fa_)
        if (!fb_.count(f))
            ch.push_back({ "failure_fixed", f, "", "no longer fails: " + f, false, 1e14 });
    // Compile time, and per compiler phase.
    if (beyondNoise(d.a.compileUs, d.b.compileUs, o))
        ch.push_back({ "compile_time", fmtUs(d.a.compileUs), fmtUs(d.b.compileUs),
            "compile time " + fmtUs(d.a.compileUs) + " → " + fmtUs(d.b.compileUs) + " ("
                + ratio(d.a.compileUs, d.b.compileUs) + ")",
            d.b.compileUs > d.a.compileUs, std::abs(d.b.compileUs - d.a.compileUs) });
    PhaseTimes pa {}, pb {};
    for (uint32_t ci : fa.compiles) {
        const PhaseTimes p = phaseTimes(ta.compiles[ci]);
        for (size_t i = 0; i < kPhaseGroupCount; ++i)
            pa[i] += p[i];
    }
    for (uint32_t ci : fb.compiles) {
        const PhaseTimes p = phaseTimes(tb.compiles[ci]);
        for (size_t i = 0; i < kPhaseGroupCount; ++i)
            pb[i] += p[i];
    }
    for (size_t i = 0; i < kPhaseGroupCount; ++i)
        if (beyondNoise(pa[i], pb[i], o, 2)) { // a phase is noisier than the whole
            const std::string name = phaseGroupLabel(static_cast<PhaseGroup>(i));
            ch.push_back({ "phase_time", fmtUs(pa[i]), fmtUs(pb[i]),
                name + " " + fmtUs(pa[i]) + " → " + fmtUs(pb[i]) + " (" + ratio(pa[i], pb[i]) + ")",
                pb[i] > pa[i], std::abs(pb[i] - pa[i]) / 2 });
        }
    // Caches.
    if (d.a.cacheHits > d.b.cacheHits && d.b.cacheMisses > d.a.cacheMisses)
        ch.push_back({ "cache_hits_to_misses",
            std::to_string(d.a.cacheHits) + " hits, " + std::to_string(d.a.cacheMisses) + " misses",
            std::to_string(d.b.cacheHits) + " hits, " + std::to_string(d.b.cacheMisses) + " misses",
            "cache hits became misses", true, d.b.compileUs / 4 });
    else if (d.b.cacheHits > d.a.cacheHits && d.a.cacheMisses > d.b.cacheMisses)
        ch.push_back({ "cache_misses_to_hits",
            std::to_string(d.a.cacheHits) + " hits, " + std::to_string(d.a.cacheMisses) + " misses",
            std::to_string(d.b.cacheHits) + " hits, " + std::to_string(d.b.cacheMisses) + " misses",
            "cache misses became hits", false, d.a.compileUs / 4 });
    std::stable_sort(ch.begin(), ch.end(),
        [](const DiffChange& x, const DiffChange& y) { return x.impact > y.impact; });
}

} // namespace

const char* toString(FrameDiff::Status s)
{
    switch (s) {
    case FrameDiff::Status::Changed:
        return "changed";
    case FrameDiff::Status::OnlyA:
        return "only_a";
    case FrameDiff::Status::OnlyB:
        return "only_b";
    case FrameDiff::Status::Same:
        break;
    }
    return "same";
}

size_t TraceDiff::changedFrames() const
{
    return static_cast<size_t>(std::count_if(frames.begin(), frames.end(),
        [](const FrameDiff& f) { return f.status != FrameDiff::Status::Same; }));
}

TraceDiff diffTraces(const DiffSide& sideA, const DiffSide& sideB, const DiffOptions& o)
{
    const Trace& ta = sideA.trace;
    const Trace& tb = sideB.trace;
    TraceDiff out;
    // Frames per rank key; two single-rank traces share one key (B's).
    std::set<int64_t> ranksA, ranksB;
    for (uint32_t i = 0; i < ta.files.size(); ++i)
        ranksA.insert(rankKey(ta, i));
    for (uint32_t i = 0; i < tb.files.size(); ++i)
        ranksB.insert(rankKey(tb, i));
    const bool oneEach = ranksA.size() == 1 && ranksB.size() == 1;
    std::map<int64_t, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> byRank;
    for (const Frame& f : ta.frames)
        byRank[oneEach ? *ranksB.begin() : rankKey(ta, f.file)].first.push_back(f.index);
    for (const Frame& f : tb.frames)
        byRank[rankKey(tb, f.file)].second.push_back(f.index);
    for (auto& [rank, sides] : byRank) {
        // Plain references: clang 14 (Debian 12's) cannot capture structured bindings.
        auto& fa = sides.first;
        auto& fb = sides.second;
        std::vector<bool> usedA(fa.size()), usedB(fb.size());
        std::vector<std::tuple<size_t, size_t, const char*>> pairs;
        // Passes from the strictest key to the loosest; each pairs frames in trace order.
        auto pass = [&](auto key, const char* how, bool uniqueOnly) {
            std::map<decltype(key(ta, 0u)), std::pair<std::vector<size_t>, std::vector<size_t>>> m;
            for (size_t i = 0; i < fa.size(); ++i)
                if (!usedA[i])
                    m[key(ta, fa[i])].first.push_back(i);
            for (size_t j = 0; j < fb.size(); ++j)
                if (!usedB[j])
                    m[key(tb, fb[j])].second.push_back(j);
            for (auto& [k, ab] : m) {
                if (uniqueOnly && (ab.first.size() != 1 || ab.second.size() != 1))
                    continue;
                for (size_t n = 0; n < std::min(ab.first.size(), ab.second.size()); ++n) {
                    usedA[ab.first[n]] = usedB[ab.second[n]] = true;
                    pairs.emplace_back(ab.first[n], ab.second[n], how);
                }
            }
        };
        pass(
            [](const Trace& t, uint32_t f) {
                const Frame& fr = t.frames[f];
                return std::make_tuple(frameName(fr), std::string(text::baseName(fr.coFilename)),
                    fr.coName.starts_with("torch_dynamo_resume_in_") ? 0 : fr.coFirstLineno);
            },
            "code object", false);
        pass(
            [](const Trace& t, uint32_t f) {
                const Frame& fr = t.frames[f];
                return std::make_tuple(
                    frameName(fr), std::string(text::baseName(fr.coFilename)), int64_t(0));
            },
            "function and file", false);
        pass(
            [](const Trace& t, uint32_t f) {
                return std::make_tuple(frameName(t.frames[f]), std::string(), int64_t(0));
            },
            "function", true);
        const std::optional<int64_t> rankValue
            = rank >= 0 ? std::optional<int64_t>(rank) : std::nullopt;
        for (auto [i, j, how] : pairs) {
            const Frame& a = ta.frames[fa[i]];
            const Frame& b = tb.frames[fb[j]];
            FrameDiff d;
            d.rank = rankValue;
            d.frameA = a.index;
            d.frameB = b.index;
            d.label = label(tb, b.index);
            d.matchedBy = how;
            d.a = countsOf(ta, a.compiles);
            d.b = countsOf(tb, b.compiles);
            compareFrames(ta, tb, a, b, d, o);
            d.status = d.changes.empty() ? FrameDiff::Status::Same : FrameDiff::Status::Changed;
            for (const auto& c : d.changes)
                d.impact += c.impact;
            out.frames.push_back(std::move(d));
        }
        auto only = [&](const Trace& t, uint32_t frame, bool inA) {
            FrameDiff d;
            d.rank = rankValue;
            d.status = inA ? FrameDiff::Status::OnlyA : FrameDiff::Status::OnlyB;
            (inA ? d.frameA : d.frameB) = frame;
            d.label = label(t, frame);
            (inA ? d.a : d.b) = countsOf(t, t.frames[frame].compiles);
            const RunCounts& n = inA ? d.a : d.b;
            d.changes.push_back(
                { inA ? "frame_only_a" : "frame_only_b", inA ? d.label : "", inA ? "" : d.label,
                    std::string(inA ? "no longer compiled: " : "newly compiled: ") + d.label + " ("
                        + std::to_string(n.compiles) + " compile" + (n.compiles == 1 ? "" : "s")
                        + ", " + fmtUs(n.compileUs) + ")",
                    !inA, n.compileUs + (n.failures ? 1e15 : 0) });
            d.impact = d.changes.back().impact;
            out.frames.push_back(std::move(d));
        };
        for (size_t i = 0; i < fa.size(); ++i)
            if (!usedA[i])
                only(ta, fa[i], true);
        for (size_t j = 0; j < fb.size(); ++j)
            if (!usedB[j])
                only(tb, fb[j], false);
    }
    for (const auto& f : out.frames) {
        add(out.a, f.a);
        add(out.b, f.b);
    }
    std::stable_sort(
        out.frames.begin(), out.frames.end(), [](const FrameDiff& x, const FrameDiff& y) {
            const bool sx = x.status == FrameDiff::Status::Same,
                       sy = y.status == FrameDiff::Status::Same;
            if (sx != sy)
                return sy;
            return x.impact > y.impact;
        });
    // The runs: version, findings in one run only.
    out.versionA = torchVersion(ta);
    out.versionB = torchVersion(tb);
    if (out.versionA != out.versionB)
        out.runChanges.push_back({ "pytorch_version", out.versionA, out.versionB,
            "PyTorch " + (out.versionA.empty() ? std::string("(not logged)") : out.versionA) + " → "
                + (out.versionB.empty() ? std::string("(not logged)") : out.versionB),
            false, 0 });
    auto findingKeys = [](const DiffSide& side) {
        const Trace& t = side.trace;
        std::map<std::pair<std::string, std::string>, std::string> keys;
        for (const Finding& f : side.findings) {
            if (f.severity == FindingSeverity::Note)
                continue;
            const std::string fn
                = f.frame < t.frames.size() ? frameName(t.frames[f.frame]) : std::string();
            keys.emplace(std::make_pair(std::string(toString(f.rule)), fn), f.title);
        }
        return keys;
    };
    const auto ka = findingKeys(sideA), kb = findingKeys(sideB);
    for (const auto& [k, title] : kb)
        if (!ka.count(k))
            out.runChanges.push_back(
                { "finding_new", "", k.first, "new finding: " + title, true, 0 });
    for (const auto& [k, title] : ka)
        if (!kb.count(k))
            out.runChanges.push_back(
                { "finding_gone", k.first, "", "finding gone: " + title, false, 0 });
    return out;
}

std::optional<FailOn> parseFailOn(const std::string& list, std::string& error)
{
    FailOn f;
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos)
            comma = list.size();
        const std::string item = list.substr(pos, comma - pos);
        pos = comma + 1;
        if (item == "graph-breaks")
            f.graphBreaks = true;
        else if (item == "recompiles")
            f.recompiles = true;
        else if (item == "failures")
            f.failures = true;
        else if (item.starts_with("compile-time")) {
            double pct = 20;
            if (item.size() > 12) {
                if (item[12] != '=') {
                    error = "unknown --fail-on item '" + item + "'";
                    return std::nullopt;
                }
                std::string v = item.substr(13);
                if (!v.empty() && v.back() == '%')
                    v.pop_back();
                char* end = nullptr;
                pct = std::strtod(v.c_str(), &end);
                if (v.empty() || *end || pct < 0) {
                    error = "--fail-on compile-time wants a percentage, e.g. compile-time=20%";
                    return std::nullopt;
                }
            }
            f.compileTimeRatio = pct / 100;
        } else if (!item.empty()) {
            error = "unknown --fail-on item '" + item
                + "' (graph-breaks, recompiles, failures, compile-time=N%)";
            return std::nullopt;
        }
        if (comma == list.size())
            break;
    }
    return f;
}

std::vector<std::string> regressions(const TraceDiff& d, const FailOn& fail)
{
    std::vector<std::string> out;
    auto count = [](const char* what, uint64_t a, uint64_t b) {
        return std::string(what) + ": " + std::to_string(a) + " → " + std::to_string(b);
    };
    bool newBreak = false, newFailure = false;
    for (const auto& f : d.frames)
        for (const auto& c : f.changes) {
            newBreak = newBreak || c.kind == "graph_break_added";
            newFailure = newFailure || c.kind == "failure_new";
        }
    if (fail.graphBreaks && (d.b.graphBreaks > d.a.graphBreaks || newBreak))
        out.push_back(count("graph breaks", d.a.graphBreaks, d.b.graphBreaks)
            + (newBreak ? " (a new break)" : ""));
    if (fail.recompiles && d.b.recompiles > d.a.recompiles)
        out.push_back(count("recompiles", d.a.recompiles, d.b.recompiles));
    if (fail.failures && (d.b.failures > d.a.failures || newFailure))
        out.push_back(
            count("failures", d.a.failures, d.b.failures) + (newFailure ? " (a new failure)" : ""));
    if (fail.compileTimeRatio && d.b.compileUs > d.a.compileUs * (1 + *fail.compileTimeRatio))
        out.push_back("compile time: " + fmtUs(d.a.compileUs) + " → " + fmtUs(d.b.compileUs) + " ("
            + ratio(d.a.compileUs, d.b.compileUs) + ")");
    return out;
}

} // namespace dynascope
