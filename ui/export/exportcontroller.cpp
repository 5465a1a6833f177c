#include "ui/export/exportcontroller.h"

#include "core/report/bug_report.h"
#include "ui/compileselection.h"
#include "ui/export/imageexport.h"
#include "ui/mainactions.h"
#include "ui/reportview.h"
#include "ui/timeline/timelineview.h"
#include "ui/tracesession.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMainWindow>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStatusBar>

namespace dynascope::ui {

ExportController::ExportController(
    TraceSession* session, QMainWindow* window, MainActions* actions, TimelineView* timeline)
    : QObject(window)
    , m_session(session)
    , m_window(window)
    , m_actions(actions)
    , m_timeline(timeline)
    , m_selection(session->selection())
{
    CompileSelection* selection = m_selection;
    m_reportDock = new QDockWidget(tr("Report"), window);
    m_reportDock->setObjectName(QStringLiteral("reportDock"));
    m_report = new ReportView(m_reportDock);
    m_reportDock->setWidget(m_report);
    window->addDockWidget(Qt::RightDockWidgetArea, m_reportDock);
    m_reportDock->hide(); // on demand: View > Report (Ctrl+R)
    QAction* toggle = m_reportDock->toggleViewAction();
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    actions->addDockToggle(m_reportDock);

    connect(
        actions->exportImage, &QAction::triggered, this, &ExportController::exportImageInteractive);
    connect(actions->copyImage, &QAction::triggered, this, &ExportController::copyImage);
    connect(actions->copyBugReport, &QAction::triggered, this, &ExportController::copyBugReport);
    connect(session, &TraceSession::traceChanged, this,
        [this](const std::shared_ptr<const Trace>& trace) { onTraceChanged(trace); });
    connect(selection, &CompileSelection::currentChanged, this, &ExportController::updateActions);
    m_lastDir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    updateActions();
}

void ExportController::onTraceChanged(const std::shared_ptr<const Trace>& trace)
{
    m_trace = trace;
    m_report->setFacts(m_session->facts());
    updateActions();
}

void ExportController::updateActions()
{
    m_actions->exportImage->setEnabled(m_trace != nullptr);
    m_actions->copyImage->setEnabled(m_trace != nullptr);
    m_actions->copyBugReport->setEnabled(
        m_trace && m_selection->current() < m_trace->compiles.size());
}

QString ExportController::footerText() const
{
    return imageFooterText(m_trace.get(), m_session->paths(), m_selection->current(),
        m_timeline->viewRange(), m_timeline->tzOffsetMinutes());
}

bool ExportController::exportTo(
    const QString& path, Target target, Format format, QString* error) const
{
    const QString footer = footerText();
    // QSaveFile: a failed export never leaves half a file where the user's old one was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Could not open %1 for writing: %2").arg(path, file.errorString());
        return false;
    }
    bool ok = false;
    QWidget* widget = target == Target::Window ? static_cast<QWidget*>(m_window)
                                               : static_cast<QWidget*>(m_timeline);
    if (format == Format::Svg) {
        ok = target == Target::Timeline ? writeTimelineSvg(*m_timeline,
                 QSize(m_timeline->width(), m_timeline->height() + kFooterHeight), footer, &file)
                                        : writeWidgetSvg(*widget, footer, &file);
    } else {
        const qreal scale = format == Format::Png2x ? 2.0 : 1.0;
        const QImage image = target == Target::Timeline
            ? timelineImage(*m_timeline,
                QSize(m_timeline->width(), m_timeline->height() + kFooterHeight), scale, footer)
            : widgetImage(*widget, scale, footer);
        ok = image.save(&file, "PNG");
    }
    if (!ok || !file.commit()) {
        if (error)
            *error = tr("Could not write %1").arg(path);
        return false;
    }
    return true;
}

void ExportController::exportImageInteractive()
{
    if (!m_trace)
        return;
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Export Image"));
    auto* form = new QFormLayout(&dialog);
    auto* target = new QComboBox(&dialog);
    target->addItems({ tr("Timeline"), tr("Whole window") });
    auto* format = new QComboBox(&dialog);
    format->addItems({ tr("PNG"), tr("PNG at 2x (HiDPI)"), tr("SVG (vector)") });
    form->addRow(tr("What:"), target);
    form->addRow(tr("Format:"), format);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const auto t = target->currentIndex() == 0 ? Target::Timeline : Target::Window;
    const auto f = static_cast<Format>(format->currentIndex());
    const bool svg = f == Format::Svg;
    // A fixed default name: never one made from trace content.
    const QString name = (t == Target::Timeline ? QStringLiteral("dynascope-timeline")
                                                : QStringLiteral("dynascope-window"))
        + (svg ? QStringLiteral(".svg") : QStringLiteral(".png"));
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export Image"),
        QDir(m_lastDir).filePath(name), svg ? tr("SVG image (*.svg)") : tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    m_lastDir = QFileInfo(path).absolutePath();
    QString error;
    if (!exportTo(path, t, f, &error))
        QMessageBox::warning(m_window, tr("Export Image"), error);
    else
        m_window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void ExportController::copyImage()
{
    if (!m_trace)
        return;
    const qreal scale = std::max<qreal>(1.0, m_timeline->devicePixelRatioF());
    const QImage image = timelineImage(*m_timeline,
        QSize(m_timeline->width(), m_timeline->height() + kFooterHeight), scale, footerText());
    QApplication::clipboard()->setImage(image);
    m_window->statusBar()->showMessage(tr("Copied the timeline image"), 3000);
}

QString ExportController::bugReportText() const
{
    if (!m_trace || m_selection->current() >= m_trace->compiles.size())
        return {};
    return QString::fromStdString(
        bugReportMarkdown(*m_trace, m_selection->current(), m_session->findings()));
}

void ExportController::copyBugReport()
{
    const QString md = bugReportText();
    if (md.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Select a compile first"), 3000);
        return;
    }
    QApplication::clipboard()->setText(md);
    // Said in the status bar, not in a dialog to dismiss each time; an image to attach is one
    // Ctrl+E (Export Image) or Ctrl+Alt+C (Copy Image) away.
    const uint32_t c = m_selection->current();
    const QString id = m_trace && c < m_trace->compiles.size()
        ? QString::fromStdString(m_trace->compiles[c].id.display())
        : QString();
    m_window->statusBar()->showMessage(
        tr("Copied the bug report of %1 (Markdown, %2 lines) to the clipboard; Ctrl+Alt+C copies "
           "an image of the timeline")
            .arg(id)
            .arg(md.count(QLatin1Char('\n')) + 1),
        8000);
}

} // namespace dynascope::ui
