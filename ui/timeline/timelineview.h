// TimelineView: compiles over time. An axis with wall-clock labels, a row of instant markers
// (graph break, recompile, failure, cache hit/miss), then per rank and per frame a lane with the
// frame's compiles coloured by status and their chromium phases stacked below as depth rows, and a
// legend. One painting widget: the geometry of what is visible is computed for the current
// (range, size, scroll) with binary searches and folding (timelinegeometry.h) and cached, so hover
// repaints reuse it. Selection is the shared CompileSelection.
//
// Navigation: every change of the visible range that is a new place (fit, double-click, a search
// step, a gesture after a pause) and every change of the selected compile (a click, a link in the
// Why tab) is remembered in a NavigationHistory for back/forward. Shift+drag selects a time range
// and shows what it holds in an overlay. All drawing goes through one QPainter (paintAll), so the
// screen, a QImage at any device pixel ratio and an SVG (QSvgGenerator) get the same geometry;
// renderTimeline() paints at a chosen canvas size. Sizes (label column, rows, axis) follow the
// font; colours follow the palette (status hues lightened on a dark base).
//
// Time on the axis is display time (timelinelayout.h): idle gaps folded into marked breaks, ranks
// optionally aligned on their start; the public ranges (viewRange, selectedRange, history places)
// are trace time, so folding or unfolding keeps what is shown.
//
// The code is split by responsibility: timelineview.cpp (state, navigation, the geometry cache,
// hit-testing, tooltips), timelinepaint.cpp (painting, the legend), timelineinput.cpp (mouse,
// wheel and keys), timelinefolds.cpp (the folded gaps: breaks, their tooltips, unfolding).
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/navigationhistory.h"
#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelinelayout.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

class QScrollBar;

namespace dynascope::ui {

class CompileSelection;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // A newer state of the trace shown (live following: more of the same files). The view stays
    // where it was, or follows the newest part when it showed it: all of the trace when it showed
    // all, the same width ending at the new end when it showed the end. The selected range and
    // the history stay; nothing is fitted anew.
    void updateTrace(std::shared_ptr<const Trace> trace);
    const timeline::TimelineLayout& layout() const { return m_layout; }
    // The visible range in trace time (timelinelayout.h: with aligned ranks, time since the ranks'
    // common origin); idle gaps folded inside it count with their whole length.
    timeline::TimeRange viewRange() const { return m_layout.toTrace(m_view); }
    // A new place: the range left is remembered for back().
    void setViewRange(const timeline::TimeRange& range);

    // Back and forward through the places visited: visible ranges and selected compiles
    // (Alt+Left / Alt+Right, mouse buttons).
    bool canGoBack() const { return m_history.canBack(); }
    bool canGoForward() const { return m_history.canForward(); }
    void goBack();
    void goForward();

    // Shift+drag selection of a time range (trace time); nullopt when none.
    std::optional<timeline::TimeRange> selectedRange() const;
    void setSelectedRange(std::optional<timeline::TimeRange> range);
    timeline::RangeSummary rangeSummary() const;
    // Shows the selected range and drops it (its tint and box would cover the whole view).
    void zoomToSelectedRange();
    // Where the range's box (duration and contents) is drawn; null when there is no range.
    QRect rangeBoxRect() const;

    // Compiles to mark as search hits (a bar above and below each).
    void setSearchHits(const std::vector<uint32_t>& compiles);
    // The legend under the lanes (on by default; of two timelines shown one above the other, as
    // Compare With does, only the lower one keeps it).
    void setLegendVisible(bool visible);

