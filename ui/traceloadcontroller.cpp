#include "ui/traceloadcontroller.h"

#include "core/load/loader.h"
#include "ui/models/format.h"

#include <atomic>
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
    , m_jobs(this)
{
    m_poll.setInterval(80);
    connect(&m_poll, &QTimer::timeout, this, &TraceLoadController::pollProgress);
}

TraceLoadController::~TraceLoadController() = default; // m_jobs stops and waits

void TraceLoadController::waitForWorker()
{
    m_jobs.waitForWorker();
}

quint64 TraceLoadController::start(const QStringList& paths, const LoadOptions& options)
{
    if (m_jobs.isRunning())
        Q_EMIT cancelled(m_jobs.currentJob());
    m_state = std::make_shared<ProgressState>();
    m_clock.start();

    std::vector<std::string> files;
    files.reserve(static_cast<size_t>(paths.size()));
    for (const QString& p : paths)
        files.push_back(p.toStdString());

    auto state = m_state;
    const quint64 job = m_jobs.start<Loaded>(
        [files = std::move(files), state, options](std::stop_token token) {
            ProgressSink sink = [state](const LoadProgress& p) {
                state->done.store(p.bytesDone, std::memory_order_relaxed);
                state->total.store(p.bytesTotal, std::memory_order_relaxed);
                std::lock_guard lock(state->mutex);
                if (state->stage != p.stage)
                    state->stage = p.stage;
            };
            LoadResult result = dynascope::load(files, options, sink, token);
            {
                // Read: the findings are worked out now, on this thread (the bar stays full).
                std::lock_guard lock(state->mutex);
                state->stage = "analysing";
            }
            return withFacts(std::move(result), token);
        },
        [this, paths](JobOutcome<Loaded> outcome) { onWorkerDone(paths, std::move(outcome)); });
    m_poll.start();
    Q_EMIT started(job, paths);
    Q_EMIT progress(job, 0.0, tr("starting"));
    return job;
}

quint64 TraceLoadController::startText(const QString& name, const QByteArray& bytes)
{
    if (m_jobs.isRunning())
        Q_EMIT cancelled(m_jobs.currentJob());
    m_state = std::make_shared<ProgressState>();
    m_clock.start();
    const QStringList paths { name };
    const quint64 job = m_jobs.start<Loaded>(
        [name = name.toStdString(), bytes](std::stop_token token) {
            return withFacts(
                loadText(name, std::string_view(bytes.constData(), size_t(bytes.size()))), token);
        },
        [this, paths](JobOutcome<Loaded> outcome) { onWorkerDone(paths, std::move(outcome)); });
    m_poll.start();
    Q_EMIT started(job, paths);
    Q_EMIT progress(job, 0.0, tr("reading"));
    return job;
}

void TraceLoadController::cancel()
{
    if (!m_jobs.isRunning())
        return;
    m_jobs.cancel();
    m_poll.stop();
    Q_EMIT cancelled(m_jobs.currentJob());
}

void TraceLoadController::pollProgress()
{
    if (!m_jobs.isRunning() || !m_state)
        return;
    const uint64_t total = m_state->total.load(std::memory_order_relaxed);
    const uint64_t done = m_state->done.load(std::memory_order_relaxed);
    QString stage;
    {
        std::lock_guard lock(m_state->mutex);
        stage = qs(m_state->stage);
    }
    Q_EMIT progress(m_jobs.currentJob(),
        total ? static_cast<double>(done) / static_cast<double>(total) : 0.0, stage);
}

TraceLoadController::Loaded TraceLoadController::withFacts(LoadResult result, std::stop_token stop)
{
    Loaded out;
    if (result.trace && !result.cancelled && !stop.stop_requested())
        out.facts = computeTraceFacts(result.trace, stop);
    result.cancelled = result.cancelled || stop.stop_requested();
    out.result = std::move(result);
    return out;
}

void TraceLoadController::onWorkerDone(QStringList paths, JobOutcome<Loaded> outcome)
{
    m_poll.stop();
    LoadResult result;
    std::shared_ptr<const TraceFacts> facts;
    if (outcome.value) {
        result = std::move(outcome.value->result);
        facts = std::move(outcome.value->facts);
    } else {
        // The loader threw (out of memory, a bug): an error naming the input, as for an
        // unreadable file; the trace that was open stays.
        Diagnostic d;
        d.severity = Severity::Error;
        d.code = DiagnosticCode::IoError;
        d.file = paths.isEmpty() ? std::string() : paths.front().toStdString();
        d.message = "loading failed: " + outcome.error.toStdString();
        result.errors.push_back(d);
    }
    if (result.cancelled) {
        Q_EMIT cancelled(outcome.job);
        return;
    }
    LoadOutcome out;
    out.job = outcome.job;
    out.paths = std::move(paths);
    out.result = std::move(result);
    out.facts = std::move(facts);
    out.elapsedUs = m_clock.nsecsElapsed() / 1000;
    Q_EMIT finished(out);
}

} // namespace dynascope::ui
