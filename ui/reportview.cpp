#include "ui/reportview.h"

#include "core/report/report.h"
#include "core/report/report_render.h"
#include "ui/backgroundjob.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <exception>

namespace dynascope::ui {

namespace {
struct Rendered {
    QString markdown, json;
};
Rendered renderReportText(const TraceFacts& facts)
{
    // Payload hashes are the diagnostics dock's business; the report view stays quick.
    ReportOptions options;
    options.verifyPayloads = false;
    const Report report = buildReport(*facts.trace, facts.findings, options);
    return { QString::fromStdString(reportMarkdown(report)),
        QString::fromStdString(reportJson(report)) };
}
} // namespace

ReportView::ReportView(QWidget* parent)
    : QWidget(parent)
    , m_format(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_copy(new QPushButton(tr("Copy"), this))
    , m_save(new QPushButton(tr("Save…"), this))
    , m_text(new QPlainTextEdit(this))
    , m_jobs(new BackgroundJob(this))
{
    setObjectName(QStringLiteral("reportView"));
    m_format->addItems({ tr("Markdown"), tr("JSON") });
    m_format->setAccessibleName(tr("Report format"));
    m_text->setAccessibleName(tr("Compile report"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Open a trace to see its compile report."));
    auto* top = new QHBoxLayout;
    top->addWidget(m_format);
    top->addWidget(m_status, 1);
    top->addWidget(m_copy);
    top->addWidget(m_save);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_text, 1);
    connect(m_format, &QComboBox::currentIndexChanged, this,
        [this] { showText(m_format->currentIndex() == 0 ? m_markdown : m_json); });
    connect(m_copy, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(m_text->toPlainText()); });
    connect(m_save, &QPushButton::clicked, this, &ReportView::saveAs);
    m_copy->setEnabled(false);
    m_save->setEnabled(false);
}

void ReportView::setFacts(std::shared_ptr<const TraceFacts> facts)
{
    m_facts = facts && facts->trace ? std::move(facts) : nullptr;
    m_jobs->cancel(); // a report of the previous trace is dropped when it arrives
    m_built = false;
    m_building = false;
    m_markdown.clear();
    m_json.clear();
    showText({});
    m_status->clear();
    if (m_facts && isVisible())
        buildAsync();
}

void ReportView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_facts && !m_built && !m_building)
        buildAsync();
}

void ReportView::buildNow()
{
    if (!m_facts)
        return;
    Rendered r;
    try {
        r = renderReportText(*m_facts);
    } catch (const std::exception& e) {
        m_status->setText(tr("The report could not be built: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_markdown = r.markdown;
    m_json = r.json;
    m_built = true;
    m_status->clear();
    showText(m_format->currentIndex() == 0 ? m_markdown : m_json);
    Q_EMIT built();
}

void ReportView::buildAsync()
{
    m_building = true;
    m_status->setText(tr("Building the report…"));
    std::shared_ptr<const TraceFacts> facts = m_facts;
    m_jobs->start<Rendered>([facts](std::stop_token) { return renderReportText(*facts); },
        [this](JobOutcome<Rendered> outcome) {
            m_building = false;
            if (!outcome.value) {
                // Errors travel as values: say what failed where the report would be.
                m_built = false;
                m_status->setText(tr("The report could not be built: %1").arg(outcome.error));
                return;
            }
            m_markdown = outcome.value->markdown;
            m_json = outcome.value->json;
            m_built = true;
            m_status->clear();
            showText(m_format->currentIndex() == 0 ? m_markdown : m_json);
            Q_EMIT built();
        });
}

void ReportView::showText(const QString& text)
{
    m_text->setPlainText(text);
    m_copy->setEnabled(!text.isEmpty());
    m_save->setEnabled(!text.isEmpty());
}

void ReportView::saveAs()
{
    const bool md = m_format->currentIndex() == 0;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Report"),
        md ? QStringLiteral("report.md") : QStringLiteral("report.json"),
        md ? tr("Markdown (*.md)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || f.write(m_text->toPlainText().toUtf8()) < 0) {
        QMessageBox::warning(this, tr("Save Report"), tr("Could not write %1").arg(path));
    }
}

} // namespace dynascope::ui
