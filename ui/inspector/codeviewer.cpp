#include "ui/inspector/codeviewer.h"

#include "ui/inspector/codehighlighter.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

namespace dynascope::ui {

namespace {
constexpr qsizetype kMaxChars = 8 * 1024 * 1024;
constexpr qsizetype kMaxHighlightChars = 2 * 1024 * 1024;
} // namespace

// QPlainTextEdit with a line-number gutter (Qt's code editor example, cut down). The numbers can
// be arbitrary per block, so the trace's scattered source lines keep their real numbers.
class CodeEditor : public QPlainTextEdit {
public:
    explicit CodeEditor(QWidget* parent)
        : QPlainTextEdit(parent)
        , m_gutter(new Gutter(this))
    {
        connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargins(); });
        connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
            if (dy)
                m_gutter->scroll(0, dy);
            else
                m_gutter->update(0, r.y(), m_gutter->width(), r.height());
        });
        updateMargins();
    }

    std::vector<int64_t> numbers;
    int highlighted = -1;

    int64_t numberOf(int block) const
    {
        if (numbers.empty())
            return block + 1;
        return static_cast<size_t>(block) < numbers.size() ? numbers[static_cast<size_t>(block)]
                                                           : 0;
    }
    int gutterWidth() const
    {
        int64_t maxN = numbers.empty() ? blockCount() : 1;
        for (int64_t n : numbers)
            maxN = std::max(maxN, n);
        const int digits = static_cast<int>(QString::number(maxN).size());
        return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * (digits + 1);
    }
    void updateMargins() { setViewportMargins(gutterWidth(), 0, 0, 0); }

protected:
    void resizeEvent(QResizeEvent* e) override
    {
        QPlainTextEdit::resizeEvent(e);
        const QRect cr = contentsRect();
        m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
    }

private:
    class Gutter : public QWidget {
    public:
        explicit Gutter(CodeEditor* editor)
            : QWidget(editor)
            , m_editor(editor)
        {
        }

    protected:
        void paintEvent(QPaintEvent* event) override
        {
            QPainter p(this);
            p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
            QTextBlock block = m_editor->firstVisibleBlock();
            int top = qRound(
                m_editor->blockBoundingGeometry(block).translated(m_editor->contentOffset()).top());
            const int h = m_editor->fontMetrics().height();
            while (block.isValid() && top <= event->rect().bottom()) {
                const int bottom = top + qRound(m_editor->blockBoundingRect(block).height());
                if (block.isVisible() && bottom >= event->rect().top()) {
                    const int64_t n = m_editor->numberOf(block.blockNumber());
                    const bool hot = block.blockNumber() == m_editor->highlighted;
                    QFont f = m_editor->font();
                    f.setBold(hot);
                    p.setFont(f);
                    p.setPen(hot ? palette().color(QPalette::Text)
                                 : palette().color(QPalette::PlaceholderText));
                    // The highlighted line also gets a marker: never colour alone.
                    const QString label = (hot ? QStringLiteral("▶") : QString())
                        + (n > 0 ? QString::number(n) : QString());
                    p.drawText(0, top, width() - 6, h, Qt::AlignRight, label);
                }
                block = block.next();
                top = bottom;
            }
        }

    private:
        CodeEditor* m_editor;
    };
    Gutter* m_gutter;
};

