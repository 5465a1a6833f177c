#include "ui/mainwindow.h"

#include "ui/compare/comparecontroller.h"
#include "ui/compilebrowser.h"
#include "ui/compileselection.h"
#include "ui/diagnosticsdock.h"
#include "ui/examplepaths.h"
#include "ui/export/exportcontroller.h"
#include "ui/findingsdock.h"
#include "ui/inspector/whyview.h"
#include "ui/inspectorview.h"
#include "ui/mainactions.h"
#include "ui/models/findingsmodel.h"
#include "ui/models/format.h"
#include "ui/models/probetablemodel.h"
#include "ui/probe/probedock.h"
#include "ui/recentfiles.h"
#include "ui/record/recordingui.h"
#include "ui/runs/runsbar.h"
#include "ui/stacktrie/stacktriedock.h"
#include "ui/startpage.h"
#include "ui/timeline/timelinenavigation.h"
#include "ui/timeline/timelineview.h"
#include "ui/tracesession.h"

#include "core/run/probe_session.h"

#include <QAction>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

static void initDynascopeResources()
{
    Q_INIT_RESOURCE(dynascope);
}

namespace dynascope::ui {

MainWindow::MainWindow(QWidget* parent)
    : MainWindow(Options {}, parent)
{
}

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_session(new TraceSession(this))
    , m_recent(new RecentFiles(options.persistSettings, this))
{
    CompileSelection* selection = m_session->selection();
    initDynascopeResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/dynascope.svg")));
    setAcceptDrops(true);

    m_startPage = new StartPage(this);
    m_startPage->setExampleAvailable(!exampleTracePath().isEmpty());
    m_startPage->setRecentFiles(m_recent->paths());

    m_inspector = new InspectorView(selection, this); // follows the selection itself
    m_centre = new QSplitter(Qt::Vertical, this);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_centre->setChildrenCollapsible(false);
    m_timeline = new TimelineView(selection, this);
    m_centre->addWidget(m_timeline);
    m_centre->addWidget(m_inspector);
    m_centre->setStretchFactor(0, 3);
    m_centre->setStretchFactor(1, 2);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_centre);

    m_actions = new MainActions(this, m_recent);
    // The runs notice sits above the views (and the start page), over the whole width.
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_runsBar = new RunsBar(m_actions->runsMenu(), central);
    column->addWidget(m_runsBar);
    column->addWidget(m_stack, 1);
    setCentralWidget(central);
    connect(m_runsBar, &RunsBar::runChosen, this, &MainWindow::openRun);
    createDocks();
    m_compare = new CompareController(m_session, this, m_centre, m_timeline);
    createStatusBar();
    m_recording = new RecordingUi(m_session, this, m_actions, m_stack, m_recent);
    connectActions();
    connectSession();
    // Toolbar, search, navigation history, exports and the report dock: they follow the session.
    new TimelineNavigation(m_session, this, m_actions, m_timeline);
    new ExportController(m_session, this, m_actions, m_timeline);
    updateTitle();

    resize(1600, 1000);
    if (m_options.persistSettings) {
        QSettings s;
        restoreGeometry(s.value(QStringLiteral("mainwindow/geometry")).toByteArray());
        restoreState(s.value(QStringLiteral("mainwindow/state")).toByteArray());
    }
    showDocks(false);
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    auto* compilesDock = new QDockWidget(tr("Compiles"), this);
    compilesDock->setObjectName(QStringLiteral("compilesDock"));
    m_browser = new CompileBrowser(m_session->selection(), compilesDock);
    compilesDock->setWidget(m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, compilesDock);

