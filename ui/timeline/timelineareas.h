// TimelineAreas: where the parts of the timeline go on a canvas, from its size, the font, the
// scroll bar's width and the legend's height. From the top: the time axis, the row of instant
// markers, the lanes (rows scroll under them; the label column on their left) and the legend.
// Sizes follow the font, so a 14 pt desktop font gets taller rows and a wider label column.
// Plain values, computed afresh per paint or hit test: a few QFontMetrics, no allocation.
#pragma once

#include <QFont>
#include <QRect>

#include <algorithm>

namespace dynascope::ui::timeline {

// The font scaled (the axis and legend use 0.9, phase labels 0.78).
QFont smallFont(const QFont& font, double scale = 0.9);

struct TimelineAreas {
    QFont font;
    QSize canvas;
    int labelWidth = 0; // the label column, left of the lanes
    int scroll = 0; // the rows' vertical scroll, content pixels
    QRect axis, markers, lanes, legend; // lanes: labels included, scroll bar left out

    // `legendHeight` 0: no legend. `scrollBarWidth`: room kept on the right of markers and lanes.
    static TimelineAreas compute(
        const QFont& font, const QSize& canvas, int scrollBarWidth, int legendHeight, int scroll);
    // Font-dependent sizes, also without a canvas.
    static int labelWidthFor(const QFont& font);
    static int axisHeightFor(const QFont& font);
    static int markerHeightFor(const QFont& font);
    static int legendLineFor(const QFont& font);

    // Width of the time part of the lanes (at least one pixel) and its left edge.
    double lanesWidth() const { return std::max(1, lanes.width() - labelWidth); }
    int x0() const { return labelWidth; }
};

} // namespace dynascope::ui::timeline
