#include "ui/timeline/timelineaxispass.h"
#include "ui/timeline/timelineconstants.h"

#include "ui/models/format.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dynascope::ui::timeline {

void AxisPass::paint(QPainter& p, const PaintContext& ctx)
{
    const QRect r = ctx.areas().axis;
    if (!ctx.exposed.intersects(r))
        return;
    const QPalette& pal = ctx.palette;
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(hairline(pal.color(QPalette::Mid)));
    p.drawLine(r.bottomLeft(), r.bottomRight());
    paintTicks(p, ctx);
    paintFoldLabels(p, ctx);
    paintCorner(p, ctx);
}

void AxisPass::paintTicks(QPainter& p, const PaintContext& ctx)
{
    const QRect r = ctx.areas().axis;
    const QPalette& pal = ctx.palette;
    const TimeRange view = ctx.viewport.view();
    const TimelineLayout& layout = ctx.layout;
    const double w = ctx.areas().lanesWidth();
    const QFont small = smallFont(ctx.font());
    p.setFont(small);
    const QFontMetrics fm(small);
    // Labels at least one label apart; with a date when the view crosses midnight. Aligned ranks
    // count from their start ("+1.5 s"), not by the clock.
    const TimeRange shown = layout.toTrace(view);
    const bool aligned = layout.aligned();
    const int tz = ctx.tzOffsetMinutes;
    const bool days = !aligned
        && formatDateTime(shown.start, tz).left(10) != formatDateTime(shown.end, tz).left(10);
    const int labelPx = fm.horizontalAdvance(aligned ? QStringLiteral("+0000.000 s")
                                : days               ? QStringLiteral("0000-00-00 00:00:00.000")
                                                     : QStringLiteral("00:00:00.000"))
        + 20;
    // Outside folds a display µs is a trace µs: one step for the whole view, ticks per stretch
    // between folds, in trace time.
    const double step = tickStep(view.span(), w, labelPx);
    std::vector<double> ticks;
    QStringList labels;
    const auto segments = ctx.viewport.stretches();
    for (const TimeRange& seg : segments) {
        const auto part = tickPositions(layout.toTrace(seg), step);
        if (aligned) {
            for (double t : part)
                labels << formatOffset(t - layout.alignOrigin(), step);
        } else if (step < 1000 && segments.size() > 1) {
            labels << axisLabels(part, step, tz); // offsets within one stretch
        }
        ticks.insert(ticks.end(), part.begin(), part.end());
    }
    if (!aligned && !(step < 1000 && segments.size() > 1))
        labels = axisLabels(ticks, step, tz);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    for (size_t i = 0; i < ticks.size(); ++i) {
        const double d = layout.folding().toDisplay(ticks[i]);
        const int x = ctx.areas().labelWidth + static_cast<int>(std::lround(ctx.viewport.xOf(d)));
        p.setPen(hairline(grid));
        p.drawLine(x, r.bottom() - 6, x, r.bottom());
        p.setPen(text);
        p.drawText(QRect(x + 3, r.top(), labelPx + 40, r.height() - 4),
            Qt::AlignLeft | Qt::AlignBottom, labels.value(static_cast<qsizetype>(i)));
    }
}

void AxisPass::paintFoldLabels(QPainter& p, const PaintContext& ctx)
{
    // On the axis: a break mark, and the gap's length when it fits.
    const QPalette& pal = ctx.palette;
    const QRect axis = ctx.areas().axis;
    const int x0 = ctx.areas().labelWidth;
    const double w = ctx.areas().lanesWidth();
    const QFont small = smallFont(ctx.font());
    const QFontMetrics fm(small);
    p.save();
    p.setClipRect(QRect(x0, axis.top(), static_cast<int>(w) + 1, axis.height()));
    p.setFont(small);
    for (const TimelineScene::CachedFold& cf : ctx.scene.folds()) {
        const QRect band(QPoint(x0 + static_cast<int>(std::floor(cf.x0)), axis.top()),
            QPoint(x0 + static_cast<int>(std::ceil(cf.x1)) - 1, axis.bottom()));
        p.fillRect(band, pal.color(QPalette::Window));
        p.fillRect(band, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        const auto& g = ctx.layout.folding().folds()[cf.fold].gap;
        const QString full = tr("%1 idle").arg(formatLongDuration(g.span()));
        QString text = full;
        const int room = std::max(band.width(), 0) + 24; // may cover a little of the neighbours
        if (fm.horizontalAdvance(text) > room)
            text = formatLongDuration(g.span());
        if (fm.horizontalAdvance(text) > room)
            text = QStringLiteral("⋯");
        const int tw = fm.horizontalAdvance(text) + 6;
        // Centred on the break, but whole: a break near an edge keeps its label inside the lanes.
        const int right = x0 + static_cast<int>(w);
        const int left = std::clamp(band.center().x() - tw / 2, x0, std::max(x0, right - tw));
        const QRect label(left, axis.bottom() - fm.height() - 4, tw, fm.height() + 2);
        p.fillRect(label, pal.color(QPalette::Window));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(label, Qt::AlignCenter, text);
    }
    p.restore();
}

void AxisPass::paintCorner(QPainter& p, const PaintContext& ctx)
{
    // What the axis shows, and how much idle time the view folds away.
    const QRect r = ctx.areas().axis;
    const QPalette& pal = ctx.palette;
    const TimeRange view = ctx.viewport.view();
    const int lw = ctx.areas().labelWidth;
    const QFont small = smallFont(ctx.font());
    const QFontMetrics fm(small);
    p.fillRect(QRect(0, 0, lw, r.height()), pal.color(QPalette::Window));
    p.setFont(small);
    p.setPen(pal.color(QPalette::PlaceholderText));
    const double hidden = ctx.layout.folding().hiddenBetween(view.start, view.end);
    const QString clock = ctx.layout.aligned() ? tr("from each rank's start") : tr("wall clock");
    const QString corner = hidden > 0
        ? tr("%1 · %2 shown, %3 folded")
              .arg(clock, formatDuration(view.span()), formatLongDuration(hidden))
        : tr("%1 · view %2").arg(clock, formatDuration(view.span()));
    p.drawText(QRect(8, 0, lw - 12, r.height() - 4), Qt::AlignLeft | Qt::AlignBottom,
        fm.elidedText(corner, Qt::ElideRight, lw - 12));
    p.setPen(hairline(pal.color(QPalette::Mid)));
    p.drawLine(lw - 1, 0, lw - 1, ctx.areas().canvas.height());
}

} // namespace dynascope::ui::timeline