    m_diagnostics = new DiagnosticsDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, m_diagnostics);
    splitDockWidget(compilesDock, m_diagnostics, Qt::Vertical);

    // Findings below the compiles, in front of the diagnostics: what is wrong comes first.
    m_findings = new FindingsDock(m_session->selection(), this);
    addDockWidget(Qt::LeftDockWidgetArea, m_findings);
    tabifyDockWidget(m_diagnostics, m_findings);
    // A finding's compiles are marked on the timeline (as search hits are) and the first is
    // brought into view with its Why.
    connect(m_findings, &FindingsDock::findingActivated, this, [this](const Finding& f) {
        m_timeline->setSearchHits(f.compiles);
        if (!f.compiles.empty())
            m_timeline->revealCompile(f.compiles.front());
        m_inspector->showTab(InspectorView::WhyIndex);
    });

    m_actions->addDockToggle(compilesDock);
    m_actions->addDockToggle(m_findings);
    m_actions->addDockToggle(m_diagnostics);
    auto* stackTrie = new StackTrieDock(m_session->selection(), this);
    addDockWidget(Qt::LeftDockWidgetArea, stackTrie);
    tabifyDockWidget(compilesDock, stackTrie);
    m_actions->addDockToggle(stackTrie);
    connect(m_session, &TraceSession::traceChanged, stackTrie,
        [stackTrie](const std::shared_ptr<const Trace>& trace) { stackTrie->setTrace(trace); });

    m_probe = new ProbeDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_probe);
    m_actions->addDockToggle(m_probe);
    connect(m_probe, &ProbeDock::openRunRequested, this,
        [this](const QString& f) { openPaths({ f }); });
    connect(m_probe, &ProbeDock::failed, this, [this](const QString& error) {
        statusBar()->showMessage(tr("Could not read the probe: %1").arg(error), 15000);
    });
    connect(m_session, &TraceSession::loadFinished, m_probe, [this] {
        m_probe->setOpenPaths(m_session->paths());
        // A probe run that failed opens on its first failing compile (the Why tab shows it).
        const int row = m_probe->model()->openRow();
        const auto& rows = m_probe->report().rows;
        const Trace* t = m_session->trace().get();
        if (row >= 0 && t && !m_session->selection()->hasSelection()) {
            const uint32_t failing = rows[static_cast<size_t>(row)].failingCompile;
            if (failing < t->compiles.size())
                m_session->selection()->setCurrent(failing);
        }
    });
    connect(m_actions->focusFilter, &QAction::triggered, this, [this, compilesDock] {
        compilesDock->show();
        m_browser->filterEdit()->setFocus();
        m_browser->filterEdit()->selectAll();
    });
}

void MainWindow::createStatusBar()
{
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setObjectName(QStringLiteral("summary"));
    statusBar()->addWidget(m_summary, 1);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    m_cancel = new QToolButton(this);
    m_cancel->setDefaultAction(m_actions->cancelLoad);
    m_cancel->setText(tr("Cancel"));
    m_loadTime = new QLabel(this);
    m_loadTime->setTextFormat(Qt::PlainText);
    m_loadTime->setForegroundRole(QPalette::PlaceholderText);
    statusBar()->addPermanentWidget(m_loadTime);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    showLoading(false);
}

void MainWindow::connectActions()
{
    connect(m_actions->open, &QAction::triggered, this, &MainWindow::openFileDialog);
    connect(m_actions->openFolder, &QAction::triggered, this, &MainWindow::openFolderDialog);
    connect(m_actions->openProbe, &QAction::triggered, this, &MainWindow::openProbeDialog);
    connect(m_actions->compareWith, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this,
            tr("Compare With (B, against the open trace A)"), lastFolder(),
            tr("TORCH_TRACE logs (*.log *.log.zst *.log.gz *.zst *.gz);;All files (*)"));
        if (!file.isEmpty())
            m_compare->compareWith(file);
    });
    connect(m_actions->openExample, &QAction::triggered, this, &MainWindow::openExample);
    connect(m_actions->pasteLog, &QAction::triggered, this, &MainWindow::pasteFromClipboard);
    connect(m_actions->reload, &QAction::triggered, this, &MainWindow::reload);
    connect(m_actions->cancelLoad, &QAction::triggered, m_session, &TraceSession::cancel);
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(
        m_actions->zoomIn, &QAction::triggered, m_timeline, [this] { m_timeline->zoomBy(0.8); });
    connect(
        m_actions->zoomOut, &QAction::triggered, m_timeline, [this] { m_timeline->zoomBy(1.25); });
    connect(m_actions->fitAll, &QAction::triggered, m_timeline, &TimelineView::fitAll);
    connect(m_actions->fitSelection, &QAction::triggered, m_timeline, &TimelineView::fitSelection);
    auto go = [this](QAction* a, int dir, bool (*pred)(const Compile&)) {
        connect(a, &QAction::triggered, this, [this, dir, pred] { selectNext(dir, pred); });
    };
    auto isRecompile = [](const Compile& c) { return c.isRecompile(); };
    auto isBreak = [](const Compile& c) { return !c.graphBreaks.empty(); };
    auto isFailure = [](const Compile& c) { return c.failure.has_value(); };
    go(m_actions->nextRecompile, 1, isRecompile);
    go(m_actions->prevRecompile, -1, isRecompile);
    go(m_actions->nextGraphBreak, 1, isBreak);
    go(m_actions->prevGraphBreak, -1, isBreak);
    go(m_actions->nextFailure, 1, isFailure);
    go(m_actions->prevFailure, -1, isFailure);
    // Keyboard focus to a view; its dock comes to the front first.
    auto focusView = [this](QAction* a, auto&& target) {
        connect(a, &QAction::triggered, this, [target] {
            QWidget* w = target();
            for (QWidget* p = w; p; p = p->parentWidget())
                if (auto* dock = qobject_cast<QDockWidget*>(p)) {
                    dock->show();
                    dock->raise();
                }
            w->setFocus(Qt::ShortcutFocusReason);
        });
    };
    focusView(m_actions->focusTimeline, [this] { return static_cast<QWidget*>(m_timeline); });
    focusView(
        m_actions->focusCompiles, [this] { return static_cast<QWidget*>(m_browser->treeView()); });
    focusView(m_actions->focusFindings, [this] { return m_findings->view(); });
    focusView(m_actions->focusWhy, [this] {
        m_inspector->showTab(InspectorView::WhyIndex);
        return static_cast<QWidget*>(m_inspector->whyView());
    });
    connect(m_actions, &MainActions::openRecentRequested, this,
        [this](const QString& p) { openPaths({ p }); });

    connect(m_startPage, &StartPage::openFileRequested, this, &MainWindow::openFileDialog);
    connect(m_startPage, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_startPage, &StartPage::openExampleRequested, this, &MainWindow::openExample);
    connect(m_startPage, &StartPage::recordRequested, m_recording, &RecordingUi::showDialog);
    connect(m_startPage, &StartPage::pasteRequested, this, &MainWindow::pasteFromClipboard);
    connect(m_startPage, &StartPage::openRecentRequested, this,
        [this](const QString& p) { openPaths({ p }); });
    connect(m_recent, &RecentFiles::changed, this,
        [this] { m_startPage->setRecentFiles(m_recent->paths()); });
    m_actions->openExample->setEnabled(!exampleTracePath().isEmpty());
}

