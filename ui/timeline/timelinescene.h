// TimelineScene: what of the layout is on screen now, in pixels, and what is under a point. For
// the current (visible range, lanes size, scroll) it finds the visible spans of each visible row
// by binary search and folds those narrower than a few pixels into blocks (timelinegeometry.h),
// folds markers of one kind closer than 9 px into one, and places the idle-gap breaks; the result
// is cached, so a hover's repaint and its hit test reuse it. Hit testing (timelinescenehits.cpp)
// names what it finds by identity (layout row and item), so a hover survives a zoom or scroll.
// Cost: O(visible rows x log spans + visible spans) per change of view, size or scroll.
#pragma once

#include "ui/timeline/timelineareas.h"
#include "ui/timeline/timelinelayout.h"

#include <QRect>

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace dynascope::ui::timeline {

class TimelineViewport;

// What is under the mouse, by identity (the layout's row and item), not by its position in the
// cache: after a zoom or scroll the same item stays hovered.
struct Hit {
    enum class Kind { None, Span, Folded, Marker, Gap, RankMark } kind = Kind::None;
    int row = -1; // layout row (spans, rank marks)
    // span index in the layout row (folded: the first one), marker index, fold index, or file
    // (RankMark)
    uint32_t item = 0;
    bool operator==(const Hit&) const = default;
};

class TimelineScene {
public:
    struct CachedRow {
        int row = -1;
        std::vector<FoldedSpan> spans; // x relative to the lanes' left edge
    };
    struct CachedFold {
        double x0 = 0, x1 = 0; // relative to the lanes' left edge, at least kMinFoldPx apart
        uint32_t fold = 0; // index into the layout's folding().folds()
    };
    struct CachedMarker {
        double x = 0;
        uint32_t marker = 0; // index into layout markers
        int count = 1; // markers of the same kind folded into this one
    };

    explicit TimelineScene(const TimelineLayout& layout)
        : m_layout(layout)
    {
    }

    // The cache is computed again on the next update() (a new layout, font or palette).
    void invalidate() { m_valid = false; }
    // Brings the cache up to date for the viewport and the areas; no work when neither moved.
    void update(const TimelineViewport& viewport, const TimelineAreas& areas);
    const TimelineAreas& areas() const { return m_areas; }
    const std::vector<CachedRow>& rows() const { return m_rows; }
    const std::vector<CachedMarker>& markers() const { return m_markers; }
    const std::vector<CachedFold>& folds() const { return m_folds; }
    // The cached geometry of a hit (null when it is not on screen now).
    const FoldedSpan* span(const Hit& hit) const;
    const CachedMarker* marker(const Hit& hit) const;
    // Top of a layout row on the canvas.
    int rowTop(const Row& row) const { return m_areas.lanes.top() + row.y - m_areas.scroll; }

    // Hit testing on the last update()'s geometry. `rankMarked(file)`: whether that rank's row
    // carries a mark (its label and an open rank's header then hit as RankMark).
    Hit hitAt(const QPoint& pos, const std::function<bool(uint32_t)>& rankMarked) const;
    Hit gapAt(const QPoint& pos) const; // an idle gap's band, across axis, markers and lanes
    QRect rectOf(const Hit& hit) const; // where a hit item is drawn now; empty for none
    uint32_t compileOf(const Hit& hit) const; // kNone unless a span or marker
    // A span hit's compile and phase (-1: the compile's own span); nullopt for other hits.
    std::optional<std::pair<uint32_t, int>> spanOf(const Hit& hit) const;
    // Where a compile's span is drawn now; null rect when not visible.
    QRect compileRect(uint32_t compile) const;
    // Where the glyph of a compile's marker of this kind is drawn; null when not visible.
    QRect markerGlyphRect(uint32_t compile, MarkerKind kind) const;

private:
    void cacheRows(const TimelineViewport& viewport);
    void cacheMarkers(const TimelineViewport& viewport);
    void cacheFolds(const TimelineViewport& viewport);

    struct Key {
        TimeRange view;
        int width = 0, height = 0, scroll = 0;
        bool operator==(const Key&) const = default;
    };
    const TimelineLayout& m_layout;
    TimelineAreas m_areas;
    Key m_key;
    bool m_valid = false;
    std::vector<CachedRow> m_rows;
    std::vector<CachedMarker> m_markers;
    std::vector<CachedFold> m_folds;
};

} // namespace dynascope::ui::timeline
