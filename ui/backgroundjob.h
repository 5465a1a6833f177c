// BackgroundJob: one way to run work off the GUI thread and get its result back on it, used by
// the trace load, the payload check and the report view. Each start() gets a job id and a fresh
// stop token; starting again (or cancel()) requests stop on the job in flight, and its result is
// dropped when it arrives, so a slow old job never overwrites a newer one. Errors travel as
// values: an exception thrown by the work is caught on the worker thread and handed to `done` as
// an error message; nothing is rethrown in a GUI slot.
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <functional>
#include <optional>
#include <stop_token>

namespace dynascope::ui {

template <typename R> struct JobOutcome {
    quint64 job = 0;
    std::optional<R> value; // empty when the work threw
    QString error; // what it threw
    bool stopRequested = false; // the job was asked to stop (it may still have a value)
};

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* parent = nullptr)
        : QObject(parent)
    {
    }
    ~BackgroundJob() override
    {
        // The work holds only what it captured, but quitting must not leave a thread running.
        m_stop.request_stop();
        waitForWorker();
    }

    // Runs work(token) on the thread pool; done(outcome) runs on this object's thread when it
    // finishes, unless a newer start() or a cancel() came first. Returns the job id.
    template <typename R>
    quint64 start(std::function<R(std::stop_token)> work, std::function<void(JobOutcome<R>)> done)
    {
        if (m_running)
            m_stop.request_stop();
        const quint64 job = ++m_job;
        m_running = true;
        m_stop = std::stop_source();
        const std::stop_token token = m_stop.get_token();
        QFuture<JobOutcome<R>> future
            = QtConcurrent::run([work = std::move(work), token, job]() -> JobOutcome<R> {
                  JobOutcome<R> out;
                  out.job = job;
                  try {
                      out.value = work(token);
                  } catch (const std::exception& e) {
                      out.error = QString::fromUtf8(e.what());
                  } catch (...) {
                      out.error = QStringLiteral("unknown error");
                  }
                  out.stopRequested = token.stop_requested();
                  return out;
              });
        m_wait = [future]() mutable { future.waitForFinished(); };
        // A watcher per job, so a job that finished before the watcher was attached is still
        // reported; the id decides whether its result is still wanted.
        auto* watcher = new QFutureWatcher<JobOutcome<R>>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, job, done = std::move(done)] {
                watcher->deleteLater();
                if (job != m_job || !m_running)
                    return; // superseded or cancelled: dropped
                m_running = false;
                done(watcher->future().result());
            });
        watcher->setFuture(future);
        return job;
    }

    // Requests stop on the job in flight; its result will be dropped.
    void cancel()
    {
        m_stop.request_stop();
        m_running = false;
    }
    bool isRunning() const { return m_running; }
    quint64 currentJob() const { return m_job; }
    // Blocks until the newest job's worker has returned (tests, shutdown).
    void waitForWorker()
    {
        if (m_wait)
            m_wait();
    }

private:
    quint64 m_job = 0;
    bool m_running = false;
    std::stop_source m_stop;
    std::function<void()> m_wait;
};

} // namespace dynascope::ui
