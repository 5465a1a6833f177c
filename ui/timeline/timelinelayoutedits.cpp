#include "ui/timeline/timelinelayoutedits.h"

#include "ui/timeline/timelineareas.h"

#include <QFontMetrics>

#include <algorithm>

namespace dynascope::ui::timeline {

std::optional<LayoutOptions> toggledLane(
    const LayoutOptions& options, const TimelineLayout& layout, int row)
{
    if (row < 0 || row >= static_cast<int>(layout.rows().size()))
        return std::nullopt;
    const Row& r = layout.rows()[static_cast<size_t>(row)];
    if (r.compactRank) // many ranks: this rank's lanes open, the open one folds
        return expandedRank(options, layout, r.file);
    if (r.kind != Row::Kind::Lane || r.phaseDepths == 0)
        return std::nullopt;
    LayoutOptions o = options;
    const uint64_t key = TimelineLayout::laneKey(r);
    if (!o.toggled.erase(key))
        o.toggled.insert(key);
    return o;
}

std::optional<LayoutOptions> expandedRank(
    const LayoutOptions& options, const TimelineLayout& layout, uint32_t file)
{
    if (!layout.compactRanks() || file == layout.expandedFile())
        return std::nullopt;
    LayoutOptions o = options;
    o.expandedFile = file;
    return o;
}

std::optional<LayoutOptions> unfoldedGap(
    const LayoutOptions& options, const TimelineLayout& layout, uint32_t fold)
{
    const auto& folds = layout.folding().folds();
    if (fold >= folds.size())
        return std::nullopt;
    LayoutOptions o = options;
    o.unfoldedGaps.insert(folds[fold].gap.key());
    return o;
}

LayoutOptions foldedGaps(LayoutOptions options, bool fold)
{
    options.foldGaps = fold;
    options.unfoldedGaps.clear(); // folding again folds every gap
    return options;
}

LayoutOptions alignedRanks(LayoutOptions options, bool align)
{
    options.alignRanks = align;
    return options;
}

LayoutOptions sizedRows(LayoutOptions options, const QFont& font)
{
    const QFontMetrics fm(font);
    const QFontMetrics sm(smallFont(font, 0.78));
    options.laneHeight = std::max(24, fm.height() + 8);
    options.rankHeight = std::max(22, fm.height() + 6);
    options.phaseHeight = std::max(12, sm.height() + 1);
    return options;
}

} // namespace dynascope::ui::timeline
