// The file builder (file_builder_state.h): what the record kinds the model needs say, decoded
// from their headers and payloads: compilation metrics, artifacts (graph breaks, recompile
// reasons, errors), stacks, dynamo shapes and chromium events.
#include "core/load/trace/file_builder_state.h"

namespace dynascope::filebuild {

Stack Builder::parseStack(simdjson::dom::element arr, uint64_t line)
{
    Stack stack;
    simdjson::dom::array frames;
    if (arr.get_array().get(frames))
        return stack;
    const auto& strings = file().strings;
    StringPool& pool = *m_names;
    stack.reserve(frames.size());
    for (auto f : frames) {
        StackFrame sf;
        sf.line = json::integer(f, "line").value_or(0);
        if (auto n = json::str(f, "name"))
            sf.name = pool.intern(*n);
        if (auto l = json::str(f, "loc"))
            sf.loc = pool.intern(*l);
        if (auto fi = json::integer(f, "filename")) {
            if (*fi >= 0 && static_cast<size_t>(*fi) < strings.size() && !strings[*fi].empty()) {
                sf.file = pool.intern(strings[*fi]);
            } else {
                sf.file = pool.intern("(unknown file #" + std::to_string(*fi) + ")");
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
            sf.file = pool.intern(*fs);
        }
        stack.push_back(std::move(sf));
    }
    return stack;
}

void Builder::handleMetrics(uint32_t idx, uint32_t c, simdjson::dom::element m)
{
    Compile& comp = m_trace->compiles[c];
    comp.metricsRecord = idx;
    m_finished[c] = true;
    // The envelope's views point into the record's chunk (chunk_scan.cpp parses the JSON in
    // place): the text's offset in the file.
    const ByteWindow& w = m_openChunk->window;
    comp.metricsJson
        = BufferText(m_source, w.begin + static_cast<uint64_t>(m_env.metadata.data() - w.data),
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
    comp.beforeRestartS = json::number(m, "dynamo_time_before_restart_s");
    if (auto s = json::str(m, "cudagraph_skip_reason"))
        comp.cudagraphSkipReason = std::string(*s);
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
        GraphBreak gb = parseGraphBreakText(payload(idx), *m_names);
        gb.record = idx;
        m_artifactBreaks[c].push_back(std::move(gb));
    } else if (name == "recompile_reasons") {
        auto texts = readReasons(idx);
        m_reasonTexts[c].insert(m_reasonTexts[c].end(), texts.begin(), texts.end());
    } else if (name == "dynamo_error") {
        m_errorText[c] = payload(idx);
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

std::string Builder::payload(uint32_t idx) const
{
    const Record& r = m_trace->records[idx];
    if (m_openChunk
        && m_openChunk->window.holds(r.offset, r.payloadOffset() + r.payloadLength - r.offset))
        return recordPayload(m_openChunk->window, r);
    return m_trace->payload(idx);
}

std::vector<std::string> Builder::readReasons(uint32_t idx)
{
    std::vector<std::string> texts;
    std::string text = payload(idx);
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

} // namespace dynascope::filebuild
