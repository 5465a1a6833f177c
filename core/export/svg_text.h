// Text for the SVG pictures (timeline_svg.h): untrusted trace text made safe for XML element
// content and quoted attribute values, numbers in a short locale-free form, and round axis
// ticks. Each call is linear in its input and allocates only its result.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::svg {

// `s` as XML text: invalid UTF-8 becomes U+FFFD; control characters (C0, DEL, C1), U+FFFE,
// U+FFFF and the bidi controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) are dropped; tabs,
// and newlines unless keepNewlines, become spaces; runs of spaces collapse; cut to maxChars code
// points, the last one "…" when cut; & < > " ' escaped.
std::string text(std::string_view s, size_t maxChars, bool keepNewlines = false);

// A coordinate with at most one decimal, '.' whatever the locale ("12", "12.5", "-3.2").
std::string num(double v);

// Axis ticks for a span of `spanUs` microseconds: round steps (1, 2, 5 x 10^k; minutes and hours
// for long spans), at most maxTicks + 1 of them from 0, each with a label ("0", "250 ms",
// "1.5 s", "4 min", "2 h").
struct Tick {
    double us = 0;
    std::string label;
};
std::vector<Tick> ticks(double spanUs, int maxTicks);

} // namespace dynascope::svg
