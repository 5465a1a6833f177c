// CodeViewer: read-only code with line numbers, syntax colouring (Python or JSON), one highlighted
// line, a find bar (Ctrl+F while the viewer has focus; Enter / Shift+Enter for next / previous,
// Esc to close) and copy. Used by the Source, Artifacts and Raw tabs. Plain text only: the text
// comes from traces and user files.
#pragma once

#include "ui/models/artifactlistmodel.h"

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace dynascope::ui {

class CodeHighlighter;
class CodeEditor;

class CodeViewer : public QWidget {
    Q_OBJECT
public:
    explicit CodeViewer(QWidget* parent = nullptr);

    // Shows `text`. lineNumbers gives the number shown beside each line (0: none, for gap
    // lines); empty numbers the lines 1..n. Very large texts are cut and say so; colouring is
    // off above a few MB.
    void setContent(
        const QString& text, PayloadLanguage language, std::vector<int64_t> lineNumbers = {});
    void clear();
    // Highlights the line shown as `line` and scrolls it to the middle; false when no line has
    // that number. 0 clears the highlight.
    bool highlightLine(int64_t line);
    int highlightedBlock() const; // -1 when none
    QString text() const;

    QPlainTextEdit* editor() const;
    QLineEdit* findEdit() const { return m_findEdit; }
    QWidget* findBar() const { return m_findBar; }
    PayloadLanguage language() const;

public Q_SLOTS:
    void showFindBar();
    bool findNext(bool backward = false);
    void copy();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    CodeEditor* m_editor;
    CodeHighlighter* m_highlighter;
    QWidget* m_findBar;
    QLineEdit* m_findEdit;
    QLabel* m_findStatus;
};

} // namespace dynascope::ui