    // Compiles that findings name (core/analysis/findings.h), with the worst severity of those
    // findings (1 warning, 2 error): a small flag at the compile's start. A new trace clears them.
    void setFindingMarks(std::unordered_map<uint32_t, int> severityByCompile);
    // Ranks that findings single out (Finding::files: the straggler, a rank that recompiled or
    // broke where the others did not): a mark on the rank's row, "≠ straggler", with the
    // findings' titles as its tooltip. Severity 0 note, 1 warning, 2 error. A new trace clears
    // them.
    struct RankMark {
        int severity = 0;
        QStringList words; // short: "straggler", "recompiles"
        QStringList titles; // the findings' titles
    };
    void setRankMarks(std::unordered_map<uint32_t, RankMark> byFile);
    const std::unordered_map<uint32_t, RankMark>& rankMarks() const { return m_rankMarks; }

    // Phase rows: compact mode shows compiles only; otherwise at most maxPhaseRows depth rows per
    // lane. Clicking a lane's label flips that lane.
    const timeline::LayoutOptions& layoutOptions() const { return m_layoutOptions; }
    void setLayoutOptions(const timeline::LayoutOptions& options);
    // Many ranks (compact rank rows): shows `file`'s lanes and folds the rank shown before.
    void expandRank(uint32_t file);
    void toggleLane(int row);
    // Idle gaps: fold them (all, again) or show time to scale; align ranks on their own start.
    void setFoldGaps(bool fold);
    void setAlignRanks(bool align);

    // Paints the whole timeline into p at a canvas of `size` logical pixels (exports: QImage at
    // any device pixel ratio, QSvgGenerator). The widget itself is untouched.
    void renderTimeline(QPainter& p, const QSize& size);
    int tzOffsetMinutes() const { return m_tzOffset; }

    // Brings a compile into view: pans to it when it is off-screen, zooms in when it is narrower
    // than a few pixels, keeps the user's zoom otherwise. Selections made elsewhere call it.
    void revealCompile(uint32_t compile);

    void fitAll();
    void fitSelection();
    void zoomBy(double factor); // around the centre (or the mouse when it is over the lanes)
    void panByFraction(double fraction);

    // Where a compile's span is drawn now (widget coordinates); null rect when not visible.
    QRect compileRect(uint32_t compile);
    // The compile (span, phase or marker) at a widget position, kNone for none.
    uint32_t compileAt(const QPoint& pos);
    // The tooltip at a widget position, safe to show: trace text in it shows literally.
    QString toolTipAt(const QPoint& pos);
    // Where the glyph of a compile's marker of this kind is drawn; null when not visible.
    QRect markerGlyphRect(uint32_t compile, MarkerKind kind);
    // The span under the mouse: its compile and phase (-1: the compile's own span).
    std::optional<std::pair<uint32_t, int>> hoveredSpan() const;
    // How far the view may go: the layout's bounds plus room for the glyphs at their edges.
    timeline::TimeRange limits() const;

    QSize sizeHint() const override { return { 900, 360 }; }
    QSize minimumSizeHint() const override { return { 300, 160 }; }

Q_SIGNALS:
    void historyChanged();
    void viewRangeChanged();
    void selectedRangeChanged();

protected:
    void changeEvent(QEvent* event) override;
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
    // What is under the mouse, by identity (the layout's row and item), not by its position in
    // the geometry cache: after a zoom or scroll the same item stays hovered.
    struct Hit {
        enum class Kind { None, Span, Folded, Marker, Gap, RankMark } kind = Kind::None;
        int row = -1; // layout row (spans)
        // span index in the layout row (folded: the first one), marker index, fold index, or
        // file (RankMark)
        uint32_t item = 0;
        bool operator==(const Hit&) const = default;
    };
    QRect hitRect(const Hit& hit) const; // where a hit item is drawn now; empty for none
    QString toolTipText(const Hit& hit); // raw trace text: show through plainToolTip()
    struct CachedRow {
        int row = -1;
        std::vector<timeline::FoldedSpan> spans; // x relative to the lanes' left edge
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

