#include "ui/mainactions.h"

#include "ui/recentfiles.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

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
    pasteLog = file->addAction(tr("&Paste Log"));
    pasteLog->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    pasteLog->setToolTip(tr("Open the TORCH_LOGS text (or TORCH_TRACE) on the clipboard"));
    openExample = file->addAction(tr("Open the &Example Trace"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    openProbe = file->addAction(tr("Open &Probe Results…"));
    openProbe->setToolTip(tr("A folder written by dynascope-cli probe: the evidence table and "
                             "the ladder's verdict, and each configuration's trace"));
    compareWith = file->addAction(tr("&Compare With…"));
    compareWith->setToolTip(tr("Another trace of the program (B) against the open one (A): what "
                               "changed, frame by frame"));
    compareWith->setEnabled(false);
    m_runsMenu = file->addMenu(tr("R&uns"));
    m_runsMenu->setToolTip(tr("A folder that holds several runs of a program: which to show"));
    m_runsMenu->setEnabled(false);
    file->addSeparator();
    recordRun = file->addAction(tr("Record a R&un…"));
    recordRun->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    recordRun->setToolTip(tr("Run a program with TORCH_TRACE set and open its trace"));
    stopRun = file->addAction(tr("S&top the Run"));
    stopRun->setToolTip(tr("Send SIGINT to the recorded program (as Ctrl+C); again to kill it"));
    stopRun->setEnabled(false);
    followFolder = file->addAction(tr("Fo&llow Folder…"));
    followFolder->setObjectName(QStringLiteral("followFolder"));
    followFolder->setToolTip(tr("Show the trace a running job writes into a folder, live: "
                                "compiles appear as they are logged, rank files as they appear"));
    stopFollowing = file->addAction(tr("Stop Follo&wing"));
    stopFollowing->setObjectName(QStringLiteral("stopFollowing"));
    stopFollowing->setEnabled(false);
    file->addSeparator();
    exportImage = file->addAction(tr("&Export Image…"));
    exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportImage->setToolTip(tr("Save the timeline or the whole window as PNG (1x, 2x) or SVG"));
    exportImage->setEnabled(false);
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
    find = edit->addAction(tr("&Search…"));
    find->setShortcut(QKeySequence::Find);
    findNext = edit->addAction(tr("Search &Next"));
    findNext->setShortcut(QKeySequence(Qt::Key_F3));
    findPrevious = edit->addAction(tr("Search &Previous"));
    findPrevious->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    focusFilter = edit->addAction(tr("&Filter Compiles"));
    focusFilter->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    edit->addSeparator();
    copyImage = edit->addAction(tr("Copy &Image"));
    copyImage->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C));
    copyImage->setEnabled(false);
    copyBugReport = edit->addAction(tr("Copy as &Bug Report"));
    copyBugReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    copyBugReport->setToolTip(tr("The selected compile's why-chain as Markdown, for an issue"));
    copyBugReport->setEnabled(false);

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
    zoomToRange = m_view->addAction(tr("Zoom to Selected &Range  (Z)"));
    zoomToRange->setEnabled(false);
    m_view->addSeparator();
    back = m_view->addAction(tr("&Back"));
    back->setIconText(QStringLiteral("◀"));
    back->setToolTip(tr("Back to the previous zoom (Alt+Left, mouse back button)"));
    back->setShortcuts({ QKeySequence(Qt::ALT | Qt::Key_Left), QKeySequence(Qt::Key_Back) });
    back->setEnabled(false);
    forward = m_view->addAction(tr("For&ward"));
    forward->setIconText(QStringLiteral("▶"));
    forward->setToolTip(tr("Forward to the next zoom (Alt+Right, mouse forward button)"));
    forward->setShortcuts({ QKeySequence(Qt::ALT | Qt::Key_Right), QKeySequence(Qt::Key_Forward) });
    forward->setEnabled(false);
    m_view->addSeparator();
    compactTimeline = m_view->addAction(tr("&Compact Timeline (Compiles Only)"));
    compactTimeline->setCheckable(true);
    compactTimeline->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compactTimeline->setToolTip(
        tr("Hide the phase rows of every lane; click a lane's label to show one lane's phases"));
    allPhaseDepths = m_view->addAction(tr("Show All Phase &Depths"));
    allPhaseDepths->setCheckable(true);
    allPhaseDepths->setToolTip(tr("Show every nested phase row, not only the first three"));
    foldIdleGaps = m_view->addAction(tr("&Fold Idle Gaps"));
    foldIdleGaps->setObjectName(QStringLiteral("foldIdleGaps"));
    foldIdleGaps->setCheckable(true);
    foldIdleGaps->setChecked(true);
    foldIdleGaps->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    foldIdleGaps->setToolTip(tr("Fold stretches without compiles that are much longer than the "
                                "compiles around them (Alt+click a fold to unfold one)"));
    alignRanks = m_view->addAction(tr("&Align Ranks on Their Start"));
    alignRanks->setObjectName(QStringLiteral("alignRanks"));
    alignRanks->setCheckable(true);
    alignRanks->setToolTip(
        tr("Count each rank's time from its first record instead of by the wall clock"));
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
    m_go->addSeparator();
    goPair(tr("Next Compile of the &Same Frame"), tr("Previous Compile of the Same Frame"),
        Qt::Key_F9, nextSameFrame, prevSameFrame);
    m_go->addSeparator();
    auto focusAction = [this](const QString& text, Qt::Key key) {
        QAction* a = m_go->addAction(text);
        a->setShortcut(QKeySequence(Qt::CTRL | key));
        return a;
    };
    focusTimeline = focusAction(tr("&Timeline"), Qt::Key_1);
    focusCompiles = focusAction(tr("&Compiles"), Qt::Key_2);
    focusFindings = focusAction(tr("F&indings"), Qt::Key_3);
    focusWhy = focusAction(tr("&Why Tab"), Qt::Key_4);

    QMenu* help = window->menuBar()->addMenu(tr("&Help"));
    shortcuts = help->addAction(tr("&Keyboard Shortcuts"));
    shortcuts->setShortcut(QKeySequence(Qt::Key_F1));
    connect(shortcuts, &QAction::triggered, this, &MainActions::showShortcuts);
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

