// FileBuilder: the single pass over one trace file (file_builder_state.h says how it works).
// Here: the records (headers, payload boundaries, attaching records to compiles) and the pass
// itself; what the payloads say is in file_builder_payloads.cpp, what follows the last record in
// file_builder_finish.cpp.
#include "core/load/trace/file_builder_state.h"

namespace dynascope::filebuild {

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
    std::string_view text = m_chunk->window.view(ev.offset, ev.length);
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
    m_openChunk = &chunk;
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
    } else if (kind == "bwd_compilation_metrics") {
        // The backward's own compile (lazy, at its first call): only its CUDA graph skip is
        // read; the forward's compilation_metrics holds the rest.
        if (c != kNone && parseMeta() && meta.is_object())
            if (auto s = json::str(meta, "cudagraph_skip_reason"); s && !s->empty())
                m_trace->compiles[c].cudagraphSkipReasonBackward = std::string(*s);
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

std::unique_ptr<Trace> Builder::run()
{
    ChunkPipeline pipeline(*m_source, std::max<uint64_t>(1, m_in.chunkBytes),
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
        m_chunk = chunk.get();
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
        if (chunk->end > 0 && chunk->end < m_source->size()) {
            const double perByte
                = static_cast<double>(records.size()) / static_cast<double>(chunk->end);
            const auto expected
                = static_cast<size_t>(perByte * static_cast<double>(m_source->size()));
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
    m_chunk = m_openChunk = nullptr;
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
        m_in.progress(m_source->size());
    return std::move(m_trace);
}

} // namespace dynascope::filebuild

namespace dynascope {

std::unique_ptr<Trace> buildFile(const FileBuildInput& input)
{
    filebuild::Builder b(input);
    return b.run();
}

} // namespace dynascope