void MainWindow::connectSession()
{
    connect(m_session, &TraceSession::loadStarted, this, &MainWindow::onLoadStarted);
    connect(m_session, &TraceSession::loadProgress, this, &MainWindow::onLoadProgress);
    connect(m_session, &TraceSession::loadCancelled, this, &MainWindow::onLoadCancelled);
    connect(m_session, &TraceSession::loadFinished, this, &MainWindow::onLoadFinished);
    // The views follow the trace, in this order; the window last.
    connect(m_session, &TraceSession::traceChanged, m_browser,
        [this](const std::shared_ptr<const Trace>& trace) { m_browser->setTrace(trace); });
    connect(m_session, &TraceSession::traceChanged, m_inspector,
        [this](const std::shared_ptr<const Trace>& trace) { m_inspector->setTrace(trace); });
    connect(m_session, &TraceSession::traceChanged, m_timeline,
        [this](const std::shared_ptr<const Trace>& trace, TraceChange change) {
            if (change == TraceChange::Live)
                m_timeline->updateTrace(trace);
            else
                m_timeline->setTrace(trace);
        });
    connect(m_session, &TraceSession::traceChanged, this,
        [this](
            const std::shared_ptr<const Trace>&, TraceChange change) { onTraceChanged(change); });
    connect(
        m_session, &TraceSession::liveShown, this, [this](bool final, const QStringList& paths) {
            m_loadTime->setText(final ? tr("followed live") : QString()); // "● live" says the rest
            if (final)
                for (const QString& p : paths)
                    if (QFileInfo::exists(p))
                        m_recent->add(p);
        });
}

void MainWindow::onTraceChanged(TraceChange)
{
    const std::shared_ptr<const Trace>& trace = m_session->trace();
    const TraceFacts* facts = m_session->facts().get();
    m_runsBar->setTrace(trace.get(), m_session->runChoice());
    m_diagnostics->setDiagnostics(m_session->diagnostics());
    // The findings, worked out with the load: the panel, the Why tab's overview, the marks.
    m_findings->setFindings(facts ? facts->findings : std::vector<Finding> {});
    m_inspector->whyView()->setOverview(facts ? facts->overview : QString());
    m_timeline->setFindingMarks(facts ? facts->findingMarks : std::unordered_map<uint32_t, int> {});
    m_timeline->setRankMarks(
        facts ? facts->rankMarks : std::unordered_map<uint32_t, TimelineView::RankMark> {});
    if (trace)
        m_findings->raise();
    m_stack->setCurrentWidget(trace ? static_cast<QWidget*>(m_centre) : m_startPage);
    showDocks(trace != nullptr);
    if (trace && !m_centreSized) {
        // The first time the timeline shows, it gets three fifths of the height above the
        // inspector (at 1024x700 it had 150 px of lanes), once the layout has its size.
        m_centreSized = true;
        QTimer::singleShot(0, this, [this] {
            const int h = m_centre->height();
            m_centre->setSizes({ h * 3 / 5, h - h * 3 / 5 });
        });
    }
    if (trace && !m_compilesRaised) { // the Compiles tab in front of the Stack trie at first
        m_compilesRaised = true;
        if (auto* compiles = findChild<QDockWidget*>(QStringLiteral("compilesDock")))
            compiles->raise();
    }
    m_actions->reload->setEnabled(trace != nullptr);
    m_actions->compareWith->setEnabled(trace != nullptr);
    m_summary->setText(summaryText());
    m_summary->setToolTip(!facts || !trace ? QString()
            : facts->torch.version.empty()
            ? tr("The trace does not name the PyTorch release that wrote it.")
            : tr("PyTorch %1, read from the trace's %2.")
                  .arg(QString::fromStdString(facts->torch.version),
                      QString::fromStdString(facts->torch.from)));
    updateTitle();
}

