// SpansPass: the spans of the visible rows (compiles in their status colour, phases in their
// group's colour, labelled when they have room), the hatched blocks that fold spans too narrow to
// draw, the hover (a lighter fill) and the selected compile's outline, drawn from its own times
// so it shows even inside a folded block. Cost: the cached visible spans the exposed rectangle
// touches (TimelineScene).
#pragma once

#include "ui/timeline/timelinerenderpass.h"

namespace dynascope::ui::timeline {

class SpansPass : public TimelineRenderPass {
public:
    void paint(QPainter& p, const PaintContext& ctx) override;

private:
    // `small`, `fmSmall`: the font of the block's count and its metrics.
    static void paintFolded(QPainter& p, const PaintContext& ctx, const QRect& sr,
        const FoldedSpan& f, bool hover, const QFont& small, const QFontMetrics& fmSmall);
    static void paintSelection(QPainter& p, const PaintContext& ctx);
};

} // namespace dynascope::ui::timeline
