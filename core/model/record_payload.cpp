#include "core/model/record_payload.h"

#include "core/io/trace_source.h"
#include "core/model/trace.h"

namespace dynascope {

namespace {
// Appends payload lines to `out`, one tab stripped from each, joined with '\n'. Blank lines
// inside a payload are either inserted by a tool (skip them) or payload lines whose lone tab an
// editor stripped (keep them as empty lines); `keepBlank` chooses.
void appendPayload(std::string_view bytes, bool keepBlank, bool& sawBlank, std::string& out)
{
    out.reserve(out.size() + bytes.size());
    size_t pos = 0;
    bool first = true;
    while (pos < bytes.size()) {
        size_t nl = bytes.find('\n', pos);
        std::string_view line
            = bytes.substr(pos, nl == std::string_view::npos ? bytes.npos : nl - pos);
        pos = nl == std::string_view::npos ? bytes.size() : nl + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty()) {
            sawBlank = true;
            if (!keepBlank)
                continue;
        }
        if (!line.empty() && line.front() == '\t')
            line.remove_prefix(1);
        if (!first)
            out += '\n';
        out += line;
        first = false;
    }
}

void decodePayload(std::string_view bytes, bool keepBlank, bool& sawBlank, std::string& out)
{
    out.clear();
    appendPayload(bytes, keepBlank, sawBlank, out);
}

std::string_view headerLine(const ByteWindow& buffer, const Record& r)
{
    return buffer.view(r.offset, r.headerLength);
}

std::string_view payloadBytes(const ByteWindow& buffer, const Record& r)
{
    return buffer.view(r.payloadOffset(), r.payloadLength);
}

// The has_payload value of a header line: its last "has_payload" key in the JSON after the glog
// prefix (md5 hex has no escapes, so the text is the value).
std::string_view declaredHash(std::string_view header)
{
    const std::string_view json = headerJsonOf(header);
    constexpr std::string_view key = "\"has_payload\"";
    size_t p = json.rfind(key);
    if (p == std::string_view::npos)
        return {};
    p = json.find('"', p + key.size());
    if (p == std::string_view::npos)
        return {};
    size_t e = json.find('"', p + 1);
    if (e == std::string_view::npos)
        return {};
    return json.substr(p + 1, e - p - 1);
}

// A buffer that grew for one huge payload goes back rather than stay with the scanner.
void release(std::string& s)
{
    if (s.capacity() > (16u << 20))
        std::string().swap(s);
}

bool sameHex(const unsigned char (&digest)[16], std::string_view want)
{
    static const char hex[] = "0123456789abcdef";
    if (want.size() != 32)
        return false;
    for (int i = 0; i < 16; ++i)
        if (want[2 * i] != hex[digest[i] >> 4] || want[2 * i + 1] != hex[digest[i] & 15])
            return false;
    return true;
}
} // namespace

std::string recordPayload(const ByteWindow& buffer, const Record& r)
{
    if (r.payloadLength == 0)
        return {};
    const std::string_view bytes = payloadBytes(buffer, r);
    bool sawBlank = false;
    std::string text;
    decodePayload(bytes, false, sawBlank, text);
    if (sawBlank && r.hasPayload()) {
        // Prefer the reading that matches the declared hash.
        std::string kept;
        decodePayload(bytes, true, sawBlank, kept);
        if (headerLine(buffer, r).find(md5Hex(kept)) != std::string_view::npos)
            return kept;
    }
    return text;
}

bool PayloadHashCheck::matches(const ByteWindow& buffer, const Record& r)
{
    if (!r.hasPayload())
        return true;
    // As recordPayload reads the payload, without a string per call.
    const std::string_view want = declaredHash(headerLine(buffer, r));
    char hex[32];
    const std::string_view got(hex, sizeof hex);
    std::string_view text;
    bool match = false;
    bool decided = false;
    if (r.payloadLength > 0) {
        const std::string_view bytes = payloadBytes(buffer, r);
        bool sawBlank = false;
        decodePayload(bytes, false, sawBlank, m_text);
        text = m_text;
        if (sawBlank) {
            decodePayload(bytes, true, sawBlank, m_kept);
            if (m_md5.hex(m_kept, hex)
                && headerLine(buffer, r).find(got) != std::string_view::npos) {
                match = got == want;
                decided = true;
            }
            release(m_kept);
        }
    }
    if (!decided)
        match = m_md5.hex(text, hex) && got == want;
    release(m_text);
    return match;
}

