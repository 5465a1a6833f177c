// SearchHitsPass: compiles that the search matches (SearchBar), marked by a bar above and below
// each span in the highlight colour, visible on every status colour and even when the span is
// folded into a block. Owns the hits (a new trace clears them). Cost: one pass over the hits.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <unordered_set>
#include <vector>

namespace dynascope::ui::timeline {

class SearchHitsPass : public TimelineRenderPass {
public:
    void setHits(const std::vector<uint32_t>& compiles)
    {
        m_hits = std::unordered_set<uint32_t>(compiles.begin(), compiles.end());
    }
    void clear() { m_hits.clear(); }
    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    std::unordered_set<uint32_t> m_hits;
};

} // namespace dynascope::ui::timeline
