// TimelineView's painting: the axis, the marker row, the rows (labels, spans, folded blocks, the
// selection outline, search hits), the range overlay and the legend, all through one QPainter so
// the screen, images and SVG exports look the same. Colours come from the palette; status and
// phase hues get lighter tints on a dark base.
#include "ui/timeline/timelineview.h"

#include "ui/compileselection.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineconstants.h"

#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

using namespace timeline;

void TimelineView::paintEvent(QPaintEvent* event)
{
    // A hover repaints only the spans whose look changed (see mouseMoveEvent); what lies outside
    // the exposed rectangle is not drawn at all, not only clipped.
    m_exposed = event->rect();
    QPainter p(this);
    paintAll(p);
}

void TimelineView::renderTimeline(QPainter& p, const QSize& size)
{
    const Hit hover = m_hover;
    m_hover = {};
    m_canvas = size;
    m_cacheValid = false;
    m_legendWidth = -1;
    m_exposed = QRect(QPoint(0, 0), size);
    p.save();
    p.setClipRect(QRect(QPoint(0, 0), size));
    paintAll(p);
    p.restore();
    m_canvas = QSize();
    m_cacheValid = false;
    m_legendWidth = -1;
    m_hover = hover;
}

void TimelineView::paintAll(QPainter& p)
{
    const QRect all(QPoint(0, 0), canvas());
    p.fillRect(all, palette().color(QPalette::Base));
    if (!m_trace)
        return;
    ensureGeometry();
    if (!m_layout.hasTime()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(all, Qt::AlignCenter,
            tr("No timing in this trace: no chromium events, metrics times or glog times."));
        return;
    }
    if (m_exposed.intersects(lanesRect())) {
        paintRows(p);
        paintSearchHits(p);
        paintFindingMarks(p);
    }
    if (m_exposed.intersects(axisRect()))
        paintAxis(p);
    if (m_exposed.intersects(markerRect()))
        paintMarkers(p);
    paintFolds(p);
    paintRangeOverlay(p);
    if (m_exposed.intersects(legendRect()))
        paintLegend(p);
}

void TimelineView::paintSearchHits(QPainter& p)
{
    if (m_hits.empty())
        return;
    const QRect lanes = lanesRect();
    const double w = lanesWidth();
    const QColor mark = palette().color(QPalette::Highlight);
    p.save();
    p.setClipRect(QRect(labelWidth(), lanes.top(), static_cast<int>(w) + 1, lanes.height()));
    for (uint32_t ci : m_hits) {
        const int lane = m_layout.laneOf(ci);
        if (lane < 0)
            continue;
        const Compile& c = m_trace->compiles[ci];
        const double start = m_layout.compileStart(c), end = m_layout.compileEnd(c);
        if (end < m_view.start || start > m_view.end)
            continue;
        const Row& row = m_layout.rows()[static_cast<size_t>(lane)];
        const int y = lanes.top() + row.y - m_vbar->value();
        const int xa = static_cast<int>(std::floor(xOfTime(start)));
        const int xb = std::max(xa + 5, static_cast<int>(std::ceil(xOfTime(end))));
        // Bars above and below the span: visible on every status colour, even when folded.
        p.fillRect(QRect(xa - 1, y, xb - xa + 2, 3), mark);
        p.fillRect(QRect(xa - 1, y + row.height - 3, xb - xa + 2, 3), mark);
    }
    p.restore();
}

