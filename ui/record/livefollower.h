// LiveFollower: the window follows a trace while it is written (core/load/live_trace.h): the
// run folder of a program the app records, or a folder a running job writes into (File > Follow
// Folder…). A worker thread polls every 250 ms, reading only what was appended, and loads what
// it has once something changed; each load goes to the window (traceUpdated) on the GUI thread,
// which never waits for one. Loads are spaced by twice the time the last one took, so a big
// trace is indexed at most a third of the time. end() reads what is left, hands the final trace
// over (final = true) and stops.
#pragma once

#include "ui/record/runcontroller.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace dynascope::ui {

class LiveFollower final : public TraceFollower {
    Q_OBJECT
public:
    explicit LiveFollower(QObject* parent = nullptr);
    ~LiveFollower() override; // stops the worker (a load in progress is cancelled) and joins it

    void begin(const QString& folder) override;
    void end(const QString& folder) override;
    QString whileRunning() const override;
    QString progress() const override;
    // Stops at once (File > Stop Following): no final trace; updates still queued are dropped.
    void stop();

    bool isFollowing() const { return m_worker.joinable() && !m_ended; }
    QString folder() const { return m_folder; }
    // What the last trace handed over holds (GUI thread).
    qsizetype compiles() const { return m_compiles; }
    qsizetype files() const { return m_files; }
    qint64 bytesRead() const { return m_bytes; }
    int updates() const { return m_updates; }

    static constexpr int kPollMs = 250;

private:
    void work(std::stop_token stop, std::vector<std::string> paths);
    void stopWorker();

    QString m_folder;
    std::jthread m_worker;
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::atomic<bool> m_ending { false };
    bool m_ended = false;
    qsizetype m_compiles = 0, m_files = 0;
    qint64 m_bytes = 0;
    int m_updates = 0;
    quint64 m_generation = 0; // of the worker whose updates are shown: begin() and stop() count
};

} // namespace dynascope::ui
