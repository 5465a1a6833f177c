#include "ui/timeline/timelinespanspass.h"

#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

void SpansPass::paint(QPainter& p, const PaintContext& ctx)
{
    const TimelineAreas& areas = ctx.areas();
    if (!ctx.exposed.intersects(areas.lanes))
        return;
    const QPalette& pal = ctx.palette;
    const QColor base = pal.color(QPalette::Base);
    const auto& rows = ctx.layout.rows();
    const double w = areas.lanesWidth();
    const int x0 = areas.labelWidth;
    const QFontMetrics fm(ctx.font());
    const QFont small = smallFont(ctx.font(), 0.78);
    const QFontMetrics fmSmall(small);
    const Hit& hover = ctx.hover;
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setClipRect(ctx.timeLanes());
    for (const TimelineScene::CachedRow& cr : ctx.scene.rows()) {
        const Row& row = rows[static_cast<size_t>(cr.row)];
        const int y = ctx.scene.rowTop(row);
        const bool lane = row.kind == Row::Kind::Lane;
        const int inset = lane ? 3 : 1;
        for (const FoldedSpan& f : cr.spans) {
            const QRect sr(QPoint(x0 + static_cast<int>(std::floor(f.x0)), y + inset),
                QPoint(x0 + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - inset - 1));
            if (!sr.intersects(ctx.exposed))
                continue;
            const bool hovered = (hover.kind == Hit::Kind::Span || hover.kind == Hit::Kind::Folded)
                && hover.row == cr.row && hover.item == f.item;
            if (f.folded()) {
                paintFolded(p, ctx, sr, f, hovered, small, fmSmall);
                continue;
            }
            const Span& s = row.spans[f.item];
            const Compile& c = ctx.trace.compiles[s.compile];
            QColor fill;
            QString label;
            if (s.phase < 0) {
                fill = fillOn(statusStyle(c.status).color, base);
                // The status glyph before the id ("↻ [3/1]", "⚡ [1/0]"): colour is never the
                // only sign of a status.
                label = compileStyle(c).glyph + QLatin1Char(' ') + qs(c.id.display());
            } else {
                const PhaseSpan& ph = c.phases[static_cast<size_t>(s.phase)];
                fill = phaseGroupStyle(s.group).color;
                if (isDark(base))
                    fill = fill.darker(135); // muted tints on a dark base, status stays brighter
                label = qs(ph.name());
            }
            if (hovered)
                fill = fill.lighter(115);
            p.fillRect(sr, fill);
            if (highContrast() && sr.width() > 2 && !row.compactRank) {
                // High contrast: every span outlined in the text colour, so neighbours and
                // the base never blend.
                p.setPen(QPen(pal.color(QPalette::Text), 1));
                p.setBrush(Qt::NoBrush);
                p.drawRect(sr.adjusted(0, 0, -1, -1));
            }
            if (s.compile == ctx.selected && !lane)
                p.fillRect(QRect(sr.left(), sr.bottom(), sr.width(), 1), pal.color(QPalette::Text));
            const QFont& f2 = lane ? ctx.font() : small;
            const QFontMetrics& m2 = lane ? fm : fmSmall;
            if (row.compactRank)
                continue; // a mark a few pixels tall: no room for a label
            if (sr.width() > m2.horizontalAdvance(label) + 6) {
                p.setFont(f2);
                p.setPen(textOn(fill));
                // Keep the label on screen when the span starts off to the left.
                QRect tr2 = sr.intersected(QRect(x0, sr.top(), static_cast<int>(w), sr.height()));
                if (tr2.width() > m2.horizontalAdvance(label) + 6)
                    p.drawText(tr2.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
            } else if (lane && sr.width() > m2.horizontalAdvance(QStringLiteral("…")) + 4) {
                p.setFont(f2);
                p.setPen(textOn(fill));
                QString shown = m2.elidedText(label, Qt::ElideRight, sr.width() - 2);
                // Too narrow for the id: the status glyph alone, when it fits.
                const QString glyph = compileStyle(c).glyph;
                if (s.phase < 0 && shown.size() <= glyph.size() + 2
                    && m2.horizontalAdvance(glyph) + 2 <= sr.width())
                    shown = glyph;
                p.drawText(sr, Qt::AlignCenter, shown);
            }
        }
    }
    paintSelection(p, ctx);
}

void SpansPass::paintFolded(QPainter& p, const PaintContext& ctx, const QRect& sr,
    const FoldedSpan& f, bool hover, const QFont& small, const QFontMetrics& fmSmall)
{
    // Folded blocks are hatched and outlined in the text colour: no fill that could read as a
    // status (the grey of "empty" did).
    const QColor base = ctx.palette.color(QPalette::Base);
    const QColor ink = ctx.palette.color(QPalette::Text);
    QColor hatch = ink;
    hatch.setAlpha(hover ? 150 : 90);
    p.fillRect(sr, base);
    p.fillRect(sr, QBrush(hatch, Qt::BDiagPattern));
    QColor edge = ink;
    edge.setAlpha(hover ? 200 : 120);
    p.setPen(edge);
    p.setBrush(Qt::NoBrush);
    p.drawRect(sr.adjusted(0, 0, -1, -1));
    const QString n = QString::number(f.count);
    const int nw = fmSmall.horizontalAdvance(n) + 4;
    if (sr.width() > nw + 4) {
        p.setFont(small);
        const QRect nr(sr.center().x() - nw / 2, sr.top() + 1, nw, sr.height() - 2);
        p.fillRect(nr, base);
        p.setPen(ink);
        p.drawText(nr, Qt::AlignCenter, n);
    }
}

void SpansPass::paintSelection(QPainter& p, const PaintContext& ctx)
{
    const uint32_t selected = ctx.selected;
    const int lane = selected != kNone ? ctx.layout.laneOf(selected) : -1;
    if (lane < 0)
        return;
    const double w = ctx.areas().lanesWidth();
    const int x0 = ctx.areas().labelWidth;
    const Row& row = ctx.layout.rows()[static_cast<size_t>(lane)];
    const Compile& c = ctx.trace.compiles[selected];
    const int y = ctx.scene.rowTop(row);
    const double a = std::max(-4.0, ctx.viewport.xOf(ctx.layout.compileStart(c)));
    const double b = std::min(w + 4, ctx.viewport.xOf(ctx.layout.compileEnd(c)));
    if (b >= 0 && a <= w) {
        const int xa = x0 + static_cast<int>(std::floor(a));
        const int xb = std::max(xa + 3, x0 + static_cast<int>(std::ceil(b)));
        p.setPen(QPen(ctx.palette.color(QPalette::Text), highContrast() ? 3 : 2));
        p.setBrush(Qt::NoBrush);
        const int inset = row.compactRank ? 0 : 2; // a compact row has no room to spare
        p.drawRect(QRect(QPoint(xa, y + inset), QPoint(xb, y + row.height - 1 - inset)));
    }
}

} // namespace dynascope::ui::timeline