void TimelineView::paintFindingMarks(QPainter& p)
{
    if (m_findingMarks.empty())
        return;
    const QRect lanes = lanesRect();
    const double w = lanesWidth();
    p.save();
    p.setClipRect(QRect(labelWidth(), lanes.top(), static_cast<int>(w) + 1, lanes.height()));
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(palette().color(QPalette::Base), 1));
    const int size = std::max(7, fontMetrics().height() / 2);
    for (const auto& [ci, severity] : m_findingMarks) {
        const int lane = m_layout.laneOf(ci);
        if (lane < 0 || ci >= m_trace->compiles.size())
            continue;
        const Compile& c = m_trace->compiles[ci];
        const double start = m_layout.compileStart(c);
        if (m_layout.compileEnd(c) < m_view.start || start > m_view.end)
            continue;
        const Row& row = m_layout.rows()[static_cast<size_t>(lane)];
        const double x = xOfTime(start);
        const double y = lanes.top() + row.y - m_vbar->value();
        // A corner flag on the span's top left: orange-red for an error, amber for a warning.
        const QColor fill
            = fillOn(severity >= 2 ? QColor(0xD5, 0x5E, 0x00) : QColor(0xE6, 0x9F, 0x00),
                palette().color(QPalette::Base));
        const QPointF corner[3] = { { x, y }, { x + size, y }, { x, y + size } };
        p.setBrush(fill);
        p.drawPolygon(corner, 3);
    }
    p.restore();
}

