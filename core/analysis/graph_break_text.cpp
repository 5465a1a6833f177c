#include "core/analysis/graph_break_text.h"

#include <charconv>

namespace dynascope {

namespace {
std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (
        !s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

int64_t toInt(std::string_view s)
{
    int64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}
} // namespace

Stack parsePythonTraceback(std::string_view text)
{
    Stack frames;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        std::string_view line
            = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        std::string_view t = trim(line);
        if (!t.starts_with("File \"")) {
            // The source line printed under a frame.
            if (!frames.empty() && frames.back().loc.empty() && !t.empty()
                && t.find_first_not_of("^~ ") != std::string_view::npos
                && !t.starts_with("Traceback"))
                frames.back().loc = std::string(t);
            continue;
        }
        size_t q = t.find('"', 6);
        if (q == std::string_view::npos)
            continue;
        StackFrame f;
        f.file = std::string(t.substr(6, q - 6));
        size_t ln = t.find(", line ", q);
        if (ln != std::string_view::npos) {
            size_t start = ln + 7;
            size_t end = start;
            while (end < t.size() && t[end] >= '0' && t[end] <= '9')
                ++end;
            f.line = toInt(t.substr(start, end - start));
            size_t in = t.find(", in ", end);
            if (in != std::string_view::npos)
                f.name = std::string(t.substr(in + 5));
        }
        frames.push_back(std::move(f));
    }
    return frames;
}

GraphBreak parseGraphBreakText(std::string_view text)
{
    GraphBreak gb;
    std::string_view first = text.substr(0, text.find('\n'));
    constexpr std::string_view kAt = "Graph break in user code at ";
    if (auto p = first.find(kAt); p != std::string_view::npos) {
        std::string_view where = trim(first.substr(p + kAt.size()));
        size_t colon = where.rfind(':');
        if (colon != std::string_view::npos) {
            gb.file = std::string(where.substr(0, colon));
            gb.line = toInt(where.substr(colon + 1));
        } else {
            gb.file = std::string(where);
        }
    }
    size_t tb = text.find("User code traceback:");
    std::string_view head = text.substr(0, tb);
    size_t r = head.find("Graph Break Reason:");
    size_t skip = 19;
    if (r == std::string_view::npos) {
        r = head.find("Reason:");
        skip = 7;
    }
    if (r != std::string_view::npos)
        gb.reason = std::string(trim(head.substr(r + skip)));
    else
        gb.reason = std::string(trim(tb == std::string_view::npos ? text : head));
    if (tb != std::string_view::npos) {
        std::string_view rest = text.substr(tb);
        // The user traceback ends at the first blank line (an internal traceback may follow).
        size_t blank = rest.find("\n\n");
        std::string_view user = rest.substr(0, blank);
        gb.traceback = std::string(trim(user));
        gb.userFrames = parsePythonTraceback(user);
        if (gb.file.empty() && !gb.userFrames.empty()) {
            gb.file = gb.userFrames.back().file;
            gb.line = gb.userFrames.back().line;
        }
    }
    return gb;
}

std::string normaliseExceptionType(std::string_view raw)
{
    std::string_view t = trim(raw);
    if (t.starts_with("<class '") && t.ends_with("'>"))
        t = t.substr(8, t.size() - 10);
    size_t dot = t.rfind('.');
    if (dot != std::string_view::npos)
        t = t.substr(dot + 1);
    return std::string(t);
}

} // namespace dynascope
