// TimelineView's folded idle gaps (timefolding.h): the stretches of the axis between folds, the
// marked breaks across the axis, markers and lanes ("⋯ 11 d idle ⋯"), their tooltips, and
// unfolding them (Alt+click one, View > Fold Idle Gaps for all).
#include "ui/timeline/timelineview.h"

#include "ui/models/format.h"
#include "ui/timeline/timelineconstants.h"

#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

using namespace timeline;

void TimelineView::setFoldGaps(bool fold)
{
    LayoutOptions o = m_layoutOptions;
    o.foldGaps = fold;
    o.unfoldedGaps.clear(); // folding again folds every gap
    setLayoutOptions(o);
}

void TimelineView::setAlignRanks(bool align)
{
    LayoutOptions o = m_layoutOptions;
    o.alignRanks = align;
    setLayoutOptions(o);
}

void TimelineView::unfoldGap(uint32_t fold)
{
    const auto& folds = m_layout.folding().folds();
    if (fold >= folds.size())
        return;
    LayoutOptions o = m_layoutOptions;
    o.unfoldedGaps.insert(folds[fold].gap.key());
    m_hover = {};
    setLayoutOptions(o);
}

std::vector<TimeRange> TimelineView::axisSegments() const
{
    // The view cut at each fold: inside a segment one display µs is one trace µs.
    std::vector<TimeRange> out;
    double from = m_view.start;
    for (const auto& f : m_layout.folding().folds()) {
        if (f.at + f.width < m_view.start)
            continue;
        if (f.at > m_view.end)
            break;
        if (f.at > from)
            out.push_back({ from, f.at });
        from = f.at + f.width;
    }
    if (from < m_view.end)
        out.push_back({ from, m_view.end });
    return out;
}

void TimelineView::cacheFolds()
{
    m_cachedFolds.clear();
    const auto& folds = m_layout.folding().folds();
    const double w = lanesWidth();
    for (size_t i = 0; i < folds.size(); ++i) {
        const auto& f = folds[i];
        if (f.at + f.width < m_view.start || f.at > m_view.end)
            continue;
        double x0 = timeToX(m_view, w, f.at), x1 = timeToX(m_view, w, f.at + f.width);
        if (x1 - x0 < kMinFoldPx) {
            const double mid = (x0 + x1) / 2;
            x0 = mid - kMinFoldPx / 2;
            x1 = mid + kMinFoldPx / 2;
        }
        m_cachedFolds.push_back({ x0, x1, static_cast<uint32_t>(i) });
    }
}

TimelineView::Hit TimelineView::gapAt(const QPoint& pos) const
{
    if (pos.x() < labelWidth() || pos.y() > lanesRect().bottom())
        return {};
    const double x = pos.x() - labelWidth();
    for (const CachedFold& cf : m_cachedFolds) {
        if (x >= cf.x0 - 1 && x <= cf.x1 + 1)
            return { Hit::Kind::Gap, -1, cf.fold };
    }
    return {};
}

QString TimelineView::gapToolTip(uint32_t fold) const
{
    const auto& folds = m_layout.folding().folds();
    if (fold >= folds.size())
        return {};
    const IdleGap& g = folds[fold].gap;
    const QString from = m_layout.aligned()
        ? QStringLiteral("+") + formatDuration(g.start - m_layout.alignOrigin())
        : formatDateTime(g.start, m_tzOffset);
    const QString to = m_layout.aligned()
        ? QStringLiteral("+") + formatDuration(g.end - m_layout.alignOrigin())
        : formatDateTime(g.end, m_tzOffset);
    return tr("%1 without compiles, folded (%2 – %3)\n"
              "Alt+click to unfold it; View > Fold Idle Gaps shows all time to scale")
        .arg(formatLongDuration(g.span()), from, to);
}

void TimelineView::paintFolds(QPainter& p)
{
    if (m_cachedFolds.empty())
        return;
    const QPalette& pal = palette();
    const int x0 = labelWidth();
    const QRect lanes = lanesRect();
    const int top = axisHeight();
    p.save();
    p.setClipRect(QRect(x0, top, static_cast<int>(lanesWidth()) + 1, lanes.bottom() - top + 1));
    QColor line = pal.color(QPalette::Mid);
    for (const CachedFold& cf : m_cachedFolds) {
        const bool hot = m_hover.kind == Hit::Kind::Gap && m_hover.item == cf.fold;
        const QRect band(QPoint(x0 + static_cast<int>(std::floor(cf.x0)), top),
            QPoint(x0 + static_cast<int>(std::ceil(cf.x1)) - 1, lanes.bottom()));
        p.fillRect(band, pal.color(QPalette::Window));
        p.fillRect(band, QBrush(hot ? pal.color(QPalette::Highlight) : line, Qt::BDiagPattern));
        p.setPen(QPen(line, 1, Qt::DashLine));
        p.drawLine(band.topLeft(), band.bottomLeft());
        p.drawLine(band.topRight(), band.bottomRight());
    }
    p.restore();
}

void TimelineView::paintFoldLabels(QPainter& p)
{
    // On the axis: a break mark, and the gap's length when it fits.
    const QPalette& pal = palette();
    const QRect axis = axisRect();
    const int x0 = labelWidth();
    const QFont small = smallFont();
    const QFontMetrics fm(small);
    p.save();
    p.setClipRect(QRect(x0, axis.top(), static_cast<int>(lanesWidth()) + 1, axis.height()));
    p.setFont(small);
    for (const CachedFold& cf : m_cachedFolds) {
        const QRect band(QPoint(x0 + static_cast<int>(std::floor(cf.x0)), axis.top()),
            QPoint(x0 + static_cast<int>(std::ceil(cf.x1)) - 1, axis.bottom()));
        p.fillRect(band, pal.color(QPalette::Window));
        p.fillRect(band, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        const auto& g = m_layout.folding().folds()[cf.fold].gap;
        const QString full = tr("%1 idle").arg(formatLongDuration(g.span()));
        QString text = full;
        const int room = std::max(band.width(), 0) + 24; // may cover a little of the neighbours
        if (fm.horizontalAdvance(text) > room)
            text = formatLongDuration(g.span());
        if (fm.horizontalAdvance(text) > room)
            text = QStringLiteral("⋯");
        const int tw = fm.horizontalAdvance(text) + 6;
        // Centred on the break, but whole: a break near an edge keeps its label inside the lanes.
        const int right = x0 + static_cast<int>(lanesWidth());
        const int left = std::clamp(band.center().x() - tw / 2, x0, std::max(x0, right - tw));
        const QRect label(left, axis.bottom() - fm.height() - 4, tw, fm.height() + 2);
        p.fillRect(label, pal.color(QPalette::Window));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(label, Qt::AlignCenter, text);
    }
    p.restore();
}

} // namespace dynascope::ui
