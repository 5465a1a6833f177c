#include "ui/timeline/timelinerangepass.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

namespace {
// The range's edges on the canvas, clamped to the lanes.
std::pair<int, int> edges(
    const TimeRange& range, const TimelineAreas& areas, const TimelineViewport& viewport)
{
    const int x0 = areas.labelWidth;
    const int right = x0 + static_cast<int>(areas.lanesWidth());
    const int xa
        = std::clamp(static_cast<int>(std::floor(x0 + viewport.xOf(range.start))), x0, right);
    const int xb = std::clamp(static_cast<int>(std::ceil(x0 + viewport.xOf(range.end))), x0, right);
    return { xa, xb };
}
} // namespace

bool RangePass::setRange(std::optional<TimeRange> range)
{
    if (range == m_range)
        return false;
    m_range = range;
    return true;
}

RangeSummary RangePass::summary(const Trace* trace, const TimelineLayout& layout) const
{
    if (!trace || !m_range)
        return {};
    return summarizeRange(*trace, layout.toTrace(*m_range), layout.fileShifts());
}

QStringList RangePass::boxLines(const Trace* trace, const TimelineLayout& layout, int tz) const
{
    if (!m_range)
        return {};
    return rangeSummaryLines(summary(trace, layout), tz,
        layout.aligned() ? std::optional(layout.alignOrigin()) : std::nullopt);
}

QRect RangePass::boxRect(const Trace* trace, const TimelineLayout& layout,
    const TimelineAreas& areas, const TimelineViewport& viewport, int tzOffsetMinutes) const
{
    if (!m_range)
        return {};
    const QStringList lines = boxLines(trace, layout, tzOffsetMinutes);
    const QFont f = smallFont(areas.font);
    QFont bold = f;
    bold.setBold(true);
    const QFontMetrics fm(f), bm(bold);
    int tw = 0;
    for (int i = 0; i < lines.size(); ++i) // the first line is bold: measured bold
        tw = std::max(tw, (i == 0 ? bm : fm).horizontalAdvance(lines[i]));
    const int lh = std::max(fm.height(), bm.height());
    const int w = static_cast<int>(areas.lanesWidth());
    const int x0 = areas.labelWidth;
    const auto [xa, xb] = edges(*m_range, areas, viewport);
    QRect box(0, areas.lanes.top() + 6, tw + 16, lh * static_cast<int>(lines.size()) + 10);
    // Beside the range, on the side with room; inside the lanes, never over the labels.
    int bx = xb + 8;
    if (bx + box.width() > x0 + w)
        bx = xa - 8 - box.width();
    bx = std::clamp(bx, x0 + 4, std::max(x0 + 4, x0 + w - box.width() - 4));
    box.moveLeft(bx);
    return box;
}

void RangePass::paint(QPainter& p, const PaintContext& ctx)
{
    if (!m_range)
        return;
    const QPalette& pal = ctx.palette;
    const TimelineAreas& areas = ctx.areas();
    const int top = areas.axis.height();
    const int bottom = areas.lanes.bottom();
    const auto [xa, xb] = edges(*m_range, areas, ctx.viewport);
    QColor shade = pal.color(QPalette::Highlight);
    shade.setAlpha(50);
    p.fillRect(QRect(QPoint(xa, top), QPoint(std::max(xa, xb - 1), bottom)), shade);
    p.setPen(hairline(pal.color(QPalette::Highlight)));
    p.drawLine(xa, top, xa, bottom);
    p.drawLine(xb, top, xb, bottom);

    // The box: duration (bold), then what the range holds.
    const QStringList lines = boxLines(&ctx.trace, ctx.layout, ctx.tzOffsetMinutes);
    const QRect box = boxRect(&ctx.trace, ctx.layout, areas, ctx.viewport, ctx.tzOffsetMinutes);
    const QFont f = smallFont(ctx.font());
    const int lh = (box.height() - 10) / std::max<int>(1, static_cast<int>(lines.size()));
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(pal.color(QPalette::Mid));
    p.setBrush(pal.color(QPalette::ToolTipBase));
    p.drawRoundedRect(box, 4, 4);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(pal.color(QPalette::ToolTipText));
    for (int i = 0; i < lines.size(); ++i) {
        QFont lf = f;
        lf.setBold(i == 0);
        p.setFont(lf);
        p.drawText(QRect(box.left() + 8, box.top() + 5 + i * lh, box.width() - 12, lh),
            Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
    }
}

} // namespace dynascope::ui::timeline
