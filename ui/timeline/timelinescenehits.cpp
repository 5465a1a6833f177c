// TimelineScene's hit testing: what is at a point (a marker, a span or folded block, a rank's
// mark, an idle gap's band), where a hit item is drawn, and the rectangles of a compile's span
// and marker glyph, all on the geometry of the last update().
#include "ui/timeline/timelinescene.h"

#include "ui/timeline/timelineconstants.h"

#include <cmath>

namespace dynascope::ui::timeline {

Hit TimelineScene::hitAt(const QPoint& pos, const std::function<bool(uint32_t)>& rankMarked) const
{
    const int x0 = m_areas.labelWidth;
    if (m_areas.markers.contains(pos) && pos.x() >= x0) {
        const double x = pos.x() - x0;
        const CachedMarker* best = nullptr;
        double bestD = 7;
        for (const CachedMarker& cm : m_markers) {
            const double d = std::fabs(cm.x - x);
            if (d < bestD) {
                bestD = d;
                best = &cm;
            }
        }
        return best ? Hit { Hit::Kind::Marker, -1, best->marker } : gapAt(pos);
    }
    const QRect lanes = m_areas.lanes;
    if (m_areas.axis.contains(pos))
        return gapAt(pos);
    if (!lanes.contains(pos))
        return {};
    const int ri = m_layout.rowAt(pos.y() - lanes.top() + m_areas.scroll);
    const Row* row = ri >= 0 ? &m_layout.rows()[static_cast<size_t>(ri)] : nullptr;
    if (pos.x() < x0) { // a rank's label: its mark, when findings single it out
        if (row && row->kind == Row::Kind::Rank && rankMarked(row->file))
            return { Hit::Kind::RankMark, ri, row->file };
        return {};
    }
    // An open rank's header: its mark ("≠ straggler") is drawn there.
    if (row && row->kind == Row::Kind::Rank && !row->compactRank && rankMarked(row->file)
        && gapAt(pos).kind == Hit::Kind::None)
        return { Hit::Kind::RankMark, ri, row->file };
    for (const CachedRow& cr : m_rows) {
        if (ri < 0 || cr.row != ri)
            continue;
        const int h = hitTest(cr.spans, pos.x() - x0, 2.0);
        if (h < 0)
            break;
        const FoldedSpan& f = cr.spans[static_cast<size_t>(h)];
        return { f.folded() ? Hit::Kind::Folded : Hit::Kind::Span, ri, f.item };
    }
    return gapAt(pos); // an idle gap's band runs down every row
}

Hit TimelineScene::gapAt(const QPoint& pos) const
{
    if (pos.x() < m_areas.labelWidth || pos.y() > m_areas.lanes.bottom())
        return {};
    const double x = pos.x() - m_areas.labelWidth;
    for (const CachedFold& cf : m_folds) {
        if (x >= cf.x0 - 1 && x <= cf.x1 + 1)
            return { Hit::Kind::Gap, -1, cf.fold };
    }
    return {};
}

QRect TimelineScene::rectOf(const Hit& hit) const
{
    const int x0 = m_areas.labelWidth;
    const QRect lanes = m_areas.lanes;
    if (hit.kind == Hit::Kind::None)
        return {};
    if (hit.kind == Hit::Kind::RankMark && hit.row >= 0) {
        const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
        return QRect(0, rowTop(row), x0, row.height);
    }
    if (hit.kind == Hit::Kind::Gap) {
        for (const CachedFold& cf : m_folds) {
            if (cf.fold == hit.item)
                return QRect(QPoint(x0 + static_cast<int>(std::floor(cf.x0)) - 1, 0),
                    QPoint(x0 + static_cast<int>(std::ceil(cf.x1)) + 1, lanes.bottom()));
        }
        return {};
    }
    if (hit.kind == Hit::Kind::Marker) {
        const CachedMarker* cm = marker(hit);
        if (!cm)
            return {};
        const QRect r = m_areas.markers;
        const int x = x0 + static_cast<int>(std::lround(cm->x));
        return { x - 8, r.top(), 16, r.height() };
    }
    const FoldedSpan* f = span(hit);
    if (!f || hit.row < 0 || static_cast<size_t>(hit.row) >= m_layout.rows().size())
        return {};
    const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
    const int y = rowTop(row);
    return QRect(QPoint(x0 + static_cast<int>(std::floor(f->x0)), y),
        QPoint(x0 + static_cast<int>(std::ceil(f->x1)) - 1, y + row.height - 1))
        .intersected(lanes);
}

uint32_t TimelineScene::compileOf(const Hit& hit) const
{
    if (hit.kind == Hit::Kind::Marker && hit.item < m_layout.markers().size())
        return m_layout.markers()[hit.item].compile;
    if (hit.kind == Hit::Kind::Span && hit.row >= 0
        && static_cast<size_t>(hit.row) < m_layout.rows().size()) {
        const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
        if (hit.item < row.spans.size())
            return row.spans[hit.item].compile;
    }
    return kNone;
}

std::optional<std::pair<uint32_t, int>> TimelineScene::spanOf(const Hit& hit) const
{
    if (hit.kind != Hit::Kind::Span || hit.row < 0
        || static_cast<size_t>(hit.row) >= m_layout.rows().size())
        return std::nullopt;
    const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
    if (hit.item >= row.spans.size())
        return std::nullopt;
    const Span& s = row.spans[hit.item];
    return std::make_pair(s.compile, static_cast<int>(s.phase));
}

QRect TimelineScene::compileRect(uint32_t compile) const
{
    const int lane = m_layout.laneOf(compile);
    const int x0 = m_areas.labelWidth;
    for (const CachedRow& cr : m_rows) {
        if (cr.row != lane)
            continue;
        const Row& row = m_layout.rows()[static_cast<size_t>(lane)];
        for (const FoldedSpan& f : cr.spans) {
            if (!f.folded() && row.spans[f.item].compile == compile) {
                const int y = rowTop(row);
                return QRect(QPoint(x0 + static_cast<int>(std::floor(f.x0)), y + 3),
                    QPoint(x0 + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - 4));
            }
        }
    }
    return {};
}

QRect TimelineScene::markerGlyphRect(uint32_t compile, MarkerKind kind) const
{
    const auto& markers = m_layout.markers();
    for (const CachedMarker& cm : m_markers) {
        const Marker& m = markers[cm.marker];
        if (m.compile != compile || m.kind != kind)
            continue;
        const QRect r = m_areas.markers;
        const int x = m_areas.labelWidth + static_cast<int>(std::lround(cm.x));
        return { x - kMarkerGlyphHalf, r.top(), 2 * kMarkerGlyphHalf, r.height() };
    }
    return {};
}

} // namespace dynascope::ui::timeline
