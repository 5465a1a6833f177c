#include "ui/timeline/timelineaccessible.h"

#include "ui/models/format.h"
#include "ui/models/statusstyle.h"
#include "ui/timeline/timelineview.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QPointer>
#include <QWindow>

#include <map>
#include <vector>

namespace dynascope::ui {

using timeline::Row;

QString spanAccessibleName(const Compile& c)
{
    // compileStyle gives "↻ recompile" for a recompile that compiled; the status word follows so
    // a reader hears both ("↻ recompile ok", "↻ ✕ failed").
    const StatusStyle style = compileStyle(c);
    const StatusStyle status = statusStyle(c.status);
    QString name = qs(c.id.display()) + QLatin1Char(' ') + compileFunction(c) + QLatin1Char(' ')
        + style.label();
    if (!style.word.endsWith(status.word))
        name += QLatin1Char(' ') + status.word;
    return name;
}

QString spanAccessibleDescription(const Compile& c)
{
    const QString reason = shortReason(c);
    const QString took = QObject::tr("took %1").arg(formatDuration(c.durationUs()));
    return reason.isEmpty() ? took : took + QStringLiteral("; ") + reason;
}

namespace {

bool isLane(const Row& r)
{
    return (r.kind == Row::Kind::Lane || r.compactRank) && !r.spans.empty();
}

std::vector<int> laneRows(const TimelineView* view)
{
    std::vector<int> out;
    const auto& rows = view->layout().rows();
    for (size_t i = 0; i < rows.size(); ++i)
        if (isLane(rows[i]))
            out.push_back(static_cast<int>(i));
    return out;
}

QRect toGlobal(const QWidget* w, const QRect& r)
{
    return r.isEmpty() ? QRect() : QRect(w->mapToGlobal(r.topLeft()), r.size());
}

class TimelineAccessible;
TimelineAccessible* rootOf(TimelineView* view);

// A lane (span < 0) or one compile span of a lane (its index in the row's spans).
class TimelineItem : public QAccessibleInterface {
public:
    TimelineItem(TimelineView* view, int row, int span)
        : m_view(view)
        , m_generation(view->layoutGeneration())
        , m_row(row)
        , m_span(span)
    {
    }

    bool isValid() const override
    {
        return m_view && m_view->layoutGeneration() == m_generation
            && static_cast<size_t>(m_row) < m_view->layout().rows().size();
    }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return m_view ? m_view->window()->windowHandle() : nullptr; }
    QAccessibleInterface* focusChild() const override;
    QAccessibleInterface* childAt(int x, int y) const override;
    QAccessibleInterface* parent() const override;
    QAccessibleInterface* child(int index) const override;
    int childCount() const override
    {
        return m_span < 0 && isValid() ? static_cast<int>(row().spans.size()) : 0;
    }
    int indexOfChild(const QAccessibleInterface* child) const override
    {
        auto* item = dynamic_cast<const TimelineItem*>(child);
        return item && item->m_row == m_row && m_span < 0 ? item->m_span : -1;
    }
    QString text(QAccessible::Text t) const override;
    void setText(QAccessible::Text, const QString&) override { }
    QRect rect() const override;
    QAccessible::Role role() const override
    {
        return m_span < 0 ? QAccessible::List : QAccessible::ListItem;
    }
    QAccessible::State state() const override;

    uint32_t compile() const
    {
        return m_span < 0 || !isValid() ? kNone : row().spans[static_cast<size_t>(m_span)].compile;
    }

private:
    const Row& row() const { return m_view->layout().rows()[static_cast<size_t>(m_row)]; }

    QPointer<TimelineView> m_view;
    uint64_t m_generation;
    int m_row;
    int m_span;
};

class TimelineAccessible : public QAccessibleWidget {
public:
    explicit TimelineAccessible(TimelineView* view)
        : QAccessibleWidget(view, QAccessible::Client)
    {
    }
    ~TimelineAccessible() override { drop(); }

    TimelineView* view() const { return static_cast<TimelineView*>(widget()); }

    // The item of a layout row (span -1: the lane itself), made once per layout and registered
    // with QAccessible's cache so that ids stay stable while the layout does.
    QAccessibleInterface* item(int row, int span) const
    {
        if (m_generation != view()->layoutGeneration()) {
            drop();
            m_generation = view()->layoutGeneration();
        }
        const auto key = std::make_pair(row, span);
        if (auto it = m_ids.find(key); it != m_ids.end())
            return QAccessible::accessibleInterface(it->second);
        auto* iface = new TimelineItem(view(), row, span);
        m_ids[key] = QAccessible::registerAccessibleInterface(iface);
        return iface;
    }
    // The span item of a compile, null when no lane shows it.
    QAccessibleInterface* compileItem(uint32_t compile) const
    {
        const int row = compile == kNone ? -1 : view()->layout().laneOf(compile);
        if (row < 0)
            return nullptr;
        const auto& spans = view()->layout().rows()[static_cast<size_t>(row)].spans;
        for (size_t i = 0; i < spans.size(); ++i)
            if (spans[i].compile == compile)
                return item(row, static_cast<int>(i));
        return nullptr;
    }

