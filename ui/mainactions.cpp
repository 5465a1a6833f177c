#include "ui/mainactions.h"

#include "ui/recentfiles.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace dynascope::ui {

MainActions::MainActions(QMainWindow* window, RecentFiles* recent)
    : QObject(window)
    , m_window(window)
    , m_recent(recent)
{
    QMenu* file = window->menuBar()->addMenu(tr("&File"));
    open = file->addAction(tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    openFolder = file->addAction(tr("Open &Folder…"));
    openFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openExample = file->addAction(tr("Open the &Example Trace"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    reload = file->addAction(tr("&Reload"));
    reload->setShortcut(QKeySequence(Qt::Key_F5));
    reload->setEnabled(false);
    cancelLoad = file->addAction(tr("&Cancel Loading"));
    cancelLoad->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelLoad->setEnabled(false);
    file->addSeparator();
    quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = window->menuBar()->addMenu(tr("&Edit"));
    focusFilter = edit->addAction(tr("&Filter Compiles"));
    focusFilter->setShortcut(QKeySequence::Find);

    m_view = window->menuBar()->addMenu(tr("&View"));
    // The timeline's own keys (W/S/A/D, +/-, F, 0) work when it has focus; these menu entries
    // make them discoverable and work from anywhere.
    zoomIn = m_view->addAction(tr("Zoom &In"));
    zoomIn->setShortcuts({ QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal) });
    zoomOut = m_view->addAction(tr("Zoom &Out"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    fitAll = m_view->addAction(tr("Fit &All  (0)"));
    fitAll->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    fitSelection = m_view->addAction(tr("Fit &Selection  (F)"));
    fitSelection->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F));
    m_view->addSeparator();
    m_go = window->menuBar()->addMenu(tr("&Go"));
    auto goPair
        = [this](const QString& next, const QString& prev, Qt::Key key, QAction*& n, QAction*& p) {
              n = m_go->addAction(next);
              n->setShortcut(QKeySequence(key));
              p = m_go->addAction(prev);
              p->setShortcut(QKeySequence(Qt::SHIFT | key));
          };
    goPair(
        tr("Next &Recompile"), tr("Previous Recompile"), Qt::Key_F6, nextRecompile, prevRecompile);
    m_go->addSeparator();
    goPair(tr("Next &Graph Break"), tr("Previous Graph Break"), Qt::Key_F7, nextGraphBreak,
        prevGraphBreak);
    m_go->addSeparator();
    goPair(tr("Next &Failure"), tr("Previous Failure"), Qt::Key_F8, nextFailure, prevFailure);

    QMenu* help = window->menuBar()->addMenu(tr("&Help"));
    about = help->addAction(tr("&About Dynascope"));
    about->setMenuRole(QAction::AboutRole);

    connect(m_recent, &RecentFiles::changed, this, &MainActions::rebuildRecentMenu);
    rebuildRecentMenu();
}

void MainActions::addDockToggle(QDockWidget* dock)
{
    m_view->addAction(dock->toggleViewAction());
}

void MainActions::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent->paths();
    int n = 0;
    for (const QString& p : paths) {
        // The number is the mnemonic; '&' in a path must not become one.
        QString label = QDir::toNativeSeparators(p);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1  %2").arg(++n % 10).arg(label));
        connect(a, &QAction::triggered, this, [this, p] { Q_EMIT openRecentRequested(p); });
    }
    if (!paths.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the List"), m_recent, &RecentFiles::clear);
    }
    m_recentMenu->setEnabled(!paths.isEmpty());
}

} // namespace dynascope::ui
