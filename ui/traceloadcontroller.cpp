#include "ui/traceloadcontroller.h"

#include "ui/models/format.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <mutex>

namespace dynascope::ui {

struct TraceLoadController::ProgressState {
    std::atomic<uint64_t> done { 0 };
    std::atomic<uint64_t> total { 0 };
    std::mutex mutex;
    std::string stage;
};

QStringList LoadOutcome::errorMessages() const
{
    QStringList out;
    for (const Diagnostic& d : result.errors)
        out << qs(d.format());
    return out;
}

TraceLoadController::TraceLoadController(QObject* parent)
    : QObject(parent)
{
    m_poll.setInterval(80);
    connect(&m_poll, &QTimer::timeout, this, &TraceLoadController::pollProgress);
}

TraceLoadController::~TraceLoadController()
{
    // The worker holds only values and its own shared state, so it may outlive us; still stop
    // it and wait, so that quitting during a large load does not leave a thread parsing.
    m_stop.request_stop();
    waitForWorker();
}

void TraceLoadController::waitForWorker()
{
    if (m_worker.isValid())
        m_worker.waitForFinished();
}

quint64 TraceLoadController::start(const QStringList& paths)
{
    if (m_running) {
        m_stop.request_stop();
        Q_EMIT cancelled(m_job);
    }
    const quint64 job = ++m_job;
    m_running = true;
    m_stop = std::stop_source();
    m_state = std::make_shared<ProgressState>();
    m_clock.start();

    std::vector<std::string> files;
    files.reserve(static_cast<size_t>(paths.size()));
    for (const QString& p : paths)
        files.push_back(p.toStdString());

    auto state = m_state;
    m_worker = QtConcurrent::run([files = std::move(files), token = m_stop.get_token(), state]() {
        ProgressSink sink = [state](const LoadProgress& p) {
            state->done.store(p.bytesDone, std::memory_order_relaxed);
            state->total.store(p.bytesTotal, std::memory_order_relaxed);
            std::lock_guard lock(state->mutex);
            if (state->stage != p.stage)
                state->stage = p.stage;
        };
        try {
            return dynascope::load(files, LoadOptions {}, sink, token);
        } catch (const std::exception& e) {
            // Errors travel as values: the GUI thread shows them.
            LoadResult r;
            Diagnostic d;
            d.severity = Severity::Error;
            d.code = DiagnosticCode::IoError;
            d.file = files.empty() ? std::string() : files.front();
            d.message = std::string("loading failed: ") + e.what();
            r.errors.push_back(d);
            return r;
        }
    });
    // A watcher per job (rather than QFuture::then with a context) so a worker that finished
    // before we attached is still reported; the job id decides whether the result is wanted.
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, paths] {
        watcher->deleteLater();
        onWorkerDone(job, paths, watcher->future().result());
    });
    watcher->setFuture(m_worker);
    m_poll.start();
    Q_EMIT started(job, paths);
    Q_EMIT progress(job, 0.0, tr("starting"));
    return job;
}

void TraceLoadController::cancel()
{
    if (!m_running)
        return;
    m_stop.request_stop();
    m_running = false;
    m_poll.stop();
    Q_EMIT cancelled(m_job);
}

void TraceLoadController::pollProgress()
{
    if (!m_running || !m_state)
        return;
    const uint64_t total = m_state->total.load(std::memory_order_relaxed);
    const uint64_t done = m_state->done.load(std::memory_order_relaxed);
    QString stage;
    {
        std::lock_guard lock(m_state->mutex);
        stage = qs(m_state->stage);
    }
    Q_EMIT progress(
        m_job, total ? static_cast<double>(done) / static_cast<double>(total) : 0.0, stage);
}

void TraceLoadController::onWorkerDone(quint64 job, QStringList paths, LoadResult result)
{
    // A superseded or cancelled load: its result is dropped.
    if (job != m_job || !m_running)
        return;
    m_running = false;
    m_poll.stop();
    if (result.cancelled) {
        Q_EMIT cancelled(job);
        return;
    }
    LoadOutcome outcome;
    outcome.job = job;
    outcome.paths = std::move(paths);
    outcome.result = std::move(result);
    outcome.elapsedMs = m_clock.elapsed();
    Q_EMIT finished(outcome);
}

} // namespace dynascope::ui
