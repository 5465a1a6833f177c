#include "ui/timeline/timelinescene.h"

#include "ui/timeline/timelineconstants.h"
#include "ui/timeline/timelineviewport.h"

#include <algorithm>

namespace dynascope::ui::timeline {

void TimelineScene::update(const TimelineViewport& viewport, const TimelineAreas& areas)
{
    m_areas = areas;
    const Key key { viewport.view(), static_cast<int>(areas.lanesWidth()), areas.lanes.height(),
        areas.scroll };
    if (m_valid && key == m_key)
        return;
    m_key = key;
    m_valid = true;
    m_rows.clear();
    m_markers.clear();
    m_folds.clear();
    if (!m_layout.hasTime())
        return;
    cacheFolds(viewport);
    cacheRows(viewport);
    cacheMarkers(viewport);
}

void TimelineScene::cacheRows(const TimelineViewport& viewport)
{
    const TimeRange view = viewport.view();
    const double w = viewport.width();
    const auto& rows = m_layout.rows();
    const int top = m_areas.scroll;
    const int bottom = top + m_areas.lanes.height();
    const int first = std::max(0, m_layout.rowAt(top));
    for (int ri = first;
         ri < static_cast<int>(rows.size()) && rows[static_cast<size_t>(ri)].y < bottom; ++ri) {
        const Row& row = rows[static_cast<size_t>(ri)];
        if (row.spans.empty())
            continue;
        const auto [a, b] = visibleSpans(row.starts, row.maxEnds, view.start, view.end);
        std::vector<PixelSpan> px;
        px.reserve(b - a);
        for (size_t i = a; i < b; ++i) {
            const Span& s = row.spans[i];
            if (s.end < view.start)
                continue; // nested under a long span that began earlier
            const double x0 = std::max(-2.0, timeToX(view, w, s.start));
            const double x1 = std::min(w + 2, timeToX(view, w, s.end));
            px.push_back({ x0, x1, static_cast<uint32_t>(i) });
        }
        std::sort(px.begin(), px.end(),
            [](const PixelSpan& l, const PixelSpan& r) { return l.x0 < r.x0; });
        m_rows.push_back({ ri, foldSpans(px, 3.0) });
    }
}

void TimelineScene::cacheMarkers(const TimelineViewport& viewport)
{
    // By binary search on time; markers of one kind closer than 9 px fold into one.
    const TimeRange view = viewport.view();
    const double w = viewport.width();
    const auto& markers = m_layout.markers();
    auto lo = std::lower_bound(markers.begin(), markers.end(), view.start,
        [](const Marker& m, double t) { return m.t < t; });
    double lastX[5] = { -1e9, -1e9, -1e9, -1e9, -1e9 };
    int lastIndex[5] = { -1, -1, -1, -1, -1 };
    for (auto it = lo; it != markers.end() && it->t <= view.end; ++it) {
        const auto kind = static_cast<size_t>(it->kind);
        const double x = timeToX(view, w, it->t);
        if (lastIndex[kind] >= 0 && x - lastX[kind] < 9) {
            ++m_markers[static_cast<size_t>(lastIndex[kind])].count;
            continue;
        }
        lastX[kind] = x;
        lastIndex[kind] = static_cast<int>(m_markers.size());
        m_markers.push_back({ x, static_cast<uint32_t>(it - markers.begin()), 1 });
    }
}

void TimelineScene::cacheFolds(const TimelineViewport& viewport)
{
    const TimeRange view = viewport.view();
    const auto& folds = m_layout.folding().folds();
    const double w = viewport.width();
    for (size_t i = 0; i < folds.size(); ++i) {
        const auto& f = folds[i];
        if (f.at + f.width < view.start || f.at > view.end)
            continue;
        double x0 = timeToX(view, w, f.at), x1 = timeToX(view, w, f.at + f.width);
        if (x1 - x0 < kMinFoldPx) {
            const double mid = (x0 + x1) / 2;
            x0 = mid - kMinFoldPx / 2;
            x1 = mid + kMinFoldPx / 2;
        }
        m_folds.push_back({ x0, x1, static_cast<uint32_t>(i) });
    }
}

const FoldedSpan* TimelineScene::span(const Hit& hit) const
{
    if (hit.kind != Hit::Kind::Span && hit.kind != Hit::Kind::Folded)
        return nullptr;
    for (const CachedRow& cr : m_rows) {
        if (cr.row != hit.row)
            continue;
        for (const FoldedSpan& f : cr.spans) {
            if (f.item == hit.item)
                return &f;
        }
    }
    return nullptr;
}

const TimelineScene::CachedMarker* TimelineScene::marker(const Hit& hit) const
{
    if (hit.kind != Hit::Kind::Marker)
        return nullptr;
    for (const CachedMarker& cm : m_markers) {
        if (cm.marker == hit.item)
            return &cm;
    }
    return nullptr;
}

} // namespace dynascope::ui::timeline
