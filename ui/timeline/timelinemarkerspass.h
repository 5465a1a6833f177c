// MarkersPass: the row of instant markers under the axis (recompile ↻, graph break ⚡, failure ✕,
// cache hit and miss), one glyph per cached marker (markers of a kind closer than 9 px are one),
// in the marker's hue made readable on the row's base; the selected compile's markers and the
// hovered one get a translucent highlight behind. Cost: the cached visible markers.
#pragma once

#include "ui/timeline/timelinerenderpass.h"

#include <QCoreApplication>

namespace dynascope::ui::timeline {

class MarkersPass : public TimelineRenderPass {
    Q_DECLARE_TR_FUNCTIONS(MarkersPass)
public:
    void paint(QPainter& p, const PaintContext& ctx) override;
};

} // namespace dynascope::ui::timeline
