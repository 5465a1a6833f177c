#include "ui/mainwindow.h"

#include "ui/backgroundjob.h"
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
#include "ui/traceloadcontroller.h"

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
    , m_loader(new TraceLoadController(this))
    , m_selection(new CompileSelection(this))
    , m_recent(new RecentFiles(options.persistSettings, this))
    , m_payloadCheck(new BackgroundJob(this))
{
    initDynascopeResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/dynascope.svg")));
    setAcceptDrops(true);

    m_startPage = new StartPage(this);
    m_startPage->setExampleAvailable(!exampleTracePath().isEmpty());
    m_startPage->setRecentFiles(m_recent->paths());

    m_inspector = new InspectorView(m_selection, this); // follows the selection itself
    m_centre = new QSplitter(Qt::Vertical, this);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_centre->setChildrenCollapsible(false);
    m_timeline = new TimelineView(m_selection, this);
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
    m_compare = new CompareController(this, m_centre);
    createStatusBar();
    m_recording = new RecordingUi(this, m_actions, m_stack, statusBar());
    connectActions();
    // The views follow the trace through traceChanged, in this order.
    connect(this, &MainWindow::traceChanged, m_browser, &CompileBrowser::setTrace);
    connect(this, &MainWindow::traceChanged, m_inspector, &InspectorView::setTrace);
    connect(this, &MainWindow::traceChanged, m_timeline,
        [this](const std::shared_ptr<const Trace>& trace) {
            if (m_liveUpdate)
                m_timeline->updateTrace(trace);
            else
                m_timeline->setTrace(trace);
        });
    // Toolbar, search, navigation history, exports and the report dock: they follow traceChanged.
    new TimelineNavigation(this, m_actions, m_timeline, m_selection);
    new ExportController(this, m_actions, m_timeline, m_selection);
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
    m_browser = new CompileBrowser(m_selection, compilesDock);
    compilesDock->setWidget(m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, compilesDock);

    m_diagnostics = new DiagnosticsDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, m_diagnostics);
    splitDockWidget(compilesDock, m_diagnostics, Qt::Vertical);

    // Findings below the compiles, in front of the diagnostics: what is wrong comes first.
    m_findings = new FindingsDock(m_selection, this);
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
    auto* stackTrie = new StackTrieDock(m_selection, this);
    addDockWidget(Qt::LeftDockWidgetArea, stackTrie);
    tabifyDockWidget(compilesDock, stackTrie);
    m_actions->addDockToggle(stackTrie);
    connect(this, &MainWindow::traceChanged, stackTrie, &StackTrieDock::setTrace);

    m_probe = new ProbeDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_probe);
    m_actions->addDockToggle(m_probe);
    connect(m_probe, &ProbeDock::openRunRequested, this,
        [this](const QString& f) { openPaths({ f }); });
    connect(m_probe, &ProbeDock::failed, this, [this](const QString& error) {
        statusBar()->showMessage(tr("Could not read the probe: %1").arg(error), 15000);
    });
    connect(this, &MainWindow::loadFinished, m_probe, [this] {
        m_probe->setOpenPaths(m_paths);
        // A probe run that failed opens on its first failing compile (the Why tab shows it).
        const int row = m_probe->model()->openRow();
        const auto& rows = m_probe->report().rows;
        if (row >= 0 && m_trace && m_selection->current() == kNone) {
            const uint32_t failing = rows[static_cast<size_t>(row)].failingCompile;
            if (failing < m_trace->compiles.size())
                m_selection->setCurrent(failing);
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
    m_verifying = new QLabel(tr("checking payload hashes…"), this);
    m_verifying->setObjectName(QStringLiteral("verifyingPayloads"));
    m_verifying->setTextFormat(Qt::PlainText);
    m_verifying->setForegroundRole(QPalette::PlaceholderText);
    m_verifying->setToolTip(tr("Every payload is compared with its has_payload MD5, as "
                               "dynascope-cli summary does; mismatches become diagnostics"));
    m_verifying->hide();
    statusBar()->addPermanentWidget(m_verifying);
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
    connect(m_actions->cancelLoad, &QAction::triggered, m_loader, &TraceLoadController::cancel);
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

    connect(m_loader, &TraceLoadController::started, this,
        [this](quint64, const QStringList& paths) { onLoadStarted(paths); });
    connect(m_loader, &TraceLoadController::progress, this,
        [this](quint64, double f, const QString& stage) { onLoadProgress(f, stage); });
    connect(m_loader, &TraceLoadController::finished, this, &MainWindow::onLoadFinished);
    connect(m_loader, &TraceLoadController::cancelled, this, [this] { onLoadCancelled(); });
}

namespace {
// A rank finding's rule in a word or two, for the mark on the rank's row.
QString rankFindingWord(const std::string& rule)
{
    if (rule == "straggler")
        return QObject::tr("straggler");
    if (rule == "rank-recompiles")
        return QObject::tr("recompiles");
    if (rule == "rank-graph-breaks")
        return QObject::tr("graph breaks");
    if (rule == "rank-failures")
        return QObject::tr("failures");
    if (rule == "rank-cache")
        return QObject::tr("cache misses");
    if (rule == "rank-only-compiles")
        return QObject::tr("frames");
    return QString::fromStdString(rule);
}
} // namespace

void MainWindow::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    // Nothing is selected while the views change; then every view gets the new trace.
    m_selection->clear();
    Q_EMIT traceChanged(m_trace);
    m_runsBar->setTrace(m_trace.get(), m_runChoice);
    m_allDiagnostics = m_trace ? m_trace->diagnostics : std::vector<Diagnostic> {};
    m_diagnostics->setDiagnostics(m_allDiagnostics);
    updateFindings();
    m_stack->setCurrentWidget(m_trace ? static_cast<QWidget*>(m_centre) : m_startPage);
    showDocks(m_trace != nullptr);
    if (m_trace && !m_centreSized) {
        // The first time the timeline shows, it gets three fifths of the height above the
        // inspector (at 1024x700 it had 150 px of lanes), once the layout has its size.
        m_centreSized = true;
        QTimer::singleShot(0, this, [this] {
            const int h = m_centre->height();
            m_centre->setSizes({ h * 3 / 5, h - h * 3 / 5 });
        });
    }
    if (m_trace && !m_compilesRaised) { // the Compiles tab in front of the Stack trie at first
        m_compilesRaised = true;
        if (auto* compiles = findChild<QDockWidget*>(QStringLiteral("compilesDock")))
            compiles->raise();
    }
    m_actions->reload->setEnabled(m_trace != nullptr);
    m_actions->compareWith->setEnabled(m_trace != nullptr);
    m_summary->setText(summaryText());
    updateTitle();
    startPayloadCheck();
}

void MainWindow::startPayloadCheck()
{
    m_payloadsVerified = false;
    if (!m_trace) {
        m_payloadCheck->cancel();
        m_verifying->hide();
        return;
    }
    m_verifying->show();
    std::shared_ptr<const Trace> trace = m_trace;
    m_payloadCheck->start<Trace::PayloadCheck>(
        [trace](std::stop_token) { return trace->verifyPayloads(); },
        [this, trace](JobOutcome<Trace::PayloadCheck> outcome) {
            m_verifying->hide();
            if (trace != m_trace)
                return;
            m_payloadsVerified = outcome.value.has_value();
            if (outcome.value) {
                for (Diagnostic& d : outcome.value->diagnostics)
                    m_allDiagnostics.push_back(std::move(d));
            } else {
                m_allDiagnostics.push_back({ Severity::Warning, DiagnosticCode::Other,
                    trace->files.empty() ? std::string() : trace->files.front().path, 0,
                    "payload hashes were not checked: " + outcome.error.toStdString() });
            }
            updateDiagnostics();
            Q_EMIT payloadsChecked();
        });
}

void MainWindow::updateFindings()
{
    // Linear in the trace (core/analysis/findings.h): computed here, with the trace.
    m_findings->setFindings(m_trace ? findFindings(*m_trace) : std::vector<Finding> {});
    const auto& found = m_findings->model()->findings();
    QString overview;
    if (!found.empty()) {
        overview = tr("What this trace shows, most costly first:");
        for (size_t i = 0; i < std::min<size_t>(found.size(), 5); ++i)
            overview += QStringLiteral("\n  %1. [%2] %3")
                            .arg(i + 1)
                            .arg(QString::fromLatin1(toString(found[i].severity)),
                                QString::fromStdString(found[i].title));
        if (found.size() > 5)
            overview += tr("\n  … and %1 more in the Findings panel").arg(found.size() - 5);
    }
    m_inspector->whyView()->setOverview(overview);
    // Warnings and errors are flagged on the timeline at the compiles they name.
    std::unordered_map<uint32_t, int> marks;
    for (const Finding& f : found) {
        if (f.severity == FindingSeverity::Note)
            continue;
        for (uint32_t c : f.compiles)
            marks[c] = std::max(marks[c], static_cast<int>(f.severity));
    }
    m_timeline->setFindingMarks(std::move(marks));
    // Ranks that rank findings single out get a mark on their rows.
    std::unordered_map<uint32_t, TimelineView::RankMark> rankMarks;
    for (const Finding& f : found) {
        for (uint32_t file : f.files) {
            TimelineView::RankMark& m = rankMarks[file];
            m.severity = std::max(m.severity, static_cast<int>(f.severity));
            const QString word = rankFindingWord(f.rule);
            if (!m.words.contains(word))
                m.words << word;
            m.titles << QString::fromStdString(f.title);
        }
    }
    m_timeline->setRankMarks(std::move(rankMarks));
    if (m_trace)
        m_findings->raise();
}

void MainWindow::updateDiagnostics()
{
    m_diagnostics->setDiagnostics(m_allDiagnostics);
    if (!m_allDiagnostics.empty() && m_trace)
        m_diagnostics->show(); // an empty dock stays hidden; one with content comes back
    m_summary->setText(summaryText());
}

QString MainWindow::findingCounts() const
{
    const FindingCounts n = countFindings(m_findings->model()->findings());
    if (n.errors + n.warnings + n.notes == 0)
        return {};
    return QStringLiteral(" · ")
        + tr("findings: %1 ✕ %2 ⚠ %3 notes").arg(n.errors).arg(n.warnings).arg(n.notes);
}

QString MainWindow::summaryText() const
{
    if (!m_trace)
        return {};
    const Trace& t = *m_trace;
    QString name;
    if (t.files.size() == 1)
        name = baseName(t.files.front().path);
    else if (m_paths.size() == 1)
        name = QFileInfo(m_paths.front()).fileName()
            + QStringLiteral(" (%1 files)").arg(t.files.size());
    else
        name = tr("%1 files").arg(t.files.size());
    const QString sep = QStringLiteral(" · ");
    // The notices of other runs and copied files are information, not a problem with the trace.
    const bool worrying = std::any_of(m_allDiagnostics.begin(), m_allDiagnostics.end(),
        [](const Diagnostic& d) { return d.severity != Severity::Info; });
    return name + sep + plural(t.compiles.size(), tr("compile"), tr("compiles")) + sep
        + plural(t.recompileCount(), tr("recompile"), tr("recompiles")) + sep
        + plural(t.graphBreakCount(), tr("graph break"), tr("graph breaks")) + sep
        + plural(t.failureCount(), tr("failure"), tr("failures")) + sep
        + plural(
            static_cast<uint64_t>(m_allDiagnostics.size()), tr("diagnostic"), tr("diagnostics"))
        + (worrying ? QStringLiteral(" ⚠") : QString()) + findingCounts();
}

bool MainWindow::selectCompile(const QString& text)
{
    if (!m_trace)
        return false;
    const auto id = CompileId::parse(text.trimmed().toStdString());
    if (!id)
        return false;
    for (const Compile& c : m_trace->compiles) {
        if (c.id == *id) {
            m_selection->setCurrent(c.index);
            return true;
        }
    }
    return false;
}

void MainWindow::selectNext(int direction, bool (*matches)(const Compile&))
{
    if (!m_trace || m_trace->compiles.empty())
        return;
    const auto n = static_cast<int64_t>(m_trace->compiles.size());
    const uint32_t cur = m_selection->current();
    int64_t i = cur == kNone ? (direction > 0 ? -1 : n) : static_cast<int64_t>(cur);
    for (int64_t step = 0; step < n; ++step) {
        i = ((i + direction) % n + n) % n; // wraps around
        if (matches(m_trace->compiles[static_cast<size_t>(i)])) {
            m_selection->setCurrent(static_cast<uint32_t>(i));
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
            dock->setVisible(
                show ? !m_allDiagnostics.empty() : !m_allDiagnostics.empty() && !m_trace);
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
    if (!m_trace || m_trace->files.empty())
        return {};
    return m_paths.size() == 1 ? QFileInfo(m_paths.front()).fileName()
                               : tr("%1 files").arg(m_trace->files.size());
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
    // The Open dialogs start where the last trace was: its folder (a folder trace's parent).
    const QStringList paths = m_paths.isEmpty() ? m_recent->paths() : m_paths;
    if (paths.isEmpty())
        return {};
    const QFileInfo fi(paths.front());
    return fi.isDir() ? fi.absoluteFilePath() : fi.absolutePath();
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
        if (m_trace) // on the start page the docks are hidden for the page, not by the user
            s.setValue(QStringLiteral("mainwindow/state"), saveState());
    }
    m_loader->cancel();
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
