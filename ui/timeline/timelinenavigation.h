// TimelineNavigation: the main window's navigation around the timeline. The toolbar (open, back /
// forward through zoom history, the search bar), the View actions for phase rows and ranges, and
// Go > next/previous compile of the same frame. It follows the session (TraceSession), so the
// window only creates it.
#pragma once

#include "core/model/trace.h"

#include <QObject>

#include <memory>

class QMainWindow;
class QToolBar;

namespace dynascope::ui {

class CompileSelection;
class MainActions;
class SearchBar;
class TimelineView;
class TraceSession;

class TimelineNavigation : public QObject {
    Q_OBJECT
public:
    // Its toolbar goes into `window`, its messages into the window's status bar.
    TimelineNavigation(
        TraceSession* session, QMainWindow* window, MainActions* actions, TimelineView* timeline);

    SearchBar* searchBar() const { return m_search; }
    QToolBar* toolBar() const { return m_toolBar; }
    // Selects the next (direction 1) or previous (-1) compile of the selected compile's frame;
    // false when there is none (the selection stays).
    bool stepSameFrame(int direction);

private:
    void onTraceChanged(const std::shared_ptr<const Trace>& trace);
    void updateActions();

    QMainWindow* m_window;
    MainActions* m_actions;
    TimelineView* m_timeline;
    CompileSelection* m_selection;
    SearchBar* m_search = nullptr;
    QToolBar* m_toolBar = nullptr;
    std::shared_ptr<const Trace> m_trace;
};

} // namespace dynascope::ui
