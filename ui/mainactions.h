// MainActions: the main window's actions and menus (File, Edit, View, Go, Help), with their
// shortcuts and the recent-files submenu, and the keyboard reference (F1) built from those very
// actions. MainWindow and the navigation/export wiring connect them; nothing here knows about
// traces.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace dynascope::ui {

class RecentFiles;

// One line of the keyboard reference: menu path, action text, shortcuts.
struct ShortcutEntry {
    QString menu; // "View", "File › Open Recent"
    QString action; // without mnemonics
    QString keys; // "Ctrl+E", "Alt+Left, Back"; empty when none
};

class MainActions : public QObject {
    Q_OBJECT
public:
    MainActions(QMainWindow* window, RecentFiles* recent);

    void addDockToggle(QDockWidget* dock);
    QMenu* viewMenu() const { return m_view; }
    QMenu* goMenu() const { return m_go; }
    // File > Runs: the runs of the open folder (filled by RunsBar), disabled when there is one.
    QMenu* runsMenu() const { return m_runsMenu; }

    QAction* open = nullptr;
    QAction* openFolder = nullptr;
    QAction* openExample = nullptr;
    QAction* openProbe = nullptr;
    QAction* compareWith = nullptr; // File > Compare With…: a second trace against the open one
    QAction* recordRun = nullptr;
    QAction* stopRun = nullptr;
    QAction* followFolder = nullptr; // File > Follow Folder…: a folder a running job writes into
    QAction* stopFollowing = nullptr;
    QAction* pasteLog
        = nullptr; // File > Paste Log: TORCH_LOGS text (or a trace) from the clipboard
    QAction* reload = nullptr;
    QAction* cancelLoad = nullptr;
    QAction* quit = nullptr;
    QAction* focusFilter = nullptr;
    QAction* about = nullptr;
    QAction* zoomIn = nullptr;
    QAction* zoomOut = nullptr;
    QAction* fitAll = nullptr;
    QAction* fitSelection = nullptr;
    QAction *nextRecompile = nullptr, *prevRecompile = nullptr;
    QAction *nextGraphBreak = nullptr, *prevGraphBreak = nullptr;
    QAction *nextFailure = nullptr, *prevFailure = nullptr;
    QAction *nextSameFrame = nullptr, *prevSameFrame = nullptr;
    QAction* back = nullptr; // zoom history
    QAction* forward = nullptr;
    QAction* find = nullptr;
    QAction *findNext = nullptr, *findPrevious = nullptr;
    QAction* compactTimeline = nullptr; // checkable: compiles only
    QAction* allPhaseDepths = nullptr; // checkable: every phase depth row, not only the first 3
    QAction* foldIdleGaps = nullptr; // checkable (on): long idle gaps folded on the time axis
    QAction* alignRanks = nullptr; // checkable: each rank's time from its own start
    QAction* zoomToRange = nullptr;
    QAction* exportImage = nullptr;
    QAction* copyImage = nullptr;
    QAction* copyBugReport = nullptr;
    QAction* shortcuts = nullptr;
    // Go: keyboard focus to a view (Ctrl+1 to Ctrl+4), so every view is reached without the mouse.
    QAction* focusTimeline = nullptr;
    QAction* focusCompiles = nullptr;
    QAction* focusFindings = nullptr;
    QAction* focusWhy = nullptr;

    // Every action in the window's menus, in menu order, plus the timeline's own keys.
    static QList<ShortcutEntry> shortcutEntries(QMainWindow* window);
    void showShortcuts();

Q_SIGNALS:
    void openRecentRequested(const QString& path);

private:
    QMenu* m_runsMenu = nullptr;
    void rebuildRecentMenu();

    QMainWindow* m_window;
    RecentFiles* m_recent;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_view = nullptr;
    QMenu* m_go = nullptr;
};

} // namespace dynascope::ui
