// TimelineRenderPass: one layer of the timeline's picture (as Qt Creator's TimelineRenderPass).
// TimelineView paints its passes in order into one QPainter, each between save() and restore(),
// so the screen, a QImage at any device pixel ratio and an SVG get the same picture. A pass owns
// the data only it draws (finding marks, search hits, the selected range...); what all of them
// read comes in the PaintContext: the trace, its layout, the viewport (visible range and time ->
// pixel mapping), the scene (what is visible now, in pixels, with the canvas areas), the palette,
// the font, the selection and the hover. A pass draws what lies in `exposed` (the rest is clipped
// anyway), so a hover's repaint costs only what it touches. Header only: an interface.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/timelinelayout.h"
#include "ui/timeline/timelinescene.h"
#include "ui/timeline/timelineviewport.h"

#include <QPalette>

class QPainter;

namespace dynascope::ui::timeline {

struct PaintContext {
    const Trace& trace;
    const TimelineLayout& layout;
    const TimelineViewport& viewport;
    const TimelineScene& scene;
    const QPalette& palette;
    QRect exposed; // what this paint must draw (canvas coordinates)
    uint32_t selected = kNone; // the selected compile
    Hit hover; // what is under the mouse (none in exports)
    int tzOffsetMinutes = 0; // the trace's, for wall-clock labels

    const TimelineAreas& areas() const { return scene.areas(); }
    const QFont& font() const { return scene.areas().font; }
    // A display time's x on the canvas.
    double x(double displayTime) const { return areas().labelWidth + viewport.xOf(displayTime); }
    // The time part of the lanes: from the label column's edge to the scroll bar.
    QRect timeLanes() const
    {
        const QRect l = areas().lanes;
        return { areas().labelWidth, l.top(), static_cast<int>(areas().lanesWidth()) + 1,
            l.height() };
    }
};

class TimelineRenderPass {
public:
    virtual ~TimelineRenderPass() = default;
    virtual void paint(QPainter& p, const PaintContext& ctx) = 0;
};

} // namespace dynascope::ui::timeline
