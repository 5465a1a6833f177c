#include "ui/timeline/timelinerankmarkspass.h"

#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <algorithm>

namespace dynascope::ui::timeline {

QString RankMarksPass::toolTip(uint32_t file, const Trace& trace) const
{
    const auto it = m_marks.find(file);
    if (it == m_marks.end() || file >= trace.files.size())
        return {};
    return qs(trace.files[file].label) + QStringLiteral(" stands out:\n• ")
        + it->second.titles.join(QStringLiteral("\n• "));
}

void RankMarksPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect lanes = ctx.areas().lanes;
    if (m_marks.empty() || !ctx.exposed.intersects(lanes))
        return;
    const auto& rows = ctx.layout.rows();
    p.setClipRect(lanes);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int ri = std::max(0, ctx.layout.rowAt(ctx.areas().scroll));
         ri < static_cast<int>(rows.size()); ++ri) {
        const Row& row = rows[static_cast<size_t>(ri)];
        const int y = ctx.scene.rowTop(row);
        if (y > lanes.bottom())
            break;
        const QRect rr(0, y, lanes.width(), row.height);
        if ((row.compactRank || row.kind == Row::Kind::Rank) && rr.intersects(ctx.exposed))
            paintMark(p, ctx, row, rr);
    }
}

void RankMarksPass::paintMark(
    QPainter& p, const PaintContext& ctx, const Row& row, const QRect& rect) const
{
    const auto it = m_marks.find(row.file);
    if (it == m_marks.end())
        return;
    const QColor base = ctx.palette.color(QPalette::Base);
    const QColor hue = severityColor(it->second.severity);
    const int x0 = ctx.areas().labelWidth;
    // On a compact row (a few pixels tall) a bar at the label column's edge; on a rank header,
    // also "≠ straggler, recompiles" at the start of its lanes.
    p.fillRect(QRect(x0 - 7, rect.top(), 5, rect.height()), fillOn(hue, base));
    if (row.compactRank)
        return;
    const QFont small = smallFont(ctx.font());
    const QFontMetrics fm(small);
    const QString text = QStringLiteral("≠ ") + it->second.words.join(QStringLiteral(", "));
    // On the header's empty stretch of the lanes, where it has room.
    const QString shown
        = fm.elidedText(text, Qt::ElideRight, static_cast<int>(ctx.areas().lanesWidth()) - 20);
    const int tw = fm.horizontalAdvance(shown) + 10;
    const QRect badge(x0 + 6, rect.top() + 3, tw, rect.height() - 6);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(fillOn(hue, base));
    p.drawRoundedRect(badge, 5, 5);
    p.setFont(small);
    p.setPen(textOn(fillOn(hue, base)));
    p.drawText(badge, Qt::AlignCenter, shown);
    p.restore();
}

} // namespace dynascope::ui::timeline
