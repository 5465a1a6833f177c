// TimelineView: state, navigation (history, fit, zoom, pan, following the selection), the
// geometry cache, hit-testing and tooltips. Painting is in timelinepaint.cpp, input in
// timelineinput.cpp.
#include "ui/timeline/timelineview.h"

#include "core/analysis/why_chain.h"
#include "ui/compileselection.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"
#include "ui/timeline/timelineconstants.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

using namespace timeline;

TimelineView::TimelineView(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_vbar(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("timeline"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    applyFontMetrics();
    connect(m_vbar, &QScrollBar::valueChanged, this, [this] { invalidate(); });
    connect(m_selection, &CompileSelection::currentChanged, this, &TimelineView::followSelection);
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_hover = {};
    m_range.reset();
    m_hits.clear();
    m_findingMarks.clear();
    m_rankMarks.clear();
    if (m_trace) {
        m_layout.build(*m_trace, m_layoutOptions);
        m_tzOffset = m_trace->files.empty() ? 0 : m_trace->files.front().tzOffsetMinutes;
    } else {
        m_layout.clear();
    }
    m_legendWidth = -1; // the legend lists the trace's phase groups
    m_lastSelection = m_selection->current();
    m_vbar->setValue(0);
    updateScrollBar();
    fitAll();
    m_history.clear();
    m_gesture.invalidate();
    Q_EMIT historyChanged();
    Q_EMIT selectedRangeChanged();
}

void TimelineView::updateTrace(std::shared_ptr<const Trace> trace)
{
    if (!m_trace || !trace || !m_layout.hasTime()) {
        setTrace(std::move(trace));
        return;
    }
    // Where the view was, against the old trace: showing all of it, its newest part, or a
    // place the user scrolled to. Measured against the spans themselves, not limits(): its
    // margins change with the width, which changes as the window lays out a first trace.
    const TimeRange was = m_layout.bounds();
    const double slack = 0.02 * m_view.span();
    const bool showedAll = m_view.start <= was.start + slack && m_view.end >= was.end - slack;
    const bool atEnd = m_view.end >= was.end - slack;
    const TimeRange place = viewRange();
    const auto selected = selectedRange();
    const int scrolled = m_vbar->value();
    m_trace = std::move(trace);
    m_hover = {};
    m_hits.clear(); // compile indices may have moved: their owners set them again
    m_findingMarks.clear();
    m_rankMarks.clear();
    m_layout.build(*m_trace, m_layoutOptions);
    m_legendWidth = -1;
    m_lastSelection = m_selection->current();
    updateScrollBar();
    m_vbar->setValue(scrolled);
    const TimeRange now = limits();
    // A live update is not a place of the history.
    m_noPush = true;
    if (showedAll)
        changeView(now, false);
    else if (atEnd)
        changeView({ now.end - m_view.span(), now.end }, false);
    else
        changeView(m_layout.toDisplay(place), false);
    m_noPush = false;
    m_gesture.invalidate();
    m_range.reset();
    setSelectedRange(selected);
    invalidate();
}

void TimelineView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFontMetrics();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        m_legendWidth = -1;
        invalidate();
    }
}

void TimelineView::applyFontMetrics()
{
    // Rows as tall as the font needs: a 14 pt desktop font must not overlap the lane labels.
    const QFontMetrics fm(font());
    const QFontMetrics sm(smallFont(0.78));
    LayoutOptions o = m_layoutOptions;
    o.laneHeight = std::max(24, fm.height() + 8);
    o.rankHeight = std::max(22, fm.height() + 6);
    o.phaseHeight = std::max(12, sm.height() + 1);
    setLayoutOptions(o);
}

QFont TimelineView::smallFont(double scale) const
{
    QFont f = font();
    f.setPointSizeF(font().pointSizeF() * scale);
    return f;
}

