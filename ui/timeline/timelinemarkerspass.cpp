#include "ui/timeline/timelinemarkerspass.h"

#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <cmath>

namespace dynascope::ui::timeline {

void MarkersPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect r = ctx.areas().markers;
    if (!ctx.exposed.intersects(r))
        return;
    const int x0 = ctx.areas().labelWidth;
    const QPalette& pal = ctx.palette;
    const QColor base = pal.color(QPalette::AlternateBase);
    p.fillRect(r, base);
    p.setPen(hairline(pal.color(QPalette::Mid)));
    p.drawLine(r.bottomLeft(), r.bottomRight());
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.setFont(ctx.font());
    p.drawText(
        QRect(8, r.top(), x0 - 12, r.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("markers"));
    QFont glyphFont = ctx.font();
    glyphFont.setBold(true);
    p.setFont(glyphFont);
    p.setClipRect(QRect(x0, r.top(), r.width() - x0, r.height()));
    for (const TimelineScene::CachedMarker& cm : ctx.scene.markers()) {
        const Marker& m = ctx.layout.markers()[cm.marker];
        const auto st = markerStyle(m.kind);
        const int x = x0 + static_cast<int>(std::lround(cm.x));
        const bool hover = ctx.hover.kind == Hit::Kind::Marker && ctx.hover.item == cm.marker;
        if (m.compile == ctx.selected || hover) {
            // Translucent, so it reads on light and dark bases alike.
            QColor mark = pal.color(QPalette::Highlight);
            mark.setAlpha(m.compile == ctx.selected ? 110 : 60);
            p.fillRect(QRect(x - 7, r.top() + 2, 14, r.height() - 4), mark);
        }
        // docs/ux.md: the same hues, lighter tints on a dark base; the yellow of a cache miss
        // darker on a light one, so every glyph reads.
        p.setPen(m.kind == MarkerKind::CacheMiss || isDark(base) ? readableOn(st.color, base)
                                                                 : st.color);
        p.drawText(QRect(x - kMarkerGlyphHalf, r.top(), 2 * kMarkerGlyphHalf, r.height()),
            Qt::AlignCenter, st.glyph);
    }
}

} // namespace dynascope::ui::timeline