void PayloadHashCheck::startDecoded()
{
    m_arena.clear();
    m_pending.clear();
    m_textStart = 0;
}

void PayloadHashCheck::endDecoded(size_t record)
{
    m_pending.push_back({ record, m_textStart, m_arena.size() - m_textStart });
    m_textStart = m_arena.size();
}

void PayloadHashCheck::matchMany(const ByteWindow& buffer,
    const std::vector<const Record*>& records, std::vector<uint8_t>& matched)
{
    startDecoded();
    for (size_t i = 0; i < records.size(); ++i) {
        const Record& r = *records[i];
        if (!r.hasPayload())
            continue;
        bool sawBlank = false;
        if (r.payloadLength > 0)
            appendPayload(payloadBytes(buffer, r), false, sawBlank, m_arena);
        if (sawBlank) // two readings to weigh against the header (rare): matchDecoded does
            m_arena.resize(m_textStart);
        else
            endDecoded(i);
    }
    matchDecoded(buffer, records, matched);
}

void PayloadHashCheck::matchDecoded(const ByteWindow& buffer,
    const std::vector<const Record*>& records, std::vector<uint8_t>& matched)
{
    // The arena is complete (no more moves): the messages can point into it.
    m_messages.resize(m_pending.size());
    for (size_t k = 0; k < m_pending.size(); ++k)
        m_messages[k].data
            = std::string_view(m_arena).substr(m_pending[k].offset, m_pending[k].size);
    md5Many(m_messages.data(), m_messages.size());
    // The records without a decoded text, one by one (they are few).
    matched.assign(records.size(), 2);
    for (size_t k = 0; k < m_pending.size(); ++k) {
        const Record& r = *records[m_pending[k].record];
        matched[m_pending[k].record]
            = sameHex(m_messages[k].digest, declaredHash(headerLine(buffer, r)));
    }
    for (size_t i = 0; i < records.size(); ++i)
        if (matched[i] == 2)
            matched[i] = matches(buffer, *records[i]);
    release(m_arena);
}

std::string_view headerJsonOf(std::string_view header)
{
    const size_t brace = header.find("] {");
    return brace == std::string_view::npos ? header : header.substr(brace + 2);
}

ByteWindow readRecordBytes(
    const TraceSource& source, const Record& r, std::string& storage, bool headerOnly)
{
    const uint64_t end = r.payloadLength && !headerOnly
        ? r.payloadOffset() + r.payloadLength
        : r.offset + r.headerLength + 2; // with its line end
    // From the byte before the header: a record still in its place follows a line end.
    const uint64_t from = r.offset > 0 ? r.offset - 1 : 0;
    bool written = false;
    ByteWindow w = source.read(from, end - from, storage, &written);
    if (w.empty() || !written)
        return w;
    const bool lineStart = r.offset == 0 || (w.holds(from, 1) && *w.at(from) == '\n');
    const uint64_t lineEnd = r.offset + r.headerLength;
    const bool lineEnds = lineEnd >= source.size()
        || (w.holds(lineEnd, 1) && (*w.at(lineEnd) == '\n' || *w.at(lineEnd) == '\r'));
    const uint64_t last
        = r.payloadLength && !headerOnly ? r.payloadOffset() + r.payloadLength : lineEnd;
    // The file's last record may have been cut where loading stopped reading (a file still being
    // written): its hash cannot tell a change from the cut.
    const bool cutByEnd = last + 2 >= source.size();
    PayloadHashCheck hash;
    if (!lineStart || !lineEnds || !w.holds(r.offset, last - r.offset)
        || (!headerOnly && !(r.flags & kTruncated) && !cutByEnd && !hash.matches(w, r))) {
        source.reportChange(
            "the record at line " + std::to_string(r.line) + " is not what was loaded there");
        return {};
    }
    return w;
}

} // namespace dynascope
