#include "core/model/record_payload.h"

#include "core/io/input_buffer.h"
#include "core/model/trace.h"

namespace dynascope {

namespace {
// Joins payload lines into `out`, one tab stripped from each. Blank lines inside a payload are
// either inserted by a tool (skip them) or payload lines whose lone tab an editor stripped (keep
// them as empty lines); `keepBlank` chooses.
void decodePayload(std::string_view bytes, bool keepBlank, bool& sawBlank, std::string& out)
{
    out.clear();
    out.reserve(bytes.size());
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

std::string_view headerLine(const InputBuffer& buffer, const Record& r)
{
    return { buffer.data() + r.offset, r.headerLength };
}

std::string_view payloadBytes(const InputBuffer& buffer, const Record& r)
{
    return { buffer.data() + r.payloadOffset(), r.payloadLength };
}

// The has_payload value of a header line: its last "has_payload" key in the JSON after the glog
// prefix (md5 hex has no escapes, so the text is the value).
std::string_view declaredHash(std::string_view header)
{
    const size_t brace = header.find("] {");
    const std::string_view json
        = brace == std::string_view::npos ? header : header.substr(brace + 2);
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
    if (s.capacity() > (4u << 20))
        std::string().swap(s);
}
} // namespace

std::string recordPayload(const InputBuffer& buffer, const Record& r)
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

bool PayloadHashCheck::matches(const InputBuffer& buffer, const Record& r)
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

} // namespace dynascope
