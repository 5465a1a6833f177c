#include "ui/timeline/timelinesearchhitspass.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

void SearchHitsPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect lanes = ctx.areas().lanes;
    if (m_hits.empty() || !ctx.exposed.intersects(lanes))
        return;
    const TimeRange view = ctx.viewport.view();
    const QColor mark = ctx.palette.color(QPalette::Highlight);
    p.setClipRect(ctx.timeLanes());
    for (uint32_t ci : m_hits) {
        const int lane = ctx.layout.laneOf(ci);
        if (lane < 0)
            continue;
        const Compile& c = ctx.trace.compiles[ci];
        const double start = ctx.layout.compileStart(c), end = ctx.layout.compileEnd(c);
        if (end < view.start || start > view.end)
            continue;
        const Row& row = ctx.layout.rows()[static_cast<size_t>(lane)];
        const int y = ctx.scene.rowTop(row);
        const int xa = static_cast<int>(std::floor(ctx.x(start)));
        const int xb = std::max(xa + 5, static_cast<int>(std::ceil(ctx.x(end))));
        // Bars above and below the span: visible on every status colour, even when folded.
        p.fillRect(QRect(xa - 1, y, xb - xa + 2, 3), mark);
        p.fillRect(QRect(xa - 1, y + row.height - 3, xb - xa + 2, 3), mark);
    }
}

} // namespace dynascope::ui::timeline