namespace {
QString plainText(QString text)
{
    // "&Open…" -> "Open…", "&&" -> "&"; the "  (F)" hint in a few labels stays.
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

void collect(QMenu* menu, const QString& path, QList<ShortcutEntry>& out)
{
    for (QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            // Submenus of data (recent files) carry no shortcuts worth listing.
            if (!a->menu()->actions().isEmpty()
                && !a->menu()->actions().front()->shortcut().isEmpty())
                collect(a->menu(), path + QStringLiteral(" › ") + plainText(a->text()), out);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        out.push_back({ path, plainText(a->text()), keys.join(QStringLiteral(", ")) });
    }
}
} // namespace

QList<ShortcutEntry> MainActions::shortcutEntries(QMainWindow* window)
{
    QList<ShortcutEntry> out;
    for (QAction* a : window->menuBar()->actions()) {
        if (a->menu())
            collect(a->menu(), plainText(a->text()), out);
    }
    // The timeline's own keys work while it has focus; they are not menu actions.
    const QString tl = tr("Timeline (when focused)");
    const std::pair<const char*, const char*> keys[] = {
        { QT_TR_NOOP("Zoom in / out at the cursor"), "W / S, + / -, Ctrl+wheel" },
        { QT_TR_NOOP("Pan"), "A / D, Left / Right, drag, Shift+wheel" },
        { QT_TR_NOOP("Scroll lanes"), "Up / Down, wheel" },
        { QT_TR_NOOP("Select the next / previous compile of the lane"), "Ctrl+Right / Ctrl+Left" },
        { QT_TR_NOOP("Select the nearest compile of the lane above / below"),
            "Ctrl+Up / Ctrl+Down" },
        { QT_TR_NOOP("Fit selection / fit all"), "F / 0" },
        { QT_TR_NOOP("Zoom to a span"), "double-click" },
        { QT_TR_NOOP("Select a time range"), "Shift+drag" },
        { QT_TR_NOOP("Zoom to the selected range / drop it"), "Z or Enter / Esc" },
        { QT_TR_NOOP("Show or hide a lane's phase rows"), "click the lane's label" },
        { QT_TR_NOOP("Back / forward in zoom history"), "mouse back / forward buttons" },
    };
    for (const auto& [what, k] : keys)
        out.push_back({ tl, tr(what), QString::fromUtf8(k) });
    out.push_back(
        { tr("Search bar"), tr("Next / previous hit"), QStringLiteral("Enter / Shift+Enter") });
    return out;
}

void MainActions::showShortcuts()
{
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(&dialog);
    // A flat list: a bold heading row per menu (spanning both columns), then its actions. Flat,
    // so nothing depends on rows being expanded.
    auto* model = new QStandardItemModel(&dialog);
    model->setHorizontalHeaderLabels({ tr("Action"), tr("Keys") });
    QString groupName;
    QList<int> headings;
    bool first = true;
    for (const ShortcutEntry& e : shortcutEntries(m_window)) {
        if (first || e.menu != groupName) {
            first = false;
            groupName = e.menu;
            auto* heading = new QStandardItem(groupName);
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            heading->setEditable(false);
            headings << model->rowCount();
            model->appendRow(heading);
        }
        auto* action = new QStandardItem(QStringLiteral("    ") + e.action);
        auto* keys = new QStandardItem(e.keys);
        action->setEditable(false);
        keys->setEditable(false);
        model->appendRow({ action, keys });
    }
    auto* view = new QTreeView(&dialog);
    view->setObjectName(QStringLiteral("shortcutsView"));
    view->setModel(model);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row : headings)
        view->setFirstColumnSpanned(row, QModelIndex(), true);
    view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    view->header()->setStretchLastSection(true);
    layout->addWidget(view);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    const QFontMetrics fm(dialog.font());
    dialog.resize(fm.averageCharWidth() * 90, fm.height() * 44);
    dialog.exec();
}

} // namespace dynascope::ui
