// The first stage of loading a file: lines, glog prefixes, header envelopes and payload extents,
// the per-line work that needs nothing from earlier records. A file is cut into chunks that each
// start at a line that is neither a payload line nor blank, so no record crosses a boundary and
// the state of the line loop (is a record open, is an orphan payload run being reported) is
// known at every chunk start. Several threads scan chunks ahead while Builder (file_builder.cpp)
// consumes them in file order and does everything that depends on earlier records; the result
// is the same as scanning the whole file in one pass. The scanners also parse the payloads of
// chromium_event records (the most numerous kind), which need nothing from other records either,
// and, when asked, check each payload against its has_payload MD5 (record_payload.h): a payload
// never crosses a chunk boundary, and its bytes are fresh in this thread's cache.
#pragma once

#include "core/io/byte_window.h"
#include "core/model/record_payload.h"
#include "core/model/trace.h"
#include "core/parse/envelope.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace dynascope {

struct ScannedHeader {
    Record record; // line is counted from the chunk's first line (1-based); kind is not set
    // Valid when !(record.flags & kBadJson). The parser unescapes the kind and has_payload into
    // memory its next parse reuses: kind points into ScannedChunk::kinds instead, and hasPayload
    // is cleared (record.flags says whether there was one).
    Envelope env;
    std::string error; // why the header JSON does not parse
    int32_t chromium = -1; // a chromium_event: its payload in ScannedChunk::chromium
    // The payload does not match its has_payload MD5 (only checked when the scan verifies).
    bool payloadMismatch = false;
};

// What a chromium_event payload says (one Chrome trace event as JSON).
struct ScannedChromium {
    bool ok = false; // the payload is a JSON object; nothing below is set otherwise
    char ph = 0; // first letter of "ph", 0 when absent
    std::string name, cat;
    double ts = 0, dur = 0;
    int64_t pid = 0, tid = 0;
    std::optional<CompileId> argsId; // args.compile_id when it parses
};

struct ScanEvent {
    enum class Kind : uint8_t { Header, BadPrefix, Orphan };
    Kind kind = Kind::Header;
    bool report = false; // Orphan: the first of a run (the one that gets a diagnostic)
    uint32_t length = 0; // BadPrefix: the line's length
    uint32_t header = 0; // Header: index into ScannedChunk::headers
    uint64_t offset = 0; // BadPrefix: the line's buffer offset
    uint64_t line = 0; // BadPrefix, Orphan: line number counted from the chunk's first line
    // BadPrefix, Orphan: consecutive lines of the kind are one event (blank lines between them
    // included), so a chunk of millions of bad lines is a few events: `count` lines, the last
    // at `lastLine`; offset and length are the first line's.
    uint64_t count = 1;
    uint64_t lastLine = 0;
};

struct ScannedChunk {
    uint64_t begin = 0, end = 0; // file offsets
    // The chunk's bytes: `bytes` when read from a file (ChunkPipeline), else a window into the
    // bytes in memory.
    std::string bytes;
    ByteWindow window;
    std::vector<ScannedHeader> headers;
    std::vector<ScannedChromium> chromium;
    std::deque<std::string> kinds; // the chunk's distinct kinds (stable addresses)
    std::unordered_set<std::string_view> kindIndex; // views of `kinds`, for one lookup a header
    std::vector<ScanEvent> events; // in line order
    uint64_t lines = 0; // lines in the chunk, blank ones included
    bool lastTerminated = true; // its last line ends with '\n'
};

// Start of the chunk that begins at or after `pos`: 0 for 0, else the first line start at or
// after pos whose line is neither blank nor a payload line; the window's end when there is none
// in it. The window holds the byte before pos.
uint64_t chunkStart(const ByteWindow& bytes, uint64_t pos);

// The parsers one thread scans with.
class ChunkScanner {
public:
    ChunkScanner();
    ~ChunkScanner();
    ChunkScanner(const ChunkScanner&) = delete;
    ChunkScanner& operator=(const ChunkScanner&) = delete;

    // Scans [begin, end) of `buffer`, which holds them (chunk boundaries from chunkStart), into
    // `out`, which may be a chunk scanned before (it is cleared; its vectors keep their capacity).
    // With `verifyPayloads`, each record that declares has_payload gets its hash checked.
    void scan(const ByteWindow& buffer, uint64_t begin, uint64_t end, ScannedChunk& out,
        bool verifyPayloads = false);

private:
    void parseChromium(const ByteWindow& buffer, ScannedChunk& out, ScannedHeader& h);

    EnvelopeParser m_envelope;
    PayloadHashCheck m_hashes;
    std::vector<uint32_t> m_verify; // headers of the chunk whose payload hash is to be checked
    std::vector<const Record*> m_verifyRecords;
    std::vector<uint8_t> m_matched;
    struct Dom;
    std::unique_ptr<Dom> m_dom; // simdjson's DOM parser (kept out of this header)
};

} // namespace dynascope
