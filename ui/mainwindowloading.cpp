// MainWindow (mainwindow.h): opening, loading and reloading traces, and the newer states of a
// trace followed live (showLiveTrace).
#include "ui/mainwindow.h"

#include "ui/compileselection.h"
#include "ui/diagnosticsdock.h"
#include "ui/mainactions.h"
#include "ui/models/format.h"
#include "ui/probe/probedock.h"
#include "ui/recentfiles.h"
#include "ui/timeline/timelineview.h"
#include "ui/traceloadcontroller.h"

#include "core/run/probe_session.h"

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <optional>

namespace dynascope::ui {

namespace {
const char* kPastedName = "pasted text";
} // namespace

void MainWindow::openPaths(const QStringList& paths, const LoadOptions& choice)
{
    if (paths.isEmpty())
        return;
    if (paths.size() == 1 && isProbeSessionFolder(paths.front().toStdString())) {
        openProbe(paths.front());
        return;
    }
    loadPaths(paths, choice);
}

void MainWindow::openRun(const LoadOptions& choice)
{
    if (!m_paths.isEmpty())
        loadPaths(m_paths, choice);
}

void MainWindow::loadPaths(const QStringList& paths, const LoadOptions& choice)
{
    m_pasting.clear();
    m_loadingChoice = choice;
    // Payload hashes are checked as the files are scanned, on every core; startPayloadCheck()
    // then reports what the load found instead of reading every payload again.
    LoadOptions options = choice;
    options.verifyPayloads = true;
    m_loader->start(paths, options);
}

void MainWindow::openProbe(const QString& folder)
{
    m_recent->add(folder);
    m_probe->open(folder);
}

void MainWindow::openText(const QByteArray& text)
{
    m_pasting = text;
    m_loader->startText(QString::fromLatin1(kPastedName), text);
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
    if (!m_pasted.isEmpty())
        openText(m_pasted);
    else if (!m_paths.isEmpty())
        loadPaths(m_paths, m_runChoice); // the same run again
}

bool MainWindow::isLoading() const
{
    return m_loader->isRunning();
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
    if (m_loader->isRunning())
        return; // a newer load superseded the cancelled one
    showLoading(false);
    m_summary->setText(m_trace ? summaryText() : tr("Loading cancelled"));
}

void MainWindow::onLoadFinished(const LoadOutcome& outcome)
{
    showLoading(false);
    const QStringList errors = outcome.errorMessages();
    if (outcome.result.trace) {
        // A reload (F5) keeps the selected compile when the reloaded trace still has it.
        const bool reload = m_trace && outcome.paths == m_paths;
        std::optional<std::pair<uint32_t, CompileId>> keep;
        if (reload && m_selection->current() < m_trace->compiles.size()) {
            const Compile& c = m_trace->compiles[m_selection->current()];
            keep = std::make_pair(c.index, c.id);
        }
        m_paths = outcome.paths;
        m_pasted = m_pasting; // the text a Reload reads again; empty after opening files
        m_runChoice = m_loadingChoice;
        for (const QString& p : outcome.paths) {
            if (m_pasted.isEmpty() && QFileInfo::exists(p))
                m_recent->add(p);
        }
        setTrace(outcome.result.trace);
        if (keep && keep->first < m_trace->compiles.size()
            && m_trace->compiles[keep->first].id == keep->second)
            m_selection->setCurrent(keep->first);
        m_loadTime->setText(
            tr("loaded in %1")
                .arg(formatDuration(static_cast<double>(std::max<qint64>(outcome.elapsedUs, 1)))));
    } else if (!m_trace) {
        // Nothing could be read and nothing was open: the start page stays; the dock says why.
        m_allDiagnostics.assign(outcome.result.errors.begin(), outcome.result.errors.end());
        m_diagnostics->setDiagnostics(m_allDiagnostics);
        m_summary->setText(tr("Could not read: %1").arg(errors.join(QStringLiteral("; "))));
        m_diagnostics->show();
    }
    // else: nothing could be read; the trace that was open stays, as it was.
    if (!errors.isEmpty()) {
        QString message = tr("Could not read: %1").arg(errors.join(QStringLiteral("; ")));
        if (!outcome.result.trace && m_trace)
            message += tr(" — still showing %1").arg(openName());
        statusBar()->showMessage(message, 15000);
    }
    Q_EMIT loadFinished(errors.isEmpty() && outcome.result.trace, errors);
}

void MainWindow::showLiveTrace(
    std::shared_ptr<const Trace> trace, const QStringList& paths, bool final)
{
    if (!trace || m_loader->isRunning())
        return;
    const bool same = m_trace && m_pasted.isEmpty() && paths == m_paths;
    // The selected compile, found again by file and id: indices move as earlier files grow.
    std::optional<std::pair<std::string, CompileId>> keep;
    if (same && m_selection->current() < m_trace->compiles.size()) {
        const Compile& c = m_trace->compiles[m_selection->current()];
        keep = std::make_pair(m_trace->files[c.file].path, c.id);
    }
    m_paths = paths;
    m_pasted.clear();
    m_pasting.clear();
    m_runChoice = {};
    m_liveUpdate = same;
    setTrace(std::move(trace));
    m_liveUpdate = false;
    if (keep)
        for (const Compile& c : m_trace->compiles)
            if (c.id == keep->second && m_trace->files[c.file].path == keep->first) {
                m_selection->setCurrent(c.index);
                break;
            }
    m_loadTime->setText(final ? tr("followed live") : QString()); // the indicator says "● live"
    if (final)
        for (const QString& p : paths)
            if (QFileInfo::exists(p))
                m_recent->add(p);
}

} // namespace dynascope::ui
