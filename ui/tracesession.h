// TraceSession: the open trace and everything derived from it (TraceFacts: findings, diagnostics
// with the payload check, timeline marks, the Why overview), worked out once off the GUI thread,
// and the one selected compile. It opens, reloads and cancels loads (TraceLoadController), shows
// the newer states of a trace followed live, and keeps the selected compile across a reload or a
// live update (written once, here). Views and helpers connect to it, not to the window: its one
// traceChanged tells them all, with what kind of change it was.
#pragma once

#include "core/load/loader.h"
#include "ui/tracefacts.h"

#include <QObject>
#include <QStringList>

#include <memory>

namespace dynascope::ui {

class BackgroundJob;
class CompileSelection;
class TraceLoadController;
struct LoadOutcome;

enum class TraceChange {
    Opened, // another trace (or another run of a folder): views start afresh
    Reloaded, // the same inputs read again: views may keep what they show
    Live, // a newer state of a trace followed live: views keep their view
    Closed, // nothing is open any more
};

class TraceSession : public QObject {
    Q_OBJECT
public:
    explicit TraceSession(QObject* parent = nullptr);
    ~TraceSession() override;

    // What is open (null facts: nothing).
    const std::shared_ptr<const Trace>& trace() const;
    const std::shared_ptr<const TraceFacts>& facts() const { return m_facts; }
    const std::vector<Finding>& findings() const;
    // The open trace's diagnostics and its payload check's; after a load that read nothing while
    // nothing was open, the errors that say why.
    const std::vector<Diagnostic>& diagnostics() const;
    bool payloadsVerified() const { return m_facts && m_facts->payloadsVerified; }
    QStringList paths() const { return m_paths; }
    bool isPasted() const { return !m_pasted.isEmpty(); }
    const LoadOptions& runChoice() const { return m_runChoice; }
    CompileSelection* selection() const { return m_selection; }
    qint64 lastLoadUs() const { return m_lastLoadUs; }

    // Opening. A folder opens on its newest run unless `choice` says otherwise.
    void open(const QStringList& paths, const LoadOptions& choice = {});
    void openRun(const LoadOptions& choice); // the open paths again, another run
    void openText(const QByteArray& text); // a paste: TORCH_LOGS text or a TORCH_TRACE
    void reload();
    void cancel();
    bool isLoading() const;
    // A newer state of a trace followed live (ui/record), or its first: its facts are worked out
    // in the background, then shown without a load. Dropped while a load the user started runs.
    // `final`: the trace is complete (Reload then reads it from disk again).
    void showLive(std::shared_ptr<const Trace> trace, const QStringList& paths, bool final);
    // Blocks until the workers have finished (tests, shutdown).
    void waitForWorkers();

Q_SIGNALS:
    void loadStarted(const QStringList& paths);
    void loadProgress(double fraction, const QString& stage);
    void loadCancelled();
    // The open trace changed. The selection is cleared before it is emitted and, when the change
    // keeps the same trace (a reload, a live update), set again afterwards to the same compile.
    void traceChanged(const std::shared_ptr<const dynascope::Trace>& trace, TraceChange change);
    // After every load: `read` when it gave a trace (shown, after its traceChanged); ok is false
    // when some input could not be read (errors says which).
    void loadFinished(bool ok, const QStringList& errors, bool read);
    // A state of a trace followed live was shown (after its traceChanged).
    void liveShown(bool final, const QStringList& paths);

private:
    void start(const QStringList& paths, const LoadOptions& choice);
    void onLoadFinished(const LoadOutcome& outcome);
    void apply(std::shared_ptr<const TraceFacts> facts, TraceChange change);

    TraceLoadController* m_loader;
    BackgroundJob* m_liveJob;
    CompileSelection* m_selection;
    std::shared_ptr<const TraceFacts> m_facts;
    std::vector<Diagnostic> m_failed; // the errors of a load that read nothing
    QStringList m_paths;
    LoadOptions m_runChoice; // the run choice the open trace was loaded with
    LoadOptions m_loadingChoice; // the one of the load in flight
    QByteArray m_pasted; // the text of a paste being shown (empty: files)
    QByteArray m_pasting; // the text of a paste being loaded
    qint64 m_lastLoadUs = 0;
};

} // namespace dynascope::ui