int TimelineView::labelWidth() const
{
    return std::max(250, QFontMetrics(font()).averageCharWidth() * 36);
}
int TimelineView::axisHeight() const
{
    return std::max(30, QFontMetrics(smallFont()).height() + 14);
}
int TimelineView::markerHeight() const
{
    return std::max(22, QFontMetrics(font()).height() + 6);
}
int TimelineView::legendLine() const
{
    return std::max(18, QFontMetrics(smallFont()).height() + 4);
}

void TimelineView::setLayoutOptions(const LayoutOptions& options)
{
    if (options == m_layoutOptions)
        return;
    // Folding gaps changes display time but not trace time: the view keeps its trace range.
    // Aligning ranks changes trace time itself: the view shows everything, and places visited
    // before mean other times now.
    const bool realigned = options.alignRanks != m_layoutOptions.alignRanks;
    const TimeRange kept = viewRange();
    const auto keptRange = selectedRange();
    m_layoutOptions = options;
    if (m_trace)
        m_layout.build(*m_trace, m_layoutOptions);
    updateScrollBar();
    if (m_trace && m_layout.hasTime()) {
        if (realigned) {
            m_range.reset();
            m_view = limits();
            m_history.clear();
            Q_EMIT historyChanged();
            Q_EMIT selectedRangeChanged();
        } else {
            m_view = clampTo(m_layout.toDisplay(kept), limits());
            if (keptRange)
                m_range = m_layout.toDisplay(*keptRange);
        }
        Q_EMIT viewRangeChanged();
    }
    invalidate();
}

void TimelineView::toggleLane(int row)
{
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const Row& r = m_layout.rows()[static_cast<size_t>(row)];
    if (r.compactRank) { // many ranks: this rank's lanes open, the open one folds
        expandRank(r.file);
        return;
    }
    if (r.kind != Row::Kind::Lane || r.phaseDepths == 0)
        return;
    LayoutOptions o = m_layoutOptions;
    const uint64_t key = TimelineLayout::laneKey(r);
    if (!o.toggled.erase(key))
        o.toggled.insert(key);
    m_hover = {}; // rows below move
    setLayoutOptions(o);
}

QRect TimelineView::axisRect() const
{
    return { 0, 0, canvas().width(), axisHeight() };
}
QRect TimelineView::markerRect() const
{
    return { 0, axisHeight(), canvas().width() - m_vbar->sizeHint().width(), markerHeight() };
}
QRect TimelineView::legendRect() const
{
    const int h = legendHeight();
    return { 0, canvas().height() - h, canvas().width(), h };
}
QRect TimelineView::lanesRect() const
{
    const int top = axisHeight() + markerHeight();
    return { 0, top, canvas().width() - m_vbar->sizeHint().width(),
        std::max(0, canvas().height() - legendHeight() - top) };
}
double TimelineView::lanesWidth() const
{
    return std::max(1, lanesRect().width() - labelWidth());
}

TimeRange TimelineView::limits() const
{
    // The layout's bounds, plus enough on each side that a marker glyph at the first or last
    // event is drawn whole (the ✕ of a failure at the end of the trace was cut in half).
    const TimeRange b = m_layout.bounds();
    const double w = lanesWidth();
    const double margin
        = w > 2 * kEdgeMarginPx ? b.span() * kEdgeMarginPx / (w - 2 * kEdgeMarginPx) : 0;
    return { b.start - margin, b.end + margin };
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    const QRect lanes = lanesRect();
    m_vbar->setGeometry(width() - m_vbar->sizeHint().width(), lanes.top(),
        m_vbar->sizeHint().width(), lanes.height());
    updateScrollBar();
    invalidate();
}

void TimelineView::updateScrollBar()
{
    const int visible = lanesRect().height();
    m_vbar->setPageStep(std::max(1, visible));
    m_vbar->setSingleStep(m_layoutOptions.laneHeight);
    m_vbar->setRange(0, std::max(0, m_layout.contentHeight() - visible));
}

void TimelineView::invalidate()
{
    m_cacheValid = false;
    update();
}

// ---- navigation ---------------------------------------------------------------------------

