#include "ui/probe/probedock.h"

#include "ui/backgroundjob.h"
#include "ui/models/probetablemodel.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {
QLabel* plainLabel(QWidget* parent)
{
    auto* l = new QLabel(parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

struct Loaded {
    std::optional<ProbeReport> report;
    QString error;
};
} // namespace

ProbeDock::ProbeDock(QWidget* parent)
    : QDockWidget(tr("Probe"), parent)
    , m_job(new BackgroundJob(this))
    , m_model(new ProbeTableModel(this))
{
    setObjectName(QStringLiteral("probeDock"));
    auto* body = new QWidget(this);
    auto* v = new QVBoxLayout(body);
    m_title = plainLabel(body);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    v->addWidget(m_title);
    m_verdict = plainLabel(body);
    m_verdict->setObjectName(QStringLiteral("probeVerdict"));
    v->addWidget(m_verdict);
    m_table = new QTableView(body);
    m_table->setObjectName(QStringLiteral("probeTable"));
    m_table->setAccessibleName(tr("Probe runs"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setToolTip(tr("Click a configuration to open its trace"));
    v->addWidget(m_table, 1);
    m_payoff = plainLabel(body);
    m_payoff->setObjectName(QStringLiteral("probePayoff"));
    m_payoff->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_payoff);
    setWidget(body);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QString f = runFolder(index.row());
        if (!f.isEmpty())
            Q_EMIT openRunRequested(f);
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QString f = runFolder(index.row());
        if (!f.isEmpty())
            Q_EMIT openRunRequested(f);
    });
}

void ProbeDock::open(const QString& folder)
{
    m_folder = QFileInfo(folder).absoluteFilePath();
    m_title->setText(tr("Probe of %1").arg(m_folder));
    m_verdict->setText(tr("Loading the runs…"));
    m_payoff->clear();
    show();
    raise();
    const std::string path = m_folder.toStdString();
    m_job->start<Loaded>(
        [path](std::stop_token stop) {
            Loaded out;
            std::string error;
            auto session = loadProbeSession(path, &error, stop);
            if (!session)
                out.error = QString::fromStdString(error);
            else
                out.report = buildProbeReport(*session);
            return out;
        },
        [this](JobOutcome<Loaded> outcome) {
            if (!outcome.value || !outcome.value->report) {
                const QString error = outcome.value ? outcome.value->error : outcome.error;
                m_verdict->setText(tr("Could not read the probe: %1").arg(error));
                Q_EMIT failed(error);
                return;
            }
            showReport(*outcome.value->report);
        });
}

bool ProbeDock::isLoading() const
{
    return m_job->isRunning();
}

const ProbeReport& ProbeDock::report() const
{
    return m_model->report();
}

QString ProbeDock::verdictText() const
{
    return m_verdict->text();
}

QString ProbeDock::runFolder(int row) const
{
    const auto& rows = m_model->report().rows;
    if (row < 0 || row >= static_cast<int>(rows.size()))
        return {};
    const EvidenceRow& r = rows[static_cast<size_t>(row)];
    if (r.traceFiles.empty())
        return {};
    return QDir(m_folder).filePath(QString::fromStdString(r.config.name));
}

void ProbeDock::setOpenPaths(const QStringList& paths)
{
    int open = -1;
    for (int i = 0; i < m_model->rowCount(); ++i) {
        const QString f = runFolder(i);
        for (const QString& p : paths)
            if (!f.isEmpty() && QFileInfo(p).absoluteFilePath() == QFileInfo(f).absoluteFilePath())
                open = i;
    }
    m_model->setOpenRow(open);
    m_table->resizeColumnsToContents(); // the open row is bold, and wider
}

void ProbeDock::showReport(const ProbeReport& report)
{
    m_model->setReport(report);
    m_title->setText(
        tr("Probe of %1").arg(QString::fromStdString(run::joinCommandLine(report.command))));
    m_verdict->setText(tr("Verdict: %1").arg(QString::fromStdString(report.verdict.text)));
    QStringList payoff;
    for (const auto& row : report.rows)
        for (const auto& c : row.callables)
            if (c.payoff && row.outcome == ProbeOutcome::Ok
                && c.payoff->verdict != PayoffVerdict::Unknown)
                payoff << QString::fromStdString(row.config.label() + ": " + c.payoff->text);
    payoff << tr("First call: each compiled callable's first call, compiling included. Steady "
                 "state: the median of the next %1 calls. Click a row to open its trace.")
                  .arg(report.steps);
    m_payoff->setText(payoff.join(QLatin1Char('\n')));
    m_table->resizeColumnsToContents();
    Q_EMIT loaded();
    // The run the verdict names, else the last one that has a trace.
    int row = report.verdict.row;
    if (runFolder(row).isEmpty())
        for (int i = m_model->rowCount() - 1; i >= 0 && runFolder(row).isEmpty(); --i)
            row = i;
    if (!runFolder(row).isEmpty()) {
        m_table->selectRow(row);
        Q_EMIT openRunRequested(runFolder(row));
    }
}

} // namespace dynascope::ui
