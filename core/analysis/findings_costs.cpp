// cold-start, cache-miss, empty-graph, small-graphs, guard-cost (findings.h).
#include "core/analysis/findings_rules.h"

#include <algorithm>
#include <map>

namespace dynascope::findings {

namespace {

constexpr int64_t kManyGuards = 1000;
constexpr int64_t kSmallGraphOps = 3;

// A file's traced wall time: from its first record to its last that carries a glog time.
double tracedWallUs(const Trace& t, const TraceFile& f)
{
    uint32_t first = kNone, last = kNone;
    uint16_t firstDate = 0, lastDate = 0;
    for (uint32_t r = f.firstRecord; r < f.firstRecord + f.recordCount; ++r) {
        if (t.records[r].glogMs == kNone)
            continue;
        if (first == kNone) {
            first = t.records[r].glogMs;
            firstDate = t.records[r].glogDate;
        }
        last = t.records[r].glogMs;
        lastDate = t.records[r].glogDate;
    }
    if (first == kNone)
        return 0;
    double ms = static_cast<double>(last) - static_cast<double>(first);
    if (lastDate != firstDate) // past midnight (a day at most is assumed)
        ms += 24.0 * 3600 * 1000;
    return ms * 1000;
}

// A compilation_metrics number that the model does not keep ("guard_latency_us").
std::optional<double> metricNumber(const Compile& c, std::string_view key)
{
    const std::string json = c.metricsJson.text();
    const std::string quoted = "\"" + std::string(key) + "\": ";
    const size_t p = json.find(quoted);
    if (p == std::string_view::npos)
        return std::nullopt;
    const size_t start = p + quoted.size();
    size_t end = start;
    while (end < json.size() && ((json[end] >= '0' && json[end] <= '9') || json[end] == '.'))
        ++end;
    if (end == start)
        return std::nullopt;
    return std::strtod(std::string(json.substr(start, end - start)).c_str(), nullptr);
}

void coldStart(Context& cx)
{
    const Trace& t = cx.trace;
    // Ranks compile side by side: the file (rank) that spent the most time compiling.
    std::vector<double> totals(t.files.size(), 0);
    for (const Compile& c : t.compiles)
        if (c.startRecord != kNone && c.file < totals.size())
            totals[c.file] += c.durationUs();
    const size_t file
        = static_cast<size_t>(std::max_element(totals.begin(), totals.end()) - totals.begin());
    uint32_t first = kNone;
    std::vector<uint32_t> timed;
    std::vector<std::pair<double, double>> spans;
    for (const Compile& c : t.compiles) {
        if (c.startRecord == kNone || c.durationUs() <= 0 || c.file != file)
            continue;
        spans.push_back({ c.startUs, c.endUs });
        timed.push_back(c.index);
        if (first == kNone || c.startUs < t.compiles[first].startUs)
            first = c.index;
    }
    if (first == kNone)
        return;
    // Time spent compiling is the union of the compiles' spans: compiles can overlap (a frame
    // compiled while another one compiles, or several compiles given one span by the log), and
    // their sum then exceeded the traced wall time ("6.68 s of the 4.88 s").
    std::sort(spans.begin(), spans.end());
    double total = 0, openStart = spans.front().first, openEnd = spans.front().second;
    for (const auto& [a, b] : spans) {
        if (a > openEnd) {
            total += openEnd - openStart;
            openStart = a;
        }
        openEnd = std::max(openEnd, b);
    }
    total += openEnd - openStart;
    const double wall = tracedWallUs(t, t.files[file]);
    Finding& f = cx.add(Rule::ColdStart, FindingSeverity::Note, t.compiles[first].frame);
    const Compile& c0 = t.compiles[first];
    char pct[16] = "";
    if (wall > 0)
        std::snprintf(pct, sizeof pct, "%.0f%%", std::min(100.0, 100.0 * total / wall));
    f.title = "Compiling took " + formatUs(total)
        + (wall > 0 ? " of the " + formatUs(wall) + " the trace covers (" + pct + ")" : "")
        + "; the first compile, " + findingCompileLabel(t, first) + " " + cx.frameMention(c0.frame)
        + ", took " + formatUs(c0.durationUs());
    f.compiles = { first };
    f.count = timed.size();
    f.costUs = total;
    f.evidence.emplace_back("compiles", std::to_string(timed.size()));
    f.evidence.emplace_back("compile time", formatUs(total));
    if (wall > 0)
        f.evidence.emplace_back("traced wall time", formatUs(wall));
    f.evidence.emplace_back(
        "first compile", findingCompileLabel(t, first) + ", " + formatUs(c0.durationUs()));
    f.why = "The first calls pay for compiling: time them apart from the steady state before "
            "judging the speed-up.";
    f.hint = "Measure the steady state on its own (the calls after the first; "
             "dynascope-cli probe does it). For runs that start again, keep the caches warm "
             "(the FX graph cache is on by default; torch.compiler.save_cache_artifacts() "
             "carries it to another machine).";
}

void cacheMisses(Context& cx)
{
    const Trace& t = cx.trace;
    struct Counts {
        uint64_t misses = 0, bypasses = 0, hits = 0;
        std::vector<uint32_t> compiles;
        std::string bypassReason;
    };
    std::map<std::string, Counts> byCache;
    for (const Compile& c : t.compiles) {
        for (const CacheEvent& e : c.cacheEvents) {
            Counts& n = byCache[e.cache];
            if (e.kind == CacheKind::Hit) {
                ++n.hits;
                continue;
            }
            ++(e.kind == CacheKind::Miss ? n.misses : n.bypasses);
            if (n.compiles.empty() || n.compiles.back() != c.index)
                n.compiles.push_back(c.index);
            if (e.kind == CacheKind::Bypass && n.bypassReason.empty() && e.record != kNone) {
                const std::string payload = t.payload(e.record);
                const size_t p = payload.find("reason");
                if (p != std::string::npos)
                    n.bypassReason = std::string(firstLine(payload.substr(p, 200)));
            }
        }
    }
    for (const auto& [cache, n] : byCache) {
        if (n.misses + n.bypasses == 0)
            continue;
        Finding& f = cx.add(
            Rule::CacheMiss, n.bypasses ? FindingSeverity::Warning : FindingSeverity::Note, kNone);
        std::string parts;
        if (n.misses)
            parts = std::to_string(n.misses) + " miss" + (n.misses == 1 ? "" : "es");
        if (n.bypasses)
            parts += (parts.empty() ? "" : ", ") + std::to_string(n.bypasses) + " bypassed";
        f.title = cache + ": " + parts
            + (n.hits ? ", " + std::to_string(n.hits) + " hit" + (n.hits == 1 ? "" : "s")
                      : std::string());
        f.compiles = n.compiles;
        f.count = n.misses + n.bypasses;
        f.costUs = 0; // what a hit would have saved is not logged
        f.evidence.emplace_back("compiles", cx.compileList(n.compiles));
        if (!n.bypassReason.empty())
            f.evidence.emplace_back("bypass", n.bypassReason);
        f.why = n.bypasses
            ? "A bypassed cache is never filled: every run compiles these graphs again."
            : "A miss on a first run (a cold cache) is expected; the same program run again "
              "should hit.";
        f.hint = n.bypasses ? "The bypass reason says what the cache cannot key (a custom pass, "
                              "an unpicklable input); remove it to get warm starts."
                            : "If a second run misses too, the cache key changes between runs "
                              "(a path, a config, a random seed in the graph) or the cache "
                              "folder is not kept (TORCHINDUCTOR_CACHE_DIR).";
    }
}

void graphSizes(Context& cx)
{
    const Trace& t = cx.trace;
    std::map<uint32_t, std::vector<uint32_t>> emptyByFrame, smallByFrame;
    for (const Compile& c : t.compiles) {
        if (c.startRecord == kNone || c.failure || !c.graphOpCount)
            continue;
        if (*c.graphOpCount == 0)
            emptyByFrame[c.frame].push_back(c.index);
        // Small graphs are a finding where breaks made them: the compile broke, or its frame is
        // the code after a break.
        const bool aroundBreak = !c.graphBreaks.empty()
            || (c.frame < t.frames.size() && t.frames[c.frame].breakOrigin != kNone);
        if (aroundBreak && *c.graphOpCount > 0 && *c.graphOpCount <= kSmallGraphOps)
            smallByFrame[c.frame].push_back(c.index);
    }
    for (const auto& [frame, compiles] : emptyByFrame) {
        Finding& f = cx.add(Rule::EmptyGraph, FindingSeverity::Note, frame);
        cx.setTitle(f, cx.codeTitle(frame),
            " compiled to an empty graph (no tensor operations)"
                + (compiles.size() > 1 ? " " + std::to_string(compiles.size()) + " times" : ""));
        f.compiles = compiles;
        f.count = compiles.size();
        f.costUs = cx.durationOf(compiles);
        f.evidence.emplace_back("compiles", cx.compileList(compiles));
        f.why = "Dynamo traced it for nothing: " + formatUs(f.costUs)
            + " of compile time and a guard check on every call.";
        f.hint = "Keep it out of the compiled region (torch.compiler.disable), or compile a "
                 "larger region that does tensor work.";
    }
    std::vector<uint32_t> small;
    uint32_t smallFrame = kNone;
    for (const auto& [frame, compiles] : smallByFrame) {
        small.insert(small.end(), compiles.begin(), compiles.end());
        smallFrame = smallFrame == kNone ? frame : smallFrame;
    }
    if (small.size() >= 2) {
        std::sort(small.begin(), small.end());
        Finding& f = cx.add(Rule::SmallGraphs, FindingSeverity::Note,
            smallByFrame.size() == 1 ? smallFrame : kNone);
        f.title = "Graph breaks split the work into " + std::to_string(small.size()) + " graphs of "
            + std::to_string(kSmallGraphOps) + " operations or fewer";
        f.compiles = small;
        f.count = small.size();
        f.costUs = cx.durationOf(small);
        f.evidence.emplace_back("compiles", cx.compileList(small));
        f.why = "Small graphs leave little to fuse, and each pays Python and guard overhead "
                "between graphs.";
        f.hint = "Remove the graph breaks around them (the graph-break findings name them).";
    }
}

void guardCost(Context& cx)
{
    // One finding per frame, with each of its compiles that installs many guards: a call tries
    // the cache entries' guards in turn, and a frame compiled five times with the same 1,500
    // guards is one finding, not five with the same numbers.
    std::map<uint32_t, std::vector<uint32_t>> byFrame;
    for (const Compile& c : cx.trace.compiles) {
        if (c.startRecord == kNone)
            continue;
        // The count decides: guard_latency_us is one timing taken at the end of the compile,
        // cold caches and all (8 ms for 68 guards in a real log), evidence but no verdict (read
        // from the file only for the compiles it is shown for).
        if (!c.guardCount || *c.guardCount < kManyGuards)
            continue;
        byFrame[c.frame].push_back(c.index);
    }
    for (const auto& [frame, compiles] : byFrame) {
        int64_t fewest = INT64_MAX, most = 0;
        for (uint32_t ci : compiles) {
            fewest = std::min<int64_t>(fewest, *cx.trace.compiles[ci].guardCount);
            most = std::max<int64_t>(most, *cx.trace.compiles[ci].guardCount);
        }
        const std::string guards
            = (fewest == most ? std::to_string(most)
                              : std::to_string(fewest) + "-" + std::to_string(most))
            + " guards";
        Finding& f = cx.add(Rule::GuardCost, FindingSeverity::Note, frame);
        cx.setTitle(f, cx.codeTitle(frame),
            compiles.size() == 1 ? " checks " + guards + " before every call"
                                 : " checks " + guards + " in each of its "
                    + std::to_string(compiles.size()) + " compiles, before every call");
        f.compiles = compiles;
        f.count = static_cast<uint64_t>(most);
        if (compiles.size() == 1) {
            const Compile& c = cx.trace.compiles[compiles[0]];
            f.evidence.emplace_back("compile", findingCompileLabel(cx.trace, c.index));
            f.evidence.emplace_back("guards", std::to_string(*c.guardCount));
            if (const auto latency = metricNumber(c, "guard_latency_us"))
                f.evidence.emplace_back("guard latency (one timing)", formatUs(*latency));
        } else {
            f.evidence.emplace_back("compiles", cx.compileList(compiles));
            for (uint32_t ci : compiles) {
                const Compile& c = cx.trace.compiles[ci];
                std::string line = std::to_string(*c.guardCount) + " guards";
                if (const auto latency = metricNumber(c, "guard_latency_us"))
                    line += ", guard latency " + formatUs(*latency) + " (one timing)";
                f.evidence.emplace_back(findingCompileLabel(cx.trace, ci), line);
            }
        }
        f.why = "Guards run on every call before the compiled code; for small, frequent calls "
                "they can cost more than the graph saves.";
        f.hint = "Most guards come from the Python state the function reads (parameters, module "
                 "attributes, list and dict entries): read less of it, or pass tensors in.";
    }
}

} // namespace

void costRules(Context& cx)
{
    coldStart(cx);
    cacheMisses(cx);
    graphSizes(cx);
    guardCost(cx);
}

} // namespace dynascope::findings
