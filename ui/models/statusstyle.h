// How a compile status and an instant-event kind look: glyph, word and Okabe-Ito colour from
// docs/ux.md. Status never relies on colour alone, so every entry has a glyph. The hues are for a
// light base; readableOn() and fillOn() give the tints for any base (dark palettes: the same hues,
// lighter), and phaseStyle() colours chromium phases by the report's phase groups.
#pragma once

#include "core/model/phase_groups.h"
#include "core/model/trace.h"

#include <QColor>
#include <QString>

#include <string>
#include <vector>

namespace dynascope::ui {

// The set of status colours in use, process-wide. Normal: the Okabe-Ito hues below. The high
// contrast sets (issue 33; ui/highcontrast.h chooses one) are for a white or a black base: every
// hue reads as text and as a fill at 4.5:1 or more against that base, and each pair stays apart
// (CIE76 distance 25 or more, 9 or more under simulated deuteranopia and protanopia); a fill
// keeps its hue on either base (fillOn) and gets an outline in the text colour on the timeline.
enum class StatusPalette { Normal, HighContrastLight, HighContrastDark };
void setStatusPalette(StatusPalette palette);
StatusPalette statusPalette();
inline bool highContrast()
{
    return statusPalette() != StatusPalette::Normal;
}

struct StatusStyle {
    QString glyph; // "✓"
    QString word; // "ok"
    QColor color;
    QString label() const { return glyph + QLatin1Char(' ') + word; }
};

StatusStyle statusStyle(CompileStatus status);
// A compile's look in lists: its status, except that a recompile that compiled fine reads
// "↻ recompile" in the recompile colour, and one that did not carries "↻" before its status.
StatusStyle compileStyle(const Compile& c);

// Instant markers on the timeline and in the legend.
enum class MarkerKind { GraphBreak, Recompile, Failure, CacheHit, CacheMiss };
StatusStyle markerStyle(MarkerKind kind);

// The colour of a finding's or a diagnostic's severity (2 error, 1 warning, 0 note): the failure,
// graph-break and cache-hit hues of the palette in use.
QColor severityColor(int severity);

// A hue as text on `base`: the same hue, lightened on a dark base or darkened on a light one until
// it reaches a contrast of 4.5:1 (WCAG AA for text).
QColor readableOn(const QColor& hue, const QColor& base);
// A hue as a filled shape on `base`: as is on a light base, a lighter tint on a dark one.
QColor fillOn(const QColor& hue, const QColor& base);
// The WCAG contrast ratio of two colours (1 to 21).
double contrastRatio(const QColor& a, const QColor& b);
// Whether a palette's base is dark (a dark desktop theme).
bool isDark(const QColor& base);
// A hue as text in item views: readable on both row colours (Base, AlternateBase) of the
// application palette.
QColor itemTextColor(const QColor& hue);

// Phases: one hue per phase group (core/report/phase_groups.h), less saturated than the status
// colours, in three families: Dynamo greens, AOTAutograd and backend warm and blue, Inductor
// violets.
struct PhaseStyle {
    PhaseGroup group = PhaseGroup::Other;
    QString label; // "Inductor codegen"
    QColor color;
};
PhaseStyle phaseGroupStyle(PhaseGroup group);
// The group a span of this name belongs to (enclosing: the group of the span around it, for names
// that inherit), and its look.
PhaseStyle phaseStyle(const std::string& phaseName, PhaseGroup enclosing = PhaseGroup::Other);
// The groups a legend lists, in display order (every group a span can have).
std::vector<PhaseGroup> legendPhaseGroups();

} // namespace dynascope::ui
