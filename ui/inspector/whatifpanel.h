// WhatIfPanel: the guard lab in the Guards tab. "If the frame were called with this input, would
// it reuse one of its compiles or recompile?" The input line starts as the call the selected
// compile was made for (recordedInputDescription); the answer (per cache entry, newest first,
// then the verdict) updates as the user edits, and copies as Markdown for a bug report. A range
// (`x.size(0) in 1..512`) answers as a table instead: one row per run of sizes with the same
// verdict (evaluateRange), and below it the mark_dynamic / dynamic=True advice. Plain text
// throughout: the guards are trace text.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace dynascope::ui {

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);
    // Replaces the input and answers at once (no debounce): `dynascope --what-if TEXT`.
    void setInput(const QString& text);

    QLineEdit* inputEdit() const { return m_input; }
    QPlainTextEdit* answerView() const { return m_answer; }
    // The range's table (columns "sizes" and "verdict"), shown only for a range.
    QTableWidget* rangeTable() const { return m_range; }
    QLabel* adviceLabel() const { return m_advice; }
    QString markdown() const; // what "Copy as Markdown" puts on the clipboard

private:
    void evaluate();
    void showRange(bool range);

    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    QLineEdit* m_input;
    QPlainTextEdit* m_answer;
    QTableWidget* m_range;
    QLabel* m_advice;
    QLabel* m_verdict;
    QPushButton* m_copy;
    QTimer* m_debounce;
};

} // namespace dynascope::ui
