#include "ui/compare/comparecontroller.h"

#include "ui/backgroundjob.h"
#include "ui/compare/changesmodel.h"
#include "ui/compileselection.h"
#include "ui/timeline/timelineview.h"
#include "ui/tracesession.h"

#include "core/load/loader.h"

#include <algorithm>

#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QSplitter>
#include <QStatusBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {
struct Compared {
    std::shared_ptr<const Trace> trace;
    TraceDiff diff;
    QString error;
};

uint32_t firstCompile(const Trace& t, uint32_t frame)
{
    if (frame >= t.frames.size() || t.frames[frame].compiles.empty())
        return kNone;
    return t.frames[frame].compiles.front();
}
} // namespace

CompareController::CompareController(
    TraceSession* session, QMainWindow* window, QSplitter* centre, TimelineView* timelineA)
    : QObject(window)
    , m_session(session)
    , m_window(window)
    , m_timelineA(timelineA)
    , m_centre(centre)
    , m_job(new BackgroundJob(this))
    , m_selectionB(new CompileSelection(this))
    , m_panel(new QWidget(window))
    , m_header(new QLabel(m_panel))
    , m_timelineB(new TimelineView(m_selectionB, m_panel))
    , m_dock(new QDockWidget(tr("Changes"), window))
    , m_model(new ChangesModel(this))
    , m_view(new QTreeView(m_dock))
{
    m_panel->setObjectName(QStringLiteral("comparePanel"));
    m_header->setTextFormat(Qt::PlainText);
    m_header->setContentsMargins(6, 2, 6, 2);
    auto* layout = new QVBoxLayout(m_panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_timelineB, 1);
    centre->insertWidget(1, m_panel);
    m_panel->hide();

    m_dock->setObjectName(QStringLiteral("changesDock"));
    m_view->setAccessibleName(tr("Changes from A to B"));
    m_timelineB->setAccessibleName(tr("Timeline of B"));
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(ChangesModel::FrameColumn, 230);
    m_view->setColumnWidth(ChangesModel::StatusColumn, 70);
    m_view->setColumnWidth(ChangesModel::KindColumn, 170);
    m_view->setColumnWidth(ChangesModel::AColumn, 110);
    m_view->setColumnWidth(ChangesModel::BColumn, 110);
    m_dock->setWidget(m_view);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(
        m_view, &QTreeView::clicked, this, [this](const QModelIndex& i) { activateRow(i.row()); });
    connect(m_view, &QTreeView::activated, this,
        [this](const QModelIndex& i) { activateRow(i.row()); });
    // A new trace in the session ends the comparison.
    connect(session, &TraceSession::traceChanged, this, [this] { clear(); });
}

void CompareController::clear()
{
    m_job->cancel();
    m_traceB.reset();
    m_model->setDiff({});
    m_timelineB->setTrace(nullptr);
    m_timelineA->setLegendVisible(true);
    m_panel->hide();
    m_dock->hide();
}

void CompareController::compareWith(const QString& path)
{
    const std::shared_ptr<const TraceFacts> a = m_session->facts();
    if (!a) {
        Q_EMIT compareFinished(false, tr("Open a trace first: it is A, the one compared with"));
        return;
    }
    m_window->statusBar()->showMessage(tr("Comparing with %1…").arg(path));
    const std::string p = path.toStdString();
    m_job->start<Compared>(
        [a, p](std::stop_token stop) {
            Compared out;
            LoadResult r = load({ p }, {}, {}, stop);
            if (!r.trace) {
                for (const auto& e : r.errors)
                    out.error += QString::fromStdString(e.format()) + QLatin1Char('\n');
                out.error = out.error.trimmed();
                if (out.error.isEmpty())
                    out.error = QStringLiteral("nothing could be read");
                return out;
            }
            const std::vector<Finding> findingsB = findFindings(*r.trace, stop);
            out.diff = diffTraces({ *a->trace, a->findings }, { *r.trace, findingsB });
            out.trace = std::move(r.trace);
            return out;
        },
        [this, path, a](JobOutcome<Compared> outcome) {
            if (a != m_session->facts())
                return; // A changed meanwhile
            QString error = outcome.value ? outcome.value->error : outcome.error;
            if (!outcome.value || !outcome.value->trace) {
                m_window->statusBar()->showMessage(tr("Could not compare: %1").arg(error), 15000);
                Q_EMIT compareFinished(false, error);
                return;
            }
            m_traceB = outcome.value->trace;
            const TraceDiff& d = outcome.value->diff;
            m_header->setText(tr("B: %1 · %2 of %3 frames changed · compiles %4 → %5 · "
                                 "recompiles %6 → %7 · graph breaks %8 → %9")
                                  .arg(QFileInfo(path).fileName())
                                  .arg(d.changedFrames())
                                  .arg(d.frames.size())
                                  .arg(d.a.compiles)
                                  .arg(d.b.compiles)
                                  .arg(d.a.recompiles)
                                  .arg(d.b.recompiles)
                                  .arg(d.a.graphBreaks)
                                  .arg(d.b.graphBreaks));
            m_model->setDiff(outcome.value->diff);
            m_timelineB->setTrace(m_traceB);
            const bool wasHidden = m_panel->isHidden();
            // One legend for both timelines, under B's: A's lanes get its room.
            m_timelineA->setLegendVisible(false);
            m_panel->show();
            if (wasHidden) { // the two timelines get most of the height, the inspector the rest
                // (its tabs ask for 230 px at least, which left each timeline one lane at 800 px)
                m_centre->widget(m_centre->count() - 1)->setMinimumHeight(120);
                const int h = std::max(m_centre->height(), 300);
                m_centre->setSizes({ h * 3 / 8, h * 3 / 8, h - 2 * (h * 3 / 8) });
            }
            m_dock->show();
            m_dock->raise();
            if (wasHidden) // a few rows of changes; the timelines keep the height
                m_window->resizeDocks(
                    { m_dock }, { 7 * m_view->fontMetrics().height() + 40 }, Qt::Vertical);
            m_dock->setWindowTitle(tr("Changes (%1)").arg(m_model->rowCount()));
            m_window->statusBar()->showMessage(
                tr("Compared with %1: %2 change(s)").arg(path).arg(m_model->rowCount()), 10000);
            Q_EMIT compareFinished(true, {});
        });
}

void CompareController::activateRow(int row)
{
    if (row < 0 || row >= m_model->rowCount() || !m_traceB || !m_session->trace())
        return;
    const ChangesModel::Row& r = m_model->row(row);
    if (!r.frame)
        return;
    const uint32_t a = firstCompile(*m_session->trace(), r.frame->frameA);
    const uint32_t b = firstCompile(*m_traceB, r.frame->frameB);
    if (a != kNone) {
        m_session->selection()->setCurrent(a);
        m_timelineA->revealCompile(a);
    }
    if (b != kNone) {
        m_selectionB->setCurrent(b);
        m_timelineB->revealCompile(b);
    }
}

} // namespace dynascope::ui
