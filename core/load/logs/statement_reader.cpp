#include "core/load/logs/statement_reader.h"

#include "core/parse/log_line.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

namespace dynascope::logs {

namespace {

// Calls fn(line, number) for each line of `input` (without '\n' and CR), number 1-based.
template <class Fn> bool forEachLine(std::string_view input, std::stop_token stop, Fn&& fn)
{
    size_t pos = 0;
    uint64_t number = 0;
    while (pos < input.size()) {
        const void* nl = std::memchr(input.data() + pos, '\n', input.size() - pos);
        const size_t end
            = nl ? static_cast<size_t>(static_cast<const char*>(nl) - input.data()) : input.size();
        std::string_view line = input.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        ++number;
        if ((number & 0xffff) == 0 && stop.stop_requested())
            return false;
        fn(line, number);
        pos = end + 1;
    }
    return true;
}

// A log line of PyTorch's: a prefix from one of torch's modules, or one that carries a compile
// id or an artifact (only torch._logging writes those), and not a TORCH_TRACE record.
enum class LineKind { Torch, TraceHeader, OtherLogger, Foreign };
LineKind classify(std::string_view line, std::optional<LogLine>& parsed)
{
    parsed = parseLogLine(line);
    if (!parsed)
        return LineKind::Foreign;
    if (parsed->message.starts_with("{") && parsed->compileId.empty() && parsed->artifact.empty())
        return LineKind::TraceHeader;
    if (!isTorchEmitter(parsed->emitter) && parsed->compileId.empty() && parsed->artifact.empty())
        return LineKind::OtherLogger;
    return LineKind::Torch;
}

bool isBlank(std::string_view s)
{
    return s.find_first_not_of(" \t") == std::string_view::npos;
}

// Line statistics for the paste checks: the longest lines, how many there are, how many are
// followed by a line without a prefix, and a few of their endings.
struct WidthStats {
    size_t longest = 0;
    uint64_t atLongest = 0;
    uint64_t followedByBare = 0;
    std::array<std::string, 3> endings;
    size_t distinctEndings = 0;

    void row(std::string_view line, size_t chars)
    {
        if (chars > longest) {
            longest = chars;
            atLongest = 0;
            followedByBare = 0;
            distinctEndings = 0;
        }
        if (chars != longest)
            return;
        ++atLongest;
        const std::string_view end = line.substr(line.size() - std::min<size_t>(line.size(), 24));
        if (distinctEndings < endings.size()
            && std::find(endings.begin(),
                   endings.begin() + static_cast<std::ptrdiff_t>(distinctEndings), end)
                == endings.begin() + static_cast<std::ptrdiff_t>(distinctEndings))
            endings[distinctEndings++] = std::string(end);
    }
};

struct Open {
    bool used = false;
    int64_t rank = -1;
    uint64_t pid = 0;
    std::string prefix; // the exact prefix of its lines
    std::string text;
    StatementInfo info;
    uint64_t lastInput = 0; // input line it last took
};

constexpr size_t kMaxOpen = 8;
constexpr size_t kMaxStatementBytes = size_t(1) << 31;

class Reader {
public:
    Reader(std::string_view input, std::stop_token stop)
        : m_input(input)
        , m_stop(stop)
    {
    }

    ReadResult run()
    {
        // The statements' text: at most the bytes of the log lines (prefixes of further lines
        // become one tab), reserved once.
        m_out.text.reserve(measure());
        const bool done = forEachLine(
            m_input, m_stop, [&](std::string_view line, uint64_t n) { take(line, n); });
        for (size_t i = 0; i < m_open.size(); ++i)
            close(i);
        m_out.cancelled = !done;
        m_out.endsMidLine = !m_input.empty() && m_input.back() != '\n';
        // Statements close in the order their process moves on; the model wants input order.
        std::stable_sort(m_out.statements.begin(), m_out.statements.end(),
            [](const StatementInfo& a, const StatementInfo& b) { return a.line < b.line; });
        m_out.text.shrink_to_fit();
        return std::move(m_out);
    }

private:
    size_t measure()
    {
        size_t logBytes = 0, bareBytes = 0;
        WidthStats stats;
        size_t prevChars = 0;
        bool prevAtLongest = false;
        forEachLine(m_input, m_stop, [&](std::string_view line, uint64_t) {
            std::optional<LogLine> parsed;
            const LineKind kind = classify(line, parsed);
            const bool bare = kind == LineKind::Foreign;
            if (kind == LineKind::Torch)
                logBytes += line.size() + 1;
            else if (bare)
                bareBytes += line.size(); // a wrapped part joins its line
            if (prevAtLongest && prevChars == stats.longest && bare && !isBlank(line))
                ++stats.followedByBare;
            // Characters never outnumber bytes: a line shorter in bytes than the longest one
            // cannot be the longest (most lines; counting them was a tenth of the load).
            const size_t chars = line.size() >= stats.longest ? characterCount(line) : 0;
            stats.row(line, chars);
            prevChars = chars;
            prevAtLongest = chars == stats.longest;
        });
        // Hard wraps: most of the longest lines go on in a line without a prefix. A capture
        // that was not wrapped has a handful of longest lines at most, followed by log lines.
        if (stats.atLongest >= 2 && stats.followedByBare >= 2
            && stats.followedByBare * 2 >= stats.atLongest && stats.longest >= 40)
            m_out.wrapColumns = stats.longest;
        else if (stats.atLongest >= 3 && stats.distinctEndings >= 3 && stats.longest >= 40)
            m_out.cutColumns = stats.longest;
        return logBytes + (m_out.wrapColumns ? bareBytes : 0);
    }

