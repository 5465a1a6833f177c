#include "core/parse/log_line.h"

#include "core/parse/glog_prefix.h"

namespace dynascope::logs {

namespace {
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
    // Level, date, time and process id: the glog fields a TORCH_TRACE header has too.
    GlogFields glog;
    const auto afterPid = parseGlogFields(line, p, glog);
    if (!afterPid)
        return std::nullopt;
    out.level = glog.level;
    out.month = glog.month;
    out.day = glog.day;
    out.msOfDay = glog.msOfDay;
    out.pid = glog.threadOrPid;
    p = *afterPid;
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

bool looksLikeTorchLogs(std::string_view head)
{
    uint64_t torchLines = 0, traceHeaders = 0;
    size_t pos = 0;
    while (pos < head.size()) {
        size_t nl = head.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = head.size();
        const auto l = parseLogLine(head.substr(pos, nl - pos));
        pos = nl + 1;
        if (!l)
            continue;
        if (l->message.starts_with("{") && l->compileId.empty() && l->artifact.empty())
            ++traceHeaders;
        else if (isTorchEmitter(l->emitter) || !l->compileId.empty() || !l->artifact.empty())
            ++torchLines;
    }
    return torchLines > 0 && torchLines > traceHeaders;
}

} // namespace dynascope::logs
