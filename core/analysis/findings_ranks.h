// Internal to the rank findings (findings_ranks.cpp, findings_ranks_frames.cpp): the ranks of
// a job, the frames each compiled grouped by code object, and ranks grouped by a value.
#pragma once

#include "core/analysis/findings_rules.h"
#include "core/util/rank_sets.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dynascope::findings::ranks {

constexpr size_t kShownGroups = 4;
constexpr size_t kShownFrames = 3;

// One code object on one rank: what that rank compiled of it.
struct RankFrame {
    uint32_t rank = 0; // dense (RankSpace)
    uint32_t frame = kNone; // Trace::frames index (its first frame on that rank)
    std::vector<uint32_t> compiles; // trace order
};

struct Code {
    std::vector<uint32_t> entries; // RankFrame indices, by rank
    RankSet ranks; // the ranks that compiled it
    bool explained = false; // on some ranks only because of a break another finding names
};

struct Job {
    const Trace& t;
    RankSpace ranks; // the ranks that compiled something
    std::vector<uint32_t> rankOfFile; // kNone: no rank, or compiled nothing
    std::vector<RankFrame> entries;
    std::vector<Code> codes;
    std::vector<uint32_t> codeOfFrame; // Trace::frames index -> Code index (kNone: none)

    uint32_t frameOf(const Code& c) const { return entries[c.entries.front()].frame; }
    bool onAll(const Code& c) const { return c.ranks.size() == ranks.size(); }
    std::string others(const RankSet& members, const Code& c) const
    {
        return ranks.nameExcept(members, onAll(c) ? RankSet {} : c.ranks);
    }
    // The trace files of a set of ranks (Finding::files), in file order.
    std::vector<uint32_t> filesOf(const RankSet& members) const
    {
        std::vector<uint32_t> out;
        for (uint32_t f = 0; f < rankOfFile.size(); ++f)
            if (rankOfFile[f] != kNone
                && std::binary_search(members.begin(), members.end(), rankOfFile[f]))
                out.push_back(f);
        return out;
    }
    // The smaller side of a split of `base` (empty: every rank) into members and the rest: the
    // ranks that stand out.
    RankSet oddOnes(const RankSet& members, const RankSet& base = {}) const
    {
        RankSet all = base;
        if (all.empty())
            for (uint32_t r = 0; r < ranks.size(); ++r)
                all.push_back(r);
        RankSet rest;
        std::set_difference(
            all.begin(), all.end(), members.begin(), members.end(), std::back_inserter(rest));
        return members.size() <= rest.size() || rest.empty() ? members : rest;
    }
};

// Ranks grouped by a value: "rank 3: 2, others: 1" (the largest group is "others" when the
// groups cover every rank compared).
template <typename V> struct Groups {
    std::map<V, RankSet> byValue;
    const RankSet* majority() const
    {
        const RankSet* m = nullptr;
        for (const auto& [v, set] : byValue)
            if (!m || set.size() > m->size())
                m = &set;
        return m;
    }
    const V& majorityValue() const
    {
        const RankSet* m = majority();
        for (const auto& [v, set] : byValue)
            if (&set == m)
                return v;
        return byValue.begin()->first;
    }
    // The groups other than the majority, smallest first.
    std::vector<std::pair<V, const RankSet*>> minorities() const
    {
        std::vector<std::pair<V, const RankSet*>> out;
        const RankSet* m = majority();
        for (const auto& [v, set] : byValue)
            if (&set != m)
                out.emplace_back(v, &set);
        std::stable_sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.second->size() < b.second->size(); });
        return out;
    }
    template <typename Show>
    std::string text(const RankSpace& ranks, bool coverAll, Show show) const
    {
        std::string s;
        const auto minor = minorities();
        for (size_t i = 0; i < minor.size() && i < kShownGroups; ++i)
            s += (i ? ", " : "") + ranks.name(*minor[i].second) + ": " + show(minor[i].first);
        if (minor.size() > kShownGroups)
            s += ", " + std::to_string(minor.size() - kShownGroups) + " more groups";
        const std::string rest = coverAll && !minor.empty() ? "others" : ranks.name(*majority());
        return s + (s.empty() ? "" : ", ") + rest + ": " + show(majorityValue());
    }
};

inline bool started(const Compile& c)
{
    return c.startRecord != kNone;
}

// "once", "3 times".
inline std::string times(uint64_t n)
{
    return n == 1 ? std::string("once") : std::to_string(n) + " times";
}

// The job's ranks and frames (findings_ranks.cpp); nullopt under two ranks that compiled. Adds
// the finding about ranks that compiled nothing.
// The job of one run (TraceFile::run; 0 for files not grouped into runs): ranks of other runs
// (--run all) belong to other jobs and are never compared with these.
std::optional<Job> buildJob(Context& cx, uint32_t run);

// findings_ranks_frames.cpp: the comparisons frame by frame. graphBreaks first: it marks the
// resume frames its findings explain (Code::explained).
void graphBreaks(Context& cx, Job& job); // rank-graph-breaks
void recompiles(Context& cx, const Job& job); // rank-recompiles
void failures(Context& cx, const Job& job); // rank-failures
void caches(Context& cx, const Job& job); // rank-cache

} // namespace dynascope::findings::ranks
