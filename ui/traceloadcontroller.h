// TraceLoadController: runs core's synchronous loader as a BackgroundJob, works out the loaded
// trace's facts in the same job (tracefacts.h: findings, payload check, marks), and hands both
// back on the GUI thread. Each load gets a job id; starting a new load requests stop on the
// previous one and its result is dropped when it arrives. Progress is written by the worker into
// atomics and polled by a GUI-thread timer, which throttles it for free and never needs the worker
// to touch a QObject.
#pragma once

#include "core/load/loader.h"

#include "ui/backgroundjob.h"
#include "ui/tracefacts.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace dynascope::ui {

struct LoadOutcome {
    quint64 job = 0;
    QStringList paths;
    LoadResult result;
    std::shared_ptr<const TraceFacts> facts; // of result.trace (null when none was read)
    qint64 elapsedUs = 0; // wall time from start() to the result, facts included
    // Inputs that could not be read, formatted "file: message".
    QStringList errorMessages() const;
};

class TraceLoadController : public QObject {
    Q_OBJECT
public:
    explicit TraceLoadController(QObject* parent = nullptr);
    ~TraceLoadController() override;

    // Starts loading; a load in flight is cancelled and its result will be dropped.
    quint64 start(const QStringList& paths, const LoadOptions& options = {});
    // Starts loading text from memory (a paste), recognised by content; `name` stands for it.
    quint64 startText(const QString& name, const QByteArray& bytes);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }
    quint64 currentJob() const { return m_jobs.currentJob(); }
    // Blocks until the worker of the current job has finished (tests, shutdown).
    void waitForWorker();

Q_SIGNALS:
    void started(quint64 job, const QStringList& paths);
    void progress(quint64 job, double fraction, const QString& stage);
    void finished(const dynascope::ui::LoadOutcome& outcome);
    void cancelled(quint64 job);

private:
    struct ProgressState;
    void pollProgress();
    struct Loaded {
        LoadResult result;
        std::shared_ptr<const TraceFacts> facts;
    };
    static Loaded withFacts(LoadResult result, std::stop_token stop);
    void onWorkerDone(QStringList paths, JobOutcome<Loaded> outcome);

    BackgroundJob m_jobs;
    std::shared_ptr<ProgressState> m_state;
    QTimer m_poll;
    QElapsedTimer m_clock;
};

} // namespace dynascope::ui