    void take(std::string_view line, uint64_t n)
    {
        m_out.lines = n;
        std::optional<LogLine> parsed;
        const LineKind kind = classify(line, parsed);
        const size_t width = std::max(m_out.wrapColumns, m_out.cutColumns);
        const size_t chars = width && line.size() >= width ? characterCount(line) : 0;
        if (kind == LineKind::Torch) {
            addLogLine(line, *parsed, n, chars);
            return;
        }
        // A line without a prefix right after a wrapped part of a log line: its next part.
        if (kind == LineKind::Foreign && m_out.wrapColumns && m_lastSlot < m_open.size()
            && m_open[m_lastSlot].used && m_lastChars == m_out.wrapColumns && !line.empty()) {
            Open& o = m_open[m_lastSlot];
            o.text.append(line);
            o.info.lastLine = static_cast<uint32_t>(n);
            o.lastInput = n;
            m_lastChars = chars;
            ++m_out.joinedLines;
            if (o.text.size() > kMaxStatementBytes)
                close(m_lastSlot);
            return;
        }
        ++m_out.foreignLines;
        if (!m_out.firstForeignLine)
            m_out.firstForeignLine = n;
        m_out.lastForeignLine = n;
        if (kind == LineKind::TraceHeader)
            ++m_out.traceHeaderLines;
        else if (kind == LineKind::OtherLogger)
            ++m_out.otherLoggerLines;
        m_lastSlot = kMaxOpen;
        m_lastChars = 0;
    }

    void addLogLine(std::string_view line, const LogLine& l, uint64_t n, size_t chars)
    {
        // The prefix as written, without the indentation a paste may add and without the space
        // before the message (a paste drops it from a line whose message is empty).
        size_t indent = 0;
        while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t'))
            ++indent;
        const std::string_view prefix = line.substr(indent, l.prefixEnd - indent);
        const int64_t rank = l.rank.value_or(-1);
        size_t slot = kMaxOpen;
        for (size_t i = 0; i < m_open.size(); ++i)
            if (m_open[i].used && m_open[i].rank == rank && m_open[i].pid == l.pid)
                slot = i;
        if (slot < m_open.size() && m_open[slot].prefix == prefix
            && m_open[slot].text.size() <= kMaxStatementBytes) {
            Open& o = m_open[slot];
            o.text += "\n\t";
            o.text.append(l.message);
            o.info.lastLine = static_cast<uint32_t>(n);
            o.lastInput = n;
        } else {
            if (slot < m_open.size())
                close(slot);
            else
                slot = freeSlot();
            Open& o = m_open[slot];
            o.used = true;
            o.rank = rank;
            o.pid = l.pid;
            o.prefix.assign(prefix);
            o.text.assign(line.substr(indent));
            o.info = {};
            o.info.line = static_cast<uint32_t>(n);
            o.info.lastLine = static_cast<uint32_t>(n);
            o.lastInput = n;
        }
        if (m_out.cutColumns && chars == m_out.cutColumns) {
            m_open[slot].info.cut = true;
            ++m_out.cutLines;
        }
        m_lastSlot = slot;
        m_lastChars = chars;
    }

    size_t freeSlot()
    {
        for (size_t i = 0; i < m_open.size(); ++i)
            if (!m_open[i].used)
                return i;
        size_t oldest = 0;
        for (size_t i = 1; i < m_open.size(); ++i)
            if (m_open[i].lastInput < m_open[oldest].lastInput)
                oldest = i;
        close(oldest);
        return oldest;
    }

    void close(size_t i)
    {
        Open& o = m_open[i];
        if (!o.used)
            return;
        StatementInfo info = o.info;
        info.offset = m_out.text.size();
        const size_t nl = o.text.find('\n');
        info.headerLength = static_cast<uint32_t>(nl == std::string::npos ? o.text.size() : nl);
        info.payloadLength
            = nl == std::string::npos ? 0 : static_cast<uint32_t>(o.text.size() - nl - 1);
        m_out.text += o.text;
        m_out.text += '\n';
        m_out.statements.push_back(info);
        o.used = false;
        o.text.clear();
        if (o.text.capacity() > (1u << 20))
            o.text.shrink_to_fit();
        if (m_lastSlot == i)
            m_lastSlot = kMaxOpen;
    }

    std::string_view m_input;
    std::stop_token m_stop;
    ReadResult m_out;
    std::array<Open, kMaxOpen> m_open;
    size_t m_lastSlot = kMaxOpen;
    size_t m_lastChars = 0;
};

} // namespace

ReadResult readStatements(std::string_view input, std::stop_token stop)
{
    return Reader(input, stop).run();
}

} // namespace dynascope::logs
