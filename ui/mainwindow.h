// MainWindow: wires the loader, the compile tree, the timeline, the inspector and the docks
// together. The pieces live in their own files; this one only connects them and keeps the
// window-level state (what is open, the status bar, settings).
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

class BackgroundJob;
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
class TraceLoadController;
struct LoadOutcome;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool persistSettings = true; // restore and save geometry, dock state, recent files
    };
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Folders open on their newest run unless `choice` says otherwise (core/load/runs.h).
    void openPaths(const QStringList& paths, const LoadOptions& choice = {});
    // Opens `paths` again with another run of a folder (core/load/runs.h): File > Runs.
    void openRun(const LoadOptions& choice);
    RunsBar* runsBar() const { return m_runsBar; }
    // Opens text from memory: File > Paste Log with the clipboard's text (TORCH_LOGS text, or a
    // TORCH_TRACE), recognised by content. Reload reads the same text again.
    void openText(const QByteArray& text);
    void pasteFromClipboard();
    void reload();
    // A newer state of a trace followed live (ui/record/livefollower.h), or its first: shown
    // without a load. The timeline keeps its view (or follows the newest part when it showed it)
    // and the selected compile stays selected. `final`: the trace is complete (Reload reads it
    // from disk again). Dropped while a load the user started runs.
    void showLiveTrace(
        std::shared_ptr<const Trace> trace, const QStringList& paths, bool final = false);
    bool isLoading() const;
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }
    QStringList openPathList() const { return m_paths; }

    // Selects the first compile whose id matches "[0/1]", "0/1" or "[0/0_1]"; false if absent.
    bool selectCompile(const QString& compileId);
    // "file · N compiles · N recompiles · N graph breaks · N failures · N diagnostics"
    QString summaryText() const;
    QString findingCounts() const; // " · findings: 1 ✕ 2 ⚠ 3 notes" ("" when none)

    CompileBrowser* compileBrowser() const { return m_browser; }
    InspectorView* inspector() const { return m_inspector; }
    CompileSelection* selection() const { return m_selection; }
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

    // Payload hashes of the open trace: checked in the background after each load, as the CLI
    // does by default. False while the check runs.
    bool payloadsVerified() const { return m_payloadsVerified; }
    // Where the Open dialogs start: the open (else the most recent) trace's folder.
    QString lastFolder() const;
    // Every diagnostic of the open trace: the loader's, then the payload check's.
    const std::vector<Diagnostic>& diagnostics() const { return m_allDiagnostics; }

Q_SIGNALS:
    // The open trace changed (a load, a reload); null: none. The one way views get the trace:
    // the selection is cleared before it is emitted.
    void traceChanged(const std::shared_ptr<const dynascope::Trace>& trace);
    // After every load: ok is false when some input could not be read (errors says which).
    void loadFinished(bool ok, const QStringList& errors);
    // The background payload check of the open trace finished (diagnostics() holds its result).
    void payloadsChecked();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void loadPaths(const QStringList& paths, const LoadOptions& choice);
    void createStatusBar();
    void connectActions();
    void onLoadStarted(const QStringList& paths);
    void onLoadProgress(double fraction, const QString& stage);
    void onLoadFinished(const LoadOutcome& outcome);
    void onLoadCancelled();
    void setTrace(std::shared_ptr<const Trace> trace);
    void startPayloadCheck();
    void updateDiagnostics();
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
    std::shared_ptr<const Trace> m_trace;
    QStringList m_paths;
    LoadOptions m_runChoice; // the run choice m_trace was loaded with
    LoadOptions m_loadingChoice; // the one of the load in flight
    QByteArray m_pasted; // the text of a paste being shown or loaded (empty: files)
    QByteArray m_pasting; // the text of a paste being loaded
    std::vector<Diagnostic> m_allDiagnostics; // the loader's and the payload check's
    bool m_payloadsVerified = false;
    bool m_liveUpdate = false; // setTrace() is showing a newer state of the same trace
    bool m_docksSized = false;
    bool m_compilesRaised = false;
    bool m_centreSized = false;

    TraceLoadController* m_loader;
    RunsBar* m_runsBar = nullptr;
    CompileSelection* m_selection;
    RecentFiles* m_recent;
    BackgroundJob* m_payloadCheck;
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
    void updateFindings();
    RecordingUi* m_recording = nullptr;
    ProbeDock* m_probe = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_loadTime = nullptr;
    QLabel* m_verifying = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
};

} // namespace dynascope::ui
