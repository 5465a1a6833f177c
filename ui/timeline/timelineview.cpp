// TimelineView: state, navigation (history, fit, zoom, pan, following the selection) through the
// viewport, the overlays' setters forwarded to their passes, and the composition of the passes.
// Input is in timelineinput.cpp.
#include "ui/timeline/timelineview.h"

#include "ui/compileselection.h"
#include "ui/plaintooltip.h"
#include "ui/timeline/timelineaccessible.h"
#include "ui/timeline/timelineconstants.h"
#include "ui/timeline/timelinetooltips.h"

#include <QEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

namespace dynascope::ui {

using namespace timeline;

TimelineView::TimelineView(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_vbar(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("timeline"));
    setAccessibleName(tr("Timeline"));
    setAccessibleDescription(tr("Compiles over time, one lane per frame; Ctrl+arrows move between "
                                "compiles, W/S zoom, A/D pan"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setLayoutOptions(sizedRows(m_layoutOptions, font()));
    connect(m_vbar, &QScrollBar::valueChanged, this, [this] { invalidate(); });
    connect(m_selection, &CompileSelection::currentChanged, this, &TimelineView::followSelection);
    installTimelineAccessibility(this);
}

void TimelineView::showTrace(std::shared_ptr<const Trace> trace, bool follow)
{
    const auto selected = follow ? selectedRange() : std::nullopt;
    const int scrolled = follow ? m_vbar->value() : 0;
    m_trace = std::move(trace);
    if (m_trace && !follow)
        m_tzOffset = m_trace->files.empty() ? 0 : m_trace->files.front().tzOffsetMinutes;
    m_hover = {};
    m_passes.range.setRange(std::nullopt);
    m_passes.clearOverlays(); // compile indices may have moved: their owners set them again
    m_passes.legend.invalidate(); // the legend lists the trace's phase groups
    if (m_trace)
        m_layout.build(*m_trace, m_layoutOptions);
    else
        m_layout.clear();
    ++m_layoutGeneration;
    const auto bounds = m_layout.hasTime() ? std::optional(m_layout.bounds()) : std::nullopt;
    m_viewport.setCompile(m_selection->current());
    updateScrollBar();
    m_vbar->setValue(scrolled);
    if (follow) {
        // The view stays where it was, or follows the newest part (TimelineViewport::follow);
        // a live update is not a place of the history. The selected range stays.
        m_viewport.setRecording(false);
        viewMoved(viewport().follow(bounds, m_layout.folding()));
        m_viewport.setRecording(true);
        m_viewport.endGesture();
        setSelectedRange(selected);
        invalidate();
        return;
    }
    m_viewport.setContent(bounds, m_layout.folding());
    fitAll();
    m_viewport.clearHistory();
    m_viewport.endGesture();
    Q_EMIT historyChanged();
    Q_EMIT selectedRangeChanged();
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        setLayoutOptions(sizedRows(m_layoutOptions, font()));
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        m_passes.legend.invalidate();
        invalidate();
    }
}

void TimelineView::relayoutRows(const std::optional<LayoutOptions>& options)
{
    if (!options)
        return;
    m_hover = {}; // rows below move
    setLayoutOptions(*options);
}

void TimelineView::setLayoutOptions(const LayoutOptions& options)
{
    if (options == m_layoutOptions)
        return;
    // Folding gaps changes display time but not trace time: the view and the range keep their
    // trace range. Aligning ranks changes trace time itself: the view shows everything, and the
    // range and the places visited before are dropped (TimelineViewport::relayout).
    const bool realigned = options.alignRanks != m_layoutOptions.alignRanks;
    const auto keptRange = selectedRange();
    m_layoutOptions = options;
    if (m_trace)
        m_layout.build(*m_trace, m_layoutOptions);
    ++m_layoutGeneration;
    updateScrollBar();
    if (m_trace && m_layout.hasTime()) {
        viewport().relayout(m_layout.bounds(), m_layout.folding(), realigned);
        m_passes.range.setRange(
            realigned || !keptRange ? std::nullopt : std::optional(m_layout.toDisplay(*keptRange)));
        if (realigned) {
            Q_EMIT historyChanged();
            Q_EMIT selectedRangeChanged();
        }
        Q_EMIT viewRangeChanged();
    }
    invalidate();
}

TimelineAreas TimelineView::areas() const
{
    const QSize c = canvas();
    const TimelineAreas a = TimelineAreas::compute(font(), c, m_vbar->sizeHint().width(),
        m_passes.legend.height(c.width(), font(), palette(), m_layout), m_vbar->value());
    m_viewport.setWidth(a.lanesWidth());
    return a;
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    const QRect lanes = areas().lanes;
    const int bar = m_vbar->sizeHint().width();
    m_vbar->setGeometry(width() - bar, lanes.top(), bar, lanes.height());
    updateScrollBar();
    invalidate();
}

void TimelineView::updateScrollBar()
{
    const int visible = areas().lanes.height();
    m_vbar->setPageStep(std::max(1, visible));
    m_vbar->setSingleStep(m_layoutOptions.laneHeight);
    m_vbar->setRange(0, std::max(0, m_layout.contentHeight() - visible));
}

// ---- navigation ---------------------------------------------------------------------------

void TimelineView::viewMoved(bool moved)
{
    if (!moved)
        return;
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::placeRestored(bool moved)
{
    if (!moved)
        return;
    // The selection of that place, without this being a new place.
    m_restoring = true;
    m_selection->setCurrent(m_viewport.compile());
    m_restoring = false;
    viewMoved(true);
}

void TimelineView::setSelectedRange(std::optional<TimeRange> range)
{
    selectDisplayRange(range ? std::optional(m_layout.toDisplay(*range)) : std::nullopt);
}

void TimelineView::selectDisplayRange(std::optional<TimeRange> range)
{
    if (!m_passes.range.setRange(range))
        return;
    update();
    Q_EMIT selectedRangeChanged();
}

void TimelineView::zoomToSelectedRange()
{
    const auto range = m_passes.range.range();
    if (!range || !(range->span() > 0))
        return;
    // The range becomes the view; its tint and box would otherwise cover every lane.
    selectDisplayRange(std::nullopt);
    viewMoved(viewport().moveTo(*range, TimelineViewport::Step::NewPlace));
}

void TimelineView::fitAll()
{
    updateScrollBar();
    viewMoved(viewport().fitAll());
}

void TimelineView::fitSelection()
{
    const uint32_t c = m_selection->current();
    if (!m_trace || c >= m_trace->compiles.size() || m_layout.laneOf(c) < 0)
        return;
    const Compile& comp = m_trace->compiles[c];
    viewMoved(viewport().fitSpan(
        m_layout.compileStart(comp), m_layout.compileEnd(comp), comp.durationUs()));
    ensureRowVisible(m_layout.laneOf(c));
}

void TimelineView::zoomBy(double factor)
{
    if (!m_layout.hasTime())
        return;
    const TimelineAreas a = areas();
    double anchor = m_viewport.view().centre();
    const QPoint mouse = mapFromGlobal(QCursor::pos());
    const QRect lanes = a.lanes.adjusted(a.labelWidth, -a.markers.height() - a.axis.height(), 0, 0);
    if (underMouse() && lanes.contains(mouse))
        anchor = m_viewport.timeAt(mouse.x() - a.labelWidth);
    viewMoved(m_viewport.zoomAround(anchor, factor));
}

void TimelineView::panByFraction(double fraction)
{
    if (m_layout.hasTime())
        viewMoved(viewport().pan(fraction));
}

void TimelineView::ensureRowVisible(int row)
{
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const Row& r = m_layout.rows()[static_cast<size_t>(row)];
    const int visible = areas().lanes.height();
    if (r.y < m_vbar->value())
        m_vbar->setValue(std::max(0, r.y - m_layoutOptions.rankHeight));
    else if (r.y + r.height * 3 > m_vbar->value() + visible)
        m_vbar->setValue(r.y + r.height * 3 - visible);
}

void TimelineView::followSelection(uint32_t compile)
{
    if (m_restoring) { // back/forward: the place's range is set already
        update();
        return;
    }
    // A new selection is a new place, as a followed link in a browser: remember the one left.
    if (m_trace && compile != m_viewport.compile()) {
        m_viewport.leavePlace();
        Q_EMIT historyChanged();
    }
    m_viewport.setCompile(compile);
    m_viewport.setRecording(false); // the place left is remembered already
    revealCompile(compile);
    m_viewport.setRecording(true);
    if (hasFocus()) // chosen by keyboard (Ctrl+arrows, the Go menu): a screen reader says which
        announceCompile(this, compile);
}

uint32_t TimelineView::currentCompile() const
{
    return m_selection->current();
}

QRect TimelineView::rowRect(int row)
{
    const auto& rows = m_layout.rows();
    if (row < 0 || static_cast<size_t>(row) >= rows.size())
        return {};
    const Row& r = rows[static_cast<size_t>(row)];
    const QRect lanes = scene().areas().lanes;
    return QRect(lanes.left(), scene().rowTop(r), lanes.width(), r.height).intersected(lanes);
}

void TimelineView::revealCompile(uint32_t compile)
{
    // With many ranks, the selected compile's rank shows its lanes.
    if (m_trace && compile < m_trace->compiles.size())
        expandRank(m_trace->compiles[compile].file);
    if (m_trace && compile < m_trace->compiles.size() && m_layout.laneOf(compile) >= 0) {
        const Compile& c = m_trace->compiles[compile];
        // A click selects what is on screen: the user's zoom stays.
        viewMoved(viewport().reveal(
            m_layout.compileStart(c), m_layout.compileEnd(c), c.durationUs(), m_clickSelecting));
        ensureRowVisible(m_layout.laneOf(compile));
    }
    update();
}

// ---- hit-testing --------------------------------------------------------------------------

TimelineView::Hit TimelineView::hitAt(const QPoint& pos)
{
    return scene().hitAt(pos, [this](uint32_t file) { return m_passes.rankMarks.marked(file); });
}

QString TimelineView::toolTipAt(const QPoint& pos)
{
    return plainToolTip(toolTipText(hitAt(pos)));
}

QString TimelineView::toolTipText(const Hit& hit)
{
    return m_trace
        ? TimelineToolTips::text(hit, *m_trace, m_layout, m_scene, m_passes.rankMarks, m_tzOffset)
        : QString();
}

// ---- composition --------------------------------------------------------------------------

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
    m_scene.invalidate();
    m_passes.legend.invalidate();
    m_exposed = QRect(QPoint(0, 0), size);
    p.save();
    p.setClipRect(QRect(QPoint(0, 0), size));
    paintAll(p);
    p.restore();
    m_canvas = QSize();
    m_scene.invalidate();
    m_passes.legend.invalidate();
    m_hover = hover;
}

void TimelineView::paintAll(QPainter& p)
{
    const QRect all(QPoint(0, 0), canvas());
    p.fillRect(all, palette().color(QPalette::Base));
    if (!m_trace)
        return;
    scene(); // up to date
    if (!m_layout.hasTime()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(all, Qt::AlignCenter,
            tr("No timing in this trace: no chromium events, metrics times or glog times."));
        return;
    }
    const PaintContext ctx { *m_trace, m_layout, m_viewport, m_scene, palette(), m_exposed,
        m_selection->current(), m_hover, m_tzOffset };
    for (TimelineRenderPass* pass : m_passes.inOrder()) {
        p.save();
        pass->paint(p, ctx);
        p.restore();
    }
}

} // namespace dynascope::ui
