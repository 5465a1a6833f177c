#include "ui/inspector/whatifpanel.h"

#include "core/analysis/guard_lab.h"
#include "core/report/guard_lab_render.h"
#include "core/util/text_format.h"
#include "ui/models/format.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace dynascope::ui {

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QWidget(parent)
    , m_input(new QLineEdit)
    , m_answer(new QPlainTextEdit)
    , m_range(new QTableWidget(0, 2))
    , m_advice(new QLabel)
    , m_verdict(new QLabel)
    , m_copy(new QPushButton(tr("Copy as Markdown")))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("whatIfPanel"));
    m_input->setObjectName(QStringLiteral("whatIfInput"));
    m_input->setAccessibleName(tr("What if: input"));
    m_input->setAccessibleDescription(tr("Describe a call: x: f32[48, 128] cuda requires_grad; "
                                         "k: 7; grad: off; x.size(0) in 1..512"));
    m_input->setPlaceholderText(tr("x: f32[48, 128]; k: 7; grad: off; x.size(0) in 1..512"));
    m_input->setClearButtonEnabled(true);
    m_input->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_answer->setObjectName(QStringLiteral("whatIfAnswer"));
    m_answer->setAccessibleName(tr("What if: answer"));
    m_answer->setReadOnly(true);
    m_answer->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_answer->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_verdict->setObjectName(QStringLiteral("whatIfVerdict"));
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setWordWrap(true);
    m_copy->setAccessibleName(tr("Copy the what-if answer as Markdown"));
    m_range->setObjectName(QStringLiteral("whatIfRange"));
    m_range->setAccessibleName(tr("What if: verdict per size"));
    m_range->setAccessibleDescription(
        tr("One row per run of sizes with the same verdict: which cache entry those sizes "
           "reuse, or that they recompile"));
    m_range->setHorizontalHeaderLabels({ tr("sizes"), tr("verdict") });
    m_range->verticalHeader()->hide();
    // One line per row, at the height the monospaced font needs (the minimum height below
    // counts on it).
    m_range->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_range->verticalHeader()->setDefaultSectionSize(
        QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).height() + 6);
    m_range->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_range->horizontalHeader()->setStretchLastSection(true);
    m_range->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_range->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_range->setWordWrap(false);
    m_range->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_advice->setObjectName(QStringLiteral("whatIfAdvice"));
    m_advice->setAccessibleName(tr("What if: advice"));
    m_advice->setTextFormat(Qt::PlainText);
    m_advice->setWordWrap(true);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("What if it were called with")));
    top->addWidget(m_input, 1);
    top->addWidget(m_copy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_verdict);
    layout->addWidget(m_answer, 1);
    layout->addWidget(m_range, 1);
    layout->addWidget(m_advice);
    showRange(false);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &WhatIfPanel::evaluate);
    connect(m_input, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_copy, &QPushButton::clicked, this,
        [this] { QGuiApplication::clipboard()->setText(markdown()); });
}

void WhatIfPanel::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showCompile(kNone);
}

void WhatIfPanel::showCompile(uint32_t compile)
{
    m_compile = compile;
    const bool has = m_trace && compile < m_trace->compiles.size();
    m_input->setEnabled(has);
    m_copy->setEnabled(has);
    m_input->setText(has ? qs(recordedInputDescription(*m_trace, compile)) : QString());
    evaluate();
}

void WhatIfPanel::setInput(const QString& text)
{
    m_input->setText(text);
    evaluate();
}

void WhatIfPanel::showRange(bool range)
{
    m_answer->setVisible(!range);
    m_range->setVisible(range);
    m_advice->setVisible(range);
}

void WhatIfPanel::evaluate()
{
    m_debounce->stop();
    m_answer->clear();
    m_range->setRowCount(0);
    m_advice->clear();
    m_verdict->clear();
    if (!m_trace || m_compile >= m_trace->compiles.size()) {
        showRange(false);
        return;
    }
    const std::string text = m_input->text().trimmed().toStdString();
    if (text.empty()) {
        showRange(false);
        m_verdict->setText(tr("Describe a call to see whether it would reuse a compile."));
        return;
    }
    const Compile& c = m_trace->compiles[m_compile];
    GuardInput input;
    std::string error;
    const bool range = parseGuardInput(text, input, error) && input.range;
    showRange(range);
    if (range) {
        // The same words as `dynascope-cli guards` for a range, as a table.
        const Frame& f = m_trace->frames[c.frame];
        size_t entries = 0;
        for (uint32_t k : f.compiles)
            entries += bool(m_trace->compiles[k].guards);
        m_verdict->setText(qs(f.coName + " (" + text::codePlace(f.coFilename, f.coFirstLineno)
            + "): " + std::to_string(entries) + (entries == 1 ? " cache entry" : " cache entries")
            + ", checked newest first (the first that matches runs), against: " + text));
        const RangeAnswer answer = evaluateRange(*m_trace, c.frame, input);
        m_range->setRowCount(int(answer.rows.size()));
        for (size_t k = 0; k < answer.rows.size(); ++k) {
            const RangeRow& r = answer.rows[k];
            const std::string sizes = r.lo == r.hi
                ? std::to_string(r.lo)
                : std::to_string(r.lo) + ".." + std::to_string(r.hi);
            m_range->setItem(int(k), 0, new QTableWidgetItem(qs(sizes)));
            m_range->setItem(int(k), 1, new QTableWidgetItem(qs(r.verdict)));
        }
        // Tall enough for the rows (up to eight) without scrolling, with room for a horizontal
        // scroll bar (a long verdict): the splitter gives the section room for the table.
        const int shown = std::clamp(m_range->rowCount(), 2, 8);
        m_range->setMinimumHeight(m_range->horizontalHeader()->sizeHint().height()
            + shown * m_range->verticalHeader()->defaultSectionSize() + 2 * m_range->frameWidth()
            + m_range->horizontalScrollBar()->sizeHint().height() + 4);
        m_advice->setText(qs(answer.advice));
        return;
    }
    // The frame by its index: names repeat across frames.
    const auto answer
        = askGuardLab(*m_trace, "#" + std::to_string(c.frame), { text }, false, error);
    if (!answer) {
        m_verdict->setText(qs(error));
        return;
    }
    m_answer->setPlainText(qs(*answer));
    const size_t at = answer->find("\nverdict: ");
    m_verdict->setText(at == std::string::npos
            ? QString()
            : qs(answer->substr(at + 1, answer->find('\n', at + 1) - at - 1)));
}

QString WhatIfPanel::markdown() const
{
    const QString input = m_input->text().trimmed();
    if (!m_range->isHidden()) {
        // A Markdown table; the verdicts and the advice are escaped as text.
        if (m_range->rowCount() == 0 && m_advice->text().isEmpty())
            return {};
        std::string md = "**What if** " + text::mdCode(input.toStdString()) + ":\n\n"
            + text::mdText(m_verdict->text().toStdString())
            + "\n\n| sizes | verdict |\n| --- | --- |\n";
        for (int r = 0; r < m_range->rowCount(); ++r)
            md += "| " + m_range->item(r, 0)->text().toStdString() + " | " // digits and ".."
                + text::mdText(m_range->item(r, 1)->text().toStdString()) + " |\n";
        if (!m_advice->text().isEmpty())
            md += "\n" + text::mdText(m_advice->text().toStdString()) + "\n";
        return qs(md);
    }
    if (m_answer->toPlainText().isEmpty())
        return {};
    return tr("**What if** `%1`:\n\n```\n%2```\n").arg(input, m_answer->toPlainText());
}

} // namespace dynascope::ui