void TimelineView::paintRankMark(QPainter& p, const Row& row, const QRect& rect)
{
    const auto it = m_rankMarks.find(row.file);
    if (it == m_rankMarks.end())
        return;
    const QColor base = palette().color(QPalette::Base);
    const QColor hue = it->second.severity >= 2 ? QColor(0xD5, 0x5E, 0x00)
        : it->second.severity == 1              ? QColor(0xE6, 0x9F, 0x00)
                                                : QColor(0x56, 0xB4, 0xE9);
    const int x0 = labelWidth();
    // On a compact row (a few pixels tall) a bar at the label column's edge; on a rank header,
    // also "≠ straggler, recompiles" at the start of its lanes.
    p.fillRect(QRect(x0 - 7, rect.top(), 5, rect.height()), fillOn(hue, base));
    if (row.compactRank)
        return;
    const QFont small = smallFont();
    const QFontMetrics fm(small);
    const QString text = QStringLiteral("≠ ") + it->second.words.join(QStringLiteral(", "));
    // On the header's empty stretch of the lanes, where it has room.
    const QString shown = fm.elidedText(text, Qt::ElideRight, static_cast<int>(lanesWidth()) - 20);
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

QStringList TimelineView::rangeBoxLines() const
{
    if (!m_range)
        return {};
    return rangeSummaryLines(rangeSummary(), m_tzOffset,
        m_layout.aligned() ? std::optional(m_layout.alignOrigin()) : std::nullopt);
}

QRect TimelineView::rangeBoxRect() const
{
    if (!m_range)
        return {};
    const QStringList lines = rangeBoxLines();
    const QFont f = smallFont();
    QFont bold = f;
    bold.setBold(true);
    const QFontMetrics fm(f), bm(bold);
    int tw = 0;
    for (int i = 0; i < lines.size(); ++i) // the first line is bold: measured bold
        tw = std::max(tw, (i == 0 ? bm : fm).horizontalAdvance(lines[i]));
    const int lh = std::max(fm.height(), bm.height());
    const double w = lanesWidth();
    const int x0 = labelWidth();
    const int xa = std::clamp(
        static_cast<int>(std::floor(xOfTime(m_range->start))), x0, x0 + static_cast<int>(w));
    const int xb = std::clamp(
        static_cast<int>(std::ceil(xOfTime(m_range->end))), x0, x0 + static_cast<int>(w));
    QRect box(
        0, axisHeight() + markerHeight() + 6, tw + 16, lh * static_cast<int>(lines.size()) + 10);
    // Beside the range, on the side with room; inside the lanes, never over the labels.
    int bx = xb + 8;
    if (bx + box.width() > x0 + static_cast<int>(w))
        bx = xa - 8 - box.width();
    bx = std::clamp(bx, x0 + 4, std::max(x0 + 4, x0 + static_cast<int>(w) - box.width() - 4));
    box.moveLeft(bx);
    return box;
}

void TimelineView::paintRangeOverlay(QPainter& p)
{
    if (!m_range)
        return;
    const QPalette& pal = palette();
    const double w = lanesWidth();
    const int x0 = labelWidth();
    const int top = axisHeight();
    const int bottom = lanesRect().bottom();
    const int xa = std::clamp(
        static_cast<int>(std::floor(xOfTime(m_range->start))), x0, x0 + static_cast<int>(w));
    const int xb = std::clamp(
        static_cast<int>(std::ceil(xOfTime(m_range->end))), x0, x0 + static_cast<int>(w));
    QColor shade = pal.color(QPalette::Highlight);
    shade.setAlpha(50);
    p.fillRect(QRect(QPoint(xa, top), QPoint(std::max(xa, xb - 1), bottom)), shade);
    p.setPen(pal.color(QPalette::Highlight));
    p.drawLine(xa, top, xa, bottom);
    p.drawLine(xb, top, xb, bottom);

    // The box: duration (bold), then what the range holds.
    const QStringList lines = rangeBoxLines();
    const QRect box = rangeBoxRect();
    const QFont f = smallFont();
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
    p.setBrush(Qt::NoBrush);
}

void TimelineView::paintAxis(QPainter& p)
{
    const QRect r = axisRect();
    const QPalette& pal = palette();
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(r.bottomLeft(), r.bottomRight());
    const double w = lanesWidth();
    const QFont small = smallFont();
    p.setFont(small);
    const QFontMetrics fm(small);
    // Labels at least one label apart; with a date when the view crosses midnight. Aligned ranks
    // count from their start ("+1.5 s"), not by the clock.
    const TimeRange shown = m_layout.toTrace(m_view);
    const bool aligned = m_layout.aligned();
    const bool days = !aligned
        && formatDateTime(shown.start, m_tzOffset).left(10)
            != formatDateTime(shown.end, m_tzOffset).left(10);
    const int labelPx = fm.horizontalAdvance(aligned ? QStringLiteral("+0000.000 s")
                                : days               ? QStringLiteral("0000-00-00 00:00:00.000")
                                                     : QStringLiteral("00:00:00.000"))
        + 20;
    // Outside folds a display µs is a trace µs: one step for the whole view, ticks per stretch
    // between folds, in trace time.
    const double step = tickStep(m_view.span(), w, labelPx);
    std::vector<double> ticks;
    QStringList labels;
    const auto segments = axisSegments();
    for (const TimeRange& seg : segments) {
        const auto part = tickPositions(m_layout.toTrace(seg), step);
        if (aligned) {
            for (double t : part)
                labels << formatOffset(t - m_layout.alignOrigin(), step);
        } else if (step < 1000 && segments.size() > 1) {
            labels << axisLabels(part, step, m_tzOffset); // offsets within one stretch
        }
        ticks.insert(ticks.end(), part.begin(), part.end());
    }
    if (!aligned && !(step < 1000 && segments.size() > 1))
        labels = axisLabels(ticks, step, m_tzOffset);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    for (size_t i = 0; i < ticks.size(); ++i) {
        const double d = m_layout.folding().toDisplay(ticks[i]);
        const int x = labelWidth() + static_cast<int>(std::lround(timeToX(m_view, w, d)));
        p.setPen(grid);
        p.drawLine(x, r.bottom() - 6, x, r.bottom());
        p.setPen(text);
        p.drawText(QRect(x + 3, r.top(), labelPx + 40, r.height() - 4),
            Qt::AlignLeft | Qt::AlignBottom, labels.value(static_cast<qsizetype>(i)));
    }
    paintFoldLabels(p);
    // Corner: what the axis shows, and how much idle time the view folds away.
    p.fillRect(QRect(0, 0, labelWidth(), r.height()), pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::PlaceholderText));
    const double hidden = m_layout.folding().hiddenBetween(m_view.start, m_view.end);
    const QString clock = aligned ? tr("from each rank's start") : tr("wall clock");
    const QString corner = hidden > 0
        ? tr("%1 · %2 shown, %3 folded")
              .arg(clock, formatDuration(m_view.span()), formatLongDuration(hidden))
        : tr("%1 · view %2").arg(clock, formatDuration(m_view.span()));
    p.drawText(QRect(8, 0, labelWidth() - 12, r.height() - 4), Qt::AlignLeft | Qt::AlignBottom,
        fm.elidedText(corner, Qt::ElideRight, labelWidth() - 12));
    p.setPen(grid);
    p.drawLine(labelWidth() - 1, 0, labelWidth() - 1, canvas().height());
}

