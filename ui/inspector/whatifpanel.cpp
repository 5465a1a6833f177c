#include "ui/inspector/whatifpanel.h"

#include "core/report/guard_lab_render.h"
#include "ui/models/format.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace dynascope::ui {

WhatIfPanel::WhatIfPanel(QWidget* parent)
    : QWidget(parent)
    , m_input(new QLineEdit)
    , m_answer(new QPlainTextEdit)
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

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("What if it were called with")));
    top->addWidget(m_input, 1);
    top->addWidget(m_copy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_verdict);
    layout->addWidget(m_answer, 1);

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

void WhatIfPanel::evaluate()
{
    m_debounce->stop();
    m_answer->clear();
    m_verdict->clear();
    if (!m_trace || m_compile >= m_trace->compiles.size())
        return;
    const std::string text = m_input->text().trimmed().toStdString();
    if (text.empty()) {
        m_verdict->setText(tr("Describe a call to see whether it would reuse a compile."));
        return;
    }
    const Compile& c = m_trace->compiles[m_compile];
    std::string error;
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
    if (m_answer->toPlainText().isEmpty())
        return {};
    return tr("**What if** `%1`:\n\n```\n%2```\n")
        .arg(m_input->text().trimmed(), m_answer->toPlainText());
}

} // namespace dynascope::ui
