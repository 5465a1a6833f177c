#include "core/parse/glog_prefix.h"

#include <cstring>

namespace dynascope {

namespace {
bool digits(std::string_view s, size_t pos, size_t n, int& out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = s[pos + i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}
} // namespace

std::optional<size_t> parseGlogFields(std::string_view line, size_t p, GlogFields& out)
{
    if (p >= line.size())
        return std::nullopt;
    out.level = line[p];
    if (std::strchr("VIWEC", out.level) == nullptr || out.level == '\0')
        return std::nullopt;
    ++p;
    int mo, d, h, mi, s;
    if (!digits(line, p, 2, mo) || !digits(line, p + 2, 2, d))
        return std::nullopt;
    p += 4;
    if (p >= line.size() || line[p] != ' ')
        return std::nullopt;
    ++p;
    if (!digits(line, p, 2, h) || p + 2 >= line.size() || line[p + 2] != ':'
        || !digits(line, p + 3, 2, mi) || p + 5 >= line.size() || line[p + 5] != ':'
        || !digits(line, p + 6, 2, s))
        return std::nullopt;
    p += 8;
    int frac = 0;
    int fracDigits = 0;
    if (p < line.size() && line[p] == '.') {
        ++p;
        while (p < line.size() && line[p] >= '0' && line[p] <= '9') {
            if (fracDigits < 3)
                frac = frac * 10 + (line[p] - '0');
            ++fracDigits;
            ++p;
        }
        for (int i = fracDigits; i < 3; ++i)
            frac *= 10;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    out.month = mo;
    out.day = d;
    out.msOfDay = static_cast<uint32_t>(((h * 60 + mi) * 60 + s) * 1000 + frac);
    while (p < line.size() && line[p] == ' ')
        ++p;
    uint64_t tid = 0;
    const size_t tidStart = p;
    while (p < line.size() && line[p] >= '0' && line[p] <= '9' && p - tidStart < 20)
        tid = tid * 10 + static_cast<uint64_t>(line[p++] - '0');
    if (p == tidStart || p >= line.size() || line[p] != ' ')
        return std::nullopt;
    out.threadOrPid = tid;
    return p + 1;
}

std::optional<GlogPrefix> parseGlogPrefix(std::string_view line)
{
    size_t p = 0;
    // "[rank0]:" from torchrun-style launchers.
    if (line.starts_with("[rank")) {
        size_t close = line.find("]:");
        if (close == std::string_view::npos || close > 16)
            return std::nullopt;
        p = close + 2;
    }
    GlogFields fields;
    const auto after = parseGlogFields(line, p, fields);
    if (!after)
        return std::nullopt;
    p = *after;
    GlogPrefix g;
    g.level = fields.level;
    g.month = fields.month;
    g.day = fields.day;
    g.msOfDay = fields.msOfDay;
    g.threadOrPid = fields.threadOrPid;
    // The emitter path may contain spaces or "C:\" colons: the JSON starts at the first
    // "] {" after a ":<digits>" — take the first "] {" and check the digits before it.
    size_t close = line.find("] {", p);
    if (close == std::string_view::npos)
        return std::nullopt;
    size_t colon = line.rfind(':', close);
    if (colon == std::string_view::npos || colon < p || colon + 1 == close)
        return std::nullopt;
    for (size_t i = colon + 1; i < close; ++i)
        if (line[i] < '0' || line[i] > '9')
            return std::nullopt;
    g.emitter = line.substr(p, close - p);
    g.jsonOffset = close + 2;
    return g;
}

} // namespace dynascope
