// Constants and small helpers shared by the timeline's files (the view, its viewport, scene and
// render passes).
#pragma once

#include "ui/models/statusstyle.h"

#include <QColor>
#include <QPen>
#include <QString>

#include <cstdint>

namespace dynascope::ui {

inline constexpr double kMinSpanUs = 5.0;
// A gesture (wheel, drag, keys) that starts this long after the last one is a new history entry.
inline constexpr int64_t kGesturePauseMs = 800;
// A selected compile narrower than this is zoomed to when the selection comes from elsewhere.
inline constexpr double kFollowMinPx = 4.0;
// Half the width of a marker glyph's box, and the room kept at the view's edges for it.
inline constexpr int kMarkerGlyphHalf = 8;
inline constexpr double kEdgeMarginPx = 12.0;
// A folded idle gap is drawn at least this wide (pixels), so its break mark shows at any zoom.
inline constexpr double kMinFoldPx = 8.0;

// A hairline: one device pixel wide at any device pixel ratio (a cosmetic pen), for separators
// and ticks. A plain QPen(colour) is one logical pixel wide: two device pixels on a 2x screen.
inline QPen hairline(const QColor& c, Qt::PenStyle style = Qt::SolidLine)
{
    return QPen(c, 0, style);
}

// Black or white text, whichever reads on `c` (in high contrast: the higher WCAG contrast).
inline QColor textOn(const QColor& c)
{
    if (highContrast())
        return contrastRatio(c, Qt::white) >= contrastRatio(c, Qt::black) ? QColor(Qt::white)
                                                                          : QColor(Qt::black);
    const double lum = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
    return lum > 0.5 ? QColor(0x1a, 0x1a, 0x1a) : QColor(Qt::white);
}

inline QString elideText(const QString& s, qsizetype max)
{
    return s.size() > max ? s.left(max - 1) + QStringLiteral("…") : s;
}

} // namespace dynascope::ui