void TimelineView::setViewRange(const TimeRange& range)
{
    changeView(m_layout.hasTime() ? m_layout.toDisplay(range) : range, true);
}

void TimelineView::changeView(const TimeRange& range, bool newPlace)
{
    const TimeRange r = m_layout.hasTime() ? clampTo(range, limits()) : range;
    if (r == m_view)
        return;
    // A gesture's many small steps make one history entry: the place before the gesture began.
    // A selection change pushed its own entry already (m_noPush).
    if (!m_noPush && (newPlace || !m_gesture.isValid() || m_gesture.elapsed() > kGesturePauseMs))
        m_history.push(here());
    if (newPlace)
        m_gesture.invalidate();
    else
        m_gesture.restart();
    m_view = r;
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::restorePlace(const Place& place)
{
    m_view = m_layout.hasTime() ? clampTo(m_layout.toDisplay(place.range), limits()) : place.range;
    m_gesture.invalidate();
    // The selection of that place, without this being a new place.
    m_restoring = true;
    m_selection->setCurrent(place.compile);
    m_restoring = false;
    m_lastSelection = place.compile;
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::goBack()
{
    if (m_history.canBack())
        restorePlace(m_history.back(here()));
}

void TimelineView::goForward()
{
    if (m_history.canForward())
        restorePlace(m_history.forward(here()));
}

std::optional<TimeRange> TimelineView::selectedRange() const
{
    return m_range ? std::optional(m_layout.toTrace(*m_range)) : std::nullopt;
}

void TimelineView::setSelectedRange(std::optional<TimeRange> range)
{
    selectDisplayRange(range ? std::optional(m_layout.toDisplay(*range)) : std::nullopt);
}

void TimelineView::selectDisplayRange(std::optional<TimeRange> range)
{
    if (range == m_range)
        return;
    m_range = range;
    update();
    Q_EMIT selectedRangeChanged();
}

RangeSummary TimelineView::rangeSummary() const
{
    if (!m_trace || !m_range)
        return {};
    return summarizeRange(*m_trace, m_layout.toTrace(*m_range), m_layout.fileShifts());
}

void TimelineView::zoomToSelectedRange()
{
    if (!m_range || !(m_range->span() > 0))
        return;
    const TimeRange r = *m_range;
    // The range becomes the view; its tint and box would otherwise cover every lane.
    selectDisplayRange(std::nullopt);
    changeView(r, true);
}

void TimelineView::setSearchHits(const std::vector<uint32_t>& compiles)
{
    m_hits = std::unordered_set<uint32_t>(compiles.begin(), compiles.end());
    update();
}

void TimelineView::setLegendVisible(bool visible)
{
    m_showLegend = visible;
    m_legendWidth = -1; // laid out again
    update();
}

void TimelineView::setFindingMarks(std::unordered_map<uint32_t, int> severityByCompile)
{
    m_findingMarks = std::move(severityByCompile);
    update();
}

void TimelineView::setRankMarks(std::unordered_map<uint32_t, RankMark> byFile)
{
    m_rankMarks = std::move(byFile);
    update();
}

void TimelineView::fitAll()
{
    updateScrollBar();
    changeView(m_layout.hasTime() ? limits() : TimeRange {}, true);
}

double TimelineView::xOfTime(double t) const
{
    return labelWidth() + timeToX(m_view, lanesWidth(), t);
}

void TimelineView::fitSelection()
{
    const uint32_t c = m_selection->current();
    if (!m_trace || c >= m_trace->compiles.size() || m_layout.laneOf(c) < 0)
        return;
    const Compile& comp = m_trace->compiles[c];
    const double pad = std::max(comp.durationUs() * 0.1, kMinSpanUs);
    changeView({ m_layout.compileStart(comp) - pad, m_layout.compileEnd(comp) + pad }, true);
    ensureRowVisible(m_layout.laneOf(c));
}

void TimelineView::zoomBy(double factor)
{
    if (!m_layout.hasTime())
        return;
    double anchor = m_view.centre();
    const QPoint mouse = mapFromGlobal(QCursor::pos());
    const QRect lanes = lanesRect().adjusted(labelWidth(), -markerHeight() - axisHeight(), 0, 0);
    if (underMouse() && lanes.contains(mouse))
        anchor = xToTime(m_view, lanesWidth(), mouse.x() - labelWidth());
    changeView(zoomAt(m_view, anchor, factor, limits(), kMinSpanUs), false);
}

void TimelineView::panByFraction(double fraction)
{
    if (m_layout.hasTime())
        changeView(panBy(m_view, m_view.span() * fraction, limits()), false);
}

void TimelineView::ensureRowVisible(int row)
{
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const Row& r = m_layout.rows()[static_cast<size_t>(row)];
    const int visible = lanesRect().height();
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
    if (m_trace && compile != m_lastSelection) {
        m_history.push(here());
        m_gesture.invalidate();
        Q_EMIT historyChanged();
    }
    m_lastSelection = compile;
    m_noPush = true;
    revealCompile(compile);
    m_noPush = false;
}

void TimelineView::expandRank(uint32_t file)
{
    if (!m_layout.compactRanks() || file == m_layout.expandedFile())
        return;
    LayoutOptions o = m_layoutOptions;
    o.expandedFile = file;
    m_hover = {}; // rows below move
    setLayoutOptions(o);
}

void TimelineView::revealCompile(uint32_t compile)
{
    // With many ranks, the selected compile's rank shows its lanes.
    if (m_trace && compile < m_trace->compiles.size())
        expandRank(m_trace->compiles[compile].file);
    if (m_trace && compile < m_trace->compiles.size() && m_layout.laneOf(compile) >= 0) {
        const Compile& c = m_trace->compiles[compile];
        // Keep the user's zoom while the compile is visible and wide enough to see; otherwise
        // centre it, zooming in (never out, unless it does not fit) to an eighth of the width, so
        // its neighbours stay in view.
        const double px = c.durationUs() / std::max(m_view.span(), 1e-9) * lanesWidth();
        const double start = m_layout.compileStart(c), end = m_layout.compileEnd(c);
        const bool visible = end >= m_view.start && start <= m_view.end;
        const bool narrow = px < kFollowMinPx && !m_clickSelecting;
        if (!visible || narrow) {
            double span = m_view.span();
            if (narrow)
                span = std::min(span, std::max(c.durationUs() * 8, kMinSpanUs * 20));
            span = std::max(span, c.durationUs() * 1.2);
            const double mid = (start + end) / 2;
            changeView({ mid - span / 2, mid + span / 2 }, true);
        }
        ensureRowVisible(m_layout.laneOf(compile));
    }
    update();
}

// ---- geometry cache and hit-testing -------------------------------------------------------

void TimelineView::ensureGeometry()
{
    const CacheKey key { m_view, static_cast<int>(lanesWidth()), lanesRect().height(),
        m_vbar->value() };
    if (m_cacheValid && key == m_cacheKey)
        return;
    m_cacheKey = key;
    m_cacheValid = true;
    m_cachedRows.clear();
    m_cachedMarkers.clear();
    m_cachedFolds.clear();
    if (!m_layout.hasTime())
        return;
    cacheFolds();
    const double w = lanesWidth();
    const auto& rows = m_layout.rows();
    const int top = m_vbar->value();
    const int bottom = top + lanesRect().height();
    int first = std::max(0, m_layout.rowAt(top));
    for (int ri = first;
         ri < static_cast<int>(rows.size()) && rows[static_cast<size_t>(ri)].y < bottom; ++ri) {
        const Row& row = rows[static_cast<size_t>(ri)];
        if (row.spans.empty())
            continue;
        const auto [a, b] = visibleSpans(row.starts, row.maxEnds, m_view.start, m_view.end);
        std::vector<PixelSpan> px;
        px.reserve(b - a);
        for (size_t i = a; i < b; ++i) {
            const Span& s = row.spans[i];
            if (s.end < m_view.start)
                continue; // nested under a long span that began earlier
            const double x0 = std::max(-2.0, timeToX(m_view, w, s.start));
            const double x1 = std::min(w + 2, timeToX(m_view, w, s.end));
            px.push_back({ x0, x1, static_cast<uint32_t>(i) });
        }
        std::sort(px.begin(), px.end(),
            [](const PixelSpan& l, const PixelSpan& r) { return l.x0 < r.x0; });
        m_cachedRows.push_back({ ri, foldSpans(px, 3.0) });
    }
    // Markers: by binary search on time; markers of one kind closer than 9 px fold into one.
    const auto& markers = m_layout.markers();
    auto lo = std::lower_bound(markers.begin(), markers.end(), m_view.start,
        [](const Marker& m, double t) { return m.t < t; });
    double lastX[5] = { -1e9, -1e9, -1e9, -1e9, -1e9 };
    int lastIndex[5] = { -1, -1, -1, -1, -1 };
    for (auto it = lo; it != markers.end() && it->t <= m_view.end; ++it) {
        const auto kind = static_cast<size_t>(it->kind);
        const double x = timeToX(m_view, w, it->t);
        if (lastIndex[kind] >= 0 && x - lastX[kind] < 9) {
            ++m_cachedMarkers[static_cast<size_t>(lastIndex[kind])].count;
            continue;
        }
        lastX[kind] = x;
        lastIndex[kind] = static_cast<int>(m_cachedMarkers.size());
        m_cachedMarkers.push_back({ x, static_cast<uint32_t>(it - markers.begin()), 1 });
    }
}

const FoldedSpan* TimelineView::cachedSpan(const Hit& hit) const
{
    if (hit.kind != Hit::Kind::Span && hit.kind != Hit::Kind::Folded)
        return nullptr;
    for (const CachedRow& cr : m_cachedRows) {
        if (cr.row != hit.row)
            continue;
        for (const FoldedSpan& f : cr.spans) {
            if (f.item == hit.item)
                return &f;
        }
    }
    return nullptr;
}

const TimelineView::CachedMarker* TimelineView::cachedMarkerOf(const Hit& hit) const
{
    if (hit.kind != Hit::Kind::Marker)
        return nullptr;
    for (const CachedMarker& cm : m_cachedMarkers) {
        if (cm.marker == hit.item)
            return &cm;
    }
    return nullptr;
}

TimelineView::Hit TimelineView::hitAt(const QPoint& pos)
{
    ensureGeometry();
    const QRect marker = markerRect();
    if (marker.contains(pos) && pos.x() >= labelWidth()) {
        const double x = pos.x() - labelWidth();
        const CachedMarker* best = nullptr;
        double bestD = 7;
        for (const CachedMarker& cm : m_cachedMarkers) {
            const double d = std::fabs(cm.x - x);
            if (d < bestD) {
                bestD = d;
                best = &cm;
            }
        }
        return best ? Hit { Hit::Kind::Marker, -1, best->marker } : gapAt(pos);
    }
    const QRect lanes = lanesRect();
    if (axisRect().contains(pos))
        return gapAt(pos);
    if (!lanes.contains(pos))
        return {};
    const int ri = m_layout.rowAt(pos.y() - lanes.top() + m_vbar->value());
    if (pos.x() < labelWidth()) { // a rank's label: its mark, when findings single it out
        const Row* row = ri >= 0 ? &m_layout.rows()[static_cast<size_t>(ri)] : nullptr;
        if (row && row->kind == Row::Kind::Rank && m_rankMarks.count(row->file))
            return { Hit::Kind::RankMark, ri, row->file };
        return {};
    }
    if (ri >= 0) { // an open rank's header: its mark ("≠ straggler") is drawn there
        const Row& row = m_layout.rows()[static_cast<size_t>(ri)];
        if (row.kind == Row::Kind::Rank && !row.compactRank && m_rankMarks.count(row.file)
            && gapAt(pos).kind == Hit::Kind::None)
            return { Hit::Kind::RankMark, ri, row.file };
    }
    for (const CachedRow& cr : m_cachedRows) {
        if (ri < 0 || cr.row != ri)
            continue;
        const int h = hitTest(cr.spans, pos.x() - labelWidth(), 2.0);
        if (h < 0)
            break;
        const FoldedSpan& f = cr.spans[static_cast<size_t>(h)];
        return { f.folded() ? Hit::Kind::Folded : Hit::Kind::Span, ri, f.item };
    }
    return gapAt(pos); // an idle gap's band runs down every row
}

QRect TimelineView::hitRect(const Hit& hit) const
{
    if (hit.kind == Hit::Kind::None)
        return {};
    if (hit.kind == Hit::Kind::RankMark && hit.row >= 0) {
        const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
        return QRect(0, lanesRect().top() + row.y - m_vbar->value(), labelWidth(), row.height);
    }
    if (hit.kind == Hit::Kind::Gap) {
        for (const CachedFold& cf : m_cachedFolds) {
            if (cf.fold == hit.item)
                return QRect(QPoint(labelWidth() + static_cast<int>(std::floor(cf.x0)) - 1, 0),
                    QPoint(labelWidth() + static_cast<int>(std::ceil(cf.x1)) + 1,
                        lanesRect().bottom()));
        }
        return {};
    }
    if (hit.kind == Hit::Kind::Marker) {
        const CachedMarker* cm = cachedMarkerOf(hit);
        if (!cm)
            return {};
        const QRect r = markerRect();
        const int x = labelWidth() + static_cast<int>(std::lround(cm->x));
        return { x - 8, r.top(), 16, r.height() };
    }
    const FoldedSpan* f = cachedSpan(hit);
    if (!f || hit.row < 0 || static_cast<size_t>(hit.row) >= m_layout.rows().size())
        return {};
    const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
    const QRect lanes = lanesRect();
    const int y = lanes.top() + row.y - m_vbar->value();
    return QRect(QPoint(labelWidth() + static_cast<int>(std::floor(f->x0)), y),
        QPoint(labelWidth() + static_cast<int>(std::ceil(f->x1)) - 1, y + row.height - 1))
        .intersected(lanes);
}

uint32_t TimelineView::compileOf(const Hit& hit) const
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

uint32_t TimelineView::compileAt(const QPoint& pos)
{
    return compileOf(hitAt(pos));
}

std::optional<std::pair<uint32_t, int>> TimelineView::hoveredSpan() const
{
    if (m_hover.kind != Hit::Kind::Span || m_hover.row < 0
        || static_cast<size_t>(m_hover.row) >= m_layout.rows().size())
        return std::nullopt;
    const Row& row = m_layout.rows()[static_cast<size_t>(m_hover.row)];
    if (m_hover.item >= row.spans.size())
        return std::nullopt;
    const Span& s = row.spans[m_hover.item];
    return std::make_pair(s.compile, static_cast<int>(s.phase));
}

QRect TimelineView::compileRect(uint32_t compile)
{
    ensureGeometry();
    const int lane = m_layout.laneOf(compile);
    for (const CachedRow& cr : m_cachedRows) {
        if (cr.row != lane)
            continue;
        const Row& row = m_layout.rows()[static_cast<size_t>(lane)];
        for (const FoldedSpan& f : cr.spans) {
            if (!f.folded() && row.spans[f.item].compile == compile) {
                const int y = lanesRect().top() + row.y - m_vbar->value();
                return QRect(QPoint(labelWidth() + static_cast<int>(std::floor(f.x0)), y + 3),
                    QPoint(
                        labelWidth() + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - 4));
            }
        }
    }
    return {};
}

QRect TimelineView::markerGlyphRect(uint32_t compile, MarkerKind kind)
{
    ensureGeometry();
    const auto& markers = m_layout.markers();
    for (const CachedMarker& cm : m_cachedMarkers) {
        const Marker& m = markers[cm.marker];
        if (m.compile != compile || m.kind != kind)
            continue;
        const QRect r = markerRect();
        const int x = labelWidth() + static_cast<int>(std::lround(cm.x));
        return { x - kMarkerGlyphHalf, r.top(), 2 * kMarkerGlyphHalf, r.height() };
    }
    return {};
}

QString TimelineView::toolTipAt(const QPoint& pos)
{
    return plainToolTip(toolTipText(hitAt(pos)));
}

QString TimelineView::toolTipText(const Hit& hit)
{
    if (!m_trace || hit.kind == Hit::Kind::None)
        return {};
    if (hit.kind == Hit::Kind::Gap)
        return gapToolTip(hit.item);
    if (hit.kind == Hit::Kind::RankMark) {
        const auto it = m_rankMarks.find(hit.item);
        if (it == m_rankMarks.end() || hit.item >= m_trace->files.size())
            return {};
        return qs(m_trace->files[hit.item].label) + QStringLiteral(" stands out:\n• ")
            + it->second.titles.join(QStringLiteral("\n• "));
    }
    if (hit.kind == Hit::Kind::Marker) {
        const CachedMarker* cm = cachedMarkerOf(hit);
        if (hit.item >= m_layout.markers().size())
            return {};
        const Marker& m = m_layout.markers()[hit.item];
        const auto st = markerStyle(m.kind);
        QString s = st.glyph + QLatin1Char(' ') + st.word + QStringLiteral("  ")
            + qs(m_trace->compiles[m.compile].id.display());
        if (cm && cm->count > 1)
            s += QStringLiteral("  (+%1 more here; zoom in)").arg(cm->count - 1);
        if (!m.text.isEmpty())
            s += QLatin1Char('\n') + elideText(m.text, 140);
        return s;
    }
    if (hit.row < 0 || static_cast<size_t>(hit.row) >= m_layout.rows().size())
        return {};
    const Row& row = m_layout.rows()[static_cast<size_t>(hit.row)];
    if (hit.kind == Hit::Kind::Folded) {
        const FoldedSpan* f = cachedSpan(hit);
        return tr("%1 %2 too narrow to draw; zoom in (Ctrl+wheel, W) or click the block")
            .arg(f ? f->count : 2)
            .arg(row.kind == Row::Kind::Lane ? tr("compiles") : tr("phases"));
    }
    if (hit.item >= row.spans.size())
        return {};
    const Span& s = row.spans[hit.item];
    const Compile& c = m_trace->compiles[s.compile];
    if (s.phase >= 0) {
        const PhaseSpan& p = c.phases[static_cast<size_t>(s.phase)];
        QString t = qs(p.name()) + QStringLiteral("  ") + formatDuration(s.end - s.start)
            + QStringLiteral("  · ") + phaseGroupStyle(s.group).label + QStringLiteral("\n")
            + qs(c.id.display()) + QStringLiteral("  ") + compileFunction(c);
        if (p.openEnd)
            t += tr("\nno end event (cut log)");
        return t;
    }
    const auto st = compileStyle(c);
    QString t = qs(c.id.display()) + QStringLiteral("  ") + st.label() + QStringLiteral("  ")
        + formatDuration(c.durationUs()) + QLatin1Char('\n') + compileFunction(c)
        + QStringLiteral("  ") + fileLine(compileFile(c).toStdString(), compileLine(c));
    QString why;
    if (c.failure)
        why = QStringLiteral("✕ ") + qs(c.failure->type) + QStringLiteral(": ")
            + firstLine(c.failure->reason);
    else if (!c.recompileReasons.empty())
        why = QStringLiteral("↻ ") + firstLine(primaryReason(c)->text);
    else if (!c.graphBreaks.empty())
        why = QStringLiteral("⚡ ") + firstLine(c.graphBreaks.front().reason);
    if (!why.isEmpty())
        t += QLatin1Char('\n') + elideText(why, 140);
    return t;
}

} // namespace dynascope::ui
