// FoldsPass: the folded idle gaps (timefolding.h) as hatched bands with dashed edges from the
// axis down through the markers and lanes, the hovered one hatched in the highlight colour (its
// label on the axis is AxisPass's). Cost: the folds in view, a handful.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

namespace dynascope::ui::timeline {

class FoldsPass : public TimelineRenderPass {
public:
    void paint(QPainter& p, const PaintContext& ctx) override;
};

} // namespace dynascope::ui::timeline
