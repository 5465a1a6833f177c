// TimelineView: compiles over time. An axis with wall-clock labels, a row of instant markers
// (graph break, recompile, failure, cache hit/miss), then per rank and per frame a lane with the
// frame's compiles coloured by status and their chromium phases stacked below as depth rows, and a
// legend. One painting widget: the geometry of what is visible is computed for the current
// (range, size, scroll) with binary searches and folding (timelinegeometry.h) and cached, so hover
// repaints reuse it. Selection is the shared CompileSelection.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/timelinelayout.h"

#include <QWidget>

#include <memory>

class QScrollBar;

namespace dynascope::ui {

class CompileSelection;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    const timeline::TimelineLayout& layout() const { return m_layout; }
    timeline::TimeRange viewRange() const { return m_view; }
    void setViewRange(const timeline::TimeRange& range);

    void fitAll();
    void fitSelection();
    void zoomBy(double factor); // around the centre (or the mouse when it is over the lanes)
    void panByFraction(double fraction);

    // Where a compile's span is drawn now (widget coordinates); null rect when not visible.
    QRect compileRect(uint32_t compile);
    // The compile (span, phase or marker) at a widget position, kNone for none.
    uint32_t compileAt(const QPoint& pos);
    QString toolTipAt(const QPoint& pos);

    QSize sizeHint() const override { return { 900, 360 }; }
    QSize minimumSizeHint() const override { return { 300, 160 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Hit {
        enum class Kind { None, Span, Folded, Marker } kind = Kind::None;
        int row = -1; // layout row (spans)
        int index = -1; // into the cached row's spans, or the cached markers
        bool operator==(const Hit&) const = default;
    };
    struct CachedRow {
        int row = -1;
        std::vector<timeline::FoldedSpan> spans; // x relative to the lanes' left edge
    };
    struct CachedMarker {
        double x = 0;
        uint32_t marker = 0; // index into layout markers
        int count = 1; // markers of the same kind folded into this one
    };

    QRect axisRect() const;
    QRect markerRect() const;
    QRect lanesRect() const; // where rows scroll, labels included
    QRect legendRect() const;
    int labelWidth() const { return 250; }
    double lanesWidth() const;
    void ensureGeometry();
    void invalidate();
    void updateScrollBar();
    Hit hitAt(const QPoint& pos);
    uint32_t compileOf(const Hit& hit) const;
    void followSelection(uint32_t compile);
    void ensureRowVisible(int row);

    void paintAxis(QPainter& p);
    void paintMarkers(QPainter& p);
    void paintRows(QPainter& p);
    void paintLegend(QPainter& p);

    CompileSelection* m_selection;
    std::shared_ptr<const Trace> m_trace;
    timeline::TimelineLayout m_layout;
    timeline::TimeRange m_view;
    QScrollBar* m_vbar;
    int m_tzOffset = 0;

    // Geometry cache, valid for m_cacheKey.
    struct CacheKey {
        timeline::TimeRange view;
        int width = 0, height = 0, scroll = 0;
        bool operator==(const CacheKey&) const = default;
    };
    CacheKey m_cacheKey;
    bool m_cacheValid = false;
    std::vector<CachedRow> m_cachedRows;
    std::vector<CachedMarker> m_cachedMarkers;

    Hit m_hover;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_pressed = false;
    bool m_dragging = false;
};

} // namespace dynascope::ui