    int childCount() const override { return static_cast<int>(laneRows(view()).size()); }
    QAccessibleInterface* child(int index) const override
    {
        const std::vector<int> lanes = laneRows(view());
        return index >= 0 && static_cast<size_t>(index) < lanes.size()
            ? item(lanes[static_cast<size_t>(index)], -1)
            : nullptr;
    }
    int indexOfChild(const QAccessibleInterface* child) const override
    {
        const std::vector<int> lanes = laneRows(view());
        for (size_t i = 0; i < lanes.size(); ++i)
            if (item(lanes[i], -1) == child)
                return static_cast<int>(i);
        return -1;
    }
    QAccessibleInterface* childAt(int x, int y) const override
    {
        for (int i = 0; i < childCount(); ++i) {
            QAccessibleInterface* lane = child(i);
            if (lane->rect().contains(x, y))
                return lane;
        }
        return nullptr;
    }
    QAccessibleInterface* focusChild() const override
    {
        return view()->hasFocus() ? compileItem(view()->currentCompile()) : nullptr;
    }

private:
    void drop() const
    {
        for (const auto& [key, id] : m_ids)
            QAccessible::deleteAccessibleInterface(id);
        m_ids.clear();
    }

    mutable std::map<std::pair<int, int>, QAccessible::Id> m_ids;
    mutable uint64_t m_generation = 0;
};

TimelineAccessible* rootOf(TimelineView* view)
{
    return dynamic_cast<TimelineAccessible*>(QAccessible::queryAccessibleInterface(view));
}

QAccessibleInterface* TimelineItem::focusChild() const
{
    if (m_span >= 0 || !isValid() || !m_view->hasFocus())
        return nullptr;
    QAccessibleInterface* focused = rootOf(m_view)->compileItem(m_view->currentCompile());
    return focused && focused->parent() == this ? focused : nullptr;
}

QAccessibleInterface* TimelineItem::childAt(int x, int y) const
{
    for (int i = 0; i < childCount(); ++i)
        if (QAccessibleInterface* c = child(i); c->rect().contains(x, y))
            return c;
    return nullptr;
}

QAccessibleInterface* TimelineItem::parent() const
{
    if (!m_view)
        return nullptr;
    return m_span < 0 ? rootOf(m_view) : rootOf(m_view)->item(m_row, -1);
}

QAccessibleInterface* TimelineItem::child(int index) const
{
    return index >= 0 && index < childCount() ? rootOf(m_view)->item(m_row, index) : nullptr;
}

QString TimelineItem::text(QAccessible::Text t) const
{
    if (!isValid() || !m_view->trace())
        return {};
    const Trace& trace = *m_view->trace();
    if (m_span >= 0) {
        const Compile& c = trace.compiles[compile()];
        if (t == QAccessible::Name)
            return spanAccessibleName(c);
        return t == QAccessible::Description ? spanAccessibleDescription(c) : QString();
    }
    const Row& r = row();
    if (t == QAccessible::Name)
        return r.label.simplified() + QStringLiteral(", ")
            + plural(r.spans.size(), QObject::tr("compile"), QObject::tr("compiles"));
    return t == QAccessible::Description ? r.tooltip : QString();
}

QRect TimelineItem::rect() const
{
    if (!isValid())
        return {};
    return toGlobal(m_view, m_span < 0 ? m_view->rowRect(m_row) : m_view->compileRect(compile()));
}

QAccessible::State TimelineItem::state() const
{
    QAccessible::State s;
    if (!isValid()) {
        s.invalid = true;
        return s;
    }
    if (rect().isEmpty()) {
        s.offscreen = true;
        s.invisible = true;
    }
    if (m_span >= 0) {
        s.selectable = true;
        s.focusable = true;
        const bool current = compile() == m_view->currentCompile();
        s.selected = current;
        s.focused = current && m_view->hasFocus();
    }
    return s;
}

QAccessibleInterface* timelineFactory(const QString&, QObject* object)
{
    if (auto* view = qobject_cast<TimelineView*>(object))
        return new TimelineAccessible(view);
    return nullptr;
}

} // namespace

void installTimelineAccessibility(TimelineView* view)
{
    static const bool installed = [] {
        QAccessible::installFactory(timelineFactory);
        return true;
    }();
    (void)installed;
    // With accessibility active, QWidget's constructor already asked for an interface, while the
    // object was still a plain QWidget: drop that one, so the next query gets the timeline's.
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(view);
    if (iface && !dynamic_cast<TimelineAccessible*>(iface))
        QAccessible::deleteAccessibleInterface(QAccessible::uniqueId(iface));
}

void announceCompile(TimelineView* view, uint32_t compile)
{
    // Not gated on QAccessible::isActive(): it is called per keyboard step only, and an update
    // handler (the tests') hears the events without a platform bridge.
    TimelineAccessible* root = rootOf(view);
    QAccessibleInterface* item = root ? root->compileItem(compile) : nullptr;
    if (!item)
        return;
    QAccessibleEvent focus(item, QAccessible::Focus);
    QAccessible::updateAccessibility(&focus);
    QAccessibleEvent selection(item, QAccessible::Selection);
    QAccessible::updateAccessibility(&selection);
}

} // namespace dynascope::ui
