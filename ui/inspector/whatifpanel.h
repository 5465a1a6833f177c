// WhatIfPanel: the guard lab in the Guards tab. "If the frame were called with this input, would
// it reuse one of its compiles or recompile?" The input line starts as the call the selected
// compile was made for (recordedInputDescription); the answer (per cache entry, newest first,
// then the verdict) updates as the user edits, and copies as Markdown for a bug report. Plain
// text throughout: the guards are trace text.
#pragma once

#include "core/model/trace.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace dynascope::ui {

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showCompile(uint32_t compile);

    QLineEdit* inputEdit() const { return m_input; }
    QPlainTextEdit* answerView() const { return m_answer; }
    QString markdown() const; // what "Copy as Markdown" puts on the clipboard

private:
    void evaluate();

    std::shared_ptr<const Trace> m_trace;
    uint32_t m_compile = kNone;
    QLineEdit* m_input;
    QPlainTextEdit* m_answer;
    QLabel* m_verdict;
    QPushButton* m_copy;
    QTimer* m_debounce;
};

} // namespace dynascope::ui