QString MainWindow::findingCounts() const
{
    const FindingCounts n = countFindings(m_session->findings());
    if (n.errors + n.warnings + n.notes == 0)
        return {};
    return QStringLiteral(" · ")
        + tr("findings: %1 ✕ %2 ⚠ %3 notes").arg(n.errors).arg(n.warnings).arg(n.notes);
}

QString MainWindow::summaryText() const
{
    if (!trace())
        return {};
    const Trace& t = *trace();
    const QStringList paths = m_session->paths();
    const std::vector<Diagnostic>& diagnostics = m_session->diagnostics();
    QString name;
    if (t.files.size() == 1)
        name = baseName(t.files.front().path);
    else if (paths.size() == 1)
        name = QFileInfo(paths.front()).fileName()
            + QStringLiteral(" (%1 files)").arg(t.files.size());
    else
        name = tr("%1 files").arg(t.files.size());
    const QString sep = QStringLiteral(" · ");
    // The release, where the trace names it (the tooltip says where: the status bar's).
    const TraceFacts* facts = m_session->facts().get();
    if (facts && !facts->torch.version.empty())
        name += sep + tr("PyTorch %1").arg(QString::fromStdString(facts->torch.version));
    // The notices of other runs and copied files are information, not a problem with the trace.
    const bool worrying = std::any_of(diagnostics.begin(), diagnostics.end(),
        [](const Diagnostic& d) { return d.severity != Severity::Info; });
    return name + sep + plural(t.compiles.size(), tr("compile"), tr("compiles")) + sep
        + plural(t.recompileCount(), tr("recompile"), tr("recompiles")) + sep
        + plural(t.graphBreakCount(), tr("graph break"), tr("graph breaks")) + sep
        + plural(t.failureCount(), tr("failure"), tr("failures")) + sep
        + plural(static_cast<uint64_t>(diagnostics.size()), tr("diagnostic"), tr("diagnostics"))
        + (worrying ? QStringLiteral(" ⚠") : QString()) + findingCounts();
}

const std::shared_ptr<const Trace>& MainWindow::trace() const
{
    return m_session->trace();
}

QStringList MainWindow::openPathList() const
{
    return m_session->paths();
}

CompileSelection* MainWindow::selection() const
{
    return m_session->selection();
}

bool MainWindow::payloadsVerified() const
{
    return m_session->payloadsVerified();
}

const std::vector<Diagnostic>& MainWindow::diagnostics() const
{
    return m_session->diagnostics();
}

bool MainWindow::selectCompile(const QString& text)
{
    if (!trace())
        return false;
    const auto id = CompileId::parse(text.trimmed().toStdString());
    if (!id)
        return false;
    for (const Compile& c : trace()->compiles) {
        if (c.id == *id) {
            selection()->setCurrent(c.index);
            return true;
        }
    }
    return false;
}

void MainWindow::selectNext(int direction, bool (*matches)(const Compile&))
{
    const Trace* t = trace().get();
    if (!t || t->compiles.empty())
        return;
    const auto n = static_cast<int64_t>(t->compiles.size());
    const uint32_t cur = selection()->current();
    int64_t i = cur == kNone ? (direction > 0 ? -1 : n) : static_cast<int64_t>(cur);
    for (int64_t step = 0; step < n; ++step) {
        i = ((i + direction) % n + n) % n; // wraps around
        if (matches(t->compiles[static_cast<size_t>(i)])) {
            selection()->setCurrent(static_cast<uint32_t>(i));
            return;
        }
    }
    statusBar()->showMessage(tr("None in this trace"), 3000);
}

