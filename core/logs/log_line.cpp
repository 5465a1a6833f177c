#include "core/logs/log_line.h"

namespace dynascope::logs {

namespace {
bool digitsAt(std::string_view s, size_t pos, size_t n, int& out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (size_t i = 0; i < n; ++i) {
        const char c = s[pos + i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// "0/0", "0/1_2", "!0/3/0", "!1/0/0_1": digits, '/', '_' and a leading '!'.
bool looksLikeCompileId(std::string_view s)
{
    if (s.empty() || s.size() > 40)
        return false;
    size_t i = s.front() == '!' ? 1 : 0;
    bool slash = false, digit = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (isDigit(c))
            digit = true;
        else if (c == '/')
            slash = true;
        else if (c != '_')
            return false;
    }
    return slash && digit && isDigit(s.back());
}
} // namespace

std::optional<LogLine> parseLogLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    size_t p = 0;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t') && p < 16)
        ++p;
    LogLine out;
    if (line.substr(p).starts_with("[rank")) {
        size_t q = p + 5;
        int64_t rank = 0;
        const size_t start = q;
        while (q < line.size() && isDigit(line[q]) && q - start < 9)
            rank = rank * 10 + (line[q++] - '0');
        if (q == start || line.substr(q, 2) != "]:")
            return std::nullopt;
        out.rank = rank;
        p = q + 2;
    }
    if (p >= line.size())
        return std::nullopt;
    out.level = line[p];
    if (out.level != 'V' && out.level != 'I' && out.level != 'W' && out.level != 'E'
        && out.level != 'C')
        return std::nullopt;
    ++p;
    int mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!digitsAt(line, p, 2, mo) || !digitsAt(line, p + 2, 2, d) || p + 4 >= line.size()
        || line[p + 4] != ' ')
        return std::nullopt;
    p += 5;
    if (!digitsAt(line, p, 2, h) || p + 2 >= line.size() || line[p + 2] != ':'
        || !digitsAt(line, p + 3, 2, mi) || p + 5 >= line.size() || line[p + 5] != ':'
        || !digitsAt(line, p + 6, 2, s))
        return std::nullopt;
    p += 8;
    int frac = 0, fracDigits = 0;
    if (p < line.size() && line[p] == '.') {
        ++p;
        while (p < line.size() && isDigit(line[p])) {
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
    if (p >= line.size() || line[p] != ' ')
        return std::nullopt;
    while (p < line.size() && line[p] == ' ')
        ++p;
    const size_t pidStart = p;
    while (p < line.size() && isDigit(line[p]) && p - pidStart < 20)
        out.pid = out.pid * 10 + static_cast<uint64_t>(line[p++] - '0');
    if (p == pidStart || p >= line.size() || line[p] != ' ')
        return std::nullopt;
    ++p;
    // The emitter ends at the first ']' preceded by ":<digits>" (a path may hold ']').
    size_t close = p;
    for (;;) {
        close = line.find(']', close);
        if (close == std::string_view::npos)
            return std::nullopt;
        size_t q = close;
        while (q > p && isDigit(line[q - 1]))
            --q;
        if (q < close && q > p && line[q - 1] == ':')
            break;
        ++close;
    }
    out.emitter = line.substr(p, close - p);
    p = close + 1;
    auto bracket = [&](std::string_view& into, bool artifact) {
        if (line.substr(p, 2) != " [")
            return false;
        const size_t end = line.find(']', p + 2);
        if (end == std::string_view::npos)
            return false;
        std::string_view inner = line.substr(p + 2, end - p - 2);
        if (artifact) {
            if (!inner.starts_with("__") || inner.size() < 3 || inner.size() > 64
                || inner.find(' ') != std::string_view::npos)
                return false;
            inner.remove_prefix(2);
        } else if (!looksLikeCompileId(inner)) {
            return false;
        }
        into = inner;
        p = end + 1;
        return true;
    };
    bracket(out.compileId, false);
    bracket(out.artifact, true);
    out.prefixEnd = p;
    if (p < line.size()) {
        if (line[p] != ' ')
            return std::nullopt;
        ++p;
    }
    out.prefixLength = p;
    out.message = line.substr(p);
    return out;
}

bool isTorchEmitter(std::string_view emitter)
{
    return emitter.starts_with("torch/") || emitter.find("/torch/") != std::string_view::npos
        || emitter.find("\\torch\\") != std::string_view::npos;
}

size_t characterCount(std::string_view s)
{
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0u) != 0x80u;
    return n;
}

} // namespace dynascope::logs