    QRect axisRect() const;
    QRect markerRect() const;
    QRect lanesRect() const; // where rows scroll, labels included
    QRect legendRect() const;
    QSize canvas() const { return m_canvas.isValid() ? m_canvas : size(); }
    struct LegendItem {
        QColor color;
        QString glyph, word;
        bool swatch = false;
        bool groupStart = false;
        bool hatch = false; // the swatch of folded blocks
        QPoint at; // laid out by layoutLegend()
    };
    std::vector<LegendItem> legendItems() const;
    // The cached geometry of a hit (null when it is not on screen now).
    const timeline::FoldedSpan* cachedSpan(const Hit& hit) const;
    const CachedMarker* cachedMarkerOf(const Hit& hit) const;
    // Font-dependent sizes.
    int axisHeight() const;
    int markerHeight() const;
    int legendLine() const;
    QFont smallFont(double scale = 0.9) const;
    // Lays the legend out in lines that fit `width`; returns the height it needs.
    int layoutLegend(std::vector<LegendItem>& items, int width) const;
    int legendHeight() const;
    // The view and the range selection in display time (the layout's folded axis).
    void changeView(const timeline::TimeRange& range, bool newPlace);
    void selectDisplayRange(std::optional<timeline::TimeRange> range);
    timeline::Place here() const { return { viewRange(), m_lastSelection }; }
    void restorePlace(const timeline::Place& place);
    void applyFontMetrics();
    void paintAll(QPainter& p);
    void paintRangeOverlay(QPainter& p);
    void paintSearchHits(QPainter& p);
    void paintFindingMarks(QPainter& p);
    void paintRankMark(QPainter& p, const timeline::Row& row, const QRect& rect);
    QStringList rangeBoxLines() const;
    double xOfTime(double t) const; // widget x
    int labelWidth() const;
    double lanesWidth() const;
    void ensureGeometry();
    void invalidate();
    void updateScrollBar();
    Hit hitAt(const QPoint& pos);
    uint32_t compileOf(const Hit& hit) const;
    void followSelection(uint32_t compile);
    void ensureRowVisible(int row);

    // Folded idle gaps (timelinefolds.cpp): the display stretches between folds that the axis
    // ticks, the marked breaks, their tooltips, and unfolding one (Alt+click).
    std::vector<timeline::TimeRange> axisSegments() const;
    void cacheFolds();
    void paintFolds(QPainter& p);
    void paintFoldLabels(QPainter& p);
    Hit gapAt(const QPoint& pos) const;
    QString gapToolTip(uint32_t fold) const;
    void unfoldGap(uint32_t fold);

    void paintAxis(QPainter& p);
    void paintMarkers(QPainter& p);
    void paintRows(QPainter& p);
    void paintLegend(QPainter& p);

    CompileSelection* m_selection;
    std::shared_ptr<const Trace> m_trace;
    timeline::TimelineLayout m_layout;
    timeline::TimeRange m_view; // display time
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
    std::vector<CachedFold> m_cachedFolds;

    timeline::NavigationHistory m_history;
    uint32_t m_lastSelection = kNone; // the selection of the place being shown
    bool m_restoring = false; // back/forward is setting the selection
    bool m_noPush = false; // a selection change already pushed the place it left
    QElapsedTimer m_gesture; // running while a continuous gesture (wheel, drag, keys) goes on
    std::optional<timeline::TimeRange> m_range; // display time
    bool m_rangeDragging = false;
    double m_rangeAnchor = 0;
    std::unordered_set<uint32_t> m_hits;
    std::unordered_map<uint32_t, int> m_findingMarks;
    std::unordered_map<uint32_t, RankMark> m_rankMarks;
    bool m_showLegend = true;
    timeline::LayoutOptions m_layoutOptions;
    QSize m_canvas; // invalid: the widget's size
    QRect m_exposed; // what the paint in progress must draw (widget coordinates)
    mutable int m_legendWidth = -1, m_legendHeight = 0;
    mutable qreal m_legendFontSize = 0;
    bool m_clickSelecting = false;

    Hit m_hover;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_pressed = false;
    bool m_dragging = false;
};

} // namespace dynascope::ui
