#include "ui/models/statusstyle.h"

#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace dynascope::ui {

namespace {

StatusPalette g_palette = StatusPalette::Normal;

// The hues of one palette, by what they mark.
struct Hues {
    QRgb ok, graphBreak, empty, error, missing, recompile, cacheHit, cacheMiss;
};

// Okabe-Ito (docs/ux.md).
constexpr Hues kNormal { 0x009E73, 0xE69F00, 0x999999, 0xD55E00, 0xCC79A7, 0x0072B2, 0x56B4E9,
    0xF0E442 };
// On white: dark, saturated hues, each 4.5:1 or more against white and #f2f2f2 (the alternate
// row); on black: bright ones, 6.9:1 or more (tst_highcontrast).
constexpr Hues kHighContrastLight { 0x0B7149, 0x9A5800, 0x4D4D4D, 0xA3000B, 0x7A1A6E, 0x224BD4,
    0x0B7693, 0x4F4D00 };
constexpr Hues kHighContrastDark { 0x26DF80, 0xF08C00, 0xA0A0A0, 0xFF5C5C, 0xFF3EE4, 0x4CA6FF,
    0x0FFEF5, 0xF1F81A };

const Hues& hues()
{
    switch (g_palette) {
    case StatusPalette::HighContrastLight:
        return kHighContrastLight;
    case StatusPalette::HighContrastDark:
        return kHighContrastDark;
    case StatusPalette::Normal:
        break;
    }
    return kNormal;
}

} // namespace

void setStatusPalette(StatusPalette palette)
{
    g_palette = palette;
}

StatusPalette statusPalette()
{
    return g_palette;
}

StatusStyle statusStyle(CompileStatus status)
{
    const Hues& h = hues();
    switch (status) {
    case CompileStatus::Ok:
        return { QStringLiteral("✓"), QStringLiteral("ok"), QColor(h.ok) };
    case CompileStatus::GraphBreak:
        return { QStringLiteral("⚡"), QStringLiteral("graph break"), QColor(h.graphBreak) };
    case CompileStatus::Empty:
        return { QStringLiteral("∅"), QStringLiteral("empty"), QColor(h.empty) };
    case CompileStatus::Error:
        return { QStringLiteral("✕"), QStringLiteral("error"), QColor(h.error) };
    case CompileStatus::Missing:
        break;
    }
    return { QStringLiteral("?"), QStringLiteral("missing"), QColor(h.missing) };
}

QColor severityColor(int severity)
{
    const Hues& h = hues();
    return QColor(severity >= 2 ? h.error : severity == 1 ? h.graphBreak : h.cacheHit);
}

StatusStyle compileStyle(const Compile& c)
{
    StatusStyle st = statusStyle(c.status);
    if (!c.isRecompile())
        return st;
    if (c.status == CompileStatus::Ok)
        return markerStyle(MarkerKind::Recompile);
    st.glyph = QStringLiteral("↻ ") + st.glyph;
    return st;
}

StatusStyle markerStyle(MarkerKind kind)
{
    const Hues& h = hues();
    switch (kind) {
    case MarkerKind::GraphBreak:
        return { QStringLiteral("⚡"), QStringLiteral("graph break"), QColor(h.graphBreak) };
    case MarkerKind::Recompile:
        return { QStringLiteral("↻"), QStringLiteral("recompile"), QColor(h.recompile) };
    case MarkerKind::Failure:
        return { QStringLiteral("✕"), QStringLiteral("failure"), QColor(h.error) };
    case MarkerKind::CacheHit:
        return { QStringLiteral("▲"), QStringLiteral("cache hit"), QColor(h.cacheHit) };
    case MarkerKind::CacheMiss:
        break;
    }
    return { QStringLiteral("▼"), QStringLiteral("cache miss"), QColor(h.cacheMiss) };
}

namespace {
double channel(double v)
{
    return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}
double relativeLuminance(const QColor& c)
{
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
        static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
        static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}
} // namespace

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool isDark(const QColor& base)
{
    return relativeLuminance(base) < 0.18;
}

QColor readableOn(const QColor& hue, const QColor& base)
{
    const QColor towards = isDark(base) ? QColor(Qt::white) : QColor(Qt::black);
    QColor c = hue;
    for (int step = 1; step <= 10 && contrastRatio(c, base) < 4.5; ++step)
        c = mix(hue, towards, step * 0.08);
    return c;
}

QColor itemTextColor(const QColor& hue)
{
    const QPalette pal = QGuiApplication::palette();
    QColor c = readableOn(hue, pal.color(QPalette::Base));
    if (contrastRatio(c, pal.color(QPalette::AlternateBase)) < 4.5)
        c = readableOn(c, pal.color(QPalette::AlternateBase));
    return c;
}

QColor fillOn(const QColor& hue, const QColor& base)
{
    // The high-contrast sets are made for their base: no tint.
    return isDark(base) && !highContrast() ? mix(hue, QColor(Qt::white), 0.22) : hue;
}

PhaseStyle phaseGroupStyle(PhaseGroup g)
{
    QColor c;
    switch (g) {
    case PhaseGroup::DynamoTracing:
        c = QColor(0x9F, 0xC8, 0x97); // sage
        break;
    case PhaseGroup::Guards:
        c = QColor(0xC4, 0xD9, 0x8E); // pale lime
        break;
    case PhaseGroup::DynamoOther:
        c = QColor(0xB9, 0xD3, 0xB4); // grey-green
        break;
    case PhaseGroup::Backend:
        c = QColor(0x9F, 0xC5, 0xD6); // teal-blue
        break;
    case PhaseGroup::AotAutograd:
        c = QColor(0xE3, 0xB8, 0x8C); // sand
        break;
    case PhaseGroup::Inductor:
        c = QColor(0xB7, 0xA6, 0xD6); // violet
        break;
    case PhaseGroup::InductorCodegen:
        c = QColor(0xD6, 0xB4, 0xDE); // lilac
        break;
    case PhaseGroup::Autotuning:
        c = QColor(0xE8, 0xA6, 0xA6); // rose
        break;
    case PhaseGroup::Cache:
        c = QColor(0xA9, 0xB8, 0xC9); // slate
        break;
    case PhaseGroup::CudaGraphs:
        c = QColor(0xD9, 0xCB, 0x8F); // khaki
        break;
    case PhaseGroup::Other:
    case PhaseGroup::Unattributed:
        c = QColor(0xC8, 0xC2, 0xB8); // stone
        break;
    }
    return { g, QString::fromUtf8(phaseGroupLabel(g)), c };
}

PhaseStyle phaseStyle(const std::string& name, PhaseGroup enclosing)
{
    return phaseGroupStyle(phaseGroupOf(name).value_or(enclosing));
}

std::vector<PhaseGroup> legendPhaseGroups()
{
    return { PhaseGroup::DynamoTracing, PhaseGroup::Guards, PhaseGroup::DynamoOther,
        PhaseGroup::Backend, PhaseGroup::AotAutograd, PhaseGroup::Inductor,
        PhaseGroup::InductorCodegen, PhaseGroup::Autotuning, PhaseGroup::Cache,
        PhaseGroup::CudaGraphs, PhaseGroup::Other };
}

} // namespace dynascope::ui
