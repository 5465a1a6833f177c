#include "ui/inspector/codehighlighter.h"

#include <QGuiApplication>
#include <QPalette>
#include <QSet>

namespace dynascope::ui {

namespace {
enum BlockState { Normal = 0, InTripleSingle = 1, InTripleDouble = 2 };

bool isIdentStart(QChar c)
{
    return c.isLetter() || c == QLatin1Char('_');
}
bool isIdent(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

const QSet<QString>& pythonKeywords()
{
    static const QSet<QString> k = [] {
        QSet<QString> s;
        for (const char* w : { "and", "as", "assert", "async", "await", "break", "class",
                 "continue", "def", "del", "elif", "else", "except", "False", "finally", "for",
                 "from", "global", "if", "import", "in", "is", "lambda", "None", "nonlocal", "not",
                 "or", "pass", "raise", "return", "True", "try", "while", "with", "yield", "self" })
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return k;
}
} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument* document, PayloadLanguage language)
    : QSyntaxHighlighter(document)
    , m_language(language)
{
    updateFormats();
}

void CodeHighlighter::setLanguage(PayloadLanguage language)
{
    if (language == m_language)
        return;
    m_language = language;
    rehighlight();
}

void CodeHighlighter::updateFormats()
{
    // Okabe-Ito hues; lighter tints on a dark base so they keep their contrast.
    const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
    auto fmt = [dark](QRgb light, QRgb darkRgb, bool bold = false, bool italic = false) {
        QTextCharFormat f;
        f.setForeground(QColor(dark ? darkRgb : light));
        if (bold)
            f.setFontWeight(QFont::Bold);
        f.setFontItalic(italic);
        return f;
    };
    m_keyword = fmt(0x0059A0, 0x56B4E9, true);
    m_string = fmt(0x007A5A, 0x6FD6B0);
    m_comment = fmt(0x7A7A7A, 0x9A9A9A, false, true);
    m_number = fmt(0xA04A00, 0xF0A060);
    m_decorator = fmt(0x8E3F78, 0xCC79A7);
    m_key = fmt(0x0059A0, 0x56B4E9);
    m_literal = fmt(0x8E3F78, 0xCC79A7, true);
}

void CodeHighlighter::highlightBlock(const QString& text)
{
    if (m_language == PayloadLanguage::Python)
        highlightPython(text);
    else if (m_language == PayloadLanguage::Json)
        highlightJson(text);
    else
        setCurrentBlockState(Normal);
}

void CodeHighlighter::highlightPython(const QString& text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    int state = previousBlockState() < 0 ? Normal : previousBlockState();
    // Continue a triple-quoted string from an earlier line.
    if (state != Normal) {
        const QString close
            = state == InTripleDouble ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
        const qsizetype end = text.indexOf(close);
        if (end < 0) {
            setFormat(0, static_cast<int>(n), m_string);
            setCurrentBlockState(state);
            return;
        }
        setFormat(0, static_cast<int>(end + 3), m_string);
        i = end + 3;
        state = Normal;
    }
    // A decorator: "@name.attr" at the start of the line.
    {
        qsizetype j = 0;
        while (j < n && text[j].isSpace())
            ++j;
        if (j < n && text[j] == QLatin1Char('@') && i <= j) {
            qsizetype k = j + 1;
            while (k < n && (isIdent(text[k]) || text[k] == QLatin1Char('.')))
                ++k;
            setFormat(static_cast<int>(j), static_cast<int>(k - j), m_decorator);
            i = k;
        }
    }
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('#')) {
            setFormat(static_cast<int>(i), static_cast<int>(n - i), m_comment);
            break;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const bool triple = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
            if (triple) {
                const QString close(3, c);
                const qsizetype end = text.indexOf(close, i + 3);
                if (end < 0) {
                    setFormat(static_cast<int>(i), static_cast<int>(n - i), m_string);
                    state = c == QLatin1Char('"') ? InTripleDouble : InTripleSingle;
                    i = n;
                    break;
                }
                setFormat(static_cast<int>(i), static_cast<int>(end + 3 - i), m_string);
                i = end + 3;
                continue;
            }
            qsizetype j = i + 1;
            while (j < n && text[j] != c) {
                if (text[j] == QLatin1Char('\\'))
                    ++j;
                ++j;
            }
            j = std::min(j + 1, n);
            setFormat(static_cast<int>(i), static_cast<int>(j - i), m_string);
            i = j;
            continue;
        }
        if (c.isDigit()) {
            qsizetype j = i;
            while (j < n
                && (text[j].isLetterOrNumber() || text[j] == QLatin1Char('.')
                    || text[j] == QLatin1Char('_')))
                ++j;
            setFormat(static_cast<int>(i), static_cast<int>(j - i), m_number);
            i = j;
            continue;
        }
        if (isIdentStart(c)) {
            qsizetype j = i;
            while (j < n && isIdent(text[j]))
                ++j;
            // String prefixes: f"...", r'...', b"..."
            if (j < n && j - i <= 2
                && (text[j] == QLatin1Char('"') || text[j] == QLatin1Char('\''))) {
                const QString prefix = text.mid(i, j - i).toLower();
                if (prefix == QLatin1String("f") || prefix == QLatin1String("r")
                    || prefix == QLatin1String("b") || prefix == QLatin1String("rb")
                    || prefix == QLatin1String("br") || prefix == QLatin1String("fr")
                    || prefix == QLatin1String("rf") || prefix == QLatin1String("u")) {
                    setFormat(static_cast<int>(i), static_cast<int>(j - i), m_string);
                    i = j;
                    continue;
                }
            }
            if (pythonKeywords().contains(text.mid(i, j - i)))
                setFormat(static_cast<int>(i), static_cast<int>(j - i), m_keyword);
            i = j;
            continue;
        }
        ++i;
    }
    setCurrentBlockState(state);
}

void CodeHighlighter::highlightJson(const QString& text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('"')) {
            qsizetype j = i + 1;
            while (j < n && text[j] != QLatin1Char('"')) {
                if (text[j] == QLatin1Char('\\'))
                    ++j;
                ++j;
            }
            j = std::min(j + 1, n);
            qsizetype k = j;
            while (k < n && text[k].isSpace())
                ++k;
            const bool isKey = k < n && text[k] == QLatin1Char(':');
            setFormat(static_cast<int>(i), static_cast<int>(j - i), isKey ? m_key : m_string);
            i = j;
            continue;
        }
        if (c.isDigit() || (c == QLatin1Char('-') && i + 1 < n && text[i + 1].isDigit())) {
            qsizetype j = i + 1;
            while (j < n
                && (text[j].isDigit() || text[j] == QLatin1Char('.') || text[j] == QLatin1Char('e')
                    || text[j] == QLatin1Char('E') || text[j] == QLatin1Char('+')
                    || text[j] == QLatin1Char('-')))
                ++j;
            setFormat(static_cast<int>(i), static_cast<int>(j - i), m_number);
            i = j;
            continue;
        }
        if (c.isLetter()) {
            qsizetype j = i;
            while (j < n && text[j].isLetter())
                ++j;
            const QStringView w = QStringView(text).mid(i, j - i);
            if (w == QLatin1String("true") || w == QLatin1String("false")
                || w == QLatin1String("null"))
                setFormat(static_cast<int>(i), static_cast<int>(j - i), m_literal);
            i = j;
            continue;
        }
        ++i;
    }
    setCurrentBlockState(Normal);
}

} // namespace dynascope::ui