CodeViewer::CodeViewer(QWidget* parent)
    : QWidget(parent)
    , m_editor(new CodeEditor(this))
{
    m_editor->setReadOnly(true);
    m_editor->setUndoRedoEnabled(false);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setTabStopDistance(m_editor->fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 4);
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_editor->setObjectName(QStringLiteral("codeEditor"));
    m_editor->setAccessibleName(tr("Code"));
    m_editor->installEventFilter(this);
    m_editor->updateMargins();
    m_highlighter = new CodeHighlighter(m_editor->document(), PayloadLanguage::Plain);

    m_findBar = new QWidget(this);
    m_findBar->setObjectName(QStringLiteral("findBar"));
    auto* fl = new QHBoxLayout(m_findBar);
    fl->setContentsMargins(4, 2, 4, 2);
    m_findEdit = new QLineEdit(m_findBar);
    m_findEdit->setPlaceholderText(tr("Find in text (Enter: next, Shift+Enter: previous)"));
    m_findEdit->setClearButtonEnabled(true);
    m_findEdit->installEventFilter(this);
    m_findStatus = new QLabel(m_findBar);
    m_findStatus->setTextFormat(Qt::PlainText);
    auto* prev = new QToolButton(m_findBar);
    prev->setText(QStringLiteral("▲"));
    prev->setAccessibleName(tr("Previous match"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(m_findBar);
    next->setText(QStringLiteral("▼"));
    next->setAccessibleName(tr("Next match"));
    next->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton(m_findBar);
    close->setText(QStringLiteral("✕"));
    close->setAccessibleName(tr("Close the find bar"));
    close->setToolTip(tr("Close (Esc)"));
    fl->addWidget(new QLabel(tr("Find:"), m_findBar));
    fl->addWidget(m_findEdit, 1);
    fl->addWidget(m_findStatus);
    fl->addWidget(prev);
    fl->addWidget(next);
    fl->addWidget(close);
    m_findBar->hide();
    connect(prev, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(close, &QToolButton::clicked, this, [this] {
        m_findBar->hide();
        m_editor->setFocus();
    });
    connect(m_findEdit, &QLineEdit::textEdited, this, [this] {
        QTextCursor c = m_editor->textCursor();
        c.setPosition(c.selectionStart());
        m_editor->setTextCursor(c);
        findNext(false);
    });

    auto* copyButton = new QToolButton(this);
    copyButton->setText(tr("Copy"));
    copyButton->setToolTip(tr("Copy the selection, or all of the text when nothing is selected"));
    copyButton->setAutoRaise(true);
    connect(copyButton, &QToolButton::clicked, this, &CodeViewer::copy);
    auto* findButton = new QToolButton(this);
    findButton->setText(tr("Find…"));
    findButton->setToolTip(tr("Find in this text (Ctrl+F)"));
    findButton->setAutoRaise(true);
    connect(findButton, &QToolButton::clicked, this, &CodeViewer::showFindBar);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addStretch(1);
    top->addWidget(findButton);
    top->addWidget(copyButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_findBar);
}

QPlainTextEdit* CodeViewer::editor() const
{
    return m_editor;
}

PayloadLanguage CodeViewer::language() const
{
    return m_highlighter->language();
}

QString CodeViewer::text() const
{
    return m_editor->toPlainText();
}

void CodeViewer::clear()
{
    setContent(QString(), PayloadLanguage::Plain);
}

void CodeViewer::setContent(
    const QString& text, PayloadLanguage language, std::vector<int64_t> lineNumbers)
{
    QString shown = text;
    if (shown.size() > kMaxChars) {
        const qsizetype more = shown.size() - kMaxChars;
        shown.truncate(kMaxChars);
        shown += QStringLiteral("\n… (cut here: %1 more characters; the Raw tab and the trace "
                                "file have all of it)")
                     .arg(more);
    }
    // Set the language before the text, so the document is coloured once.
    m_highlighter->setDocument(nullptr);
    m_highlighter->setLanguage(
        shown.size() > kMaxHighlightChars ? PayloadLanguage::Plain : language);
    m_editor->numbers = std::move(lineNumbers);
    m_editor->highlighted = -1;
    m_editor->setExtraSelections({});
    m_editor->setPlainText(shown);
    m_highlighter->setDocument(m_editor->document());
    m_editor->updateMargins();
    m_findStatus->clear();
}

bool CodeViewer::highlightLine(int64_t line)
{
    m_editor->highlighted = -1;
    m_editor->setExtraSelections({});
    if (line <= 0) {
        m_editor->viewport()->update();
        return false;
    }
    int block = -1;
    if (m_editor->numbers.empty()) {
        if (line <= m_editor->blockCount())
            block = static_cast<int>(line - 1);
    } else {
        for (size_t i = 0; i < m_editor->numbers.size(); ++i) {
            if (m_editor->numbers[i] == line) {
                block = static_cast<int>(i);
                break;
            }
        }
    }
    if (block < 0)
        return false;
    m_editor->highlighted = block;
    QTextEdit::ExtraSelection sel;
    QColor bg = palette().color(QPalette::Highlight);
    bg.setAlpha(60);
    sel.format.setBackground(bg);
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = QTextCursor(m_editor->document()->findBlockByNumber(block));
    m_editor->setExtraSelections({ sel });
    m_editor->setTextCursor(sel.cursor);
    m_editor->centerCursor();
    m_editor->viewport()->update();
    return true;
}

int CodeViewer::highlightedBlock() const
{
    return m_editor->highlighted;
}

void CodeViewer::showFindBar()
{
    m_findBar->show();
    const QString selected = m_editor->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
        m_findEdit->setText(selected);
    m_findEdit->setFocus();
    m_findEdit->selectAll();
}

bool CodeViewer::findNext(bool backward)
{
    const QString needle = m_findEdit->text();
    if (needle.isEmpty()) {
        m_findStatus->clear();
        return false;
    }
    const QTextDocument::FindFlags flags
        = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_editor->find(needle, flags);
    if (!found) { // wrap around
        QTextCursor c = m_editor->textCursor();
        c.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_editor->setTextCursor(c);
        found = m_editor->find(needle, flags);
    }
    m_findStatus->setText(found ? QString() : tr("not found"));
    return found;
}

void CodeViewer::copy()
{
    const QTextCursor c = m_editor->textCursor();
    QApplication::clipboard()->setText(
        c.hasSelection() ? c.selection().toPlainText() : m_editor->toPlainText());
}

bool CodeViewer::eventFilter(QObject* watched, QEvent* event)
{
    // Ctrl+F inside the viewer opens its find bar, even when the window has its own Ctrl+F
    // (the timeline search): claiming the ShortcutOverride keeps the key here.
    if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
        auto* ke = static_cast<QKeyEvent*>(event);
        const bool isFind = ke->matches(QKeySequence::Find);
        const bool isEsc = ke->key() == Qt::Key_Escape && watched == m_findEdit;
        const bool isEnter
            = watched == m_findEdit && (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter);
        if (isFind || isEsc || isEnter) {
            if (event->type() == QEvent::ShortcutOverride) {
                event->accept();
                return true;
            }
            if (isFind)
                showFindBar();
            else if (isEsc) {
                m_findBar->hide();
                m_editor->setFocus();
            } else
                findNext(ke->modifiers() & Qt::ShiftModifier);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace dynascope::ui
