#include "ui/models/statusstyle.h"

#include <string_view>

namespace dynascope::ui {

StatusStyle statusStyle(CompileStatus status)
{
    switch (status) {
    case CompileStatus::Ok:
        return { QStringLiteral("✓"), QStringLiteral("ok"), QColor(0x00, 0x9E, 0x73) };
    case CompileStatus::GraphBreak:
        return { QStringLiteral("⚡"), QStringLiteral("graph break"), QColor(0xE6, 0x9F, 0x00) };
    case CompileStatus::Empty:
        return { QStringLiteral("∅"), QStringLiteral("empty"), QColor(0x99, 0x99, 0x99) };
    case CompileStatus::Error:
        return { QStringLiteral("✕"), QStringLiteral("error"), QColor(0xD5, 0x5E, 0x00) };
    case CompileStatus::Missing:
        break;
    }
    return { QStringLiteral("?"), QStringLiteral("missing"), QColor(0xCC, 0x79, 0xA7) };
}

StatusStyle markerStyle(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::GraphBreak:
        return { QStringLiteral("⚡"), QStringLiteral("graph break"), QColor(0xE6, 0x9F, 0x00) };
    case MarkerKind::Recompile:
        return { QStringLiteral("↻"), QStringLiteral("recompile"), QColor(0x00, 0x72, 0xB2) };
    case MarkerKind::Failure:
        return { QStringLiteral("✕"), QStringLiteral("failure"), QColor(0xD5, 0x5E, 0x00) };
    case MarkerKind::CacheHit:
        return { QStringLiteral("▲"), QStringLiteral("cache hit"), QColor(0x56, 0xB4, 0xE9) };
    case MarkerKind::CacheMiss:
        break;
    }
    return { QStringLiteral("▼"), QStringLiteral("cache miss"), QColor(0xF0, 0xE4, 0x42) };
}

QColor phaseColor(const std::string& name)
{
    const std::string_view n(name);
    auto has = [&](std::string_view s) { return n.find(s) != std::string_view::npos; };
    // Inductor first: "inductor_compile" also contains "compile".
    if (has("inductor") || has("GraphLowering") || has("code_gen") || has("fx_codegen")
        || has("async_compile") || has("triton"))
        return QColor(0xB7, 0xA6, 0xD6); // muted violet
    if (has("aot") || has("create_aot") || has("autograd"))
        return QColor(0xE3, 0xB8, 0x8C); // muted sand
    if (has("backend"))
        return QColor(0x9F, 0xC5, 0xD6); // muted teal-blue
    return QColor(0xA9, 0xC9, 0xA4); // Dynamo: muted sage
}

} // namespace dynascope::ui
