// TimelineView's input: wheel (zoom, pan, scroll), mouse (click to select, drag to pan,
// Shift+drag for a range, double-click to zoom to a span, back/forward buttons), keys and the
// hover with its tooltip.
#include "ui/timeline/timelineview.h"

#include "ui/compileselection.h"
#include "ui/plaintooltip.h"
#include "ui/timeline/timelineconstants.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

using namespace timeline;

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    const double steps = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
    if (event->modifiers() & Qt::ControlModifier) {
        const double x = event->position().x() - areas().labelWidth;
        viewMoved(m_viewport.zoomAroundX(x, std::pow(0.8, steps)));
    } else if ((event->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        panByFraction(-steps * 0.1);
    } else {
        m_vbar->setValue(
            m_vbar->value() - static_cast<int>(steps * m_layoutOptions.laneHeight * 2));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::BackButton || event->button() == Qt::ForwardButton) {
        event->button() == Qt::BackButton ? goBack() : goForward();
        event->accept();
        return;
    }
    const QPoint pos = event->position().toPoint();
    const TimelineAreas a = areas();
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)
        && m_layout.hasTime() && pos.x() >= a.labelWidth && pos.y() >= a.axis.height()
        && pos.y() < a.lanes.bottom()) {
        m_rangeDragging = true;
        m_rangeAnchor = m_viewport.timeAt(pos.x() - a.labelWidth);
        selectDisplayRange(TimeRange { m_rangeAnchor, m_rangeAnchor });
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
        const TimeRange view = m_viewport.view();
        const double t
            = std::clamp(viewport().timeAt(pos.x() - areas().labelWidth), view.start, view.end);
        selectDisplayRange(TimeRange { std::min(t, m_rangeAnchor), std::max(t, m_rangeAnchor) });
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
                viewMoved(viewport().panPixels(d.x()));
            m_vbar->setValue(m_vbar->value() - d.y());
            return;
        }
    }
    const Hit hit = hitAt(pos);
    if (!(hit == m_hover)) {
        // Only the item that loses the hover and the one that gets it change.
        const QRect dirty = m_scene.rectOf(m_hover).united(m_scene.rectOf(hit));
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
    const auto& range = m_passes.range.range();
    if (event->button() == Qt::LeftButton && m_rangeDragging) {
        m_rangeDragging = false;
        // A Shift+click without a drag (under 3 px) selects nothing.
        const TimelineViewport& vp = viewport();
        if (range && range->span() / vp.view().span() * vp.width() < 3)
            selectDisplayRange(std::nullopt);
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
    const TimelineAreas a = areas();
    if (pos.x() < a.labelWidth && a.lanes.contains(pos)) {
        toggleLane(m_layout.rowAt(pos.y() - a.lanes.top() + m_vbar->value()));
        return;
    }
    if (range && pos.x() >= a.labelWidth) {
        const double t = m_viewport.timeAt(pos.x() - a.labelWidth);
        if (t < range->start || t > range->end)
            selectDisplayRange(std::nullopt); // a click outside the range drops it
    }
    const Hit hit = hitAt(pos);
    if (hit.kind == Hit::Kind::Gap) {
        if (event->modifiers() & Qt::AltModifier)
            relayoutRows(unfoldedGap(m_layoutOptions, m_layout, hit.item)); // to scale
        return;
    }
    if (hit.kind == Hit::Kind::Folded) {
        // Zoom into the folded block so its items separate.
        if (const FoldedSpan* f = m_scene.span(hit))
            viewMoved(viewport().zoomToPixels(f->x0 - 20, f->x1 + 20));
        return;
    }
    const uint32_t c = m_scene.compileOf(hit);
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
    const Span& s = m_layout.rows()[static_cast<size_t>(hit.row)].spans[hit.item];
    viewMoved(viewport().fitSpan(s.start, s.end, s.end - s.start));
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    // The window's Back/Forward actions normally take Alt+Left/Right; a bare view handles them.
    if ((event->modifiers() & Qt::AltModifier)
        && (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right)) {
        event->key() == Qt::Key_Left ? goBack() : goForward();
        event->accept();
        return;
    }
    // Ctrl+arrows walk the compiles: along the lane, or to the lane above or below.
    if (event->modifiers() & Qt::ControlModifier) {
        const int key = event->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up
            || key == Qt::Key_Down) {
            stepCompile(key == Qt::Key_Left ? -1
                    : key == Qt::Key_Right  ? 1
                                            : 0,
                key == Qt::Key_Up         ? -1
                    : key == Qt::Key_Down ? 1
                                          : 0);
            event->accept();
            return;
        }
    }
    const bool range = m_passes.range.range().has_value();
    switch (event->key()) {
    case Qt::Key_Escape:
    case Qt::Key_Z:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (!range) {
            QWidget::keyPressEvent(event);
            return;
        }
        if (event->key() == Qt::Key_Escape)
            selectDisplayRange(std::nullopt);
        else
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
    case Qt::Key_Down:
        m_vbar->setValue(
            m_vbar->value() + (event->key() == Qt::Key_Up ? -1 : 1) * m_layoutOptions.laneHeight);
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

void TimelineView::stepCompile(int along, int across)
{
    const auto& rows = m_layout.rows();
    const auto isLane = [](const Row& r) {
        return (r.kind == Row::Kind::Lane || r.compactRank) && !r.spans.empty();
    };
    const uint32_t current = m_selection->current();
    const int row = current == kNone ? -1 : m_layout.laneOf(current);
    if (row < 0) {
        const auto first = std::find_if(rows.begin(), rows.end(), isLane);
        if (first != rows.end())
            m_selection->setCurrent(first->spans.front().compile);
        return;
    }
    const auto& spans = rows[static_cast<size_t>(row)].spans;
    const auto at = std::find_if(
        spans.begin(), spans.end(), [current](const Span& s) { return s.compile == current; });
    if (at == spans.end())
        return;
    if (along != 0) {
        const auto i = (at - spans.begin()) + along;
        if (i >= 0 && static_cast<size_t>(i) < spans.size())
            m_selection->setCurrent(spans[static_cast<size_t>(i)].compile);
        return;
    }
    for (int r = row + across; r >= 0 && static_cast<size_t>(r) < rows.size(); r += across) {
        if (!isLane(rows[static_cast<size_t>(r)]))
            continue;
        // The compile on that lane nearest in time to this one's start.
        const auto& other = rows[static_cast<size_t>(r)].spans;
        const auto nearest = std::min_element(
            other.begin(), other.end(), [t = at->start](const Span& a, const Span& b) {
                return std::abs(a.start - t) < std::abs(b.start - t);
            });
        m_selection->setCurrent(nearest->compile);
        return;
    }
}

void TimelineView::leaveEvent(QEvent*)
{
    if (m_hover.kind != Hit::Kind::None) {
        m_hover = {};
        update();
    }
}

} // namespace dynascope::ui
