#include "ui/timeline/timelinenavigation.h"

#include "ui/compileselection.h"
#include "ui/mainactions.h"
#include "ui/search/searchbar.h"
#include "ui/timeline/timelineview.h"
#include "ui/tracesession.h"

#include <QAction>
#include <QLineEdit>
#include <QMainWindow>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

namespace dynascope::ui {

TimelineNavigation::TimelineNavigation(
    TraceSession* session, QMainWindow* window, MainActions* actions, TimelineView* timeline)
    : QObject(window)
    , m_window(window)
    , m_actions(actions)
    , m_timeline(timeline)
    , m_selection(session->selection())
{
    CompileSelection* selection = m_selection;
    m_toolBar = window->addToolBar(tr("Navigation"));
    m_toolBar->setObjectName(QStringLiteral("navigationToolBar"));
    m_toolBar->setMovable(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolBar->addAction(actions->open);
    m_toolBar->addAction(actions->openFolder);
    m_toolBar->addSeparator();
    m_toolBar->addAction(actions->back);
    m_toolBar->addAction(actions->forward);
    m_toolBar->addSeparator();
    m_search = new SearchBar(selection, timeline, m_toolBar);
    m_toolBar->addWidget(m_search);

    connect(actions->back, &QAction::triggered, timeline, &TimelineView::goBack);
    connect(actions->forward, &QAction::triggered, timeline, &TimelineView::goForward);
    connect(timeline, &TimelineView::historyChanged, this, &TimelineNavigation::updateActions);
    connect(
        timeline, &TimelineView::selectedRangeChanged, this, &TimelineNavigation::updateActions);
    connect(
        actions->zoomToRange, &QAction::triggered, timeline, &TimelineView::zoomToSelectedRange);
    connect(actions->find, &QAction::triggered, m_search, &SearchBar::focusSearch);
    connect(actions->findNext, &QAction::triggered, m_search, &SearchBar::next);
    connect(actions->findPrevious, &QAction::triggered, m_search, &SearchBar::previous);
    connect(actions->nextSameFrame, &QAction::triggered, this, [this] { stepSameFrame(1); });
    connect(actions->prevSameFrame, &QAction::triggered, this, [this] { stepSameFrame(-1); });
    auto applyLayout = [this] {
        timeline::LayoutOptions o = m_timeline->layoutOptions();
        o.compact = m_actions->compactTimeline->isChecked();
        o.maxPhaseRows = m_actions->allPhaseDepths->isChecked() ? 64 : 3;
        o.toggled.clear(); // the global switch wins over per-lane choices
        m_timeline->setLayoutOptions(o);
    };
    connect(actions->compactTimeline, &QAction::toggled, this, applyLayout);
    connect(actions->allPhaseDepths, &QAction::toggled, this, applyLayout);
    connect(actions->foldIdleGaps, &QAction::toggled, timeline, &TimelineView::setFoldGaps);
    connect(actions->alignRanks, &QAction::toggled, timeline, &TimelineView::setAlignRanks);
    connect(session, &TraceSession::traceChanged, this,
        [this](const std::shared_ptr<const Trace>& trace) { onTraceChanged(trace); });
    connect(selection, &CompileSelection::currentChanged, this, &TimelineNavigation::updateActions);
    updateActions();
}

void TimelineNavigation::onTraceChanged(const std::shared_ptr<const Trace>& trace)
{
    m_trace = trace;
    m_search->setTrace(m_trace);
    updateActions();
}

void TimelineNavigation::updateActions()
{
    m_actions->back->setEnabled(m_timeline->canGoBack());
    m_actions->forward->setEnabled(m_timeline->canGoForward());
    m_actions->zoomToRange->setEnabled(m_timeline->selectedRange().has_value());
    const bool sel = m_trace && m_selection->current() < m_trace->compiles.size();
    m_actions->nextSameFrame->setEnabled(sel);
    m_actions->prevSameFrame->setEnabled(sel);
}

bool TimelineNavigation::stepSameFrame(int direction)
{
    const uint32_t cur = m_selection->current();
    if (!m_trace || cur >= m_trace->compiles.size())
        return false;
    const Compile& c = m_trace->compiles[cur];
    if (c.frame >= m_trace->frames.size()) {
        m_window->statusBar()->showMessage(tr("This compile has no frame id"), 3000);
        return false;
    }
    const std::vector<uint32_t>& list = m_trace->frames[c.frame].compiles;
    const auto it = std::find(list.begin(), list.end(), cur);
    if (it == list.end())
        return false;
    const std::ptrdiff_t pos = (it - list.begin()) + direction;
    if (pos < 0 || pos >= static_cast<std::ptrdiff_t>(list.size())) {
        m_window->statusBar()->showMessage(direction > 0
                ? tr("The last compile of this frame (%1 in all)").arg(list.size())
                : tr("The first compile of this frame (%1 in all)").arg(list.size()),
            3000);
        return false;
    }
    const uint32_t target = list[static_cast<size_t>(pos)];
    m_selection->setCurrent(target);
    m_timeline->revealCompile(target);
    return true;
}

} // namespace dynascope::ui