void MainWindow::showDocks(bool show)
{
    // The start page fills the window; the docks (empty until a trace is open) come back with
    // the first trace, as the user last arranged them. The Diagnostics dock shows only when it
    // has something to say, so an empty one does not take the timeline's space.
    for (QDockWidget* dock : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (dock == m_probe) { // shows with a probe, wherever the window is
            dock->setVisible(!m_probe->folder().isEmpty());
            continue;
        }
        if (m_compare && dock == m_compare->dock()) { // shows while comparing
            dock->setVisible(show && m_compare->active());
            continue;
        }
        if (dock == m_diagnostics) {
            const bool some = !m_session->diagnostics().empty();
            dock->setVisible(show ? some : some && !trace());
            continue;
        }
        if (!show) {
            dock->setProperty("dynascopeWasVisible", dock->isVisibleTo(this));
            dock->hide();
        } else if (dock->property("dynascopeWasVisible").toBool()) {
            dock->show();
        }
    }
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_docksSized)
        return;
    m_docksSized = true;
    // Without a saved layout, the compile list takes about two fifths of the width (its columns
    // fit at 1600 px) and the timeline and inspector the rest, at any window size.
    if (m_options.persistSettings && QSettings().contains(QStringLiteral("mainwindow/state")))
        return;
    auto* compiles = findChild<QDockWidget*>(QStringLiteral("compilesDock"));
    if (compiles)
        resizeDocks({ compiles }, { std::clamp(width() * 2 / 5, 320, 640) }, Qt::Horizontal);
}

void MainWindow::showLoading(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    m_actions->cancelLoad->setEnabled(loading);
    if (loading)
        m_progress->setValue(0);
}

QString MainWindow::openName() const
{
    const QStringList paths = m_session->paths();
    if (!trace() || trace()->files.empty())
        return {};
    return paths.size() == 1 ? QFileInfo(paths.front()).fileName()
                             : tr("%1 files").arg(trace()->files.size());
}

void MainWindow::updateTitle()
{
    const QString name = openName();
    setWindowTitle(
        name.isEmpty() ? QStringLiteral("Dynascope") : name + QStringLiteral(" — Dynascope"));
}

void MainWindow::openFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace"), lastFolder(),
        tr("TORCH_TRACE logs and TORCH_LOGS text (*.log *.log.zst *.log.gz *.txt *.out *.zst "
           "*.gz);;All files (*)"));
    openPaths(files);
}

void MainWindow::openProbeDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open Probe Results (a dynascope-cli probe folder)"), lastFolder());
    if (dir.isEmpty())
        return;
    if (!isProbeSessionFolder(dir.toStdString())) {
        QMessageBox::warning(this, tr("Open Probe Results"),
            tr("%1 has no probe-runs.json: it is not a folder written by dynascope-cli probe.")
                .arg(dir));
        return;
    }
    openProbe(dir);
}

void MainWindow::openFolderDialog()
{
    const QString dir
        = QFileDialog::getExistingDirectory(this, tr("Open Trace Folder"), lastFolder());
    if (!dir.isEmpty())
        openPaths({ dir });
}

QString MainWindow::lastFolder() const
{
    return m_recent->startFolder(m_session->paths());
}

void MainWindow::openExample()
{
    const QString path = exampleTracePath();
    if (path.isEmpty()) {
        QMessageBox::warning(
            this, tr("Example Trace"), tr("The example trace was not found next to the program."));
        return;
    }
    openPaths({ path });
}

void MainWindow::showAbout()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("About Dynascope"));
    box.setTextFormat(Qt::PlainText);
    box.setText(tr("Dynascope %1").arg(QStringLiteral(DYNASCOPE_VERSION)));
    box.setInformativeText(
        tr("An explorer for PyTorch compiler traces (TORCH_TRACE logs): compiles, "
           "recompiles and their guards, graph breaks, failures and timing.\n\n"
           "Built with Qt %1.")
            .arg(QString::fromLatin1(qVersion())));
    box.setIconPixmap(windowIcon().pixmap(64, 64));
    box.exec();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_recording->confirmClose()) {
        event->ignore();
        return;
    }
    if (m_options.persistSettings) {
        QSettings s;
        s.setValue(QStringLiteral("mainwindow/geometry"), saveGeometry());
        if (trace()) // on the start page the docks are hidden for the page, not by the user
            s.setValue(QStringLiteral("mainwindow/state"), saveState());
    }
    m_session->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    openPaths(paths);
}

} // namespace dynascope::ui
