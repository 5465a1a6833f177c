#include "core/util/text_format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace dynascope::text {

namespace {
constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not valid.
size_t utf8Length(std::string_view s, size_t i)
{
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size())
        return 0;
    for (size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
    uint32_t cp = n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (byte(i + k) & 0x3Fu);
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

size_t longestRun(std::string_view s, char c)
{
    size_t best = 0, run = 0;
    for (char x : s) {
        run = x == c ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}
} // namespace

std::string cleanUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 && c != '\n' && c != '\t') {
            // CR is dropped (CRLF text); other control characters are shown as U+FFFD.
            if (c != '\r')
                out += kReplacement;
            ++i;
            continue;
        }
        if (c == 0x7F) {
            out += kReplacement;
            ++i;
            continue;
        }
        size_t n = utf8Length(s, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
            continue;
        }
        out.append(s.substr(i, n));
        i += n;
    }
    return out;
}

std::string htmlEscape(std::string_view raw)
{
    std::string s = cleanUtf8(raw);
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string mdCode(std::string_view raw, bool inTable)
{
    std::string s = cleanUtf8(raw);
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::replace(s.begin(), s.end(), '\t', ' ');
    if (inTable) {
        std::string escaped;
        for (char c : s) {
            if (c == '|')
                escaped += '\\';
            escaped += c;
        }
        s = std::move(escaped);
    }
    if (s.empty())
        return "` `";
    std::string fence(longestRun(s, '`') + 1, '`');
    // A code span that starts or ends with a backtick needs a space inside the fence.
    bool pad = s.front() == '`' || s.back() == '`' || s.front() == ' ';
    return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

std::string mdFence(std::string_view raw, std::string_view language)
{
    std::string s = cleanUtf8(raw);
    std::string fence(std::max<size_t>(3, longestRun(s, '`') + 1), '`');
    std::string out = fence + std::string(language) + "\n" + s;
    if (!s.empty() && s.back() != '\n')
        out += '\n';
    return out + fence + "\n";
}

std::string mdText(std::string_view raw)
{
    std::string s = cleanUtf8(raw);
    std::string out;
    for (char c : s) {
        if (c == '\n') {
            out += ' ';
            continue;
        }
        if (std::string_view("\\`*_{}[]<>()#+-.!|~&").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

std::string duration(double us)
{
    char buf[64];
    if (!(us > 0))
        return "0 µs";
    if (!std::isfinite(us))
        return "(out of range)";
    if (us < 1000)
        std::snprintf(buf, sizeof buf, "%.0f µs", us);
    else if (us < 1e6)
        std::snprintf(buf, sizeof buf, us < 1e4 ? "%.2f ms" : "%.1f ms", us / 1e3);
    else if (us < 60e6)
        std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.0f min %.0f s", std::floor(us / 60e6),
            std::fmod(std::floor(us / 1e6), 60.0));
    return buf;
}

namespace {
// Three significant digits: 1.23, 12.3, 123.
std::string sig3(double v)
{
    const double a = std::fabs(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, a >= 100 || a == 0 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", v);
    return buf;
}
} // namespace

std::string compactDuration(double us)
{
    if (!(us >= 0) || std::isinf(us))
        return "–";
    char buf[64];
    if (us < 1000) {
        if (us < 10 && us != std::floor(us))
            std::snprintf(buf, sizeof buf, "%.1f µs", us);
        else
            std::snprintf(buf, sizeof buf, "%lld µs", static_cast<long long>(std::llround(us)));
        return buf;
    }
    if (us < 1e6)
        return sig3(us / 1e3) + " ms";
    if (us < 60e6)
        return sig3(us / 1e6) + " s";
    const auto totalS = static_cast<long long>(std::llround(us / 1e6));
    if (totalS < 3600)
        std::snprintf(buf, sizeof buf, "%lld min %lld s", totalS / 60, totalS % 60);
    else
        std::snprintf(buf, sizeof buf, "%lld h %02lld min", totalS / 3600, (totalS % 3600) / 60);
    return buf;
}

std::string utcTime(double epochUs)
{
    if (!(epochUs > 0))
        return {};
    using namespace std::chrono;
    auto ms = static_cast<int64_t>(std::llround(epochUs / 1000.0));
    int64_t days = ms / 86'400'000;
    int64_t rem = ms % 86'400'000;
    year_month_day ymd { sys_days { std::chrono::days { days } } };
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld.%03lld UTC",
        static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
        static_cast<unsigned>(ymd.day()), static_cast<long long>(rem / 3'600'000),
        static_cast<long long>(rem / 60'000 % 60), static_cast<long long>(rem / 1000 % 60),
        static_cast<long long>(rem % 1000));
    return buf;
}

std::string_view firstLine(std::string_view s)
{
    return s.substr(0, s.find('\n'));
}

std::string headLines(std::string_view s, size_t maxLines)
{
    size_t pos = 0;
    for (size_t n = 0; n < maxLines; ++n) {
        size_t nl = s.find('\n', pos);
        if (nl == std::string_view::npos)
            return std::string(s);
        pos = nl + 1;
    }
    if (pos >= s.size())
        return std::string(s);
    size_t rest = static_cast<size_t>(
                      std::count(s.begin() + static_cast<std::ptrdiff_t>(pos), s.end(), '\n'))
        + 1;
    return std::string(s.substr(0, pos)) + "… (" + std::to_string(rest) + " more lines)";
}

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100.0);
    return buf;
}

std::string_view baseName(std::string_view path)
{
    size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string codePlace(std::string_view file, int64_t line)
{
    if (file.empty())
        return {};
    std::string s(file);
    if (line > 0)
        s += ":" + std::to_string(line);
    return s;
}

} // namespace dynascope::text
