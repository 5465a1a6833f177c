#include "ui/timeline/timelinefoldspass.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <cmath>

namespace dynascope::ui::timeline {

void FoldsPass::paint(QPainter& p, const PaintContext& ctx)
{
    const auto& folds = ctx.scene.folds();
    if (folds.empty())
        return;
    const QPalette& pal = ctx.palette;
    const int x0 = ctx.areas().labelWidth;
    const QRect lanes = ctx.areas().lanes;
    const int top = ctx.areas().axis.height();
    p.setClipRect(
        QRect(x0, top, static_cast<int>(ctx.areas().lanesWidth()) + 1, lanes.bottom() - top + 1));
    const QColor line = pal.color(QPalette::Mid);
    for (const TimelineScene::CachedFold& cf : folds) {
        const bool hot = ctx.hover.kind == Hit::Kind::Gap && ctx.hover.item == cf.fold;
        const QRect band(QPoint(x0 + static_cast<int>(std::floor(cf.x0)), top),
            QPoint(x0 + static_cast<int>(std::ceil(cf.x1)) - 1, lanes.bottom()));
        p.fillRect(band, pal.color(QPalette::Window));
        p.fillRect(band, QBrush(hot ? pal.color(QPalette::Highlight) : line, Qt::BDiagPattern));
        p.setPen(hairline(line, Qt::DashLine));
        p.drawLine(band.topLeft(), band.bottomLeft());
        p.drawLine(band.topRight(), band.bottomRight());
    }
}

} // namespace dynascope::ui::timeline
