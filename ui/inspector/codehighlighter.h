// CodeHighlighter: a small, single-pass syntax colouring for the two languages traces carry:
// Python (FX graphs, generated code, user source: keywords, strings incl. triple-quoted ones
// across lines, comments, numbers, decorators) and JSON (keys, strings, numbers, literals).
// A hand-written scanner rather than regular expressions: strings and comments must win over
// keywords inside them, and generated code runs to megabytes.
#pragma once

#include "ui/models/artifactlistmodel.h"

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace dynascope::ui {

class CodeHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    CodeHighlighter(QTextDocument* document, PayloadLanguage language);
    void setLanguage(PayloadLanguage language);
    PayloadLanguage language() const { return m_language; }

protected:
    void highlightBlock(const QString& text) override;

private:
    void updateFormats();
    void highlightPython(const QString& text);
    void highlightJson(const QString& text);

    PayloadLanguage m_language;
    QTextCharFormat m_keyword, m_string, m_comment, m_number, m_decorator, m_key, m_literal;
};

} // namespace dynascope::ui
