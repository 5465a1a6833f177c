// Tooltips that carry trace text. Qt shows a tooltip as rich text when Qt::mightBeRichText()
// guesses it is HTML, so a function name like `<b>f</b>` or a reason holding `<a href=...>` would
// be rendered (and linked). Trace text is untrusted: every tooltip built from it goes through
// plainToolTip(), which leaves text Qt would show as plain alone and turns anything else into HTML
// that shows it literally (escaped, line breaks kept).
#pragma once

#include <QString>
#include <QTextDocument>
#include <QVariant>

namespace dynascope::ui {

inline QString plainToolTip(const QString& text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    return Qt::convertFromPlainText(text, Qt::WhiteSpacePre);
}

// For item models' Qt::ToolTipRole: no tooltip stays no tooltip.
inline QVariant plainToolTip(const QVariant& value)
{
    return value.isValid() ? QVariant(plainToolTip(value.toString())) : value;
}

} // namespace dynascope::ui
