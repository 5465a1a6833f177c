#include "ui/timeline/timelinerowspass.h"

#include "ui/models/format.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>

#include <algorithm>
#include <utility>

namespace dynascope::ui::timeline {

void RowsPass::paint(QPainter& p, const PaintContext& ctx)
{
    const TimelineAreas& areas = ctx.areas();
    const QRect lanes = areas.lanes;
    if (!ctx.exposed.intersects(lanes))
        return;
    const QPalette& pal = ctx.palette;
    const QColor base = pal.color(QPalette::Base);
    const auto& rows = ctx.layout.rows();
    const int x0 = areas.labelWidth;
    const QFont small = smallFont(ctx.font(), 0.78);
    const QFontMetrics fmSmall(small);
    p.setClipRect(lanes);
    p.setRenderHint(QPainter::Antialiasing, false);

    // Compact rank rows (many ranks) are a few pixels tall: their labels go on every few rows,
    // after the backgrounds, so the next row does not paint over them.
    const int firstRow = std::max(0, ctx.layout.rowAt(areas.scroll));
    bool band = false;
    std::vector<std::pair<QRect, QString>> compactLabels;
    for (int ri = firstRow; ri < static_cast<int>(rows.size()); ++ri) {
        const Row& row = rows[static_cast<size_t>(ri)];
        const int y = ctx.scene.rowTop(row);
        if (y > lanes.bottom())
            break;
        if (row.kind == Row::Kind::Lane)
            band = !band;
        const QRect rr(0, y, lanes.width(), row.height);
        if (!rr.intersects(ctx.exposed))
            continue;
        if (row.compactRank) {
            p.fillRect(rr, row.file % 2 ? pal.color(QPalette::AlternateBase) : base);
            const int every = std::max(1, (fmSmall.height() + row.height - 1) / row.height);
            if (row.file % static_cast<uint32_t>(every) == 0)
                compactLabels.emplace_back(
                    QRect(8, y + row.height / 2 - fmSmall.height() / 2, x0 - 16, fmSmall.height()),
                    row.label + QStringLiteral(" · ") + QString::number(row.compileCount));
            continue;
        }
        if (row.kind == Row::Kind::Rank) {
            p.fillRect(rr, pal.color(QPalette::Window));
            p.setPen(hairline(pal.color(QPalette::Mid)));
            p.drawLine(rr.topLeft(), rr.topRight());
            QFont bold = ctx.font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(pal.color(QPalette::WindowText));
            const QString text = row.label + QStringLiteral("  ·  ")
                + plural(static_cast<uint64_t>(row.compileCount), tr("compile"), tr("compiles"));
            p.drawText(rr.adjusted(8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
            continue;
        }
        if (band)
            p.fillRect(rr, pal.color(QPalette::AlternateBase));
        if (row.kind == Row::Kind::Lane) {
            paintLaneLabel(p, ctx, row, y);
        } else if (!row.label.isEmpty()) {
            p.setFont(small);
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(28, y, x0 - 36, row.height), Qt::AlignLeft | Qt::AlignVCenter,
                fmSmall.elidedText(row.label, Qt::ElideRight, x0 - 36));
        }
    }

    if (!compactLabels.empty()) {
        p.setFont(small);
        p.setPen(pal.color(QPalette::PlaceholderText));
        for (const auto& [r, text] : compactLabels)
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                fmSmall.elidedText(text, Qt::ElideRight, r.width()));
    }
}

void RowsPass::paintLaneLabel(QPainter& p, const PaintContext& ctx, const Row& row, int y)
{
    const QPalette& pal = ctx.palette;
    const int x0 = ctx.areas().labelWidth;
    const QFontMetrics fm(ctx.font());
    const QFont small = smallFont(ctx.font(), 0.78);
    const QFontMetrics fmSmall(small);
    p.setFont(ctx.font());
    const QString badge = QString::number(row.compileCount);
    const int bw = fmSmall.horizontalAdvance(badge) + 10;
    const QRect badgeRect(x0 - bw - 8, y + 5, bw, row.height - 10);
    if (row.phaseDepths > 0) {
        // Clicking the label flips the lane's phase rows.
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(2, y, 14, row.height), Qt::AlignCenter,
            row.expanded ? QStringLiteral("▾") : QStringLiteral("▸"));
    }
    // The function name whole (cut at its end only when it alone does not fit), then as much of
    // file:line as fits, cut on the left so the line number stays.
    const int room = badgeRect.left() - 24;
    const QString name = fm.elidedText(row.name, Qt::ElideRight, room);
    const int nameWidth = fm.horizontalAdvance(name);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(16, y, room, row.height), Qt::AlignLeft | Qt::AlignVCenter, name);
    const int whereRoom = room - nameWidth - fm.horizontalAdvance(QStringLiteral("  "));
    if (!row.where.isEmpty() && whereRoom > fm.horizontalAdvance(QStringLiteral("…:0"))) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(16 + room - whereRoom, y, whereRoom, row.height),
            Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(row.where, Qt::ElideLeft, whereRoom));
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(pal.color(QPalette::Mid));
    p.drawRoundedRect(badgeRect, 6, 6);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setFont(small);
    p.setPen(textOn(pal.color(QPalette::Mid)));
    p.drawText(badgeRect, Qt::AlignCenter, badge);
}

} // namespace dynascope::ui::timeline
