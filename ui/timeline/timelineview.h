// TimelineView: compiles over time. An axis with wall-clock labels, a row of instant markers
// (graph break, recompile, failure, cache hit/miss), then per rank and per frame a lane with the
// frame's compiles coloured by status and their chromium phases stacked below as depth rows, and a
// legend. Selection is the shared CompileSelection. The widget keeps input (timelineinput.cpp)
// and composition (timelineview.cpp); beside it, TimelineViewport holds the visible range, its
// zoom/pan/fit arithmetic, the time <-> pixel mapping and the back/forward history; TimelineScene
// what is visible now in pixels and the hit tests; TimelineAreas where the parts go; and the
// render passes (timelinepasses.h), painted in order into one QPainter, each owning the data only
// it draws, so the screen, a QImage at any device pixel ratio and an SVG get the same picture.
//
// Every change of the visible range that is a new place (fit, double-click, a search step, a
// gesture after a pause) and every change of the selected compile is remembered for back/forward.
// Shift+drag selects a time range and shows what it holds. Time on the axis is display time
// (timelinelayout.h: idle gaps folded, ranks optionally aligned); the public ranges (viewRange,
// selectedRange, history places) are trace time, so folding or unfolding keeps what is shown.
#pragma once

#include "core/model/trace.h"
#include "ui/timeline/rangesummary.h"
#include "ui/timeline/timelinelayout.h"
#include "ui/timeline/timelinelayoutedits.h"
#include "ui/timeline/timelinepasses.h"
#include "ui/timeline/timelinescene.h"
#include "ui/timeline/timelineviewport.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <unordered_map>

class QScrollBar;

namespace dynascope::ui {

class CompileSelection;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(CompileSelection* selection, QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace) { showTrace(std::move(trace), false); }
    // A newer state of the trace shown (live following: more of the same files). The view stays
    // where it was, or follows the newest part when it showed it: all of the trace when it showed
    // all, the same width ending at the new end when it showed the end. The selected range and
    // the history stay; nothing is fitted anew.
    void updateTrace(std::shared_ptr<const Trace> trace)
    {
        const bool follow = m_trace && trace && m_layout.hasTime(); // before trace moves
        showTrace(std::move(trace), follow);
    }
    const timeline::TimelineLayout& layout() const { return m_layout; }
    // The visible range in trace time (timelinelayout.h: with aligned ranks, time since the ranks'
    // common origin); idle gaps folded inside it count with their whole length.
    timeline::TimeRange viewRange() const { return m_viewport.traceView(); }
    // A new place: the range left is remembered for back().
    void setViewRange(const timeline::TimeRange& range)
    {
        viewMoved(viewport().moveToTrace(range, timeline::TimelineViewport::Step::NewPlace));
    }

    // Back and forward through the places visited: visible ranges and selected compiles
    // (Alt+Left / Alt+Right, mouse buttons).
    bool canGoBack() const { return m_viewport.canBack(); }
    bool canGoForward() const { return m_viewport.canForward(); }
    void goBack() { placeRestored(viewport().back()); }
    void goForward() { placeRestored(viewport().forward()); }

    // Shift+drag selection of a time range (trace time); nullopt when none.
    std::optional<timeline::TimeRange> selectedRange() const
    {
        return m_passes.range.traceRange(m_layout);
    }
    void setSelectedRange(std::optional<timeline::TimeRange> range);
    timeline::RangeSummary rangeSummary() const
    {
        return m_passes.range.summary(m_trace.get(), m_layout);
    }
    // Shows the selected range and drops it (its tint and box would cover the whole view).
    void zoomToSelectedRange();
    // Where the range's box (duration and contents) is drawn; null when there is no range.
    QRect rangeBoxRect() const
    {
        return m_passes.range.boxRect(m_trace.get(), m_layout, areas(), m_viewport, m_tzOffset);
    }

    // Compiles to mark as search hits (a bar above and below each).
    void setSearchHits(const std::vector<uint32_t>& compiles)
    {
        m_passes.searchHits.setHits(compiles);
        update();
    }
    // The legend under the lanes (on by default; of two timelines shown one above the other, as
    // Compare With does, only the lower one keeps it).
    void setLegendVisible(bool visible)
    {
        m_passes.legend.setVisible(visible);
        update();
    }

    // Compiles that findings name (core/analysis/findings.h), with the worst severity of those
    // findings (1 warning, 2 error): a small flag at the compile's start. A new trace clears them.
    void setFindingMarks(std::unordered_map<uint32_t, int> severityByCompile)
    {
        m_passes.findingMarks.setMarks(std::move(severityByCompile));
        update();
    }
    // Ranks that findings single out (Finding::files): a mark on the rank's row, "≠ straggler",
    // with the findings' titles as its tooltip (timelinerankmarkspass.h). A new trace clears them.
    using RankMark = timeline::RankMark;
    void setRankMarks(std::unordered_map<uint32_t, RankMark> byFile)
    {
        m_passes.rankMarks.setMarks(std::move(byFile));
        update();
    }
    const std::unordered_map<uint32_t, RankMark>& rankMarks() const
    {
        return m_passes.rankMarks.marks();
    }

