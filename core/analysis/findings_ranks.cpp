// rank-only-compiles, rank-recompiles, rank-graph-breaks, rank-failures, rank-cache, straggler
// (findings.h): the ranks of one job against each other. Ranks run the same program, so they
// should compile the same frames the same way; a rank that compiles more, or longer, arrives
// late at the next collective (every other rank waits for it), and one whose graphs differ can
// issue different collectives (the job hangs or desyncs).
//
// Frames are matched across ranks by code object (function, file, first line), as trace_diff
// matches them at its strictest, and not by frame id: PyTorch numbers frames per process in the
// order they first compile, so one extra frame on a rank shifts every later id there. Ranks that
// compiled nothing are one finding and left out of the comparisons. One pass over the frames
// groups them by code object with hash maps; each rule then walks the groups, so the cost is
// linear in the trace, and rank sets are named as ranges (rank_sets.h).
//
// Here: the job (buildJob), rank-only-compiles, straggler and rankRules(); the comparisons frame
// by frame are in findings_ranks_frames.cpp.
#include "core/analysis/findings_ranks.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace dynascope::findings {

namespace ranks {

namespace {

// straggler: the slowest rank's compile time over the median of the others, both at least.
constexpr double kStragglerShare = 0.20;
constexpr double kStragglerMinUs = 100e3;

std::string codeKey(const Frame& f)
{
    return f.coName + '\n' + f.coFilename + '\n' + std::to_string(f.coFirstLineno)
        + (f.compiledAutograd ? "\n!" : "");
}

// rank-only-compiles: frames that some of the ranks compiled and others did not, grouped by the
// ranks that compiled them.
void onlySome(Context& cx, const Job& job)
{
    std::unordered_map<std::string, std::vector<uint32_t>> byRanks; // RankSet bytes -> codes
    std::vector<const std::vector<uint32_t>*> order;
    for (uint32_t i = 0; i < job.codes.size(); ++i) {
        const Code& c = job.codes[i];
        if (job.onAll(c) || c.explained)
            continue;
        std::string key(reinterpret_cast<const char*>(c.ranks.data()), c.ranks.size() * 4);
        auto [it, added] = byRanks.try_emplace(std::move(key));
        it->second.push_back(i);
        if (added)
            order.push_back(&it->second);
    }
    for (const auto* codes : order) {
        const Code& c0 = job.codes[codes->front()];
        const uint32_t frame0 = job.frameOf(c0);
        Finding& f = cx.add(
            Rule::RankOnlyCompiles, FindingSeverity::Warning, codes->size() == 1 ? frame0 : kNone);
        if (codes->size() == 1)
            f.frameLabel = cx.codeLabel(frame0);
        const std::string have = job.ranks.name(c0.ranks), lack = job.ranks.nameExcept(c0.ranks);
        std::string frames;
        std::vector<double> perRank(c0.ranks.size());
        for (size_t i = 0; i < codes->size(); ++i) {
            const Code& c = job.codes[(*codes)[i]];
            if (i < kShownFrames)
                frames += (i ? ", " : "") + cx.codeTitle(job.frameOf(c));
            for (size_t k = 0; k < c.entries.size(); ++k) {
                const RankFrame& rf = job.entries[c.entries[k]];
                f.compiles.insert(f.compiles.end(), rf.compiles.begin(), rf.compiles.end());
                perRank[k] += cx.durationOf(rf.compiles);
            }
        }
        if (codes->size() > kShownFrames)
            frames += " and " + std::to_string(codes->size() - kShownFrames) + " more";
        std::sort(f.compiles.begin(), f.compiles.end());
        const uint32_t first = job.entries[c0.entries.front()].compiles.front();
        if (codes->size() == 1)
            f.title = job.t.compiles[first].id.display() + " " + cx.codeTitle(frame0)
                + " compiled on " + have + " but not on " + lack;
        else
            f.title = std::to_string(codes->size()) + " frames compiled on " + have + " but not on "
                + lack + ": " + frames;
        f.count = std::min(c0.ranks.size(), job.ranks.size() - c0.ranks.size());
        f.costUs = *std::max_element(perRank.begin(), perRank.end());
        f.evidence.emplace_back(codes->size() == 1 ? "frame" : "frames", frames);
        f.files = job.filesOf(job.oddOnes(c0.ranks));
        f.evidence.emplace_back("compiled on", have);
        f.evidence.emplace_back("not compiled on", lack);
        f.evidence.emplace_back("compiles", cx.compileList(f.compiles));
        f.why = "Ranks of one job run the same program: ranks that compile code the others do not "
                "take another path (a rank-dependent branch, data only they see) and reach the "
                "next collective late or issue other collectives (a hang or a desync).";
        f.hint = "Find why the path differs on those ranks (rank == 0 branches such as logging or "
                 "checkpointing inside the compiled region, uneven data); keep rank-dependent "
                 "code out of the compiled functions (torch.compiler.disable).";
    }
}

// straggler: the rank that compiled longest, against the median of the others.
void straggler(Context& cx, const Job& job)
{
    std::vector<double> total(job.ranks.size(), 0);
    std::vector<uint32_t> slowest(job.ranks.size(), kNone);
    for (const Compile& c : job.t.compiles) {
        const uint32_t r = c.file < job.rankOfFile.size() ? job.rankOfFile[c.file] : kNone;
        if (r == kNone || !started(c))
            continue;
        total[r] += c.durationUs();
        if (slowest[r] == kNone || c.durationUs() > job.t.compiles[slowest[r]].durationUs())
            slowest[r] = c.index;
    }
    const auto top
        = static_cast<uint32_t>(std::max_element(total.begin(), total.end()) - total.begin());
    std::vector<double> others;
    others.reserve(total.size() - 1);
    for (uint32_t r = 0; r < total.size(); ++r)
        if (r != top)
            others.push_back(total[r]);
    const size_t mid = others.size() / 2;
    std::nth_element(others.begin(), others.begin() + std::ptrdiff_t(mid), others.end());
    double median = others[mid];
    if (others.size() % 2 == 0) {
        const double below
            = *std::max_element(others.begin(), others.begin() + std::ptrdiff_t(mid));
        median = (median + below) / 2;
    }
    const double excess = total[top] - median;
    if (excess < kStragglerMinUs || excess < kStragglerShare * median)
        return;
    const int64_t rank = job.ranks.value(top);
    const uint32_t slow = slowest[top];
    Finding& f = cx.add(Rule::Straggler, FindingSeverity::Warning, kNone);
    char pct[32] = "";
    if (median > 0)
        std::snprintf(pct, sizeof pct, " (+%.0f%%)", 100 * excess / median);
    f.title = "Rank " + std::to_string(rank) + " compiled for " + formatUs(total[top]) + ", "
        + formatUs(excess) + " longer than the median of the other ranks (" + formatUs(median)
        + "): every other rank waits for it at the next collective";
    for (const Compile& c : job.t.compiles)
        if (c.file < job.rankOfFile.size() && job.rankOfFile[c.file] == top && started(c))
            f.compiles.push_back(c.index);
    f.count = f.compiles.size();
    f.costUs = excess;
    f.files = job.filesOf({ top });
    f.evidence.emplace_back("straggler", "rank " + std::to_string(rank));
    f.evidence.emplace_back("its compile time", formatUs(total[top]));
    f.evidence.emplace_back("median of the other ranks", formatUs(median));
    f.evidence.emplace_back("longer by", formatUs(excess) + pct);
    if (slow != kNone)
        f.evidence.emplace_back("its slowest compile",
            findingCompileLabel(job.t, slow) + " " + cx.codeLabel(job.t.compiles[slow].frame) + ", "
                + formatUs(job.t.compiles[slow].durationUs()));
    f.why = "Collectives wait for every rank: while one rank compiles, the others sit at the "
            "next all_reduce or barrier, so the job runs at the pace of its slowest rank (and a "
            "long enough wait hits the collective timeout).";
    f.hint = "See what that rank compiled more or slower (the other rank findings name extra "
             "recompiles, breaks and cache misses); give it the same cache as the others, and "
             "check its machine (CPU contention, a slower disk for the cache).";
}

} // namespace

// The ranks of the trace, those that compiled nothing reported; nullopt under two ranks. A rank
// is compared by its first file that compiled: files that repeat a rank (a restarted rank, or
// a copy, as in tlparse's multi_rank_runtime) would count its compiles twice.
std::optional<Job> buildJob(Context& cx, uint32_t run)
{
    const Trace& t = cx.trace;
    std::vector<bool> compiled(t.files.size());
    for (const Compile& c : t.compiles)
        if (c.file < compiled.size())
            compiled[c.file] = true;
    std::vector<int64_t> all;
    std::map<int64_t, uint32_t> fileOfRank; // the file each rank that compiled is compared by
    for (uint32_t i = 0; i < t.files.size(); ++i)
        if (t.files[i].rank && t.files[i].run == run) {
            all.push_back(*t.files[i].rank);
            if (compiled[i])
                fileOfRank.try_emplace(*t.files[i].rank, i);
        }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all.size() < 2)
        return std::nullopt;
    std::vector<int64_t> active;
    for (const auto& [rank, file] : fileOfRank)
        active.push_back(rank);
    if (!active.empty() && active.size() < all.size()) {
        std::vector<int64_t> idle;
        std::set_difference(
            all.begin(), all.end(), active.begin(), active.end(), std::back_inserter(idle));
        Finding& f = cx.add(Rule::RankOnlyCompiles, FindingSeverity::Warning, kNone);
        f.title
            = "R" + rankRanges(idle).substr(1) + " compiled nothing, unlike " + rankRanges(active);
        f.count = idle.size();
        for (uint32_t fi = 0; fi < t.files.size(); ++fi)
            if (t.files[fi].rank && t.files[fi].run == run
                && std::binary_search(idle.begin(), idle.end(), *t.files[fi].rank))
                f.files.push_back(fi);
        f.evidence.emplace_back("ranks without a compile", rankRanges(idle));
        f.evidence.emplace_back("ranks that compiled", rankRanges(active));
        f.why = "Ranks of one job run the same program: a rank that compiles nothing either runs "
                "other code (the collectives may not match) or its log is cut or missing.";
        f.hint = "Check that those ranks ran torch.compile at all (the same script, the same "
                 "config) and that their TORCH_TRACE files are complete.";
    }
    if (active.size() < 2)
        return std::nullopt;
    Job job { t, RankSpace(active), std::vector<uint32_t>(t.files.size(), kNone), {}, {},
        std::vector<uint32_t>(t.frames.size(), kNone) };
    uint32_t dense = 0;
    for (const auto& [rank, file] : fileOfRank)
        job.rankOfFile[file] = dense++;
    std::unordered_map<std::string, uint32_t> codeIndex;
    std::unordered_map<uint64_t, uint32_t> entryIndex; // code << 32 | rank
    for (const Frame& fr : t.frames) {
        const uint32_t rank = fr.file < job.rankOfFile.size() ? job.rankOfFile[fr.file] : kNone;
        if (rank == kNone || fr.compiles.empty())
            continue;
        const auto code = codeIndex.try_emplace(codeKey(fr), uint32_t(job.codes.size())).first;
        if (code->second == job.codes.size())
            job.codes.emplace_back();
        job.codeOfFrame[fr.index] = code->second;
        const auto entry = entryIndex.try_emplace(
            uint64_t(code->second) << 32 | rank, uint32_t(job.entries.size()));
        if (entry.second) {
            job.entries.push_back({ rank, fr.index, {} });
            job.codes[code->second].entries.push_back(entry.first->second);
        }
        auto& compiles = job.entries[entry.first->second].compiles;
        compiles.insert(compiles.end(), fr.compiles.begin(), fr.compiles.end());
    }
    for (Code& c : job.codes) {
        std::sort(c.entries.begin(), c.entries.end(),
            [&](uint32_t a, uint32_t b) { return job.entries[a].rank < job.entries[b].rank; });
        for (uint32_t e : c.entries) {
            c.ranks.push_back(job.entries[e].rank);
            std::sort(job.entries[e].compiles.begin(), job.entries[e].compiles.end());
        }
    }
    return job;
}

} // namespace ranks

void rankRules(Context& cx)
{
    // Ranks are compared within a run (core/load/runs.h): with --run all, each run is a job.
    std::set<uint32_t> runs;
    for (const TraceFile& f : cx.trace.files)
        runs.insert(f.run);
    for (uint32_t run : runs) {
        std::optional<ranks::Job> job = ranks::buildJob(cx, run);
        if (!job)
            continue;
        ranks::graphBreaks(cx, *job); // first: it marks the resume frames its findings explain
        for (auto rule : { ranks::recompiles, ranks::failures, ranks::onlySome, ranks::caches,
                 ranks::straggler }) {
            if (cx.stop.stop_requested())
                return;
            rule(cx, *job);
        }
    }
}

} // namespace dynascope::findings
