#include "core/load/trace/chunk_scan.h"

#include "core/parse/glog_prefix.h"
#include "core/parse/line_splitter.h"
#include "core/util/json_dom.h"

#include <algorithm>
#include <cstring>

namespace dynascope {

uint64_t chunkStart(const ByteWindow& bytes, uint64_t pos)
{
    if (pos == 0)
        return 0;
    if (pos >= bytes.end)
        return bytes.end;
    // Offsets below are counted from the window's start.
    const char* d = bytes.data;
    const uint64_t size = bytes.end - bytes.begin;
    uint64_t c = pos - bytes.begin;
    if (d[c - 1] != '\n') {
        const void* nl = std::memchr(d + c, '\n', size - c);
        if (!nl)
            return bytes.end;
        c = static_cast<uint64_t>(static_cast<const char*>(nl) - d) + 1;
    }
    while (c < size) {
        if (d[c] == '\n') { // empty lines: no call for them
            c = static_cast<uint64_t>(skipNewlines(d + c, d + size) - d);
            continue;
        }
        const void* nl = std::memchr(d + c, '\n', size - c);
        const uint64_t e = nl ? static_cast<uint64_t>(static_cast<const char*>(nl) - d) : size;
        uint64_t len = e - c;
        if (len > 0 && d[e - 1] == '\r')
            --len;
        if (len > 0 && d[c] != '\t')
            return bytes.begin + c;
        c = e + 1;
    }
    return bytes.end;
}

struct ChunkScanner::Dom {
    simdjson::dom::parser parser;
};

ChunkScanner::ChunkScanner()
    : m_dom(std::make_unique<Dom>())
{
}

ChunkScanner::~ChunkScanner() = default;

// As Builder::handleChromium read it before the scanners did (and reads the result now).
void ChunkScanner::parseChromium(const ByteWindow& buffer, ScannedChunk& out, ScannedHeader& h)
{
    h.chromium = static_cast<int32_t>(out.chromium.size());
    ScannedChromium& ev = out.chromium.emplace_back();
    const Record& rec = h.record;
    simdjson::dom::element doc;
    if (rec.payloadLength == 0
        || m_dom->parser.parse(buffer.at(rec.payloadOffset()), rec.payloadLength, true).get(doc)
        || !doc.is_object())
        return;
    ev.ok = true;
    if (auto s = json::str(doc, "name"))
        ev.name = std::string(*s);
    if (auto s = json::str(doc, "ph"); s && !s->empty())
        ev.ph = (*s)[0];
    if (auto s = json::str(doc, "cat"))
        ev.cat = std::string(*s);
    ev.ts = json::number(doc, "ts").value_or(0);
    ev.dur = json::number(doc, "dur").value_or(0);
    ev.pid = json::integer(doc, "pid").value_or(0);
    ev.tid = json::integer(doc, "tid").value_or(0);
    // doc["args"] is a result, not an element: converting a missing key to an element throws
    // (simdjson exceptions are on), which took the whole process down on an event without
    // "args" (tst_hostile::chromiumEventWithoutArgs).
    simdjson::dom::element args;
    if (!doc["args"].get(args))
        if (auto s = json::str(args, "compile_id"))
            ev.argsId = CompileId::parse(*s);
}

void ChunkScanner::scan(
    const ByteWindow& buffer, uint64_t begin, uint64_t end, ScannedChunk& out, bool verifyPayloads)
{
    out.begin = begin;
    out.end = end;
    out.headers.clear();
    out.chromium.clear();
    out.events.clear();
    out.kinds.clear();
    out.kindIndex.clear();
    out.lines = 0;
    out.lastTerminated = true;
    m_verify.clear();
    // The byte at a file offset in [begin, end).
    auto at = [&buffer](uint64_t offset) { return buffer.at(offset); };
    LineSplitter lines(std::string_view(at(begin), end - begin));
    Line line;
    constexpr uint32_t kNoHeader = 0xffffffffu;
    uint32_t open = kNoHeader; // the header whose payload lines are being read
    bool reportedOrphan = false;
    // Verifying: the open record's payload text is decoded here, as its lines are found
    // (PayloadHashCheck::addLine), unless a blank line inside it leaves two readings.
    bool decoding = false; // the open record's text is being decoded
    bool firstLine = true; // no payload line of the open record yet
    bool blankSince = false; // a blank line since the open record's last line
    if (verifyPayloads)
        m_hashes.startDecoded();
    // A record is complete at the next line that is not a payload line, or at the chunk's end.
    auto close = [&] {
        if (open == kNoHeader)
            return;
        ScannedHeader& h = out.headers[open];
        if (!(h.record.flags & kBadJson) && h.env.kind == "chromium_event")
            parseChromium(buffer, out, h);
        // The extent is final here (the record's last payload line is in this chunk); the
        // hashes are checked together at the end of the chunk. Whether the record is cut by the
        // end of the file is the builder's to say: it drops the result then (a truncated
        // record is not checked).
        if (verifyPayloads && h.record.hasPayload()) {
            if (decoding)
                m_hashes.endDecoded(m_verify.size());
            m_verify.push_back(open);
        }
        open = kNoHeader;
        decoding = false;
    };
    while (lines.next(line)) {
        line.offset += begin;
        out.lines = line.number;
        out.lastTerminated = line.terminated;
        if (line.length == 0) {
            blankSince = true;
            if (line.terminated) {
                lines.skipEmptyLines();
                out.lines = lines.lineNumber();
            }
            continue;
        }
        if (*at(line.offset) == '\t') {
            if (open == kNoHeader) {
                if (reportedOrphan && !out.events.empty()
                    && out.events.back().kind == ScanEvent::Kind::Orphan) {
                    ++out.events.back().count;
                    out.events.back().lastLine = line.number;
                    continue;
                }
                ScanEvent ev;
                ev.kind = ScanEvent::Kind::Orphan;
                ev.report = !reportedOrphan;
                ev.line = ev.lastLine = line.number;
                out.events.push_back(ev);
                reportedOrphan = true;
                continue;
            }
            Record& r = out.headers[open].record;
            uint64_t start = r.payloadOffset();
            uint64_t lineEnd = line.offset + line.length;
            r.payloadLength = lineEnd > start
                ? static_cast<uint32_t>(std::min<uint64_t>(lineEnd - start, 0xffffffffu))
                : 0;
            if (decoding) {
                if (blankSince || lineEnd - start > 0xffffffffu) { // as matches() reads it
                    m_hashes.dropDecoded();
                    decoding = false;
                } else {
                    m_hashes.addLine(
                        std::string_view(at(line.offset) + 1, line.length - 1), firstLine);
                    firstLine = false;
                }
            }
            continue;
        }
        reportedOrphan = false;
        close();
        std::string_view text(at(line.offset), line.length);
        auto prefix = parseGlogPrefix(text);
        if (!prefix) {
            if (!out.events.empty() && out.events.back().kind == ScanEvent::Kind::BadPrefix) {
                ++out.events.back().count;
                out.events.back().lastLine = line.number;
                continue;
            }
            ScanEvent ev;
            ev.kind = ScanEvent::Kind::BadPrefix;
            ev.offset = line.offset;
            ev.length = line.length;
            ev.line = ev.lastLine = line.number;
            out.events.push_back(ev);
            continue;
        }
        ScannedHeader h;
        Record& r = h.record;
        r.offset = line.offset;
        r.headerLength = line.length;
        r.line = static_cast<uint32_t>(std::min<uint64_t>(line.number, 0xffffffffu));
        r.glogMs = prefix->msOfDay;
        r.glogDate = static_cast<uint16_t>(prefix->month * 32 + prefix->day);
        if (line.length > 0) {
            const uint64_t lineEnd = line.offset + line.length;
            if (lineEnd < buffer.end && *at(lineEnd) == '\r')
                r.flags |= kCrlf;
        }
        // The buffer has InputBuffer::kPadding bytes after its end, as simdjson needs, so the
        // JSON is parsed where it lies and the envelope's views point into the buffer.
        std::string_view json = text.substr(prefix->jsonOffset);
        if (!m_envelope.parse(json, h.env, h.error)) {
            r.flags |= kBadJson;
        } else {
            if (!h.env.hasPayload.empty())
                r.flags |= kHasPayloadHash;
            h.env.hasPayload = {};
            auto known = out.kindIndex.find(h.env.kind);
            if (known == out.kindIndex.end())
                known = out.kindIndex.insert(out.kinds.emplace_back(h.env.kind)).first;
            h.env.kind = *known;
        }
        ScanEvent ev;
        ev.kind = ScanEvent::Kind::Header;
        ev.header = static_cast<uint32_t>(out.headers.size());
        out.events.push_back(ev);
        open = static_cast<uint32_t>(out.headers.size());
        decoding = verifyPayloads && r.hasPayload();
        firstLine = true;
        blankSince = false;
        out.headers.push_back(std::move(h));
    }
    close();
    if (!m_verify.empty()) {
        m_verifyRecords.clear();
        for (uint32_t i : m_verify)
            m_verifyRecords.push_back(&out.headers[i].record);
        m_hashes.matchDecoded(buffer, m_verifyRecords, m_matched);
        for (size_t k = 0; k < m_verify.size(); ++k)
            out.headers[m_verify[k]].payloadMismatch = !m_matched[k];
    }
}

} // namespace dynascope
