#include "ui/timeline/timelinefindingmarkspass.h"

#include "ui/models/statusstyle.h"

#include <QPainter>

#include <algorithm>

namespace dynascope::ui::timeline {

void FindingMarksPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect lanes = ctx.areas().lanes;
    if (m_marks.empty() || !ctx.exposed.intersects(lanes))
        return;
    const TimeRange view = ctx.viewport.view();
    const QColor base = ctx.palette.color(QPalette::Base);
    p.setClipRect(ctx.timeLanes());
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(base, 1));
    const int size = std::max(7, QFontMetrics(ctx.font()).height() / 2);
    for (const auto& [ci, severity] : m_marks) {
        const int lane = ctx.layout.laneOf(ci);
        if (lane < 0 || ci >= ctx.trace.compiles.size())
            continue;
        const Compile& c = ctx.trace.compiles[ci];
        const double start = ctx.layout.compileStart(c);
        if (ctx.layout.compileEnd(c) < view.start || start > view.end)
            continue;
        const Row& row = ctx.layout.rows()[static_cast<size_t>(lane)];
        const double x = ctx.x(start);
        const double y = ctx.scene.rowTop(row);
        // A corner flag on the span's top left: orange-red for an error, amber for a warning.
        const QColor fill = fillOn(severityColor(severity >= 2 ? 2 : 1), base);
        const QPointF corner[3] = { { x, y }, { x + size, y }, { x, y + size } };
        p.setBrush(fill);
        p.drawPolygon(corner, 3);
    }
}

} // namespace dynascope::ui::timeline
