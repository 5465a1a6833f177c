#include "ui/timeline/timelineview.h"

#include "ui/compileselection.h"
#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/plaintooltip.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

using namespace timeline;

namespace {
constexpr int kAxisHeight = 30;
constexpr int kMarkerHeight = 22;
constexpr int kLegendLine = 18;
constexpr double kMinSpanUs = 5.0;
// A gesture (wheel, drag, keys) that starts this long after the last one is a new history entry.
constexpr qint64 kGesturePauseMs = 800;
// A selected compile narrower than this is zoomed to when the selection comes from elsewhere.
constexpr double kFollowMinPx = 4.0;

QColor textOn(const QColor& c)
{
    const double lum = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
    return lum > 0.5 ? QColor(0x1a, 0x1a, 0x1a) : QColor(Qt::white);
}

QString elide(const QString& s, int max)
{
    return s.size() > max ? s.left(max - 1) + QStringLiteral("…") : s;
}
} // namespace

TimelineView::TimelineView(CompileSelection* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_vbar(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("timeline"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(m_vbar, &QScrollBar::valueChanged, this, [this] { invalidate(); });
    connect(m_selection, &CompileSelection::currentChanged, this, &TimelineView::followSelection);
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    m_hover = {};
    m_range.reset();
    m_hits.clear();
    if (m_trace) {
        m_layout.build(*m_trace, m_layoutOptions);
        m_tzOffset = m_trace->files.empty() ? 0 : m_trace->files.front().tzOffsetMinutes;
    } else {
        m_layout.clear();
    }
    m_vbar->setValue(0);
    fitAll();
    m_history.clear();
    m_gesture.invalidate();
    Q_EMIT historyChanged();
    Q_EMIT selectedRangeChanged();
}

void TimelineView::setLayoutOptions(const LayoutOptions& options)
{
    if (options == m_layoutOptions)
        return;
    m_layoutOptions = options;
    if (m_trace)
        m_layout.build(*m_trace, m_layoutOptions);
    updateScrollBar();
    invalidate();
}

void TimelineView::toggleLane(int row)
{
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const Row& r = m_layout.rows()[static_cast<size_t>(row)];
    if (r.kind != Row::Kind::Lane || r.phaseDepths == 0)
        return;
    LayoutOptions o = m_layoutOptions;
    const uint64_t key = TimelineLayout::laneKey(r);
    if (!o.toggled.erase(key))
        o.toggled.insert(key);
    setLayoutOptions(o);
}

QRect TimelineView::axisRect() const
{
    return { 0, 0, canvas().width(), kAxisHeight };
}
QRect TimelineView::markerRect() const
{
    return { 0, kAxisHeight, canvas().width() - m_vbar->width(), kMarkerHeight };
}
QRect TimelineView::legendRect() const
{
    const int h = legendHeight();
    return { 0, canvas().height() - h, canvas().width(), h };
}
QRect TimelineView::lanesRect() const
{
    const int top = kAxisHeight + kMarkerHeight;
    return { 0, top, canvas().width() - m_vbar->width(),
        std::max(0, canvas().height() - legendHeight() - top) };
}
double TimelineView::lanesWidth() const
{
    return std::max(1, lanesRect().width() - labelWidth());
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
    m_vbar->setSingleStep(TimelineLayout::kLaneHeight);
    m_vbar->setRange(0, std::max(0, m_layout.contentHeight() - visible));
}

void TimelineView::invalidate()
{
    m_cacheValid = false;
    update();
}

void TimelineView::setViewRange(const TimeRange& range)
{
    changeView(range, true);
}

void TimelineView::changeView(const TimeRange& range, bool newPlace)
{
    const TimeRange r = m_layout.hasTime() ? clampTo(range, m_layout.bounds()) : range;
    if (r == m_view)
        return;
    // A gesture's many small steps make one history entry: the range before the gesture began.
    if (newPlace || !m_gesture.isValid() || m_gesture.elapsed() > kGesturePauseMs)
        m_history.push(m_view);
    if (newPlace)
        m_gesture.invalidate();
    else
        m_gesture.restart();
    m_view = r;
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::goBack()
{
    if (!m_history.canBack())
        return;
    const TimeRange r = m_history.back(m_view);
    m_view = m_layout.hasTime() ? clampTo(r, m_layout.bounds()) : r;
    m_gesture.invalidate();
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::goForward()
{
    if (!m_history.canForward())
        return;
    const TimeRange r = m_history.forward(m_view);
    m_view = m_layout.hasTime() ? clampTo(r, m_layout.bounds()) : r;
    m_gesture.invalidate();
    invalidate();
    Q_EMIT viewRangeChanged();
    Q_EMIT historyChanged();
}

void TimelineView::setSelectedRange(std::optional<TimeRange> range)
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
    return summarizeRange(*m_trace, *m_range);
}

void TimelineView::zoomToSelectedRange()
{
    if (m_range && m_range->span() > 0)
        setViewRange(*m_range);
}

void TimelineView::setSearchHits(const std::vector<uint32_t>& compiles)
{
    m_hits = std::unordered_set<uint32_t>(compiles.begin(), compiles.end());
    update();
}

void TimelineView::fitAll()
{
    updateScrollBar();
    setViewRange(m_layout.hasTime() ? m_layout.bounds() : TimeRange {});
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
    setViewRange({ comp.startUs - pad, comp.endUs + pad });
    ensureRowVisible(m_layout.laneOf(c));
}

void TimelineView::zoomBy(double factor)
{
    if (!m_layout.hasTime())
        return;
    double anchor = m_view.centre();
    const QPoint mouse = mapFromGlobal(QCursor::pos());
    const QRect lanes = lanesRect().adjusted(labelWidth(), -kMarkerHeight - kAxisHeight, 0, 0);
    if (underMouse() && lanes.contains(mouse))
        anchor = xToTime(m_view, lanesWidth(), mouse.x() - labelWidth());
    changeView(zoomAt(m_view, anchor, factor, m_layout.bounds(), kMinSpanUs), false);
}

void TimelineView::panByFraction(double fraction)
{
    if (m_layout.hasTime())
        changeView(panBy(m_view, m_view.span() * fraction, m_layout.bounds()), false);
}

void TimelineView::ensureRowVisible(int row)
{
    if (row < 0 || row >= static_cast<int>(m_layout.rows().size()))
        return;
    const Row& r = m_layout.rows()[static_cast<size_t>(row)];
    const int visible = lanesRect().height();
    if (r.y < m_vbar->value())
        m_vbar->setValue(std::max(0, r.y - TimelineLayout::kRankHeight));
    else if (r.y + r.height * 3 > m_vbar->value() + visible)
        m_vbar->setValue(r.y + r.height * 3 - visible);
}

void TimelineView::followSelection(uint32_t compile)
{
    revealCompile(compile);
}

void TimelineView::revealCompile(uint32_t compile)
{
    if (m_trace && compile < m_trace->compiles.size() && m_layout.laneOf(compile) >= 0) {
        const Compile& c = m_trace->compiles[compile];
        // Keep the user's zoom while the compile is visible and wide enough to see; otherwise
        // centre it, zooming in (never out, unless it does not fit) to an eighth of the width, so
        // its neighbours stay in view.
        const double px = c.durationUs() / std::max(m_view.span(), 1e-9) * lanesWidth();
        const bool visible = c.endUs >= m_view.start && c.startUs <= m_view.end;
        const bool narrow = px < kFollowMinPx && !m_clickSelecting;
        if (!visible || narrow) {
            double span = m_view.span();
            if (narrow)
                span = std::min(span, std::max(c.durationUs() * 8, kMinSpanUs * 20));
            span = std::max(span, c.durationUs() * 1.2);
            const double mid = (c.startUs + c.endUs) / 2;
            setViewRange({ mid - span / 2, mid + span / 2 });
        }
        ensureRowVisible(m_layout.laneOf(compile));
    }
    update();
}

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
    if (!m_layout.hasTime())
        return;
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

TimelineView::Hit TimelineView::hitAt(const QPoint& pos)
{
    ensureGeometry();
    const QRect marker = markerRect();
    if (marker.contains(pos) && pos.x() >= labelWidth()) {
        const double x = pos.x() - labelWidth();
        int best = -1;
        double bestD = 7;
        for (size_t i = 0; i < m_cachedMarkers.size(); ++i) {
            const double d = std::fabs(m_cachedMarkers[i].x - x);
            if (d < bestD) {
                bestD = d;
                best = static_cast<int>(i);
            }
        }
        return best >= 0 ? Hit { Hit::Kind::Marker, -1, best } : Hit {};
    }
    const QRect lanes = lanesRect();
    if (!lanes.contains(pos) || pos.x() < labelWidth())
        return {};
    const int ri = m_layout.rowAt(pos.y() - lanes.top() + m_vbar->value());
    if (ri < 0)
        return {};
    for (size_t i = 0; i < m_cachedRows.size(); ++i) {
        if (m_cachedRows[i].row != ri)
            continue;
        const int h = hitTest(m_cachedRows[i].spans, pos.x() - labelWidth(), 2.0);
        if (h < 0)
            return {};
        const bool folded = m_cachedRows[i].spans[static_cast<size_t>(h)].folded();
        return { folded ? Hit::Kind::Folded : Hit::Kind::Span, static_cast<int>(i), h };
    }
    return {};
}

QRect TimelineView::hitRect(const Hit& hit) const
{
    if (hit.kind == Hit::Kind::Marker) {
        if (hit.index < 0 || static_cast<size_t>(hit.index) >= m_cachedMarkers.size())
            return rect();
        const QRect r = markerRect();
        const int x = labelWidth()
            + static_cast<int>(std::lround(m_cachedMarkers[static_cast<size_t>(hit.index)].x));
        return { x - 8, r.top(), 16, r.height() };
    }
    if (hit.kind == Hit::Kind::None)
        return {};
    if (hit.row < 0 || static_cast<size_t>(hit.row) >= m_cachedRows.size())
        return rect(); // geometry changed since: repaint everything
    const CachedRow& cr = m_cachedRows[static_cast<size_t>(hit.row)];
    if (hit.index < 0 || static_cast<size_t>(hit.index) >= cr.spans.size())
        return rect();
    const Row& row = m_layout.rows()[static_cast<size_t>(cr.row)];
    const timeline::FoldedSpan& f = cr.spans[static_cast<size_t>(hit.index)];
    const QRect lanes = lanesRect();
    const int y = lanes.top() + row.y - m_vbar->value();
    return QRect(QPoint(labelWidth() + static_cast<int>(std::floor(f.x0)), y),
        QPoint(labelWidth() + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - 1))
        .intersected(lanes);
}

uint32_t TimelineView::compileOf(const Hit& hit) const
{
    if (hit.kind == Hit::Kind::Marker)
        return m_layout.markers()[m_cachedMarkers[static_cast<size_t>(hit.index)].marker].compile;
    if (hit.kind == Hit::Kind::Span) {
        const CachedRow& cr = m_cachedRows[static_cast<size_t>(hit.row)];
        const Row& row = m_layout.rows()[static_cast<size_t>(cr.row)];
        return row.spans[cr.spans[static_cast<size_t>(hit.index)].item].compile;
    }
    return kNone;
}

uint32_t TimelineView::compileAt(const QPoint& pos)
{
    return compileOf(hitAt(pos));
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

QString TimelineView::toolTipAt(const QPoint& pos)
{
    return plainToolTip(toolTipText(hitAt(pos)));
}

QString TimelineView::toolTipText(const Hit& hit)
{
    if (!m_trace || hit.kind == Hit::Kind::None)
        return {};
    if (hit.kind == Hit::Kind::Marker) {
        const CachedMarker& cm = m_cachedMarkers[static_cast<size_t>(hit.index)];
        const Marker& m = m_layout.markers()[cm.marker];
        const auto st = markerStyle(m.kind);
        QString s = st.glyph + QLatin1Char(' ') + st.word + QStringLiteral("  ")
            + qs(m_trace->compiles[m.compile].id.display());
        if (cm.count > 1)
            s += QStringLiteral("  (+%1 more here; zoom in)").arg(cm.count - 1);
        if (!m.text.isEmpty())
            s += QLatin1Char('\n') + elide(m.text, 140);
        return s;
    }
    const CachedRow& cr = m_cachedRows[static_cast<size_t>(hit.row)];
    const Row& row = m_layout.rows()[static_cast<size_t>(cr.row)];
    const FoldedSpan& f = cr.spans[static_cast<size_t>(hit.index)];
    if (f.folded())
        return tr("%1 %2 too narrow to draw; zoom in (Ctrl+wheel, W) or double-click")
            .arg(f.count)
            .arg(row.kind == Row::Kind::Lane ? tr("compiles") : tr("phases"));
    const Span& s = row.spans[f.item];
    const Compile& c = m_trace->compiles[s.compile];
    if (s.phase >= 0) {
        const PhaseSpan& p = c.phases[static_cast<size_t>(s.phase)];
        QString t = qs(p.name) + QStringLiteral("  ") + formatDuration(s.end - s.start)
            + QStringLiteral("\n") + qs(c.id.display()) + QStringLiteral("  ") + compileFunction(c);
        if (p.openEnd)
            t += tr("\nno end event (cut log)");
        return t;
    }
    const auto st = statusStyle(c.status);
    QString t = qs(c.id.display()) + QStringLiteral("  ") + st.label() + QStringLiteral("  ")
        + formatDuration(c.durationUs()) + QLatin1Char('\n') + compileFunction(c)
        + QStringLiteral("  ") + fileLine(compileFile(c).toStdString(), compileLine(c));
    QString why;
    if (c.failure)
        why = QStringLiteral("✕ ") + qs(c.failure->type) + QStringLiteral(": ")
            + firstLine(c.failure->reason);
    else if (!c.recompileReasons.empty())
        why = QStringLiteral("↻ ") + firstLine(c.recompileReasons.front().text);
    else if (!c.graphBreaks.empty())
        why = QStringLiteral("⚡ ") + firstLine(c.graphBreaks.front().reason);
    if (!why.isEmpty())
        t += QLatin1Char('\n') + elide(why, 140);
    return t;
}

// ---- painting -----------------------------------------------------------------------------

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
    m_exposed = QRect(QPoint(0, 0), size);
    p.save();
    p.setClipRect(QRect(QPoint(0, 0), size));
    paintAll(p);
    p.restore();
    m_canvas = QSize();
    m_cacheValid = false;
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
    }
    if (m_exposed.intersects(axisRect()))
        paintAxis(p);
    if (m_exposed.intersects(markerRect()))
        paintMarkers(p);
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
        if (c.endUs < m_view.start || c.startUs > m_view.end)
            continue;
        const Row& row = m_layout.rows()[static_cast<size_t>(lane)];
        const int y = lanes.top() + row.y - m_vbar->value();
        const int xa = static_cast<int>(std::floor(xOfTime(c.startUs)));
        const int xb = std::max(xa + 5, static_cast<int>(std::ceil(xOfTime(c.endUs))));
        // Bars above and below the span: visible on every status colour, even when folded.
        p.fillRect(QRect(xa - 1, y, xb - xa + 2, 3), mark);
        p.fillRect(QRect(xa - 1, y + row.height - 3, xb - xa + 2, 3), mark);
    }
    p.restore();
}

void TimelineView::paintRangeOverlay(QPainter& p)
{
    if (!m_range)
        return;
    const QPalette& pal = palette();
    const double w = lanesWidth();
    const int x0 = labelWidth();
    const int top = kAxisHeight;
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

    // The box: duration, then what the range holds.
    const QStringList lines = rangeSummaryLines(rangeSummary(), m_tzOffset);
    QFont f = font();
    f.setPointSizeF(font().pointSizeF() * 0.9);
    p.setFont(f);
    const QFontMetrics fm(f);
    int tw = 0;
    for (const QString& l : lines)
        tw = std::max(tw, fm.horizontalAdvance(l));
    const int lh = fm.height();
    QRect box(0, top + kMarkerHeight + 6, tw + 16, lh * static_cast<int>(lines.size()) + 10);
    int bx = xb + 8;
    if (bx + box.width() > x0 + static_cast<int>(w))
        bx = std::max(x0 + 4, xa - 8 - box.width());
    box.moveLeft(bx);
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
        p.drawText(QRect(box.left() + 8, box.top() + 5 + i * lh, tw + 4, lh),
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
    const double step = tickStep(m_view.span(), w, 115);
    const auto ticks = tickPositions(m_view, step);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    p.setFont(small);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    bool first = true;
    double firstTick = 0;
    for (double t : ticks) {
        const int x = labelWidth() + static_cast<int>(std::lround(timeToX(m_view, w, t)));
        p.setPen(grid);
        p.drawLine(x, r.bottom() - 6, x, r.bottom());
        QString label;
        if (step >= 1000 || first) {
            label = formatWallClock(t, m_tzOffset, step < 1e6 || first);
            firstTick = first ? t : firstTick;
        } else {
            label = formatOffset(t - firstTick, step);
        }
        first = false;
        p.setPen(text);
        p.drawText(
            QRect(x + 3, r.top(), 200, r.height() - 4), Qt::AlignLeft | Qt::AlignBottom, label);
    }
    // Corner: what the axis shows.
    p.fillRect(QRect(0, 0, labelWidth(), r.height()), pal.color(QPalette::Window));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRect(8, 0, labelWidth() - 12, r.height() - 4), Qt::AlignLeft | Qt::AlignBottom,
        tr("wall clock · view %1").arg(formatDuration(m_view.span())));
    p.setPen(grid);
    p.drawLine(labelWidth() - 1, 0, labelWidth() - 1, canvas().height());
}

void TimelineView::paintMarkers(QPainter& p)
{
    const QRect r = markerRect();
    const QPalette& pal = palette();
    p.fillRect(r, pal.color(QPalette::AlternateBase));
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
    const bool darkBase = pal.color(QPalette::Base).lightness() < 128;
    for (size_t i = 0; i < m_cachedMarkers.size(); ++i) {
        const CachedMarker& cm = m_cachedMarkers[i];
        const Marker& m = m_layout.markers()[cm.marker];
        const auto st = markerStyle(m.kind);
        const int x = labelWidth() + static_cast<int>(std::lround(cm.x));
        const bool hover
            = m_hover.kind == Hit::Kind::Marker && m_hover.index == static_cast<int>(i);
        if (m.compile == selected || hover) {
            // Translucent, so it reads on light and dark bases alike.
            QColor mark = pal.color(QPalette::Highlight);
            mark.setAlpha(m.compile == selected ? 110 : 60);
            p.fillRect(QRect(x - 7, r.top() + 2, 14, r.height() - 4), mark);
        }
        QColor glyph = m.kind == MarkerKind::CacheMiss ? st.color.darker(140) : st.color;
        if (darkBase) // docs/ux.md: the same hues, lighter tints on a dark base
            glyph = st.color.lighter(150);
        p.setPen(glyph);
        p.drawText(QRect(x - 8, r.top(), 16, r.height()), Qt::AlignCenter, st.glyph);
    }
    p.setClipping(false);
}

void TimelineView::paintRows(QPainter& p)
{
    const QRect lanes = lanesRect();
    const QPalette& pal = palette();
    const auto& rows = m_layout.rows();
    const int top = m_vbar->value();
    const double w = lanesWidth();
    const int x0 = labelWidth();
    const uint32_t selected = m_selection->current();
    const QFontMetrics fm(font());
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.78);
    const QFontMetrics fmSmall(small);
    p.save();
    p.setClipRect(lanes);
    p.setRenderHint(QPainter::Antialiasing, false);

    // Row backgrounds and labels.
    const int firstRow = std::max(0, m_layout.rowAt(top));
    bool band = false;
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
        if (row.kind == Row::Kind::Rank) {
            p.fillRect(rr, pal.color(QPalette::Window));
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(rr.topLeft(), rr.topRight());
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(rr.adjusted(8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                row.label + QStringLiteral("  ·  ")
                    + plural(
                        static_cast<uint64_t>(row.compileCount), tr("compile"), tr("compiles")));
            continue;
        }
        if (band)
            p.fillRect(rr, pal.color(QPalette::AlternateBase));
        if (row.kind == Row::Kind::Lane) {
            p.setFont(font());
            const QString badge = QString::number(row.compileCount);
            const int bw = fmSmall.horizontalAdvance(badge) + 10;
            const QRect badgeRect(x0 - bw - 8, y + 5, bw, row.height - 10);
            p.setPen(pal.color(QPalette::Text));
            if (row.phaseDepths > 0) {
                // Clicking the label flips the lane's phase rows.
                p.setPen(pal.color(QPalette::PlaceholderText));
                p.drawText(QRect(2, y, 14, row.height), Qt::AlignCenter,
                    row.expanded ? QStringLiteral("▾") : QStringLiteral("▸"));
                p.setPen(pal.color(QPalette::Text));
            }
            p.drawText(QRect(16, y, badgeRect.left() - 20, row.height),
                Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(row.label, Qt::ElideMiddle, badgeRect.left() - 20));
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
            p.drawText(
                QRect(28, y, x0 - 36, row.height), Qt::AlignLeft | Qt::AlignVCenter, row.label);
        }
    }

    // Spans.
    p.setClipRect(QRect(x0, lanes.top(), static_cast<int>(w) + 1, lanes.height()));
    for (size_t ci = 0; ci < m_cachedRows.size(); ++ci) {
        const CachedRow& cr = m_cachedRows[ci];
        const Row& row = rows[static_cast<size_t>(cr.row)];
        const int y = lanes.top() + row.y - top;
        const bool lane = row.kind == Row::Kind::Lane;
        const int inset = lane ? 3 : 1;
        for (size_t si = 0; si < cr.spans.size(); ++si) {
            const FoldedSpan& f = cr.spans[si];
            const QRect sr(QPoint(x0 + static_cast<int>(std::floor(f.x0)), y + inset),
                QPoint(x0 + static_cast<int>(std::ceil(f.x1)) - 1, y + row.height - inset - 1));
            if (!sr.intersects(m_exposed))
                continue;
            const bool hover
                = (m_hover.kind == Hit::Kind::Span || m_hover.kind == Hit::Kind::Folded)
                && m_hover.row == static_cast<int>(ci) && m_hover.index == static_cast<int>(si);
            if (f.folded()) {
                p.fillRect(sr, hover ? pal.color(QPalette::Dark) : pal.color(QPalette::Mid));
                const QString n = QString::number(f.count);
                if (sr.width() > fmSmall.horizontalAdvance(n) + 4) {
                    p.setFont(small);
                    p.setPen(textOn(pal.color(QPalette::Mid)));
                    p.drawText(sr, Qt::AlignCenter, n);
                }
                continue;
            }
            const Span& s = row.spans[f.item];
            const Compile& c = m_trace->compiles[s.compile];
            QColor fill;
            QString label;
            if (s.phase < 0) {
                fill = statusStyle(c.status).color;
                label = qs(c.id.display());
            } else {
                const PhaseSpan& ph = c.phases[static_cast<size_t>(s.phase)];
                fill = phaseColor(ph.name);
                label = qs(ph.name);
            }
            if (hover)
                fill = fill.lighter(115);
            const bool isSelected = s.compile == selected;
            p.fillRect(sr, fill);
            if (isSelected && !lane)
                p.fillRect(QRect(sr.left(), sr.bottom(), sr.width(), 1), pal.color(QPalette::Text));
            const QFont& f2 = lane ? font() : small;
            const QFontMetrics& m2 = lane ? fm : fmSmall;
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
        const double a = std::max(-4.0, timeToX(m_view, w, c.startUs));
        const double b = std::min(w + 4, timeToX(m_view, w, c.endUs));
        if (b >= 0 && a <= w) {
            const int xa = x0 + static_cast<int>(std::floor(a));
            const int xb = std::max(xa + 3, x0 + static_cast<int>(std::ceil(b)));
            p.setPen(QPen(pal.color(QPalette::Text), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(QPoint(xa, y + 2), QPoint(xb, y + row.height - 3)));
        }
    }
    p.restore();
}

std::vector<TimelineView::LegendItem> TimelineView::legendItems() const
{
    std::vector<LegendItem> items;
    bool group = false;
    for (auto st : { CompileStatus::Ok, CompileStatus::GraphBreak, CompileStatus::Empty,
             CompileStatus::Error, CompileStatus::Missing }) {
        const auto style = statusStyle(st);
        items.push_back({ style.color, style.glyph, style.word, true, group, {} });
    }
    group = true;
    for (auto k : { MarkerKind::Recompile, MarkerKind::GraphBreak, MarkerKind::Failure,
             MarkerKind::CacheHit, MarkerKind::CacheMiss }) {
        const auto st = markerStyle(k);
        items.push_back({ k == MarkerKind::CacheMiss ? st.color.darker(140) : st.color, st.glyph,
            st.word, false, group, {} });
        group = false;
    }
    items.push_back({ phaseColor("dynamo"), {}, tr("Dynamo"), true, true, {} });
    items.push_back(
        { phaseColor("create_aot_dispatcher_function"), {}, tr("AOTAutograd"), true, false, {} });
    items.push_back({ phaseColor("backend_compile"), {}, tr("backend"), true, false, {} });
    items.push_back({ phaseColor("inductor_compile"), {}, tr("Inductor"), true, false, {} });
    return items;
}

int TimelineView::layoutLegend(std::vector<LegendItem>& items, int width) const
{
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    const QFontMetrics fm(small);
    // Groups (statuses, markers, phases) stay together on a line when they fit; a narrow window
    // wraps the legend onto more lines instead of cutting it off.
    int x = 8, line = 0;
    const int right = width - 4;
    for (size_t i = 0; i < items.size(); ++i) {
        LegendItem& it = items[i];
        auto need = [&](const LegendItem& e) {
            return (e.swatch ? 14 : 0) + (e.glyph.isEmpty() ? 0 : fm.horizontalAdvance(e.glyph) + 3)
                + fm.horizontalAdvance(e.word) + 12;
        };
        if (it.groupStart && x > 8) {
            int groupWidth = 10;
            for (size_t j = i; j < items.size() && (j == i || !items[j].groupStart); ++j)
                groupWidth += need(items[j]);
            if (x + groupWidth > right && groupWidth <= right - 8) {
                x = 8;
                ++line;
            } else {
                x += 10;
            }
        }
        if (x + need(it) > right && x > 8) {
            x = 8;
            ++line;
        }
        it.at = QPoint(x, line * kLegendLine);
        x += need(it);
    }
    return (line + 1) * kLegendLine + 4;
}

int TimelineView::legendHeight() const
{
    // Asked for by every rect function: cached per (width, font size).
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
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    p.setFont(small);
    const QFontMetrics fm(small);
    auto items = legendItems();
    layoutLegend(items, r.width());
    for (const LegendItem& it : items) {
        int x = it.at.x();
        const int top = r.top() + 2 + it.at.y();
        const int base = top + (kLegendLine + fm.ascent() - fm.descent()) / 2;
        if (it.swatch) {
            p.fillRect(QRect(x, top + (kLegendLine - 10) / 2, 10, 10), it.color);
            x += 14;
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

// ---- interaction --------------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const double steps = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        const double anchor = xToTime(m_view, lanesWidth(), event->position().x() - labelWidth());
        changeView(
            zoomAt(m_view, anchor, std::pow(0.8, steps), m_layout.bounds(), kMinSpanUs), false);
    } else if ((event->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        panByFraction(-steps * 0.1);
    } else {
        m_vbar->setValue(
            m_vbar->value() - static_cast<int>(steps * TimelineLayout::kLaneHeight * 2));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::BackButton || event->button() == Qt::ForwardButton) {
        if (event->button() == Qt::BackButton)
            goBack();
        else
            goForward();
        event->accept();
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)
        && m_layout.hasTime() && pos.x() >= labelWidth() && pos.y() >= kAxisHeight
        && pos.y() < lanesRect().bottom()) {
        m_rangeDragging = true;
        m_rangeAnchor = xToTime(m_view, lanesWidth(), pos.x() - labelWidth());
        setSelectedRange(TimeRange { m_rangeAnchor, m_rangeAnchor });
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton) {
        m_pressed = true;
        m_dragging = false;
        m_pressPos = m_lastDragPos = event->position().toPoint();
    }
    QWidget::mousePressEvent(event);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_rangeDragging) {
        const double t = std::clamp(
            xToTime(m_view, lanesWidth(), pos.x() - labelWidth()), m_view.start, m_view.end);
        setSelectedRange(TimeRange { std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor) });
        return;
    }
    if (m_pressed) {
        if (!m_dragging && (pos - m_pressPos).manhattanLength() > 3)
            m_dragging = true;
        if (m_dragging) {
            const QPoint d = pos - m_lastDragPos;
            m_lastDragPos = pos;
            setCursor(Qt::ClosedHandCursor);
            if (m_layout.hasTime())
                changeView(
                    panBy(m_view, -d.x() / lanesWidth() * m_view.span(), m_layout.bounds()), false);
            m_vbar->setValue(m_vbar->value() - d.y());
            return;
        }
    }
    const Hit hit = hitAt(pos);
    if (!(hit == m_hover)) {
        // Only the item that loses the hover and the one that gets it change.
        const QRect dirty = hitRect(m_hover).united(hitRect(hit));
        m_hover = hit;
        update(dirty.adjusted(-2, -2, 2, 2));
    }
    // Tooltips appear at once (docs/ux.md), not after the platform delay.
    const QString tip = plainToolTip(toolTipText(hit)); // the hit test above, not a second one
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_rangeDragging) {
        m_rangeDragging = false;
        // A Shift+click without a drag (under 3 px) selects nothing.
        if (m_range && m_range->span() / m_view.span() * lanesWidth() < 3)
            setSelectedRange(std::nullopt);
        return;
    }
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (pos.x() < labelWidth() && lanesRect().contains(pos)) {
        toggleLane(m_layout.rowAt(pos.y() - lanesRect().top() + m_vbar->value()));
        return;
    }
    if (m_range && pos.x() >= labelWidth()) {
        const double t = xToTime(m_view, lanesWidth(), pos.x() - labelWidth());
        if (t < m_range->start || t > m_range->end)
            setSelectedRange(std::nullopt); // a click outside the range drops it
    }
    const Hit hit = hitAt(pos);
    if (hit.kind == Hit::Kind::Folded) {
        // Zoom into the folded block so its items separate.
        const auto& f
            = m_cachedRows[static_cast<size_t>(hit.row)].spans[static_cast<size_t>(hit.index)];
        const double w = lanesWidth();
        const double a = xToTime(m_view, w, f.x0 - 20), b = xToTime(m_view, w, f.x1 + 20);
        setViewRange({ a, std::max(b, a + kMinSpanUs) });
        return;
    }
    const uint32_t c = compileOf(hit);
    if (c != kNone) {
        m_clickSelecting = true; // what the user clicked is on screen: keep their zoom
        m_selection->setCurrent(c);
        m_clickSelecting = false;
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const Hit hit = hitAt(event->position().toPoint());
    if (hit.kind != Hit::Kind::Span)
        return;
    const CachedRow& cr = m_cachedRows[static_cast<size_t>(hit.row)];
    const Span& s = m_layout.rows()[static_cast<size_t>(cr.row)]
                        .spans[cr.spans[static_cast<size_t>(hit.index)].item];
    const double pad = std::max((s.end - s.start) * 0.1, kMinSpanUs);
    setViewRange({ s.start - pad, s.end + pad });
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (event->modifiers() & Qt::AltModifier) {
        // The window's Back/Forward actions normally take these; a bare view handles them too.
        if (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right) {
            if (event->key() == Qt::Key_Left)
                goBack();
            else
                goForward();
            event->accept();
            return;
        }
    }
    switch (event->key()) {
    case Qt::Key_Escape:
        if (!m_range) {
            QWidget::keyPressEvent(event);
            return;
        }
        setSelectedRange(std::nullopt);
        break;
    case Qt::Key_Z:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (!m_range) {
            QWidget::keyPressEvent(event);
            return;
        }
        zoomToSelectedRange();
        break;
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.8);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoomBy(1.25);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        panByFraction(-0.1);
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        panByFraction(0.1);
        break;
    case Qt::Key_Up:
        m_vbar->setValue(m_vbar->value() - TimelineLayout::kLaneHeight);
        break;
    case Qt::Key_Down:
        m_vbar->setValue(m_vbar->value() + TimelineLayout::kLaneHeight);
        break;
    case Qt::Key_F:
        fitSelection();
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        fitAll();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent*)
{
    if (m_hover.kind != Hit::Kind::None) {
        m_hover = {};
        update();
    }
}

} // namespace dynascope::ui
