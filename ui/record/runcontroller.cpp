#include "ui/record/runcontroller.h"

#include "ui/record/livefollower.h"

#include <QDir>
#include <QFileInfo>

#include <csignal>

namespace dynascope::ui {

RunController::RunController(QObject* parent)
    : QObject(parent)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &RunController::poll);
    setFollower(std::make_unique<LiveFollower>());
}

RunController::~RunController()
{
    if (isRunning()) {
        m_forwarder.reset();
        m_child.sendSignal(SIGKILL);
        m_child.wait();
    }
}

void RunController::setFollower(std::unique_ptr<TraceFollower> follower)
{
    m_follower = std::move(follower);
    connect(m_follower.get(), &TraceFollower::openRequested, this, &RunController::openRequested);
    connect(m_follower.get(), &TraceFollower::traceUpdated, this, &RunController::traceUpdated);
}

bool RunController::start(const RunRequest& request, QString* error)
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (isRunning())
        return fail(tr("A program is already being recorded."));
    if (request.argv.isEmpty() || request.argv.front().isEmpty())
        return fail(tr("There is no command to run."));
    std::string why;
    if (!run::prepareRunFolder(request.folder.toStdString(), &why))
        return fail(QString::fromStdString(why));
    m_request = request;
    m_request.folder = QDir(request.folder).absolutePath();
    if (!m_request.workingDirectory.isEmpty())
        m_request.workingDirectory = QDir(m_request.workingDirectory).absolutePath();

    run::SpawnOptions options;
    for (const QString& a : m_request.argv)
        options.argv.push_back(a.toStdString());
    options.setEnvironment = { { "TORCH_TRACE", m_request.folder.toStdString() } };
    options.workingDirectory = m_request.workingDirectory.toStdString();
    if (m_request.captureOutput)
        options.outputFile = outputFile().toStdString();

    m_record = {};
    m_record.command = options.argv;
    m_record.workingDirectory = m_request.workingDirectory.isEmpty()
        ? QDir::currentPath().toStdString()
        : m_request.workingDirectory.toStdString();
    m_record.traceFolder = m_request.folder.toStdString();
    m_record.startedUs = run::nowUs();
    m_status.reset();
    m_seconds = 0;
    m_stops = 0;
    // Signals sent between the spawn and the forwarder wait, then go to the program.
    auto held = std::make_optional<run::ForwardedSignalsBlocked>();
    m_child = run::ChildProcess::spawn(options, &why);
    if (!m_child.valid()) {
        m_record.spawnError = why;
        run::writeRunRecord(m_record.traceFolder, m_record, nullptr);
        return fail(QString::fromStdString(why));
    }
    // Ctrl+C in the terminal the app was started from reaches the program directly; the app
    // survives it (and passes on a SIGINT or SIGTERM sent to the app alone) while it records.
    m_forwarder = std::make_unique<run::SignalForwarder>(m_child.pid());
    held.reset();
    m_clock.start();
    m_poll.start();
    m_follower->begin(m_request.folder);
    Q_EMIT started();
    return true;
}

void RunController::stop()
{
    if (!isRunning())
        return;
    m_child.sendSignal(m_stops == 0 ? SIGINT : SIGKILL);
    ++m_stops;
}

qint64 RunController::elapsedMs() const
{
    if (!m_child.valid())
        return 0;
    if (m_child.finished())
        return static_cast<qint64>(m_seconds * 1000);
    return m_clock.elapsed();
}

QString RunController::outputFile() const
{
    return m_request.captureOutput ? QDir(m_request.folder).filePath(QStringLiteral("output.log"))
                                   : QString();
}

void RunController::poll()
{
    const auto status = m_child.poll();
    if (!status) {
        Q_EMIT tick();
        return;
    }
    m_poll.stop();
    m_forwarder.reset();
    m_seconds = static_cast<double>(m_clock.elapsed()) / 1000.0;
    m_status = status;
    m_record.exit = status;
    m_record.seconds = m_seconds;
    run::writeRunRecord(m_record.traceFolder, m_record, nullptr);
    Q_EMIT finished();
    m_follower->end(m_request.folder);
}

} // namespace dynascope::ui
