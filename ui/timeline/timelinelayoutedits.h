// What the timeline's lane and time controls do to its LayoutOptions (timelinelayout.h), as pure
// functions the view applies: a click on a lane's label flips its phase rows (on a compact rank
// row it opens that rank), selecting a compile of a folded rank opens that rank, Alt+click on a
// break unfolds that gap, View > Fold Idle Gaps folds all of them again (or none), View > Align
// Ranks counts each rank from its own start, and a font change sizes the rows. nullopt: nothing
// to change. No widget; O(1) but for copying the options' sets.
#pragma once

#include "ui/timeline/timelinelayout.h"

#include <QFont>

#include <optional>

namespace dynascope::ui::timeline {

std::optional<LayoutOptions> toggledLane(
    const LayoutOptions& options, const TimelineLayout& layout, int row);
std::optional<LayoutOptions> expandedRank(
    const LayoutOptions& options, const TimelineLayout& layout, uint32_t file);
std::optional<LayoutOptions> unfoldedGap(
    const LayoutOptions& options, const TimelineLayout& layout, uint32_t fold);
LayoutOptions foldedGaps(LayoutOptions options, bool fold);
LayoutOptions alignedRanks(LayoutOptions options, bool align);
// Rows as tall as the font needs: a 14 pt desktop font must not overlap the lane labels.
LayoutOptions sizedRows(LayoutOptions options, const QFont& font);

} // namespace dynascope::ui::timeline
