// FileBuilder: the single pass over one trace file.
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
#include "core/load/file_builder.h"

#include "core/model/diagnostic_limiter.h"

#include "core/analysis/graph_break_text.h"
#include "core/analysis/recompile_linker.h"
#include "core/analysis/status.h"
#include "core/io/input_buffer.h"
#include "core/load/chunk_pipeline.h"
#include "core/load/chunk_scan.h"
#include "core/load/compile_links.h"
#include "core/load/kind_names.h"
#include "core/model/diagnostic_limiter.h"
#include "core/parse/envelope.h"
#include "core/util/json_dom.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

namespace dynascope {

namespace {

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

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.ends_with(suffix);
}

class Builder {
public:
    explicit Builder(const FileBuildInput& in)
        : m_in(in)
        , m_trace(std::make_unique<Trace>())
    {
        TraceFile f;
        f.path = in.path;
        f.buffer = in.buffer;
        f.bytes = in.buffer->fileBytes();
        f.decodedBytes = in.buffer->size();
        f.compression = toString(in.buffer->compression());
        m_trace->files.push_back(std::move(f));
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
    std::unique_ptr<Trace> m_trace;
    ChunkScanner m_scanner;
    ScannedChromium* m_openChromium = nullptr; // the open record's payload, when chromium
    simdjson::dom::parser m_dom;
    KindNames m_kinds { m_trace->kindNames };
    // Records per kind id, and bad headers; turned into Trace::kindCounts by finish().
    std::vector<uint64_t> m_kindCount;
    uint64_t m_badHeaderCount = 0;

    // The record whose payload is being collected, and what its header said.
    uint32_t m_open = kNone;
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

bool Builder::parseJson(std::string_view text, simdjson::dom::element& out)
{
    return !m_dom.parse(text.data(), text.size(), true).get(out);
}

void Builder::badPrefix(const ScanEvent& ev, uint64_t lineBase)
{
    finishRecord();
    file().badLines += ev.count;
    // A run of bad lines is one event (the scanner joins them within a chunk; m_inBadRun joins
    // the runs a chunk boundary cut, so the diagnostics do not depend on the chunk size): the
    // run's first line may be listed, the rest are counted.
    if (std::exchange(m_inBadRun, true)) {
        countUnlisted(Severity::Warning, DiagnosticCode::BadPrefix, lineBase + ev.line,
            lineBase + ev.lastLine, ev.count);
        return;
    }
    if (ev.count > 1)
        countUnlisted(Severity::Warning, DiagnosticCode::BadPrefix, lineBase + ev.line + 1,
            lineBase + ev.lastLine, ev.count - 1);
    if (!keepDiagnostic(Severity::Warning, DiagnosticCode::BadPrefix, lineBase + ev.line))
        return; // counted; said once at the end
    std::string_view text(m_in.buffer->data() + ev.offset, ev.length);
    std::string shown(text.substr(0, 80));
    for (char& ch : shown)
        if (static_cast<unsigned char>(ch) < 0x20)
            ch = ' ';
    m_trace->diagnostics.push_back(
        { Severity::Warning, DiagnosticCode::BadPrefix, m_in.path, lineBase + ev.line,
            "not a trace record (no glog prefix followed by JSON): \"" + shown
                + (text.size() > 80 ? "...\"" : "\"") });
}

// A header line as chunk_scan.cpp found it (prefix, envelope and payload extent already there).
void Builder::header(ScannedChunk& chunk, ScannedHeader& scanned, uint64_t lineBase)
{
    finishRecord();
    Record r = scanned.record;
    const uint64_t lineNumber = lineBase + r.line;
    if (m_trace->records.size() >= m_in.maxRecords) {
        // Record indices are 32-bit (kMaxIndex): the rest of the file is not read.
        m_full = true;
        diag(Severity::Error, DiagnosticCode::Other, lineNumber,
            "the file holds more than " + std::to_string(m_in.maxRecords)
                + " records, more than Dynascope indexes; the rest of the file (from this line) "
                  "is not read");
        return;
    }
    r.line = static_cast<uint32_t>(std::min<uint64_t>(lineNumber, 0xffffffffu));
    m_env = scanned.env;
    m_envOk = !(r.flags & kBadJson);
    m_openMismatch = scanned.payloadMismatch;
    m_openChromium = scanned.chromium >= 0 ? &chunk.chromium[size_t(scanned.chromium)] : nullptr;
    uint32_t idx = static_cast<uint32_t>(m_trace->records.size());
    if (!m_envOk) {
        r.kind = m_kinds.intern("(bad header)");
        ++file().badLines;
        diag(Severity::Warning, DiagnosticCode::BadJson, lineNumber,
            "header JSON does not parse (" + scanned.error
                + "); the record is kept without its fields");
    } else {
        r.kind = m_kinds.intern(m_env.kind);
        if (m_env.rank && !m_rank)
            m_rank = m_env.rank;
    }
    m_trace->records.push_back(r);
    m_open = idx;
}

void Builder::finishRecord()
{
    if (m_open == kNone)
        return;
    uint32_t idx = m_open;
    m_open = kNone;
    Record& r = m_trace->records[idx];
    if (r.hasPayload() && r.payloadLength == 0 && !(r.flags & kTruncated))
        diag(Severity::Warning, DiagnosticCode::MissingPayload, r.line,
            "header declares has_payload but no payload lines follow");
    // Whether the file ends inside the record is known by now (run() flags the last one before
    // it finishes it); a truncated record's payload is not checked.
    if (m_openMismatch && !(r.flags & kTruncated))
        m_mismatches.add(idx, r.line);
    m_openMismatch = false;
    if (m_envOk)
        process(idx);
    else
        ++m_badHeaderCount;
}

uint32_t Builder::startCompile(uint32_t idx)
{
    uint32_t c = static_cast<uint32_t>(m_trace->compiles.size());
    Compile comp;
    comp.index = c;
    comp.file = 0;
    comp.id = m_env.compileId();
    comp.id.attempt = 0;
    comp.startRecord = idx;
    m_trace->compiles.push_back(std::move(comp));
    m_finished.push_back(false);
    m_compileKeys.push_back({ m_env.compiledAutograd.value_or(kAbsent),
        m_env.frameId.value_or(kAbsent), m_env.frameCompileId.value_or(kAbsent) });
    m_artifactBreaks.emplace_back();
    m_reasonTexts.emplace_back();
    m_errorText.emplace_back();
    m_lastStarted = c;
    return c;
}

void Builder::attach(uint32_t idx, uint32_t c)
{
    m_trace->records[idx].compile = c;
    if (c == kNone)
        return; // a record with no compile (string table, global records)
    m_trace->compiles[c].records.push_back(idx);
    // A recompile_reasons artifact waits for its compile's dynamo_start; its reasons were read
    // when it arrived and join the compile now.
    if (auto it = m_pendingReasons.find(idx); it != m_pendingReasons.end()) {
        auto& texts = m_reasonTexts[c];
        texts.insert(texts.end(), it->second.begin(), it->second.end());
        m_pendingReasons.erase(it);
    }
}

// Decides the compile of a record with the current envelope's id (see the file comment).
uint32_t Builder::assign(uint32_t idx, bool preStart)
{
    KeyState* ks = &m_anyKey;
    if (m_env.hasCompileId()) {
        IdKey key { m_env.compiledAutograd.value_or(kAbsent), m_env.frameId.value_or(kAbsent),
            m_env.frameCompileId.value_or(kAbsent) };
        ks = &m_keys[key];
    } else {
        ks->current = m_lastStarted;
    }
    bool isStart = m_trace->kindNames[m_trace->records[idx].kind] == "dynamo_start";
    if (isStart) {
        uint32_t c = startCompile(idx);
        ks->current = c;
        if (!m_env.hasCompileId())
            m_anyKey.current = c;
        for (uint32_t p : ks->pending)
            attach(p, c);
        ks->pending.clear();
        attach(idx, c);
        return c;
    }
    if (preStart && (ks->current == kNone || m_finished[ks->current])) {
        ks->pending.push_back(idx);
        return kNone; // decided later
    }
    if (ks->current == kNone && m_env.hasCompileId()) {
        // Records of a compile whose dynamo_start is missing (its header was broken, or the file
        // starts mid-compile): keep them together in a compile of their own.
        ks->current = startCompile(kNone);
        // Reported by finish(), unless it is the compile PyTorch logs without a dynamo_start
        // when the recompile limit is hit.
        m_unstarted.push_back(
            { ks->current, m_trace->records[idx].line, m_trace->diagnostics.size() });
    }
    for (uint32_t p : ks->pending)
        attach(p, ks->current);
    ks->pending.clear();
    attach(idx, ks->current);
    return ks->current;
}

Stack Builder::parseStack(simdjson::dom::element arr, uint64_t line)
{
    Stack stack;
    simdjson::dom::array frames;
    if (arr.get_array().get(frames))
        return stack;
    const auto& strings = file().strings;
    for (auto f : frames) {
        StackFrame sf;
        sf.line = json::integer(f, "line").value_or(0);
        if (auto n = json::str(f, "name"))
            sf.name = std::string(*n);
        if (auto l = json::str(f, "loc"))
            sf.loc = std::string(*l);
        if (auto fi = json::integer(f, "filename")) {
            if (*fi >= 0 && static_cast<size_t>(*fi) < strings.size() && !strings[*fi].empty()) {
                sf.file = strings[*fi];
            } else {
                sf.file = "(unknown file #" + std::to_string(*fi) + ")";
                size_t key = *fi >= 0 ? static_cast<size_t>(std::min<int64_t>(*fi, 1 << 20)) : 0;
                if (m_unknownIndexReported.size() <= key)
                    m_unknownIndexReported.resize(key + 1);
                if (!m_unknownIndexReported[key]) {
                    m_unknownIndexReported[key] = true;
                    diag(Severity::Warning, DiagnosticCode::UnknownStringIndex, line,
                        "stack frame names string-table index " + std::to_string(*fi)
                            + ", which the file never defined");
                }
            }
        } else if (auto fs = json::str(f, "filename")) {
            sf.file = std::string(*fs);
        }
        stack.push_back(std::move(sf));
    }
    return stack;
}

void Builder::calibrate(uint32_t idx, double epochUs)
{
    if (m_calibrated || !(epochUs > 1e15 && epochUs < 1e17))
        return;
    const Record& r = m_trace->records[idx];
    if (r.glogMs == kNone)
        return;
    int64_t epochMs = static_cast<int64_t>(epochUs / 1000);
    int64_t utcMsOfDay = ((epochMs % 86400000) + 86400000) % 86400000;
    int64_t diff = static_cast<int64_t>(r.glogMs) - utcMsOfDay;
    if (diff > 14 * 3600000)
        diff -= 86400000;
    if (diff <= -12 * 3600000)
        diff += 86400000;
    int minutes = static_cast<int>(std::lround(static_cast<double>(diff) / 60000.0 / 15.0) * 15);
    using namespace std::chrono;
    auto local = sys_days(
        days(static_cast<int64_t>(std::floor((epochMs + minutes * 60000.0) / 86400000.0))));
    year_month_day ymd(local);
    file().tzOffsetMinutes = minutes;
    file().year = static_cast<int>(ymd.year());
    m_calibrated = true;
}

double Builder::glogEpochUs(const Record& r) const
{
    const TraceFile& f = m_trace->files[0];
    return dynascope::glogEpochUs(r, f.year, f.tzOffsetMinutes);
}

void Builder::process(uint32_t idx)
{
    Record& rec = m_trace->records[idx];
    const std::string& kind = m_trace->kindNames[rec.kind];
    if (m_kindCount.size() <= rec.kind)
        m_kindCount.resize(rec.kind + 1u);
    ++m_kindCount[rec.kind];
    simdjson::dom::element meta;
    bool metaReported = false;
    auto parseMeta = [&]() {
        if (parseJson(m_env.metadata, meta))
            return true;
        // The envelope is read lazily (simdjson On-Demand skips what it does not use), so a
        // header can pass it with metadata that the full parse refuses: broken inside, or nested
        // deeper than the parser allows. Say so instead of dropping the fields without a word
        // (tst_hostile::brokenMetadataIsReported).
        if (!metaReported)
            diag(Severity::Warning, DiagnosticCode::BadJson, rec.line,
                "the " + kind + " metadata does not parse as JSON; its fields are ignored");
        metaReported = true;
        return false;
    };

    if (kind == "str") {
        simdjson::dom::array arr;
        if (parseMeta() && !meta.get_array().get(arr) && arr.size() >= 2) {
            std::string_view path;
            int64_t index = -1;
            auto& strings = file().strings;
            // Indices are dense from 0 (each defined before first use): one far past the end is
            // not a string table entry, and growing the table to it let a 40-byte line allocate
            // 512 MB (tst_hostile::stringTableIndicesOutOfRange).
            const bool entry = !arr.at(0).get_string().get(path)
                && !arr.at(1).get_int64().get(index) && index >= 0;
            if (entry && index > static_cast<int64_t>(strings.size()) + 65536) {
                diag(Severity::Warning, DiagnosticCode::Other, rec.line,
                    "string-table index " + std::to_string(index) + " is far past the table's "
                        + std::to_string(strings.size()) + " entries; ignored");
            } else if (entry) {
                if (strings.size() <= static_cast<size_t>(index))
                    strings.resize(static_cast<size_t>(index) + 1);
                strings[static_cast<size_t>(index)] = std::string(path);
            }
        }
        return;
    }
    if (kind == "chromium_event") {
        handleChromium(idx);
        return;
    }
    bool preStart = false;
    std::string artifactName;
    if (kind == "artifact" && parseMeta()) {
        if (auto n = json::str(meta, "name"))
            artifactName = std::string(*n);
        preStart = artifactName == "recompile_reasons";
    }
    bool global = !m_env.hasCompileId() && kind != "dynamo_start";
    uint32_t c = global ? kNone : assign(idx, preStart);
    if (c != kNone) {
        Compile& comp = m_trace->compiles[c];
        int64_t attempt = m_env.attempt.value_or(0);
        auto it = std::find_if(comp.attempts.begin(), comp.attempts.end(),
            [&](const Attempt& a) { return a.attempt == attempt; });
        if (it == comp.attempts.end())
            comp.attempts.push_back({ attempt, idx, 1 });
        else
            it->recordCount++;
    }

    if (kind == "dynamo_start") {
        if (parseMeta()) {
            simdjson::dom::element st;
            if (!meta["stack"].get(st))
                m_trace->compiles[c].stack = parseStack(st, rec.line);
        }
    } else if (kind == "compilation_metrics") {
        if (parseMeta() && meta.is_object()) {
            if (auto t = json::number(meta, "start_time"))
                calibrate(idx, *t * 1e6);
            if (auto t = json::number(meta, "start_time_us"))
                calibrate(idx, *t);
            if (c != kNone)
                handleMetrics(idx, c, meta);
            else if (auto ft = json::str(meta, "fail_type"); ft && !ft->empty())
                diag(Severity::Warning, DiagnosticCode::Other, rec.line,
                    "compilation_metrics with a failure but no dynamo_start before it");
        }
    } else if (kind == "artifact") {
        if (c != kNone)
            handleArtifact(idx, c, artifactName);
        else if (preStart)
            m_pendingReasons[idx] = readReasons(idx);
    } else if (kind == "dynamo_graph_break_reason") {
        // A top-level form proposed once (tlparse PR #76); same text as the artifact.
        if (c != kNone)
            handleArtifact(idx, c, "dynamo_graph_break_reason");
    } else if (kind == "dynamo_cpp_guards_str") {
        if (c != kNone)
            m_trace->compiles[c].guardsRecord = idx;
    } else if (kind == "dynamo_guards") {
        if (c != kNone) {
            Compile& comp = m_trace->compiles[c];
            if (comp.guardsRecord == kNone
                || m_trace->kindNames[m_trace->records[comp.guardsRecord].kind] == "dynamo_guards")
                comp.guardsRecord = idx;
        }
    } else if (kind == "guard_added_fast" || kind == "symbolic_shape_specialization"
        || kind == "create_symbol" || kind == "create_unbacked_symbol" || kind == "guard_added") {
        if (c != kNone && parseMeta())
            handleShape(idx, c, meta);
    }
}

void Builder::handleMetrics(uint32_t idx, uint32_t c, simdjson::dom::element m)
{
    Compile& comp = m_trace->compiles[c];
    comp.metricsRecord = idx;
    m_finished[c] = true;
    // The envelope's views point into the buffer (chunk_scan.cpp parses the JSON in place).
    comp.metricsJson = BufferText(m_in.buffer,
        static_cast<uint64_t>(m_env.metadata.data() - m_in.buffer->data()),
        static_cast<uint32_t>(m_env.metadata.size()));
    if (auto s = json::str(m, "co_name"))
        comp.coName = std::string(*s);
    if (auto s = json::str(m, "co_filename"))
        comp.coFilename = std::string(*s);
    if (auto v = json::integer(m, "co_firstlineno"))
        comp.coFirstLineno = *v;
    comp.guardCount = json::integer(m, "guard_count");
    comp.graphOpCount = json::integer(m, "graph_op_count");
    comp.graphNodeCount = json::integer(m, "graph_node_count");
    comp.cacheSize = json::integer(m, "cache_size");
    comp.shapeEnvGuardCount = json::integer(m, "shape_env_guard_count");
    comp.numGraphBreaks = json::integer(m, "num_graph_breaks");
    comp.restartReasons.clear();
    simdjson::dom::array rr;
    if (!m["restart_reasons"].get_array().get(rr))
        for (auto e : rr)
            comp.restartReasons.push_back(json::text(e));
    if (auto s = json::str(m, "recompile_reason"))
        comp.recompileReasonMetric = std::string(*s);
    simdjson::dom::element ft;
    std::string failType;
    if (!m["fail_type"].get(ft) && !ft.is_null())
        failType = json::text(ft);
    if (!failType.empty()) {
        Failure f;
        f.rawType = failType;
        f.type = normaliseExceptionType(failType);
        if (auto s = json::str(m, "fail_reason"))
            f.reason = std::string(*s);
        if (auto s = json::str(m, "fail_user_frame_filename"))
            f.file = std::string(*s);
        if (auto v = json::integer(m, "fail_user_frame_lineno"))
            f.line = *v;
        f.record = idx;
        comp.failure = std::move(f);
    }
    // Metrics time, used when chromium events are absent.
    auto startUs = json::number(m, "start_time_us");
    auto endUs = json::number(m, "end_time_us");
    auto durUs = json::number(m, "duration_us");
    auto startS = json::number(m, "start_time");
    auto totalS = json::number(m, "entire_frame_compile_time_s");
    double start = startUs ? *startUs : startS ? *startS * 1e6 : 0;
    double end = endUs ? *endUs : 0;
    if (start > 0 && end <= start) {
        if (durUs)
            end = start + *durUs;
        else if (totalS)
            end = start + *totalS * 1e6;
    }
    if (start > 0) {
        comp.startUs = start;
        comp.endUs = std::max(end, start);
        comp.timeSource = TimeSource::Metrics;
    }
}

void Builder::handleArtifact(uint32_t idx, uint32_t c, std::string_view name)
{
    if (name == "dynamo_graph_break_reason") {
        GraphBreak gb = parseGraphBreakText(m_trace->payload(idx));
        gb.record = idx;
        m_artifactBreaks[c].push_back(std::move(gb));
    } else if (name == "recompile_reasons") {
        auto texts = readReasons(idx);
        m_reasonTexts[c].insert(m_reasonTexts[c].end(), texts.begin(), texts.end());
    } else if (name == "dynamo_error") {
        m_errorText[c] = m_trace->payload(idx);
    } else {
        for (auto [suffix, kind] : { std::pair { "_cache_hit", CacheKind::Hit },
                 std::pair { "_cache_miss", CacheKind::Miss },
                 std::pair { "_cache_bypass", CacheKind::Bypass } }) {
            if (endsWith(name, suffix)) {
                CacheEvent ev;
                ev.cache
                    = std::string(name.substr(0, name.size() - std::string_view(suffix).size()));
                ev.kind = kind;
                ev.record = idx;
                ev.tsUs = glogEpochUs(m_trace->records[idx]);
                m_trace->compiles[c].cacheEvents.push_back(std::move(ev));
            }
        }
    }
}

std::vector<std::string> Builder::readReasons(uint32_t idx)
{
    std::vector<std::string> texts;
    std::string text = m_trace->payload(idx);
    simdjson::dom::element doc;
    simdjson::dom::array list;
    if (parseJson(text, doc) && !doc.get_array().get(list)) {
        for (auto e : list)
            texts.push_back(json::text(e));
    } else if (!text.empty()) {
        // Newer PyTorch writes a single reason as raw text despite encoding "json".
        texts.push_back(text);
    }
    return texts;
}

void Builder::handleShape(uint32_t idx, uint32_t c, simdjson::dom::element m)
{
    ShapeEvent ev;
    ev.kind = m_trace->kindNames[m_trace->records[idx].kind];
    ev.record = idx;
    simdjson::dom::element v;
    if (!m["expr"].get(v))
        ev.expr = json::text(v);
    else if (!m["symbol"].get(v))
        ev.expr = json::text(v);
    if (!m["val"].get(v) || !m["value"].get(v))
        ev.value = json::text(v);
    if (!m["sources"].get(v) || !m["source"].get(v))
        ev.sources = json::text(v);
    if (!m["reason"].get(v))
        ev.reason = json::text(v);
    if (!m["user_stack"].get(v))
        ev.userStack = parseStack(v, m_trace->records[idx].line);
    if (!m["stack"].get(v))
        ev.stack = parseStack(v, m_trace->records[idx].line);
    m_trace->compiles[c].shapeEvents.push_back(std::move(ev));
}

void Builder::handleChromium(uint32_t idx)
{
    const Record& rec = m_trace->records[idx];
    ChromiumRaw ev;
    ev.record = idx;
    std::optional<CompileId> argsId;
    // The payload was parsed by the chunk scanner (chunk_scan.cpp) on its own thread.
    if (m_openChromium && m_openChromium->ok) {
        ScannedChromium& s = *m_openChromium;
        ev.name = std::move(s.name);
        ev.ph = s.ph;
        ev.cat = std::move(s.cat);
        ev.ts = s.ts;
        ev.dur = s.dur;
        ev.pid = s.pid;
        ev.tid = s.tid;
        argsId = s.argsId;
        calibrate(idx, ev.ts);
    } else {
        diag(Severity::Warning, DiagnosticCode::BadPayload, rec.line,
            "chromium_event payload is not a JSON object; event skipped");
    }
    if (!m_env.hasCompileId() && argsId) {
        m_env.compiledAutograd = argsId->compiledAutograd;
        m_env.frameId = argsId->frame;
        m_env.frameCompileId = argsId->frameCompile;
        m_env.attempt = argsId->attempt;
    }
    // An event whose payload is unreadable (ph 0: cut, corrupt) may be the "dynamo" B event
    // logged before its compile's dynamo_start: let it wait like one. Otherwise it opened a
    // compile of its own without a dynamo_start, and the real compile came second
    // (tst_hostile::unreadableChromiumEventMakesNoExtraCompile).
    bool preStart = ev.ph == 'B' || ev.ph == 'i' || ev.ph == 'I' || ev.ph == 'X' || ev.ph == 0;
    assign(idx, preStart);
    if (ev.ph != 0)
        m_chromium.push_back(std::move(ev));
}

void Builder::buildSpans()
{
    auto& recs = m_trace->records;
    auto& compiles = m_trace->compiles;
    std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> stacks;
    double lastTs = 0;
    for (const auto& e : m_chromium)
        lastTs = std::max(lastTs, e.ts + e.dur);
    auto addSpan = [&](const ChromiumRaw* b, const ChromiumRaw* e) {
        PhaseSpan s;
        const ChromiumRaw& any = b ? *b : *e;
        s.name = any.name;
        s.category = any.cat;
        s.startUs = b ? b->ts : e->ts;
        s.endUs = e ? e->ts : lastTs;
        if (s.endUs < s.startUs)
            s.endUs = s.startUs;
        s.openEnd = e == nullptr;
        s.openStart = b == nullptr;
        s.beginRecord = b ? b->record : kNone;
        s.endRecord = e ? e->record : kNone;
        uint32_t c = b ? recs[b->record].compile : kNone;
        if (c == kNone && e) {
            c = recs[e->record].compile;
            // A B event whose id matched no compile goes where its E is: the span names its
            // records, and they must be records of the compile that holds it
            // (tst_hostile::spanRecordsBelongToTheirCompile; found by fuzz_replay).
            if (b && c != kNone)
                attach(b->record, c);
        }
        if (b && e && recs[e->record].compile != c) {
            // The E event belongs where its B event is.
            uint32_t old = recs[e->record].compile;
            if (old != kNone) {
                auto& v = compiles[old].records;
                v.erase(std::remove(v.begin(), v.end(), e->record), v.end());
            }
            attach(e->record, c);
        }
        if (c != kNone)
            compiles[c].phases.push_back(std::move(s));
    };
    for (size_t i = 0; i < m_chromium.size(); ++i) {
        const ChromiumRaw& ev = m_chromium[i];
        auto& st = stacks[{ ev.pid, ev.tid }];
        switch (ev.ph) {
        case 'B':
            st.push_back(i);
            break;
        case 'E': {
            // Close the most recent B of the same name; Bs above it never ended.
            auto it = std::find_if(st.rbegin(), st.rend(),
                [&](size_t b) { return m_chromium[b].name == ev.name || ev.name.empty(); });
            if (it == st.rend()) {
                diag(Severity::Warning, DiagnosticCode::UnmatchedEnd, recs[ev.record].line,
                    "chromium E event \"" + ev.name + "\" has no matching B event");
                addSpan(nullptr, &ev);
                break;
            }
            // Close only the matching B: spans on one thread may overlap (async waits), so
            // Bs above it stay open for their own E events.
            size_t pos = static_cast<size_t>(st.rend() - it) - 1;
            addSpan(&m_chromium[st[pos]], &ev);
            st.erase(st.begin() + static_cast<std::ptrdiff_t>(pos));
            break;
        }
        case 'X': {
            ChromiumRaw end = ev;
            end.ts = ev.ts + ev.dur;
            addSpan(&ev, &end);
            break;
        }
        case 'i':
        case 'I': {
            uint32_t c = recs[ev.record].compile;
            if (c != kNone)
                compiles[c].instants.push_back({ ev.name, ev.ts, ev.record });
            break;
        }
        default:
            break;
        }
    }
    for (auto& [key, st] : stacks) {
        for (size_t b : st) {
            diag(Severity::Warning, DiagnosticCode::UnmatchedBegin, recs[m_chromium[b].record].line,
                "chromium B event \"" + m_chromium[b].name + "\" is never ended (cut log?)");
            addSpan(&m_chromium[b], nullptr);
        }
    }
    // Nesting depth per compile: sort by start (longer first), stack of ends.
    for (auto& comp : compiles) {
        auto& ph = comp.phases;
        std::stable_sort(ph.begin(), ph.end(), [](const PhaseSpan& a, const PhaseSpan& b) {
            if (a.startUs != b.startUs)
                return a.startUs < b.startUs;
            return a.endUs > b.endUs;
        });
        std::vector<double> ends;
        for (auto& s : ph) {
            while (!ends.empty() && s.startUs >= ends.back())
                ends.pop_back();
            s.depth = static_cast<int>(ends.size());
            ends.push_back(s.endUs);
        }
    }
}

void Builder::computeTimes()
{
    auto& recs = m_trace->records;
    for (auto& comp : m_trace->compiles) {
        // Chromium first: the outermost "dynamo" span (2024: entire_frame_compile), else all
        // depth-0 spans.
        const PhaseSpan* top = nullptr;
        for (const char* name : { "dynamo", "entire_frame_compile" }) {
            for (const auto& s : comp.phases)
                if (s.name == name && !s.openEnd && (!top || s.startUs < top->startUs))
                    top = &s;
            if (top)
                break;
        }
        if (top) {
            comp.startUs = top->startUs;
            comp.endUs = top->endUs;
            comp.timeSource = TimeSource::Chromium;
        } else if (comp.timeSource != TimeSource::Metrics && !comp.phases.empty()) {
            double s = comp.phases.front().startUs, e = s;
            for (const auto& p : comp.phases)
                if (p.depth == 0) {
                    s = std::min(s, p.startUs);
                    e = std::max(e, p.endUs);
                }
            comp.startUs = s;
            comp.endUs = e;
            comp.timeSource = TimeSource::Chromium;
        }
        if (comp.timeSource == TimeSource::None && comp.startRecord != kNone) {
            double s = glogEpochUs(recs[comp.startRecord]);
            uint32_t last = comp.metricsRecord != kNone
                ? comp.metricsRecord
                : (comp.records.empty() ? comp.startRecord : comp.records.back());
            double e = glogEpochUs(recs[last]);
            if (s > 0) {
                comp.startUs = s;
                comp.endUs = std::max(s, e);
                comp.timeSource = TimeSource::Glog;
            }
        }
        for (auto& ev : comp.cacheEvents)
            if (ev.tsUs <= 0)
                ev.tsUs = comp.endUs;
        // The compile's range is its compile time; spans logged under its id may lie outside it
        // (see PhaseSpan::outsideCompile). Flag them rather than stretch the compile.
        for (auto& p : comp.phases)
            p.outsideCompile = p.startUs < comp.startUs || p.endUs > comp.endUs;
    }
}

void Builder::buildFrames()
{
    auto& t = *m_trace;
    std::map<std::tuple<int64_t, int64_t, std::string, std::string>, uint32_t> byKey;
    for (auto& comp : t.compiles) {
        // Names from the stack when metrics are missing.
        if (comp.coName.empty() && !comp.stack.empty()) {
            comp.coName = comp.stack.back().name;
            comp.coFilename = comp.stack.back().file;
            comp.coFirstLineno = comp.stack.back().line;
        }
        int64_t ca = comp.id.compiledAutograd.value_or(kAbsent);
        int64_t fid = comp.id.frame.value_or(kAbsent);
        // Frames are code objects: the frame id when logged, else the function itself.
        auto key = fid != kAbsent ? std::tuple { ca, fid, std::string(), std::string() }
                                  : std::tuple { ca, fid, comp.coName, comp.coFilename };
        auto it = byKey.find(key);
        uint32_t fi;
        if (it == byKey.end()) {
            fi = static_cast<uint32_t>(t.frames.size());
            Frame f;
            f.index = fi;
            f.file = comp.file;
            f.frameId = comp.id.frame;
            f.compiledAutograd = comp.id.compiledAutograd;
            f.coName = comp.coName;
            f.coFilename = comp.coFilename;
            f.coFirstLineno = comp.coFirstLineno;
            t.frames.push_back(std::move(f));
            byKey.emplace(key, fi);
        } else {
            fi = it->second;
            if (t.frames[fi].coName.empty()) {
                t.frames[fi].coName = comp.coName;
                t.frames[fi].coFilename = comp.coFilename;
                t.frames[fi].coFirstLineno = comp.coFirstLineno;
            }
        }
        comp.frame = fi;
        t.frames[fi].compiles.push_back(comp.index);
        if (comp.coName.empty()) {
            // A compile that logged no name (the recompile-limit one): its frame's.
            comp.coName = t.frames[fi].coName;
            comp.coFilename = t.frames[fi].coFilename;
            comp.coFirstLineno = t.frames[fi].coFirstLineno;
        }
    }
}

void Builder::linkRecompiles()
{
    auto& t = *m_trace;
    for (auto& comp : t.compiles) {
        if (comp.guardsRecord != kNone) {
            // Parsed when first looked at; recompile linking below parses the few it needs.
            bool cpp = t.kindNames[t.records[comp.guardsRecord].kind] == "dynamo_cpp_guards_str";
            comp.guards = LazyGuardTree::fromRecord(m_in.buffer, t.records[comp.guardsRecord], cpp);
        }
        if (comp.failure && !m_errorText[comp.index].empty())
            comp.failure->traceback = std::move(m_errorText[comp.index]);
        describeFailure(comp);
    }
    linkRecompileReasons(t, m_reasonTexts, m_in.stop);
}

void Builder::finish()
{
    auto& t = *m_trace;
    for (size_t k = 0; k < m_kindCount.size(); ++k)
        if (m_kindCount[k])
            t.kindCounts[t.kindNames[k]] += m_kindCount[k];
    if (m_badHeaderCount)
        t.kindCounts["(bad header)"] += m_badHeaderCount;
    // Pre-start records whose compile never started go to the current one of their key.
    for (auto& [key, ks] : m_keys) {
        for (uint32_t p : ks.pending)
            attach(p, ks.current);
        ks.pending.clear();
    }
    for (uint32_t p : m_anyKey.pending)
        attach(p, m_lastStarted);
    m_anyKey.pending.clear();
    buildSpans();
    computeTimes();
    buildFrames();
    linkGraphBreaks(t, m_artifactBreaks, m_in.stop);
    linkRecompiles();
    for (auto u = m_unstarted.rbegin(); u != m_unstarted.rend(); ++u) {
        const Compile& comp = t.compiles[u->compile];
        if (!comp.failure || !comp.failure->recompileLimit)
            t.diagnostics.insert(
                t.diagnostics.begin() + static_cast<std::ptrdiff_t>(u->diagnosticAt),
                { Severity::Warning, DiagnosticCode::Other, m_in.path, u->line,
                    "compile " + comp.id.display()
                        + " has no dynamo_start record; built from the records that follow" });
    }
    for (auto& comp : t.compiles) {
        std::sort(comp.records.begin(), comp.records.end());
        std::sort(comp.attempts.begin(), comp.attempts.end(),
            [](const Attempt& a, const Attempt& b) { return a.attempt < b.attempt; });
        comp.status = computeStatus(comp);
    }
    TraceFile& f = file();
    f.recordCount = static_cast<uint32_t>(t.records.size());
    f.rank = m_rank;
    if (!f.rank) {
        // dedicated_log_torch_trace_rank_<N>[_xxxxxxxx].log
        auto p = f.path.rfind("_rank_");
        if (p != std::string::npos && p + 6 < f.path.size()
            && std::isdigit(static_cast<unsigned char>(f.path[p + 6])))
            f.rank = std::atoll(f.path.c_str() + p + 6);
    }
    m_limiter.appendAggregates(m_in.path, m_trace->diagnostics);
}

std::unique_ptr<Trace> Builder::run()
{
    ChunkPipeline pipeline(*m_in.buffer, std::max<uint64_t>(1, m_in.chunkBytes),
        m_in.threads > 1 ? m_in.threads - 1 : 0, m_in.verifyPayloads);
    uint64_t lastLineNumber = 0;
    bool lastTerminated = true;
    uint64_t lineBase = 0; // lines before the chunk being read
    // The open record's envelope may point into the previous chunk until the next header.
    std::unique_ptr<ScannedChunk> previous;
    for (size_t k = 0; k < pipeline.chunks(); ++k) {
        if ((k > 0 && m_in.stop.stop_requested()) || m_full)
            break;
        std::unique_ptr<ScannedChunk> chunk = pipeline.take(k, m_scanner);
        for (const ScanEvent& ev : chunk->events) {
            if (m_full)
                break;
            switch (ev.kind) {
            case ScanEvent::Kind::Header:
                m_inBadRun = false;
                header(*chunk, chunk->headers[ev.header], lineBase);
                break;
            case ScanEvent::Kind::BadPrefix:
                badPrefix(ev, lineBase);
                break;
            case ScanEvent::Kind::Orphan:
                m_inBadRun = false;
                file().badLines += ev.count;
                if (ev.report)
                    diag(Severity::Warning, DiagnosticCode::OrphanPayload, lineBase + ev.line,
                        "payload line with no header before it (further ones in this run not "
                        "reported)");
                break;
            }
        }
        if (chunk->lines > 0) {
            lineBase += chunk->lines;
            lastLineNumber = lineBase;
            lastTerminated = chunk->lastTerminated;
        }
        if (m_in.progress && chunk->end - m_lastProgress > (8u << 20)) {
            m_lastProgress = chunk->end;
            m_in.progress(chunk->end);
        }
        // Room for the records to come, estimated from the bytes read so far: a few moves of the
        // record table instead of one per doubling (each into fresh, not yet touched memory).
        auto& records = m_trace->records;
        if (chunk->end > 0 && chunk->end < m_in.buffer->size()) {
            const double perByte
                = static_cast<double>(records.size()) / static_cast<double>(chunk->end);
            const auto expected
                = static_cast<size_t>(perByte * static_cast<double>(m_in.buffer->size()));
            if (expected > records.capacity())
                records.reserve(expected + expected / 16);
        }
        // The chunk of the open record (its last header) stays until that record is processed.
        const bool opened = std::any_of(chunk->events.begin(), chunk->events.end(),
            [](const ScanEvent& e) { return e.kind == ScanEvent::Kind::Header; });
        if (opened) {
            pipeline.recycle(std::move(previous));
            previous = std::move(chunk);
        } else {
            pipeline.recycle(std::move(chunk));
        }
    }
    if (!lastTerminated && m_open != kNone) {
        // A last line without '\n' is only a cut if the record is incomplete: its JSON broke
        // or its payload does not match the declared hash.
        Record& r = m_trace->records[m_open];
        bool incomplete = (r.flags & kBadJson) || (r.hasPayload() && r.payloadLength == 0);
        if (!incomplete && r.hasPayload()) {
            m_trace->files[0].firstRecord = 0;
            incomplete = !m_trace->payloadHashMatches(m_open);
        }
        if (incomplete) {
            r.flags |= kTruncated;
            diag(Severity::Warning, DiagnosticCode::TruncatedRecord, r.line,
                "the file ends inside this record (the process was killed or the file is cut); "
                "kept what is there");
        }
    } else if (m_open != kNone && m_trace->records[m_open].hasPayload()
        && m_trace->records[m_open].payloadLength > 0) {
        // A cut between two payload lines leaves a complete-looking last line: only the hash
        // shows that the last record lost its tail (tst_cutfiles::cutAtEveryLineBoundary). The
        // record is not flagged truncated, since an edited record looks the same (real traces
        // have some) and is then counted as a payload mismatch.
        m_trace->files[0].firstRecord = 0;
        if (!m_trace->payloadHashMatches(m_open))
            diag(Severity::Warning, DiagnosticCode::TruncatedRecord, m_trace->records[m_open].line,
                "the file ends with this record and its payload does not match its has_payload "
                "hash: the file is probably cut inside it (or the record was edited)");
    } else if (!lastTerminated && lastLineNumber > 0) {
        diag(Severity::Warning, DiagnosticCode::TruncatedRecord, lastLineNumber,
            "the file ends in the middle of a line (cut while writing)");
    }
    finishRecord();
    finish();
    if (m_in.verifyPayloads)
        file().payloadMismatches = std::move(m_mismatches);
    // Growth by doubling leaves up to half of the compile table and of each compile's lists
    // unused; the model is read-only from here on, so the slack goes back (dynascope-bench, 1 GB:
    // 90.6 to 82.6 MB of heap after load).
    m_trace->compiles.shrink_to_fit();
    // The record table was reserved from an estimate (records per byte read so far), which a
    // file whose start is unlike its rest (a long string table) sets far too high.
    auto& records = m_trace->records;
    if (records.capacity() - records.size() > records.size() / 8 + 1024)
        records.shrink_to_fit();
    for (Compile& c : m_trace->compiles) {
        c.records.shrink_to_fit();
        c.phases.shrink_to_fit();
    }
    if (m_in.progress)
        m_in.progress(m_in.buffer->size());
    return std::move(m_trace);
}

} // namespace

std::unique_ptr<Trace> buildFile(const FileBuildInput& input)
{
    Builder b(input);
    return b.run();
}

} // namespace dynascope
