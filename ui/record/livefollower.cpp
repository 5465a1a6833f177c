#include "ui/record/livefollower.h"

#include "core/load/live_trace.h"

#include <QMetaObject>

#include <chrono>

namespace dynascope::ui {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kMinGap = std::chrono::milliseconds(LiveFollower::kPollMs);
} // namespace

LiveFollower::LiveFollower(QObject* parent)
    : TraceFollower(parent)
{
    connect(this, &TraceFollower::traceUpdated, this,
        [this](const std::shared_ptr<const Trace>& trace, const QStringList&, bool final) {
            if (trace) {
                m_compiles = static_cast<qsizetype>(trace->compiles.size());
                m_files = static_cast<qsizetype>(trace->files.size());
                ++m_updates;
            }
            if (final)
                m_ended = true;
        });
}

LiveFollower::~LiveFollower()
{
    stopWorker();
}

void LiveFollower::stopWorker()
{
    if (!m_worker.joinable())
        return;
    m_worker.request_stop(); // cancels a load in progress; wakes the wait
    m_worker.join();
}

void LiveFollower::stop()
{
    ++m_generation;
    stopWorker();
    m_ended = true;
}

void LiveFollower::begin(const QString& folder)
{
    stopWorker();
    ++m_generation;
    m_folder = folder;
    m_ending = false;
    m_ended = false;
    m_compiles = m_files = 0;
    m_bytes = 0;
    m_updates = 0;
    m_worker = std::jthread([this, paths = std::vector<std::string> { folder.toStdString() }](
                                std::stop_token stop) { work(stop, paths); });
}

void LiveFollower::end(const QString&)
{
    if (!m_worker.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_ending = true;
    }
    m_wake.notify_all();
    // The worker hands over the final trace (queued to this thread) and returns.
}

QString LiveFollower::progress() const
{
    if (m_updates == 0)
        return tr("no trace yet");
    QString s = m_compiles == 1 ? tr("1 compile") : tr("%1 compiles").arg(m_compiles);
    if (m_files > 1)
        s += tr(" in %1 files").arg(m_files);
    return s;
}

QString LiveFollower::whileRunning() const
{
    return tr("The trace is followed live: compiles appear on the timeline as they are logged.");
}

void LiveFollower::work(std::stop_token stop, std::vector<std::string> paths)
{
    LoadOptions options;
    options.verifyPayloads = true; // as every load of the app: the payload check reports it
    options.threads = 2; // leave the rest of the machine to the program being followed
    LiveTrace live(paths, options);
    const quint64 generation = m_generation; // set by begin() before this thread started
    const QStringList shown { QString::fromStdString(paths.front()) };
    auto hand = [&](const LoadResult& result, bool final) {
        const qint64 bytes = static_cast<qint64>(live.totalBytesRead());
        QMetaObject::invokeMethod(
            this,
            [this, trace = result.trace, shown, final, bytes, generation] {
                if (generation != m_generation)
                    return; // stopped, or another folder is followed now
                m_bytes = bytes;
                Q_EMIT traceUpdated(trace, shown, final);
            },
            Qt::QueuedConnection);
    };
    Clock::time_point next = Clock::now();
    bool pending = false;
    while (!stop.stop_requested()) {
        const bool ending = m_ending;
        pending = live.poll().changed || pending;
        if (ending) {
            const LoadResult result = live.snapshot(stop);
            if (!stop.stop_requested())
                hand(result, true);
            return;
        }
        if (pending && Clock::now() >= next) {
            const auto started = Clock::now();
            const LoadResult result = live.snapshot(stop);
            const auto took = Clock::now() - started;
            next = Clock::now() + std::max<Clock::duration>(kMinGap, 2 * took);
            pending = false;
            if (result.trace && !stop.stop_requested())
                hand(result, false);
        }
        std::unique_lock lock(m_mutex);
        m_wake.wait_for(lock, stop, kMinGap, [this] { return m_ending.load(); });
    }
}

} // namespace dynascope::ui
