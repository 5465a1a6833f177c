// Sets of ranks, and how findings and notices name them compactly ("ranks 0-511, 513-1023").
// Sets are sorted vectors of dense indices into RankSpace::values; naming one costs its size plus
// the pieces shown, never the number of ranks, so that a finding about one rank of 1,024 stays
// cheap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dynascope {

using RankSet = std::vector<uint32_t>; // sorted dense indices, no duplicates

class RankSpace {
public:
    explicit RankSpace(std::vector<int64_t> ranks); // sorted, distinct
    size_t size() const { return m_values.size(); }
    int64_t value(uint32_t dense) const { return m_values[dense]; }
    // "rank 7", "ranks 0-6", "ranks 0-511, 513-1023", "ranks 0, 2, 4, ... and 508 more".
    std::string name(const RankSet& members) const;
    // The ranks of `base` (empty: all of them) that are not in `members` (a subset of base).
    std::string nameExcept(const RankSet& members, const RankSet& base = {}) const;
    size_t countExcept(const RankSet& members, const RankSet& base = {}) const
    {
        return (base.empty() ? size() : base.size()) - members.size();
    }

private:
    class Text;
    void addInterval(Text& out, uint32_t first, uint32_t last) const;

    std::vector<int64_t> m_values;
    std::vector<uint32_t> m_runEnd; // dense index -> last index of its run of consecutive ranks
};

// How findings and notices name a set of ranks: sorted, duplicates dropped, runs as ranges, at
// most eight pieces: "rank 7", "ranks 0, 1", "ranks 0-511, 513-1023", "ranks 0, 2, 4, ... and
// 508 more".
std::string rankRanges(std::vector<int64_t> ranks);

} // namespace dynascope
