// MainWindow (mainwindow.h): what the window does around a load: the opening entry points, which
// hand over to the session (a probe folder goes to the Probe view), and the status bar, the
// recent files and the diagnostics dock as a load starts, progresses and ends.
#include "ui/mainwindow.h"

#include "ui/diagnosticsdock.h"
#include "ui/mainactions.h"
#include "ui/models/format.h"
#include "ui/probe/probedock.h"
#include "ui/recentfiles.h"
#include "ui/tracesession.h"

#include "core/run/probe_session.h"

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace dynascope::ui {

void MainWindow::openPaths(const QStringList& paths, const LoadOptions& choice)
{
    if (paths.isEmpty())
        return;
    if (paths.size() == 1 && isProbeSessionFolder(paths.front().toStdString())) {
        openProbe(paths.front());
        return;
    }
    m_session->open(paths, choice);
}

void MainWindow::openRun(const LoadOptions& choice)
{
    m_session->openRun(choice);
}

void MainWindow::openProbe(const QString& folder)
{
    m_recent->add(folder);
    m_probe->open(folder);
}

void MainWindow::openText(const QByteArray& text)
{
    m_session->openText(text);
}

void MainWindow::pasteFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("The clipboard holds no text to open. Copy the TORCH_LOGS "
                                    "output (or a TORCH_TRACE log) first."),
            8000);
        return;
    }
    openText(text.toUtf8());
}

void MainWindow::reload()
{
    m_session->reload();
}

bool MainWindow::isLoading() const
{
    return m_session->isLoading();
}

void MainWindow::showLiveTrace(
    std::shared_ptr<const Trace> trace, const QStringList& paths, bool final)
{
    m_session->showLive(std::move(trace), paths, final);
}

void MainWindow::onLoadStarted(const QStringList& paths)
{
    showLoading(true);
    m_summary->setText(tr("Loading %1…")
                           .arg(paths.size() == 1 ? QFileInfo(paths.front()).fileName()
                                                  : tr("%1 paths").arg(paths.size())));
}

void MainWindow::onLoadProgress(double fraction, const QString& stage)
{
    m_progress->setValue(static_cast<int>(fraction * 1000));
    m_progress->setFormat(stage.isEmpty() ? QStringLiteral("%p%") : stage + QStringLiteral(" %p%"));
}

void MainWindow::onLoadCancelled()
{
    showLoading(false);
    m_summary->setText(trace() ? summaryText() : tr("Loading cancelled"));
}

void MainWindow::onLoadFinished(bool ok, const QStringList& errors, bool read)
{
    showLoading(false);
    if (read) {
        if (!m_session->isPasted())
            for (const QString& p : m_session->paths())
                if (QFileInfo::exists(p))
                    m_recent->add(p);
        m_loadTime->setText(tr("loaded in %1")
                                .arg(formatDuration(static_cast<double>(
                                    std::max<qint64>(m_session->lastLoadUs(), 1)))));
    } else if (!trace()) {
        // Nothing could be read and nothing was open: the start page stays; the dock says why.
        m_diagnostics->setDiagnostics(m_session->diagnostics());
        m_summary->setText(tr("Could not read: %1").arg(errors.join(QStringLiteral("; "))));
        m_diagnostics->show();
    }
    // else: nothing could be read; the trace that was open stays, as it was.
    if (!errors.isEmpty()) {
        QString message = tr("Could not read: %1").arg(errors.join(QStringLiteral("; ")));
        if (!read && trace())
            message += tr(" — still showing %1").arg(openName());
        statusBar()->showMessage(message, 15000);
    }
    Q_EMIT loadFinished(ok, errors);
}

} // namespace dynascope::ui
