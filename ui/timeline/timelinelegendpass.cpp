#include "ui/timeline/timelinelegendpass.h"
#include "ui/timeline/timelineconstants.h"

#include "ui/models/statusstyle.h"

#include <QPainter>

namespace dynascope::ui::timeline {

std::vector<LegendPass::Item> LegendPass::items(
    const QPalette& palette, const TimelineLayout& layout)
{
    const QColor base = palette.color(QPalette::Base);
    std::vector<Item> items;
    bool group = false;
    for (auto st : { CompileStatus::Ok, CompileStatus::GraphBreak, CompileStatus::Empty,
             CompileStatus::Error, CompileStatus::Missing }) {
        const auto style = statusStyle(st);
        items.push_back(
            { fillOn(style.color, base), style.glyph, style.word, true, group, false, {} });
    }
    items.push_back(
        { palette.color(QPalette::Text), {}, tr("folded (zoom in)"), true, false, true, {} });
    group = true;
    const QColor markerBase = palette.color(QPalette::AlternateBase);
    for (auto k : { MarkerKind::Recompile, MarkerKind::GraphBreak, MarkerKind::Failure,
             MarkerKind::CacheHit, MarkerKind::CacheMiss }) {
        const auto st = markerStyle(k);
        items.push_back(
            { readableOn(st.color, markerBase), st.glyph, st.word, false, group, false, {} });
        group = false;
    }
    group = true;
    for (PhaseGroup g : layout.phaseGroups()) {
        const PhaseStyle ps = phaseGroupStyle(g);
        items.push_back({ isDark(base) ? ps.color.darker(135) : ps.color, {}, ps.label, true, group,
            false, {} });
        group = false;
    }
    return items;
}

int LegendPass::layOut(std::vector<Item>& items, int width, const QFont& font)
{
    const QFontMetrics fm(smallFont(font));
    const int line = TimelineAreas::legendLineFor(font);
    // Groups (statuses, markers, phases) stay together on a line when they fit; a narrow window
    // wraps the legend onto more lines instead of cutting it off.
    int x = 8, lineNo = 0;
    const int right = width - 4;
    const int swatch = fm.height() * 3 / 4;
    auto need = [&](const Item& e) {
        return (e.swatch ? swatch + 4 : 0)
            + (e.glyph.isEmpty() ? 0 : fm.horizontalAdvance(e.glyph) + 3)
            + fm.horizontalAdvance(e.word) + 12;
    };
    for (size_t i = 0; i < items.size(); ++i) {
        Item& it = items[i];
        if (it.groupStart && x > 8) {
            int groupWidth = 10;
            for (size_t j = i; j < items.size() && (j == i || !items[j].groupStart); ++j)
                groupWidth += need(items[j]);
            if (x + groupWidth > right && groupWidth <= right - 8) {
                x = 8;
                ++lineNo;
            } else {
                x += 10;
            }
        }
        if (x + need(it) > right && x > 8) {
            x = 8;
            ++lineNo;
        }
        it.at = QPoint(x, lineNo * line);
        x += need(it);
    }
    return (lineNo + 1) * line + 4;
}

int LegendPass::height(
    int width, const QFont& font, const QPalette& palette, const TimelineLayout& layout) const
{
    if (!m_visible)
        return 0;
    if (width != m_width || font.pointSizeF() != m_fontSize) {
        auto all = items(palette, layout);
        m_height = layOut(all, width, font);
        m_width = width;
        m_fontSize = font.pointSizeF();
    }
    return m_height;
}

void LegendPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect r = ctx.areas().legend;
    if (!ctx.exposed.intersects(r))
        return;
    const QPalette& pal = ctx.palette;
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(hairline(pal.color(QPalette::Mid)));
    p.drawLine(r.topLeft(), r.topRight());
    const QFont small = smallFont(ctx.font());
    p.setFont(small);
    const QFontMetrics fm(small);
    const int line = TimelineAreas::legendLineFor(ctx.font());
    const int swatch = fm.height() * 3 / 4;
    auto all = items(pal, ctx.layout);
    layOut(all, r.width(), ctx.font());
    for (const Item& it : all) {
        int x = it.at.x();
        const int top = r.top() + 2 + it.at.y();
        const int base = top + (line + fm.ascent() - fm.descent()) / 2;
        if (it.swatch) {
            const QRect sw(x, top + (line - swatch) / 2, swatch, swatch);
            if (it.hatch) {
                QColor h = it.color;
                h.setAlpha(110);
                p.fillRect(sw, pal.color(QPalette::Base));
                p.fillRect(sw, QBrush(h, Qt::BDiagPattern));
                p.setPen(h);
                p.drawRect(sw.adjusted(0, 0, -1, -1));
            } else {
                p.fillRect(sw, it.color);
            }
            x += swatch + 4;
        }
        if (!it.glyph.isEmpty()) {
            p.setPen(it.color);
            p.drawText(QPoint(x, base), it.glyph);
            x += fm.horizontalAdvance(it.glyph) + 3;
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QPoint(x, base), it.word);
    }
}

} // namespace dynascope::ui::timeline