    // Phase rows: compact mode shows compiles only; otherwise at most maxPhaseRows depth rows per
    // lane. Clicking a lane's label flips that lane.
    const timeline::LayoutOptions& layoutOptions() const { return m_layoutOptions; }
    void setLayoutOptions(const timeline::LayoutOptions& options);
    // Many ranks (compact rank rows): shows `file`'s lanes and folds the rank shown before.
    void expandRank(uint32_t file)
    {
        relayoutRows(timeline::expandedRank(m_layoutOptions, m_layout, file));
    }
    void toggleLane(int row)
    {
        relayoutRows(timeline::toggledLane(m_layoutOptions, m_layout, row));
    }
    // Idle gaps: fold them (all, again) or show time to scale; align ranks on their own start.
    void setFoldGaps(bool fold) { setLayoutOptions(timeline::foldedGaps(m_layoutOptions, fold)); }
    void setAlignRanks(bool align)
    {
        setLayoutOptions(timeline::alignedRanks(m_layoutOptions, align));
    }

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
    QRect compileRect(uint32_t compile) { return scene().compileRect(compile); }
    // The compile (span, phase or marker) at a widget position, kNone for none.
    uint32_t compileAt(const QPoint& pos) { return m_scene.compileOf(hitAt(pos)); }
    // The tooltip at a widget position, safe to show: trace text in it shows literally.
    QString toolTipAt(const QPoint& pos);
    // Where the glyph of a compile's marker of this kind is drawn; null when not visible.
    QRect markerGlyphRect(uint32_t compile, MarkerKind kind)
    {
        return scene().markerGlyphRect(compile, kind);
    }
    // The span under the mouse: its compile and phase (-1: the compile's own span).
    std::optional<std::pair<uint32_t, int>> hoveredSpan() const { return m_scene.spanOf(m_hover); }
    // How far the view may go: the layout's bounds plus room for the glyphs at their edges.
    timeline::TimeRange limits() const { return viewport().limits(); }

    // Keyboard (Ctrl+arrows): the next or previous compile of the selected compile's lane
    // (`along` ±1), or the compile nearest in time on the lane above or below (`across` ±1); the
    // first compile of the first lane when nothing is selected. Screen readers hear it.
    void stepCompile(int along, int across);
    // For the accessible interface (timelineaccessible.h): the trace shown, the selected compile,
    // a number that changes whenever the layout's rows do, and where a layout row is drawn now
    // (empty when scrolled away).
    const Trace* trace() const { return m_trace.get(); }
    uint32_t currentCompile() const;
    uint64_t layoutGeneration() const { return m_layoutGeneration; }
    QRect rowRect(int row);

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
    using Hit = timeline::Hit;
    using TimeRange = timeline::TimeRange;

    QSize canvas() const { return m_canvas.isValid() ? m_canvas : size(); }
    // The canvas areas now; the viewport's width follows them (so every use of the viewport that
    // depends on the width goes through areas() or viewport()).
    timeline::TimelineAreas areas() const;
    timeline::TimelineViewport& viewport() const
    {
        areas();
        return m_viewport;
    }
    // The scene brought up to date for the current view, canvas and scroll.
    const timeline::TimelineScene& scene()
    {
        m_scene.update(m_viewport, areas());
        return m_scene;
    }
    // A new trace (the view fits it) or a newer state of the one shown (`follow`: updateTrace).
    void showTrace(std::shared_ptr<const Trace> trace, bool follow);
    void viewMoved(bool moved); // repaint and tell, when it did
    void placeRestored(bool moved); // back/forward: the place's selection, not a new place
    void selectDisplayRange(std::optional<TimeRange> range);
    void paintAll(QPainter& p);
    void invalidate()
    {
        m_scene.invalidate();
        update();
    }
    void updateScrollBar();
    Hit hitAt(const QPoint& pos);
    QString toolTipText(const Hit& hit); // raw trace text: show through plainToolTip()
    void followSelection(uint32_t compile);
    void ensureRowVisible(int row);
    // New options that move rows: the hover (a row and item) is dropped. nullopt: no change.
    void relayoutRows(const std::optional<timeline::LayoutOptions>& options);

    CompileSelection* m_selection;
    std::shared_ptr<const Trace> m_trace;
    timeline::TimelineLayout m_layout;
    timeline::LayoutOptions m_layoutOptions;
    mutable timeline::TimelineViewport m_viewport; // width: see areas()
    timeline::TimelineScene m_scene { m_layout };
    QScrollBar* m_vbar;
    int m_tzOffset = 0;

    timeline::TimelinePasses m_passes; // painted in order by paintAll
    QSize m_canvas; // invalid: the widget's size
    QRect m_exposed; // what the paint in progress must draw (widget coordinates)
    uint64_t m_layoutGeneration = 0;
    bool m_restoring = false; // back/forward is setting the selection
    bool m_clickSelecting = false; // a click selects: what was clicked is on screen

    Hit m_hover;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_pressed = false;
    bool m_dragging = false;
    bool m_rangeDragging = false;
    double m_rangeAnchor = 0; // display time
};

} // namespace dynascope::ui
