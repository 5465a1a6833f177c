// The file builder's state (internal to core/load/trace/file_builder*.cpp): the single pass over
// one trace file.
//
// Lines are found with memchr; a header's JSON is parsed once with simdjson on-demand for the
// envelope (kind and compile id). That per-line work needs nothing from earlier records, so it runs
// ahead on helper threads over chunks of the file (chunk_scan.h) and the builder consumes the
// scanned chunks in file order. A record is processed when its payload is complete, i.e. when
// the next header arrives. Payloads stay in the buffer: only the kinds the model needs (chromium
// events, recompile reasons, graph-break text, guards, errors) are decoded.
//
// Attaching records to compiles: compile ids repeat after torch._dynamo.reset(), and PyTorch
// logs a few records of a compile before its dynamo_start (the "dynamo" chromium B event, the
// recompile_reasons artifact). So each id key has a current compile; once that compile has its
// compilation_metrics, such "pre-start" records wait in a pending list for the next dynamo_start
// of the same key, and fall back to the current compile when none comes. 2024 chromium events
// carry no id at all and follow the same rule with "the last compile started in this file".
//
// The pass is split by responsibility: file_builder.cpp (records: headers, payload boundaries,
// attaching records to compiles, the pass itself), file_builder_payloads.cpp (what the kinds the
// model needs say: metrics, artifacts, stacks, recompile reasons, shapes, chromium events),
// file_builder_finish.cpp (after the last record: phase spans, times, frames, recompile links,
// the counts and leftover diagnostics).
#pragma once

#include "core/load/trace/file_builder.h"

#include "core/io/input_buffer.h"
#include "core/io/trace_source.h"
#include "core/load/finish/compile_links.h"
#include "core/load/finish/graph_break_text.h"
#include "core/load/finish/recompile_linker.h"
#include "core/load/finish/status.h"
#include "core/load/trace/chunk_pipeline.h"
#include "core/load/trace/chunk_scan.h"
#include "core/model/diagnostic_limiter.h"
#include "core/parse/envelope.h"
#include "core/parse/kind_names.h"
#include "core/util/json_dom.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dynascope::filebuild {

constexpr int64_t kAbsent = INT64_MIN;
using IdKey = std::array<int64_t, 3>; // compiled autograd, frame, frame compile

struct KeyState {
    uint32_t current = kNone;
    std::vector<uint32_t> pending;
};

struct ChromiumRaw {
    uint32_t record = kNone;
    char ph = 0;
    std::string name;
    std::string cat;
    double ts = 0;
    double dur = 0;
    int64_t pid = 0, tid = 0;
};

inline bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.ends_with(suffix);
}

class Builder {
public:
    explicit Builder(const FileBuildInput& in)
        : m_in(in)
        , m_source(in.source ? in.source : TraceSource::fromMemory(in.buffer))
        , m_trace(std::make_unique<Trace>())
    {
        TraceFile f;
        f.path = in.path;
        f.source = m_source;
        f.bytes = m_source->fileBytes();
        f.decodedBytes = m_source->size();
        f.compression = toString(m_source->compression());
        m_trace->files.push_back(std::move(f));
        m_trace->pools.push_back(m_names);
    }

    std::unique_ptr<Trace> run();

private:
    TraceFile& file() { return m_trace->files[0]; }
    // At most DiagnosticLimiter::kKeptPerCode diagnostics of each code are listed; the rest are
    // counted and said in one diagnostic per code at the end (finish()).
    bool keepDiagnostic(Severity s, DiagnosticCode c, uint64_t line)
    {
        return m_limiter.keep(s, c, line);
    }
    void countUnlisted(Severity s, DiagnosticCode c, uint64_t first, uint64_t last, uint64_t n)
    {
        m_limiter.countUnlisted(s, c, first, last, n);
    }
    void diag(Severity s, DiagnosticCode c, uint64_t line, std::string msg)
    {
        if (keepDiagnostic(s, c, line))
            m_trace->diagnostics.push_back({ s, c, m_in.path, line, std::move(msg) });
    }
    void header(ScannedChunk& chunk, ScannedHeader& scanned, uint64_t lineBase);
    void badPrefix(const ScanEvent& ev, uint64_t lineBase);
    void finishRecord();
    void process(uint32_t idx);
    uint32_t assign(uint32_t idx, bool preStart);
    void attach(uint32_t idx, uint32_t compile);
    uint32_t startCompile(uint32_t idx);
    Stack parseStack(simdjson::dom::element arr, uint64_t line);
    bool parseJson(std::string_view text, simdjson::dom::element& out);
    void handleMetrics(uint32_t idx, uint32_t c, simdjson::dom::element m);
    void handleArtifact(uint32_t idx, uint32_t c, std::string_view name);
    std::vector<std::string> readReasons(uint32_t idx);
    // The payload of the open record, from the chunk that holds it.
    std::string payload(uint32_t idx) const;
    void handleChromium(uint32_t idx);
    void handleShape(uint32_t idx, uint32_t c, simdjson::dom::element m);
    void calibrate(uint32_t idx, double epochUs);
    double glogEpochUs(const Record& r) const;
    void finish();
    void buildSpans();
    void computeTimes();
    void buildFrames();
    void linkRecompiles();

    const FileBuildInput& m_in;
    const std::shared_ptr<const TraceSource> m_source;
    std::unique_ptr<Trace> m_trace;
    ChunkScanner m_scanner;
    ScannedChromium* m_openChromium = nullptr; // the open record's payload, when chromium
    simdjson::dom::parser m_dom;
    KindNames m_kinds { m_trace->kindNames };
    // Records per kind id, and bad headers; turned into Trace::kindCounts by finish().
    std::vector<uint64_t> m_kindCount;
    uint64_t m_badHeaderCount = 0;

    // The record whose payload is being collected, the chunk that holds it (kept until the record
    // is processed), and what its header said (views into that chunk).
    uint32_t m_open = kNone;
    const ScannedChunk* m_openChunk = nullptr;
    const ScannedChunk* m_chunk = nullptr; // the chunk being consumed
    Envelope m_env;
    bool m_envOk = false;
    bool m_openMismatch = false; // its payload does not match its hash (when verifying)
    PayloadMismatches m_mismatches;

    std::map<IdKey, KeyState> m_keys;
    KeyState m_anyKey; // id-less chromium events
    uint32_t m_lastStarted = kNone;
    std::vector<bool> m_finished; // compile has its compilation_metrics
    std::vector<std::array<int64_t, 3>> m_compileKeys;
    std::vector<ChromiumRaw> m_chromium;
    std::shared_ptr<StringPool> m_names = std::make_shared<StringPool>(); // names, stack texts
    std::vector<std::vector<GraphBreak>> m_artifactBreaks;
    std::vector<std::vector<std::string>> m_reasonTexts;
    std::vector<std::string> m_errorText;
    struct Unstarted {
        uint32_t compile;
        uint64_t line;
        size_t diagnosticAt; // where its diagnostic goes, to keep file order
    };
    std::vector<Unstarted> m_unstarted; // compiles without dynamo_start
    std::unordered_map<uint32_t, std::vector<std::string>> m_pendingReasons; // by record
    std::optional<int64_t> m_rank;
    bool m_calibrated = false;
    std::vector<bool> m_unknownIndexReported;
    uint64_t m_lastProgress = 0;
    bool m_full = false; // the record limit was reached: the rest is not read
    bool m_inBadRun = false; // the last line that was not blank was a bad-prefix line
    DiagnosticLimiter m_limiter;
};

} // namespace dynascope::filebuild
