#include "ui/record/recordingui.h"

#include "ui/mainactions.h"
#include "ui/recentfiles.h"
#include "ui/record/livefollower.h"
#include "ui/record/recorddialog.h"
#include "ui/record/recordingviews.h"
#include "ui/tracesession.h"

#include "core/run/run_folder.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>

namespace dynascope::ui {

RecordingUi::RecordingUi(TraceSession* session, QMainWindow* window, MainActions* actions,
    QStackedWidget* stack, RecentFiles* recent)
    : QObject(window)
    , m_session(session)
    , m_window(window)
    , m_recent(recent)
    , m_actions(actions)
    , m_stack(stack)
    , m_bar(window->statusBar())
    , m_run(new RunController(this))
    , m_page(new RecordingPage(m_run, stack))
    , m_indicator(new RunIndicator(m_run, m_bar))
    , m_follow(new LiveFollower(this))
    , m_followIndicator(new FollowIndicator(m_follow, m_bar))
{
    m_stack->addWidget(m_page);
    m_bar->addPermanentWidget(m_indicator);
    m_bar->addPermanentWidget(m_followIndicator);
    connect(m_actions->recordRun, &QAction::triggered, this, &RecordingUi::showDialog);
    connect(m_actions->stopRun, &QAction::triggered, m_run, &RunController::stop);
    connect(m_run, &RunController::started, this, &RecordingUi::onStarted);
    connect(m_run, &RunController::finished, this, &RecordingUi::onFinished);
    connect(m_run, &RunController::openRequested, m_session,
        [this](const QStringList& paths) { m_session->open(paths); });
    connect(m_run, &RunController::traceUpdated, m_session,
        [this](const std::shared_ptr<const Trace>& trace, const QStringList& paths, bool final) {
            if (trace)
                m_session->showLive(trace, paths, final);
            else if (final && !run::runTraceFiles(m_run->folder().toStdString()).empty())
                m_session->open(paths); // files that do not load: the window says why
        });

    connect(m_actions->followFolder, &QAction::triggered, this, &RecordingUi::showFollowDialog);
    connect(m_actions->stopFollowing, &QAction::triggered, this, &RecordingUi::stopFollowing);
    connect(m_followIndicator, &FollowIndicator::stopRequested, this, &RecordingUi::stopFollowing);
    connect(m_follow, &TraceFollower::traceUpdated, m_session,
        [this](const std::shared_ptr<const Trace>& trace, const QStringList& paths, bool final) {
            m_session->showLive(trace, paths, final);
        });
    // Opening another trace ends following.
    connect(m_session, &TraceSession::traceChanged, this, [this] {
        if (m_follow->isFollowing() && m_session->paths() != QStringList { m_follow->folder() })
            stopFollowing();
    });
}

void RecordingUi::follow(const QString& folder)
{
    const QString path = QDir(folder).absolutePath();
    m_follow->begin(path);
    m_actions->stopFollowing->setEnabled(true);
    m_followIndicator->refresh();
    m_bar->showMessage(tr("Following %1: compiles appear as the job logs them").arg(path), 8000);
}

void RecordingUi::stopFollowing()
{
    if (!m_follow->isFollowing())
        return;
    m_follow->stop();
    m_actions->stopFollowing->setEnabled(false);
    m_followIndicator->refresh();
    m_bar->showMessage(tr("Stopped following %1").arg(m_follow->folder()), 8000);
}

void RecordingUi::showFollowDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(m_window,
        tr("Follow a TORCH_TRACE Folder a Running Job Writes Into"),
        m_recent->startFolder(m_session->paths()));
    if (!folder.isEmpty())
        follow(folder);
}

bool RecordingUi::start(const RunRequest& request, QString* error)
{
    QString why;
    if (!m_run->start(request, &why)) {
        m_bar->showMessage(tr("Could not record: %1").arg(why), 15000);
        if (error)
            *error = why;
        return false;
    }
    return true;
}

void RecordingUi::showDialog()
{
    if (m_run->isRunning()) {
        QMessageBox::information(m_window, tr("Record a Run"),
            tr("A program is being recorded; stop it or wait for it to end first."));
        return;
    }
    RecordDialog dialog(m_lastCommand, m_lastWorkdir, m_window);
    while (dialog.exec() == QDialog::Accepted) {
        m_lastCommand = dialog.commandLine();
        m_lastWorkdir = dialog.workingDirectory();
        QString error;
        if (start(dialog.request(), &error))
            return;
        QMessageBox::warning(m_window, tr("Record a Run"), error);
    }
}

void RecordingUi::onStarted()
{
    m_actions->stopRun->setEnabled(true);
    m_actions->recordRun->setEnabled(false);
    if (!m_session->trace())
        m_stack->setCurrentWidget(m_page);
    m_window->setWindowTitle(tr("Recording — Dynascope"));
}

void RecordingUi::onFinished()
{
    m_actions->stopRun->setEnabled(false);
    m_actions->recordRun->setEnabled(true);
    const auto& status = m_run->status();
    m_bar->showMessage(tr("The recorded program %1")
                           .arg(status ? QString::fromStdString(status->describe()) : QString()),
        10000);
    if (!m_session->trace())
        m_window->setWindowTitle(tr("Recorded — Dynascope"));
}

bool RecordingUi::confirmClose()
{
    if (!m_run->isRunning())
        return true;
    QMessageBox box(QMessageBox::Question, tr("Quit Dynascope"),
        tr("The recorded program is still running."), QMessageBox::Cancel, m_window);
    box.setInformativeText(tr("Stop it (SIGINT, then SIGKILL after 3 seconds) and quit?"));
    QPushButton* stop = box.addButton(tr("Stop It and Quit"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != stop)
        return false;
    m_run->stop(); // SIGINT; the controller's poll notices the end
    QElapsedTimer clock;
    clock.start();
    while (m_run->isRunning() && !m_run->status() && clock.elapsed() < 3000) {
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents, 50);
        QThread::msleep(20);
    }
    m_run->stop(); // SIGKILL when it is still running (the controller reaps it)
    return true;
}

} // namespace dynascope::ui
