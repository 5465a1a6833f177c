#include "ui/record/recordingui.h"

#include "ui/mainactions.h"
#include "ui/mainwindow.h"
#include "ui/record/recorddialog.h"
#include "ui/record/recordingviews.h"

#include <QAction>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>

namespace dynascope::ui {

RecordingUi::RecordingUi(
    MainWindow* window, MainActions* actions, QStackedWidget* stack, QStatusBar* bar)
    : QObject(window)
    , m_window(window)
    , m_actions(actions)
    , m_stack(stack)
    , m_bar(bar)
    , m_run(new RunController(this))
    , m_page(new RecordingPage(m_run, stack))
    , m_indicator(new RunIndicator(m_run, bar))
{
    m_stack->addWidget(m_page);
    m_bar->addPermanentWidget(m_indicator);
    connect(m_actions->recordRun, &QAction::triggered, this, &RecordingUi::showDialog);
    connect(m_actions->stopRun, &QAction::triggered, m_run, &RunController::stop);
    connect(m_run, &RunController::started, this, &RecordingUi::onStarted);
    connect(m_run, &RunController::finished, this, &RecordingUi::onFinished);
    connect(m_run, &RunController::openRequested, m_window,
        [this](const QStringList& paths) { m_window->openPaths(paths); });
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
    if (!m_window->trace())
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
    if (!m_window->trace())
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
