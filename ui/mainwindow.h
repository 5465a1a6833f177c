// MainWindow: builds the widgets (the compile tree, the timeline, the inspector, the docks, the
// status bar) and wires them to the session (TraceSession), which holds what is open and
// everything derived from it. The pieces live in their own files and follow the session; the
// window keeps window-level state only (geometry, docks, the status bar, settings). Its opening
// methods and accessors forward to the session, for app/gui/main.cpp and the tests.
#pragma once

#include "core/load/loader.h"
#include "core/model/trace.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QLabel;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QToolButton;

namespace dynascope::ui {

class CompileBrowser;
class CompileSelection;
class CompareController;
class DiagnosticsDock;
class FindingsDock;
class InspectorView;
class MainActions;
class ProbeDock;
class RecentFiles;
class RecordingUi;
class RunsBar;
class StartPage;
class TimelineView;
class TraceSession;
enum class TraceChange;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool persistSettings = true; // restore and save geometry, dock state, recent files
    };
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    TraceSession* session() const { return m_session; }
    // Folders open on their newest run unless `choice` says otherwise (core/load/runs.h); a
    // folder written by dynascope-cli probe opens in the Probe view.
    void openPaths(const QStringList& paths, const LoadOptions& choice = {});
    // Opens `paths` again with another run of a folder (core/load/runs.h): File > Runs.
    void openRun(const LoadOptions& choice);
    RunsBar* runsBar() const { return m_runsBar; }
    // Opens text from memory: File > Paste Log with the clipboard's text (TORCH_LOGS text, or a
    // TORCH_TRACE), recognised by content. Reload reads the same text again.
    void openText(const QByteArray& text);
    void pasteFromClipboard();
    void reload();
    // A newer state of a trace followed live (TraceSession::showLive).
    void showLiveTrace(
        std::shared_ptr<const Trace> trace, const QStringList& paths, bool final = false);
    bool isLoading() const;
    const std::shared_ptr<const Trace>& trace() const;
    QStringList openPathList() const;

    // Selects the first compile whose id matches "[0/1]", "0/1" or "[0/0_1]"; false if absent.
    bool selectCompile(const QString& compileId);
    // "file · N compiles · N recompiles · N graph breaks · N failures · N diagnostics"
    QString summaryText() const;
    QString findingCounts() const; // " · findings: 1 ✕ 2 ⚠ 3 notes" ("" when none)

    CompileBrowser* compileBrowser() const { return m_browser; }
    InspectorView* inspector() const { return m_inspector; }
    CompileSelection* selection() const;
    TimelineView* timeline() const { return m_timeline; }
    DiagnosticsDock* diagnosticsDock() const { return m_diagnostics; }
    FindingsDock* findingsDock() const { return m_findings; }
    // Run against run: File > Compare With…, dynascope A --compare B.
    CompareController* compare() const { return m_compare; }
    // Recording a run (File > Record a Run…, dynascope --record) and the Probe view.
    RecordingUi* recording() const { return m_recording; }
    ProbeDock* probeDock() const { return m_probe; }
    // Opens a folder written by dynascope-cli probe in the Probe view (openPaths() does this for
    // a folder that holds probe-runs.json).
    void openProbe(const QString& folder);

    // Payload hashes of the open trace: checked in the load job, as the CLI does by default.
    bool payloadsVerified() const;
    // Where the Open dialogs start: the open (else the most recent) trace's folder.
    QString lastFolder() const;
    // Every diagnostic of the open trace: the loader's, then the payload check's.
    const std::vector<Diagnostic>& diagnostics() const;

Q_SIGNALS:
    // After every load, once the window shows its outcome: ok is false when some input could not
    // be read (errors says which). The session's loadFinished, for main.cpp and the tests.
    void loadFinished(bool ok, const QStringList& errors);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createStatusBar();
    void connectActions();
    void connectSession();
    void onLoadStarted(const QStringList& paths);
    void onLoadProgress(double fraction, const QString& stage);
    void onLoadFinished(bool ok, const QStringList& errors, bool read);
    void onLoadCancelled();
    void onTraceChanged(TraceChange change);
    void showLoading(bool loading);
    void showDocks(bool show);
    QString openName() const; // "trace.log", "4 files"; empty when nothing is open
    void selectNext(int direction, bool (*matches)(const Compile&));
    void openFileDialog();
    void openFolderDialog();
    void openProbeDialog();
    void openExample();
    void showAbout();
    void updateTitle();

    Options m_options;
    bool m_docksSized = false;
    bool m_compilesRaised = false;
    bool m_centreSized = false;

    TraceSession* m_session;
    RunsBar* m_runsBar = nullptr;
    RecentFiles* m_recent;
    MainActions* m_actions = nullptr;
    QStackedWidget* m_stack = nullptr;
    StartPage* m_startPage = nullptr;
    QSplitter* m_centre = nullptr;
    TimelineView* m_timeline = nullptr;
    InspectorView* m_inspector = nullptr;
    CompileBrowser* m_browser = nullptr;
    DiagnosticsDock* m_diagnostics = nullptr;
    FindingsDock* m_findings = nullptr;
    CompareController* m_compare = nullptr;
    RecordingUi* m_recording = nullptr;
    ProbeDock* m_probe = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_loadTime = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
};

} // namespace dynascope::ui
