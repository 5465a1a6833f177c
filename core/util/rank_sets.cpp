// Rank sets named as ranges (rank_sets.h).
#include "core/util/rank_sets.h"

#include <algorithm>

namespace dynascope {

namespace {
constexpr size_t kShownPieces = 8;
}

// Runs of consecutive ranks as text: at most kShownPieces pieces, then "and N more".
class RankSpace::Text {
public:
    bool full() const { return m_pieces >= kShownPieces; }
    void run(int64_t first, int64_t last)
    {
        const auto n = static_cast<size_t>(last - first + 1);
        m_total += n;
        if (full()) {
            m_hidden += n;
            return;
        }
        if (m_pieces++)
            m_text += ", ";
        m_text += std::to_string(first);
        if (n == 2)
            m_text += ", " + std::to_string(last);
        else if (n > 2)
            m_text += "-" + std::to_string(last);
    }
    void hidden(size_t n)
    {
        m_total += n;
        m_hidden += n;
    }
    std::string str() const
    {
        if (m_total == 0)
            return "no rank";
        std::string s = (m_total == 1 ? "rank " : "ranks ") + m_text;
        if (m_hidden)
            s += " and " + std::to_string(m_hidden) + " more";
        return s;
    }

private:
    std::string m_text;
    size_t m_pieces = 0, m_total = 0, m_hidden = 0;
};

RankSpace::RankSpace(std::vector<int64_t> ranks)
    : m_values(std::move(ranks))
    , m_runEnd(m_values.size())
{
    for (size_t i = m_values.size(); i-- > 0;)
        m_runEnd[i] = i + 1 < m_values.size() && m_values[i + 1] == m_values[i] + 1
            ? m_runEnd[i + 1]
            : static_cast<uint32_t>(i);
}

void RankSpace::addInterval(Text& out, uint32_t first, uint32_t last) const
{
    while (first <= last) {
        if (out.full()) {
            out.hidden(last - first + 1);
            return;
        }
        const uint32_t end = std::min(last, m_runEnd[first]);
        out.run(m_values[first], m_values[end]);
        first = end + 1;
    }
}

std::string RankSpace::name(const RankSet& members) const
{
    Text out;
    for (size_t i = 0; i < members.size();) {
        size_t j = i;
        while (j + 1 < members.size() && members[j + 1] == members[j] + 1)
            ++j;
        addInterval(out, members[i], members[j]);
        i = j + 1;
    }
    return out.str();
}

std::string RankSpace::nameExcept(const RankSet& members, const RankSet& base) const
{
    if (!base.empty()) {
        RankSet rest;
        std::set_difference(
            base.begin(), base.end(), members.begin(), members.end(), std::back_inserter(rest));
        return name(rest);
    }
    Text out;
    uint32_t next = 0;
    for (uint32_t m : members) {
        if (m > next)
            addInterval(out, next, m - 1);
        next = m + 1;
    }
    if (next < m_values.size())
        addInterval(out, next, static_cast<uint32_t>(m_values.size() - 1));
    return out.str();
}

std::string rankRanges(std::vector<int64_t> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    RankSet all(ranks.size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<uint32_t>(i);
    return RankSpace(std::move(ranks)).name(all);
}

} // namespace dynascope
