// How a compile status and an instant-event kind look: glyph, word and Okabe-Ito colour from
// docs/ux.md. Status never relies on colour alone, so every entry has a glyph.
#pragma once

#include "core/model/trace.h"

#include <QColor>
#include <QString>

namespace dynascope::ui {

struct StatusStyle {
    QString glyph; // "✓"
    QString word; // "ok"
    QColor color;
    QString label() const { return glyph + QLatin1Char(' ') + word; }
};

StatusStyle statusStyle(CompileStatus status);

// Instant markers on the timeline and in the legend.
enum class MarkerKind { GraphBreak, Recompile, Failure, CacheHit, CacheMiss };
StatusStyle markerStyle(MarkerKind kind);

// One hue per compiler layer, less saturated than the status colours, for phase spans.
QColor phaseColor(const std::string& phaseName);

} // namespace dynascope::ui
