// rank-graph-breaks, rank-recompiles, rank-failures, rank-cache (findings.h): each frame (code
// object) that several ranks compiled, compared across those ranks. A rank set is compared with
// the ranks that compiled the frame; the groups are walked once (findings_ranks.h).
#include "core/analysis/findings_ranks.h"
#include "core/analysis/why_chain.h"

#include <algorithm>

namespace dynascope::findings::ranks {

namespace {

// The line of a failure's reason that says what failed: "RuntimeError: ..." rather than the
// "backend='inductor' raised:" above it.
std::string reasonLine(std::string_view reason)
{
    while (!reason.empty()) {
        const std::string_view line = firstLine(reason);
        if (!line.empty() && !line.ends_with("raised:"))
            return std::string(line);
        reason.remove_prefix(std::min(reason.size(), line.size() + 1));
    }
    return {};
}

} // namespace

// rank-graph-breaks: a break (type and user line) in a frame on some of the ranks that compile it.
void graphBreaks(Context& cx, Job& job)
{
    struct Site {
        BreakWhy first;
        RankSet ranks;
        std::vector<uint32_t> compiles; // broke here, then the resume compiles
        std::vector<uint32_t> resumeFrames;
        double maxUs = 0; // the most one rank spent on them
    };
    for (Code& code : job.codes) {
        if (code.ranks.size() < 2)
            continue;
        std::map<std::string, Site> sites;
        Groups<uint64_t> counts;
        for (uint32_t e : code.entries) {
            const RankFrame& rf = job.entries[e];
            uint64_t n = 0;
            std::map<std::string, double> spent;
            for (uint32_t ci : rf.compiles) {
                const Compile& c = job.t.compiles[ci];
                for (size_t i = 0; i < c.graphBreaks.size(); ++i, ++n) {
                    BreakWhy b = describeBreak(c.graphBreaks[i], i);
                    const std::string type
                        = b.type.empty() ? std::string(firstLine(b.reason)) : b.type;
                    const std::string key = type + '\n' + std::string(baseName(b.userLine.file))
                        + ':' + std::to_string(b.userLine.line);
                    Site& s = sites[key];
                    if (s.ranks.empty())
                        s.first = std::move(b);
                    if (s.ranks.empty() || s.ranks.back() != rf.rank)
                        s.ranks.push_back(rf.rank);
                    if (s.compiles.empty() || s.compiles.back() != ci)
                        s.compiles.push_back(ci);
                    double& us = spent[key];
                    us += c.durationUs();
                    const uint32_t resume = c.graphBreaks[i].resumeFrame;
                    if (resume < job.t.frames.size()) {
                        s.resumeFrames.push_back(resume);
                        for (uint32_t rc : job.t.frames[resume].compiles) {
                            s.compiles.push_back(rc);
                            us += job.t.compiles[rc].durationUs();
                        }
                    }
                    s.maxUs = std::max(s.maxUs, us);
                }
            }
            counts.byValue[n].push_back(rf.rank);
        }
        for (auto& [key, s] : sites) {
            if (s.ranks.size() == code.ranks.size())
                continue;
            // The resume frames of this break exist on these ranks only: no rank-only-compiles.
            for (uint32_t rf : s.resumeFrames) {
                if (job.codeOfFrame[rf] == kNone)
                    continue;
                Code& resume = job.codes[job.codeOfFrame[rf]];
                resume.explained = resume.explained
                    || std::includes(
                        s.ranks.begin(), s.ranks.end(), resume.ranks.begin(), resume.ranks.end());
            }
            const BreakWhy& b = s.first;
            const std::string type = b.type.empty() ? std::string(firstLine(b.reason)) : b.type;
            const std::string at = b.userLine.known()
                ? std::string(baseName(b.userLine.file)) + ":" + std::to_string(b.userLine.line)
                : std::string();
            const uint32_t frame = job.t.compiles[s.compiles.front()].frame;
            Finding& f = cx.add(Rule::RankGraphBreaks, FindingSeverity::Warning, frame);
            f.frameLabel = cx.codeLabel(job.frameOf(code));
            f.title = cx.codeTitle(frame) + " breaks the graph" + (at.empty() ? "" : " at " + at)
                + " on " + job.ranks.name(s.ranks) + " but not on " + job.others(s.ranks, code)
                + " (" + type + ")";
            std::sort(s.compiles.begin(), s.compiles.end());
            f.files = job.filesOf(job.oddOnes(s.ranks, job.onAll(code) ? RankSet {} : code.ranks));
            s.compiles.erase(std::unique(s.compiles.begin(), s.compiles.end()), s.compiles.end());
            f.compiles = s.compiles;
            f.count = std::min(s.ranks.size(), code.ranks.size() - s.ranks.size());
            f.costUs = s.maxUs;
            f.userFile = b.userLine.file;
            f.userLine = b.userLine.line;
            f.evidence.emplace_back("break", type);
            if (!at.empty())
                f.evidence.emplace_back("user line", at);
            f.evidence.emplace_back("ranks with the break", job.ranks.name(s.ranks));
            f.evidence.emplace_back("ranks without it", job.others(s.ranks, code));
            f.evidence.emplace_back("graph breaks per rank",
                counts.text(
                    job.ranks, job.onAll(code), [](uint64_t n) { return std::to_string(n); }));
            f.evidence.emplace_back("compiles", cx.compileList(f.compiles));
            if (!b.details.empty()) {
                f.gbCode = b.details[0].gbCode;
                f.explanation = b.details[0].explanation;
                f.pytorchHints = b.details[0].hints;
            }
            f.why = "The ranks with the break run the frame as two graphs and compile the resume "
                    "function the others never compile: they reach the next collective late, "
                    "and collectives traced into the graphs can run in a different order than "
                    "on the other ranks (a hang or a desync).";
            f.hint = "Find what makes these ranks take the path that breaks (a rank-dependent "
                     "branch, a print or log call only some ranks make, data only they see) and "
                     "make every rank trace the same code; fullgraph=True makes the break an "
                     "error on every rank that hits it.";
        }
    }
}

// rank-recompiles: a frame compiled a different number of times, or recompiled for different
// reasons, across the ranks that compile it.
void recompiles(Context& cx, const Job& job)
{
    for (const Code& code : job.codes) {
        if (code.ranks.size() < 2)
            continue;
        Groups<uint64_t> counts;
        Groups<std::string> reasons;
        uint64_t fewest = ~0ull;
        for (uint32_t e : code.entries) {
            const RankFrame& rf = job.entries[e];
            uint64_t n = 0;
            std::vector<std::string> why;
            for (uint32_t ci : rf.compiles) {
                const Compile& c = job.t.compiles[ci];
                if (!started(c))
                    continue;
                ++n;
                if (const RecompileReason* r = primaryReason(c); r && c.isRecompile())
                    why.push_back(
                        (r->mismatch.empty() ? std::string(firstLine(r->detail)) : r->mismatch)
                        + (r->source.empty() ? "" : " of " + userName(r->source)));
            }
            std::sort(why.begin(), why.end());
            why.erase(std::unique(why.begin(), why.end()), why.end());
            std::string sig;
            for (const auto& w : why)
                sig += (sig.empty() ? "" : "; ") + w;
            counts.byValue[n].push_back(rf.rank);
            reasons.byValue[sig].push_back(rf.rank);
            fewest = std::min(fewest, n);
        }
        const bool byCount = counts.byValue.size() > 1;
        if (!byCount && reasons.byValue.size() < 2)
            continue;
        const auto minor = counts.minorities();
        const auto minorReasons = reasons.minorities();
        RankSet odd; // the ranks outside the majority
        for (const auto& [v, set] : minor)
            if (byCount)
                odd.insert(odd.end(), set->begin(), set->end());
        for (const auto& [v, set] : minorReasons)
            if (!byCount)
                odd.insert(odd.end(), set->begin(), set->end());
        std::sort(odd.begin(), odd.end());
        uint32_t frame = job.frameOf(code); // the first odd rank's
        for (uint32_t e : code.entries)
            if (job.entries[e].rank == odd.front())
                frame = job.entries[e].frame;
        Finding& f = cx.add(Rule::RankRecompiles, FindingSeverity::Warning, frame);
        f.frameLabel = cx.codeLabel(job.frameOf(code));
        const std::string name = cx.codeTitle(frame);
        auto reasonsOf
            = [](const std::string& s) { return s.empty() ? std::string("no recompile") : s; };
        if (byCount && minor.size() == 1)
            f.title = name + " compiled " + times(minor[0].first) + " on "
                + job.ranks.name(*minor[0].second) + " but " + times(counts.majorityValue())
                + " on " + job.ranks.name(*counts.majority());
        else if (byCount)
            f.title = name + " compiled a different number of times across ranks ("
                + counts.text(job.ranks, false, [](uint64_t n) { return times(n); }) + ")";
        else
            f.title = name + " recompiled for different reasons across ranks: "
                + reasons.text(job.ranks, false, reasonsOf);
        // The compiles: the odd ranks' and one rank's of the majority, for comparison.
        double extraUs = 0;
        const RankSet& major = byCount ? *counts.majority() : *reasons.majority();
        for (uint32_t e : code.entries) {
            const RankFrame& rf = job.entries[e];
            const bool isOdd = std::binary_search(odd.begin(), odd.end(), rf.rank);
            if (isOdd || rf.rank == major.front())
                f.compiles.insert(f.compiles.end(), rf.compiles.begin(), rf.compiles.end());
            double us = 0; // compile time beyond what the rank that compiled least did
            uint64_t n = 0;
            for (uint32_t ci : rf.compiles)
                if (started(job.t.compiles[ci]) && n++ >= fewest)
                    us += job.t.compiles[ci].durationUs();
            extraUs = std::max(extraUs, us);
        }
        std::sort(f.compiles.begin(), f.compiles.end());
        f.count = odd.size();
        f.costUs = extraUs;
        f.evidence.emplace_back("compiles per rank",
            counts.text(job.ranks, job.onAll(code), [](uint64_t n) { return std::to_string(n); }));
        if (reasons.byValue.size() > 1 || !reasons.byValue.begin()->first.empty())
            f.evidence.emplace_back(
                "recompile reasons", reasons.text(job.ranks, job.onAll(code), reasonsOf));
        f.evidence.emplace_back("ranks that differ", job.ranks.name(odd));
        f.files = job.filesOf(odd);
        f.evidence.emplace_back("compiles", cx.compileList(f.compiles));
        f.why = "Ranks run the same program: a rank that recompiles when the others do not "
                "reaches the next collective late and the others wait for it; when the new graph "
                "issues other collectives, the ranks no longer match and the job can hang.";
        f.hint = "The recompile reason names the guard that failed on those ranks: usually an "
                 "input only they see (a last batch of another size from uneven sharding, a "
                 "rank-dependent Python value). Give every rank the same shapes (drop_last, "
                 "padding) or mark the dimension dynamic (torch._dynamo.mark_dynamic).";
    }
}

// rank-failures: a frame's compile failed on some of the ranks that compile it.
void failures(Context& cx, const Job& job)
{
    for (const Code& code : job.codes) {
        if (code.ranks.size() < 2)
            continue;
        struct Kind {
            const Failure* first = nullptr;
            RankSet ranks;
            std::vector<uint32_t> compiles;
            double maxUs = 0;
        };
        std::map<std::string, Kind> kinds;
        for (uint32_t e : code.entries) {
            const RankFrame& rf = job.entries[e];
            std::map<std::string, double> spent;
            for (uint32_t ci : rf.compiles) {
                const Compile& c = job.t.compiles[ci];
                if (!c.failure)
                    continue;
                Kind& k = kinds[c.failure->type];
                if (!k.first)
                    k.first = &*c.failure;
                if (k.ranks.empty() || k.ranks.back() != rf.rank)
                    k.ranks.push_back(rf.rank);
                k.compiles.push_back(ci);
                k.maxUs = std::max(k.maxUs, spent[c.failure->type] += c.durationUs());
            }
        }
        for (auto& [type, k] : kinds) {
            if (k.ranks.size() == code.ranks.size())
                continue;
            const uint32_t frame = job.t.compiles[k.compiles.front()].frame;
            Finding& f = cx.add(Rule::RankFailures, FindingSeverity::Error, frame);
            f.frameLabel = cx.codeLabel(job.frameOf(code));
            const std::string what = type.empty() ? std::string("failed") : type;
            f.title = cx.codeTitle(frame) + " failed to compile on " + job.ranks.name(k.ranks)
                + " but not on " + job.others(k.ranks, code) + " (" + what + ")";
            std::sort(k.compiles.begin(), k.compiles.end());
            f.compiles = k.compiles;
            f.count = k.ranks.size();
            f.costUs = k.maxUs;
            f.userFile = k.first->file;
            f.userLine = k.first->line;
            f.evidence.emplace_back("failure", what);
            if (!k.first->layer.empty())
                f.evidence.emplace_back("layer", k.first->layer);
            if (!k.first->reason.empty())
                f.evidence.emplace_back("reason", reasonLine(k.first->reason));
            f.evidence.emplace_back("ranks that failed", job.ranks.name(k.ranks));
            f.files = job.filesOf(k.ranks);
            f.evidence.emplace_back("ranks that compiled it", job.others(k.ranks, code));
            f.evidence.emplace_back("compiles", cx.compileList(f.compiles));
            f.why = "The failing ranks run the frame in eager or stop while the others run the "
                    "compiled graph: the ranks no longer run the same code between collectives "
                    "(a hang, a desync, or results that differ by rank).";
            f.hint = "Read the failure on the failing rank (the failure finding of that rank "
                     "gives the layer); it usually needs something only that rank has: its "
                     "device, its shapes, its memory. Reproduce it with that rank's inputs.";
        }
    }
}

// rank-cache: a cache hit for a frame on some ranks and missed (or bypassed) on others.
void caches(Context& cx, const Job& job)
{
    struct Split {
        uint32_t code;
        RankSet hit, missed;
        std::vector<uint32_t> missCompiles;
    };
    std::map<std::string, std::vector<Split>> byCache;
    for (uint32_t i = 0; i < job.codes.size(); ++i) {
        const Code& code = job.codes[i];
        if (code.ranks.size() < 2)
            continue;
        std::map<std::string, Split> splits;
        for (uint32_t e : code.entries) {
            const RankFrame& rf = job.entries[e];
            std::map<std::string, std::vector<uint32_t>> misses; // cache -> compiles
            for (uint32_t ci : rf.compiles)
                for (const CacheEvent& ev : job.t.compiles[ci].cacheEvents) {
                    auto& m = misses[ev.cache];
                    if (ev.kind != CacheKind::Hit && (m.empty() || m.back() != ci))
                        m.push_back(ci);
                }
            for (auto& [cache, m] : misses) {
                Split& s = splits.try_emplace(cache, Split { i, {}, {}, {} }).first->second;
                (m.empty() ? s.hit : s.missed).push_back(rf.rank);
                s.missCompiles.insert(s.missCompiles.end(), m.begin(), m.end());
            }
        }
        for (auto& [cache, s] : splits)
            if (!s.hit.empty() && !s.missed.empty())
                byCache[cache].push_back(std::move(s));
    }
    for (auto& [cache, splits] : byCache) {
        const Split& s0 = splits.front();
        const Code& code0 = job.codes[s0.code];
        const uint32_t frame0 = job.frameOf(code0);
        Finding& f = cx.add(
            Rule::RankCache, FindingSeverity::Note, splits.size() == 1 ? frame0 : uint32_t(kNone));
        f.frameLabel = splits.size() == 1 ? cx.codeLabel(frame0) : std::string();
        f.title = "The " + cache + " cache missed on " + job.ranks.name(s0.missed) + " but hit on "
            + job.ranks.name(s0.hit) + " for " + cx.codeTitle(frame0)
            + (splits.size() > 1 ? " and " + std::to_string(splits.size() - 1) + " more frames"
                                 : std::string());
        for (size_t i = 0; i < splits.size(); ++i) {
            const Split& s = splits[i];
            f.compiles.insert(f.compiles.end(), s.missCompiles.begin(), s.missCompiles.end());
            f.count += s.missed.size();
            if (i < kShownFrames)
                f.evidence.emplace_back(cx.codeLabel(job.frameOf(job.codes[s.code])),
                    "missed on " + job.ranks.name(s.missed) + ", hit on " + job.ranks.name(s.hit));
        }
        if (splits.size() > kShownFrames)
            f.evidence.emplace_back(
                "more frames", std::to_string(splits.size() - kShownFrames) + " more");
        std::sort(f.compiles.begin(), f.compiles.end());
        RankSet missed;
        for (const Split& s : splits)
            missed.insert(missed.end(), s.missed.begin(), s.missed.end());
        std::sort(missed.begin(), missed.end());
        missed.erase(std::unique(missed.begin(), missed.end()), missed.end());
        f.evidence.emplace_back("ranks that missed", job.ranks.name(missed));
        f.files = job.filesOf(missed);
        f.evidence.emplace_back("compiles that missed", cx.compileList(f.compiles));
        f.why = "The same graph hit the cache on some ranks and missed on others: the ranks that "
                "missed compile from scratch while the others wait for them at the next "
                "collective.";
        f.hint = "Give every rank the same cache (one TORCHINDUCTOR_CACHE_DIR they all see, or a "
                 "remote cache); if they share one, compare the key components of a hit and a "
                 "miss (the cache artifacts list them) for a rank-dependent value.";
    }
}

} // namespace dynascope::findings::ranks
