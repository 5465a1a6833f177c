// MainActions: the main window's actions and menus (File, View, Help), with their shortcuts and
// the recent-files submenu. MainWindow connects them; nothing here knows about traces.
#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace dynascope::ui {

class RecentFiles;

class MainActions : public QObject {
    Q_OBJECT
public:
    MainActions(QMainWindow* window, RecentFiles* recent);

    void addDockToggle(QDockWidget* dock);
    QMenu* viewMenu() const { return m_view; }
    QMenu* goMenu() const { return m_go; }

    QAction* open = nullptr;
    QAction* openFolder = nullptr;
    QAction* openExample = nullptr;
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

Q_SIGNALS:
    void openRecentRequested(const QString& path);

private:
    void rebuildRecentMenu();

    QMainWindow* m_window;
    RecentFiles* m_recent;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_view = nullptr;
    QMenu* m_go = nullptr;
};

} // namespace dynascope::ui
