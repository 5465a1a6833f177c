#include "core/export/svg_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace dynascope::svg {

namespace {
constexpr char32_t kReplacement = 0xFFFD;
constexpr char32_t kEllipsis = 0x2026;

// The code point at s[i] and its length in bytes; U+FFFD and 1 when the sequence is not valid.
char32_t decode(std::string_view s, size_t i, size_t& length)
{
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    length = 1;
    if (c < 0x80)
        return c;
    const size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size())
        return kReplacement;
    char32_t cp = n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return kReplacement;
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    }
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return kReplacement;
    length = n;
    return cp;
}

bool dropped(char32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF || cp == 0x200E
        || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void append(std::string& out, char32_t cp)
{
    switch (cp) {
    case '&':
        out += "&amp;";
        return;
    case '<':
        out += "&lt;";
        return;
    case '>':
        out += "&gt;";
        return;
    case '"':
        out += "&quot;";
        return;
    case '\'':
        out += "&#39;";
        return;
    default:
        break;
    }
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string("0");
}

// v with the decimals a step needs, trailing zeros dropped ("1.5", "1", not "1.0").
std::string trimmed(double v, int decimals)
{
    std::string s = fixed(v, decimals);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

int decimalsFor(double step)
{
    return step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
}
} // namespace

std::string text(std::string_view s, size_t maxChars, bool keepNewlines)
{
    // Clean code points, at most one more than fits (the input may be megabytes long).
    std::u32string kept;
    for (size_t i = 0; i < s.size();) {
        if (kept.size() > maxChars && kept.back() != ' ' && kept.back() != '\n')
            break;
        size_t n = 1;
        char32_t cp = decode(s, i, n);
        i += n;
        if (cp == '\t' || (cp == '\n' && !keepNewlines))
            cp = ' ';
        if (cp == '\r' || (cp != '\n' && dropped(cp)))
            continue;
        const bool blank = cp == ' ' || cp == '\n';
        if (blank && (kept.empty() || kept.back() == ' ' || kept.back() == '\n')) {
            if (cp == '\n' && !kept.empty())
                kept.back() = '\n';
            continue;
        }
        kept += cp;
    }
    while (!kept.empty() && (kept.back() == ' ' || kept.back() == '\n'))
        kept.pop_back();
    if (kept.size() > maxChars) {
        kept.resize(maxChars > 0 ? maxChars - 1 : 0);
        while (!kept.empty() && (kept.back() == ' ' || kept.back() == '\n'))
            kept.pop_back();
        if (maxChars > 0)
            kept += kEllipsis;
    }
    std::string out;
    out.reserve(kept.size() + 8);
    for (char32_t cp : kept)
        append(out, cp);
    return out;
}

std::string num(double v)
{
    if (!std::isfinite(v))
        return "0";
    std::string s = fixed(std::round(v * 10) / 10, 1);
    if (s.size() > 2 && s.ends_with(".0"))
        s.resize(s.size() - 2);
    return s == "-0" ? "0" : s;
}

std::vector<Tick> ticks(double spanUs, int maxTicks)
{
    std::vector<Tick> out;
    if (!(spanUs > 0) || !std::isfinite(spanUs) || maxTicks < 1)
        return { { 0, "0" } };
    constexpr double kMin = 60e6, kHour = 3600e6;
    double step = 0;
    if (spanUs >= 3 * kHour) {
        for (double h : { 1.0, 2.0, 3.0, 6.0, 12.0, 24.0, 48.0, 168.0 })
            if (step == 0 && spanUs / (h * kHour) <= maxTicks)
                step = h * kHour;
    } else if (spanUs >= 10 * kMin) {
        for (double m : { 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0 })
            if (step == 0 && spanUs / (m * kMin) <= maxTicks)
                step = m * kMin;
    }
    if (step == 0 && spanUs < 10 * kMin) {
        const double raw = spanUs / maxTicks;
        const double p = std::pow(10.0, std::floor(std::log10(raw)));
        for (double m : { 1.0, 2.0, 5.0, 10.0 })
            if (step == 0 && m * p >= raw)
                step = m * p;
    }
    if (step == 0) // a span of weeks: a week a tick, as many as it takes
        step = std::max(168 * kHour, std::ceil(spanUs / maxTicks / kHour) * kHour);
    for (int k = 0; k * step <= spanUs * (1 + 1e-9) && k <= 1000; ++k) {
        const double v = k * step;
        std::string label;
        if (k == 0)
            label = "0";
        else if (step >= kHour && std::fmod(v, kHour) == 0)
            label = fixed(v / kHour, 0) + " h";
        else if (step >= kMin)
            label = fixed(v / kMin, 0) + " min";
        else if (spanUs < 1000)
            label = trimmed(v, decimalsFor(step)) + " µs";
        else if (step < 100e3)
            label = trimmed(v / 1e3, decimalsFor(step / 1e3)) + " ms";
        else
            label = trimmed(v / 1e6, decimalsFor(step / 1e6)) + " s";
        out.push_back({ v, std::move(label) });
    }
    return out;
}

} // namespace dynascope::svg