void TimelineView::paintMarkers(QPainter& p)
{
    const QRect r = markerRect();
    const QPalette& pal = palette();
    const QColor base = pal.color(QPalette::AlternateBase);
    p.fillRect(r, base);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(r.bottomLeft(), r.bottomRight());
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.setFont(font());
    p.drawText(QRect(8, r.top(), labelWidth() - 12, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
        tr("markers"));
    QFont glyphFont = font();
    glyphFont.setBold(true);
    p.setFont(glyphFont);
    p.setClipRect(QRect(labelWidth(), r.top(), r.width() - labelWidth(), r.height()));
    const uint32_t selected = m_selection->current();
    for (const CachedMarker& cm : m_cachedMarkers) {
        const Marker& m = m_layout.markers()[cm.marker];
        const auto st = markerStyle(m.kind);
        const int x = labelWidth() + static_cast<int>(std::lround(cm.x));
        const bool hover = m_hover.kind == Hit::Kind::Marker && m_hover.item == cm.marker;
        if (m.compile == selected || hover) {
            // Translucent, so it reads on light and dark bases alike.
            QColor mark = pal.color(QPalette::Highlight);
            mark.setAlpha(m.compile == selected ? 110 : 60);
            p.fillRect(QRect(x - 7, r.top() + 2, 14, r.height() - 4), mark);
        }
        // docs/ux.md: the same hues, lighter tints on a dark base; the yellow of a cache miss
        // darker on a light one, so every glyph reads.
        p.setPen(m.kind == MarkerKind::CacheMiss || isDark(base) ? readableOn(st.color, base)
                                                                 : st.color);
        p.drawText(QRect(x - kMarkerGlyphHalf, r.top(), 2 * kMarkerGlyphHalf, r.height()),
            Qt::AlignCenter, st.glyph);
    }
    p.setClipping(false);
}

void TimelineView::paintRows(QPainter& p)
{
    const QRect lanes = lanesRect();
    const QPalette& pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const auto& rows = m_layout.rows();
    const int top = m_vbar->value();
    const double w = lanesWidth();
    const int x0 = labelWidth();
    const uint32_t selected = m_selection->current();
    const QFontMetrics fm(font());
    const QFont small = smallFont(0.78);
    const QFontMetrics fmSmall(small);
    p.save();
    p.setClipRect(lanes);
    p.setRenderHint(QPainter::Antialiasing, false);

    // Row backgrounds and labels. Compact rank rows (many ranks) are a few pixels tall: their
    // labels go on every few rows, after the backgrounds, so the next row does not paint over them.
    const int firstRow = std::max(0, m_layout.rowAt(top));
    bool band = false;
    std::vector<std::pair<QRect, QString>> compactLabels;
    for (int ri = firstRow; ri < static_cast<int>(rows.size()); ++ri) {
        const Row& row = rows[static_cast<size_t>(ri)];
        const int y = lanes.top() + row.y - top;
        if (y > lanes.bottom())
            break;
        if (row.kind == Row::Kind::Lane)
            band = !band;
        const QRect rr(0, y, lanes.width(), row.height);
        if (!rr.intersects(m_exposed))
            continue;
        if (row.compactRank) {
            p.fillRect(rr, row.file % 2 ? pal.color(QPalette::AlternateBase) : base);
            const int every = std::max(1, (fmSmall.height() + row.height - 1) / row.height);
            if (row.file % static_cast<uint32_t>(every) == 0)
                compactLabels.emplace_back(
                    QRect(8, y + row.height / 2 - fmSmall.height() / 2, x0 - 16, fmSmall.height()),
                    row.label + QStringLiteral(" · ") + QString::number(row.compileCount));
            paintRankMark(p, row, rr);
            continue;
        }
        if (row.kind == Row::Kind::Rank) {
            p.fillRect(rr, pal.color(QPalette::Window));
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(rr.topLeft(), rr.topRight());
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(pal.color(QPalette::WindowText));
            const QString text = row.label + QStringLiteral("  ·  ")
                + plural(static_cast<uint64_t>(row.compileCount), tr("compile"), tr("compiles"));
            p.drawText(rr.adjusted(8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
            paintRankMark(p, row, rr);
            continue;
        }
        if (band)
            p.fillRect(rr, pal.color(QPalette::AlternateBase));
        if (row.kind == Row::Kind::Lane) {
            p.setFont(font());
            const QString badge = QString::number(row.compileCount);
            const int bw = fmSmall.horizontalAdvance(badge) + 10;
            const QRect badgeRect(x0 - bw - 8, y + 5, bw, row.height - 10);
            if (row.phaseDepths > 0) {
                // Clicking the label flips the lane's phase rows.
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(QRect(2, y, 14, row.height), Qt::AlignCenter,
                    row.expanded ? QStringLiteral("▾") : QStringLiteral("▸"));
            }
            // The function name whole (cut at its end only when it alone does not fit), then
            // as much of file:line as fits, cut on the left so the line number stays.
            const int room = badgeRect.left() - 24;
            const QString name = fm.elidedText(row.name, Qt::ElideRight, room);
            const int nameWidth = fm.horizontalAdvance(name);
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRect(16, y, room, row.height), Qt::AlignLeft | Qt::AlignVCenter, name);
            const int whereRoom = room - nameWidth - fm.horizontalAdvance(QStringLiteral("  "));
            if (!row.where.isEmpty() && whereRoom > fm.horizontalAdvance(QStringLiteral("…:0"))) {
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(QRect(16 + room - whereRoom, y, whereRoom, row.height),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    fm.elidedText(row.where, Qt::ElideLeft, whereRoom));
            }
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(pal.color(QPalette::Mid));
            p.drawRoundedRect(badgeRect, 6, 6);
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setFont(small);
            p.setPen(textOn(pal.color(QPalette::Mid)));
            p.drawText(badgeRect, Qt::AlignCenter, badge);
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

    // Spans.
    p.setClipRect(QRect(x0, lanes.top(), static_cast<int>(w) + 1, lanes.height()));
    for (const CachedRow& cr : m_cachedRows) {
        const Row& row = rows[static_cast<size_t>(cr.row)];
        const int y = lanes.top() + row.y - top;
        const bool lane = row.kind == Row::Kind::Lane;
        const int inset = lane ? 3 : 1;
        for (const FoldedSpan& f : cr.spans) {
            const QRect sr(QPoint(x0 + static_cast<int>(std::floor(f.x0)), y + inset),
                QPoint(x0 + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - inset - 1));
            if (!sr.intersects(m_exposed))
                continue;
            const bool hover
                = (m_hover.kind == Hit::Kind::Span || m_hover.kind == Hit::Kind::Folded)
                && m_hover.row == cr.row && m_hover.item == f.item;
            if (f.folded()) {
                // Folded blocks are hatched and outlined in the text colour: no fill that could
                // read as a status (the grey of "empty" did).
                const QColor ink = pal.color(QPalette::Text);
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
                continue;
            }
            const Span& s = row.spans[f.item];
            const Compile& c = m_trace->compiles[s.compile];
            QColor fill;
            QString label;
            if (s.phase < 0) {
                fill = fillOn(statusStyle(c.status).color, base);
                label = qs(c.id.display());
            } else {
                const PhaseSpan& ph = c.phases[static_cast<size_t>(s.phase)];
                fill = phaseGroupStyle(s.group).color;
                if (isDark(base))
                    fill = fill.darker(135); // muted tints on a dark base, status stays brighter
                label = qs(ph.name());
            }
            if (hover)
                fill = fill.lighter(115);
            const bool isSelected = s.compile == selected;
            p.fillRect(sr, fill);
            if (isSelected && !lane)
                p.fillRect(QRect(sr.left(), sr.bottom(), sr.width(), 1), pal.color(QPalette::Text));
            const QFont& f2 = lane ? font() : small;
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
                p.drawText(
                    sr, Qt::AlignCenter, m2.elidedText(label, Qt::ElideRight, sr.width() - 2));
            }
        }
    }
    // The selected compile is outlined from its own times, so it shows even inside a folded block.
    const int lane = selected != kNone ? m_layout.laneOf(selected) : -1;
    if (lane >= 0) {
        const Row& row = rows[static_cast<size_t>(lane)];
        const Compile& c = m_trace->compiles[selected];
        const int y = lanes.top() + row.y - top;
        const double a = std::max(-4.0, timeToX(m_view, w, m_layout.compileStart(c)));
        const double b = std::min(w + 4, timeToX(m_view, w, m_layout.compileEnd(c)));
        if (b >= 0 && a <= w) {
            const int xa = x0 + static_cast<int>(std::floor(a));
            const int xb = std::max(xa + 3, x0 + static_cast<int>(std::ceil(b)));
            p.setPen(QPen(pal.color(QPalette::Text), 2));
            p.setBrush(Qt::NoBrush);
            const int inset = row.compactRank ? 0 : 2; // a compact row has no room to spare
            p.drawRect(QRect(QPoint(xa, y + inset), QPoint(xb, y + row.height - 1 - inset)));
        }
    }
    p.restore();
}

std::vector<TimelineView::LegendItem> TimelineView::legendItems() const
{
    const QColor base = palette().color(QPalette::Base);
    std::vector<LegendItem> items;
    bool group = false;
    for (auto st : { CompileStatus::Ok, CompileStatus::GraphBreak, CompileStatus::Empty,
             CompileStatus::Error, CompileStatus::Missing }) {
        const auto style = statusStyle(st);
        items.push_back(
            { fillOn(style.color, base), style.glyph, style.word, true, group, false, {} });
    }
    items.push_back(
        { palette().color(QPalette::Text), {}, tr("folded (zoom in)"), true, false, true, {} });
    group = true;
    const QColor markerBase = palette().color(QPalette::AlternateBase);
    for (auto k : { MarkerKind::Recompile, MarkerKind::GraphBreak, MarkerKind::Failure,
             MarkerKind::CacheHit, MarkerKind::CacheMiss }) {
        const auto st = markerStyle(k);
        items.push_back(
            { readableOn(st.color, markerBase), st.glyph, st.word, false, group, false, {} });
        group = false;
    }
    group = true;
    for (PhaseGroup g : m_layout.phaseGroups()) {
        const PhaseStyle ps = phaseGroupStyle(g);
        items.push_back({ isDark(base) ? ps.color.darker(135) : ps.color, {}, ps.label, true, group,
            false, {} });
        group = false;
    }
    return items;
}

int TimelineView::layoutLegend(std::vector<LegendItem>& items, int width) const
{
    const QFontMetrics fm(smallFont());
    const int line = legendLine();
    // Groups (statuses, markers, phases) stay together on a line when they fit; a narrow window
    // wraps the legend onto more lines instead of cutting it off.
    int x = 8, lineNo = 0;
    const int right = width - 4;
    const int swatch = fm.height() * 3 / 4;
    auto need = [&](const LegendItem& e) {
        return (e.swatch ? swatch + 4 : 0)
            + (e.glyph.isEmpty() ? 0 : fm.horizontalAdvance(e.glyph) + 3)
            + fm.horizontalAdvance(e.word) + 12;
    };
    for (size_t i = 0; i < items.size(); ++i) {
        LegendItem& it = items[i];
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

int TimelineView::legendHeight() const
{
    // Asked for by every rect function: cached per width (reset when font, palette or trace
    // change).
    if (!m_showLegend)
        return 0;
    const int w = canvas().width();
    if (w != m_legendWidth || font().pointSizeF() != m_legendFontSize) {
        auto items = legendItems();
        m_legendHeight = layoutLegend(items, w);
        m_legendWidth = w;
        m_legendFontSize = font().pointSizeF();
    }
    return m_legendHeight;
}

void TimelineView::paintLegend(QPainter& p)
{
    const QRect r = legendRect();
    const QPalette& pal = palette();
    p.fillRect(r, pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(r.topLeft(), r.topRight());
    const QFont small = smallFont();
    p.setFont(small);
    const QFontMetrics fm(small);
    const int line = legendLine();
    const int swatch = fm.height() * 3 / 4;
    auto items = legendItems();
    layoutLegend(items, r.width());
    for (const LegendItem& it : items) {
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

} // namespace dynascope::ui
