// RunController: a program the user asked the app to record (`dynascope --record -- CMD`, File >
// Record a Run…), started through core/run/child_process (the one module that spawns processes:
// argv as typed, no shell) with TORCH_TRACE pointing at a fresh run folder, watched from the GUI
// thread by a 100 ms poll that never blocks, and stopped on request (SIGINT, then SIGKILL).
//
// What the window does with the trace while the program runs is the TraceFollower's business:
// the LiveFollower (livefollower.h) follows the run folder live, reading only what was appended,
// and hands each newer state of the trace to the window. begin() when the run starts, end() when
// it stops, traceUpdated in between and once more, final, after the end.
#pragma once

#include "core/model/trace.h"
#include "core/run/child_process.h"
#include "core/run/run_folder.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>

namespace dynascope::ui {

struct RunRequest {
    QStringList argv;
    QString workingDirectory; // empty: the app's
    QString folder; // the run folder: new or empty (run::prepareRunFolder)
    // false: the program shares the app's stdin, stdout and stderr (dynascope --record from a
    // terminal); true: its stdout and stderr go to FOLDER/output.log, stdin reads /dev/null
    // (File > Record a Run…), and the window shows that file as it grows.
    bool captureOutput = false;
};

class TraceFollower : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void begin(const QString& folder) = 0;
    virtual void end(const QString& folder) = 0;
    // What the window says about the trace while the program runs.
    virtual QString whileRunning() const = 0;
    // How far it got, in a few words ("12 compiles", "no trace yet").
    virtual QString progress() const = 0;

Q_SIGNALS:
    // Open (or reopen) these paths in the window.
    void openRequested(const QStringList& paths);
    // A newer state of the trace at `paths` (null: nothing written yet); `final` once the run
    // ended and everything was read.
    void traceUpdated(
        const std::shared_ptr<const dynascope::Trace>& trace, const QStringList& paths, bool final);
};

class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override; // a program still running is killed and reaped

    // Starts the program; false with *error when the folder is not usable or it cannot start.
    bool start(const RunRequest& request, QString* error);
    bool isRunning() const { return m_child.valid() && !m_child.finished(); }
    // First call: SIGINT (what Ctrl+C sends; Python stops with KeyboardInterrupt and its trace
    // stays complete); a second call while it still runs: SIGKILL.
    void stop();
    bool stopRequested() const { return m_stops > 0; }

    int pid() const { return m_child.pid(); }
    qint64 elapsedMs() const;
    const RunRequest& request() const { return m_request; }
    QString folder() const { return m_request.folder; }
    QString outputFile() const; // FOLDER/output.log when captured, else empty
    // After the end: how it ended (nullopt while running or before any run).
    const std::optional<run::ExitStatus>& status() const { return m_status; }
    double seconds() const { return m_seconds; }

    TraceFollower* follower() const { return m_follower.get(); }
    void setFollower(std::unique_ptr<TraceFollower> follower);

Q_SIGNALS:
    void started();
    void tick(); // while running, every poll
    void finished();
    void openRequested(const QStringList& paths); // from the follower
    void traceUpdated(const std::shared_ptr<const dynascope::Trace>& trace,
        const QStringList& paths, bool final); // from the follower

private:
    void poll();

    RunRequest m_request;
    run::ChildProcess m_child;
    std::unique_ptr<run::SignalForwarder> m_forwarder;
    run::RunRecord m_record;
    std::optional<run::ExitStatus> m_status;
    double m_seconds = 0;
    int m_stops = 0;
    QElapsedTimer m_clock;
    QTimer m_poll;
    std::unique_ptr<TraceFollower> m_follower;
};

} // namespace dynascope::ui
