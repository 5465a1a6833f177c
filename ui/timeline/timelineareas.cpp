#include "ui/timeline/timelineareas.h"

#include <QFontMetrics>

#include <algorithm>

namespace dynascope::ui::timeline {

QFont smallFont(const QFont& font, double scale)
{
    QFont f = font;
    f.setPointSizeF(font.pointSizeF() * scale);
    return f;
}

int TimelineAreas::labelWidthFor(const QFont& font)
{
    return std::max(250, QFontMetrics(font).averageCharWidth() * 36);
}

int TimelineAreas::axisHeightFor(const QFont& font)
{
    return std::max(30, QFontMetrics(smallFont(font)).height() + 14);
}

int TimelineAreas::markerHeightFor(const QFont& font)
{
    return std::max(22, QFontMetrics(font).height() + 6);
}

int TimelineAreas::legendLineFor(const QFont& font)
{
    return std::max(18, QFontMetrics(smallFont(font)).height() + 4);
}

TimelineAreas TimelineAreas::compute(
    const QFont& font, const QSize& canvas, int scrollBarWidth, int legendHeight, int scroll)
{
    TimelineAreas a;
    a.font = font;
    a.canvas = canvas;
    a.labelWidth = labelWidthFor(font);
    a.scroll = scroll;
    const int axisHeight = axisHeightFor(font);
    const int markerHeight = markerHeightFor(font);
    a.axis = { 0, 0, canvas.width(), axisHeight };
    a.markers = { 0, axisHeight, canvas.width() - scrollBarWidth, markerHeight };
    const int top = axisHeight + markerHeight;
    a.lanes = { 0, top, canvas.width() - scrollBarWidth,
        std::max(0, canvas.height() - legendHeight - top) };
    a.legend = { 0, canvas.height() - legendHeight, canvas.width(), legendHeight };
    return a;
}

} // namespace dynascope::ui::timeline
