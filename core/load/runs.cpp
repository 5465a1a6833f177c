#include "core/load/runs.h"

#include "core/io/trace_source.h"
#include "core/util/rank_sets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <set>
#include <unordered_map>

namespace dynascope {

namespace {

// A run being formed: its time span and the ranks its files claim.
struct OpenRun {
    double startUs = 0, endUs = 0;
    std::set<int64_t> ranks;
    std::vector<size_t> members; // candidate indices
};

// Candidates whose bytes equal an earlier candidate's (path order): -1, or that candidate.
std::vector<int64_t> findDuplicates(const std::vector<RunCandidate>& c)
{
    std::vector<int64_t> dup(c.size(), -1);
    std::unordered_map<size_t, std::vector<size_t>> bySize;
    for (size_t i = 0; i < c.size(); ++i) {
        if (!c[i].content || c[i].content->size() == 0)
            continue;
        auto& same = bySize[c[i].content->size()];
        for (size_t j : same)
            if (sameBytes(*c[i].content, *c[j].content)) {
                dup[i] = static_cast<int64_t>(j);
                break;
            }
        if (dup[i] < 0)
            same.push_back(i);
    }
    return dup;
}

// The latest-started open run that `cand` fits: still being written when it started (with
// slack) and without a file of the same rank. Looks back over the runs that overlap it only.
OpenRun* fittingRun(std::vector<OpenRun>& runs, const RunCandidate& cand)
{
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        if (cand.startUs > it->endUs + kRunSlackUs)
            continue; // ended before this file started
        if (cand.rank && it->ranks.contains(*cand.rank))
            continue; // that rank's file is already there: another job
        return &*it;
    }
    return nullptr;
}

std::string utcMinute(double epochUs)
{
    using namespace std::chrono;
    const auto t = sys_seconds(seconds(static_cast<int64_t>(epochUs / 1e6)));
    const auto day = floor<days>(t);
    const year_month_day ymd(day);
    const hh_mm_ss hms(t - day);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02ld:%02ld UTC", static_cast<int>(ymd.year()),
        static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
        static_cast<long>(hms.hours().count()), static_cast<long>(hms.minutes().count()));
    return buf;
}

} // namespace

RunGrouping groupRuns(const std::vector<RunCandidate>& candidates)
{
    RunGrouping g;
    g.duplicateOf = findDuplicates(candidates);
    g.runOf.assign(candidates.size(), 0);

    std::vector<size_t> order;
    for (size_t i = 0; i < candidates.size(); ++i)
        if (g.duplicateOf[i] < 0)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return candidates[a].startUs < candidates[b].startUs; });

    std::vector<OpenRun> open;
    for (size_t i : order) {
        const RunCandidate& c = candidates[i];
        OpenRun* run = fittingRun(open, c);
        if (!run) {
            open.push_back({ c.startUs, c.endUs, {}, {} });
            run = &open.back();
        }
        run->endUs = std::max(run->endUs, c.endUs);
        if (c.rank)
            run->ranks.insert(*c.rank);
        run->members.push_back(i);
    }

    for (size_t r = 0; r < open.size(); ++r) {
        TraceRun run;
        run.number = static_cast<uint32_t>(r + 1);
        run.startUs = open[r].startUs;
        run.endUs = open[r].endUs;
        std::sort(open[r].members.begin(), open[r].members.end());
        for (size_t i : open[r].members) {
            g.runOf[i] = run.number;
            run.files.push_back(
                { candidates[i].path, candidates[i].rank, candidates[i].bytes, {} });
        }
        g.runs.push_back(std::move(run));
    }
    // A duplicate is listed in the run of the file it copies.
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (g.duplicateOf[i] < 0)
            continue;
        const auto original = static_cast<size_t>(g.duplicateOf[i]);
        TraceRun& run = g.runs[g.runOf[original] - 1];
        run.files.push_back({ candidates[i].path, candidates[i].rank, candidates[i].bytes,
            candidates[original].path });
    }
    return g;
}

std::pair<double, double> fileTimeSpan(const Trace& t, int year, int tzOffsetMinutes)
{
    auto at = [&](uint32_t r) { return glogEpochUs(t.records[r], year, tzOffsetMinutes); };
    double first = 0, last = 0;
    for (uint32_t r = 0; r < t.records.size(); ++r)
        if (double us = at(r); us > 0) {
            first = us;
            break;
        }
    for (uint32_t r = static_cast<uint32_t>(t.records.size()); r-- > 0;)
        if (double us = at(r); us > 0) {
            last = us;
            break;
        }
    // Compiles may carry epoch times where records do not (TORCH_LOGS text without a date);
    // times before 2001 are glog times of a file whose year was not known.
    for (const auto& c : t.compiles) {
        if (c.startUs < 1e15)
            continue;
        if (first == 0 || c.startUs < first)
            first = c.startUs;
        last = std::max(last, c.endUs);
    }
    return { first, std::max(first, last) };
}

void labelFiles(Trace& t)
{
    std::unordered_map<int64_t, std::vector<size_t>> byRank;
    for (size_t i = 0; i < t.files.size(); ++i)
        if (t.files[i].rank)
            byRank[*t.files[i].rank].push_back(i);
    for (size_t i = 0; i < t.files.size(); ++i) {
        TraceFile& f = t.files[i];
        const std::string base = f.path.substr(f.path.find_last_of('/') + 1);
        if (!f.rank) {
            f.label = base;
            continue;
        }
        f.label = "rank " + std::to_string(*f.rank);
        const auto& same = byRank[*f.rank];
        if (same.size() < 2)
            continue;
        // Runs tell the files apart when each is in a different run; else their names do.
        std::set<uint32_t> runs;
        for (size_t j : same)
            runs.insert(t.files[j].run);
        const bool byRun = runs.size() == same.size() && !runs.contains(0);
        f.label += " · " + (byRun ? "run " + std::to_string(f.run) : base);
    }
}

std::string describeRun(const TraceRun& run)
{
    size_t files = 0;
    for (const auto& f : run.files)
        files += f.duplicateOf.empty() ? 1 : 0;
    std::string out = "run " + std::to_string(run.number) + " (";
    if (run.startUs > 0)
        out += utcMinute(run.startUs) + ", ";
    const std::vector<int64_t> known = run.ranks();
    const std::string ranks = known.empty() ? std::string() : rankRanges(known);
    if (!ranks.empty())
        out += ranks + ", ";
    out += std::to_string(files) + (files == 1 ? " file)" : " files)");
    return out;
}

} // namespace dynascope
