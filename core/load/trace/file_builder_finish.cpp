// The file builder (file_builder_state.h) after the last record: chromium events into phase
// spans, compile times, frames, recompile links, and what finish() says about the whole file.
#include "core/load/trace/file_builder_state.h"

namespace dynascope::filebuild {

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
        s.names = m_names->internPair(any.name, any.cat);
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
            if (old != kNone)
                compiles[old].records.erase(e->record);
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
                compiles[c].instants.push_back({ m_names->intern(ev.name), ev.ts, ev.record });
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
                if (s.name() == name && !s.openEnd && (!top || s.startUs < top->startUs))
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
            comp.guards = LazyGuardTree::fromRecord(m_source, t.records[comp.guardsRecord], cpp);
        }
        if (comp.failure && !m_errorText[comp.index].empty())
            comp.failure->traceback = std::move(m_errorText[comp.index]);
        describeFailure(comp);
    }
    linkRecompileReasons(t, m_reasonTexts, *m_names, m_in.stop);
}

void Builder::finish()
{
    auto& t = *m_trace;
    // The record table was reserved from an estimate: what it overshot is given back (one move
    // of the table, against holding up to a sixteenth more for the life of the trace).
    if (t.records.capacity() - t.records.size() > t.records.size() / 64)
        t.records.shrink_to_fit();
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

} // namespace dynascope::filebuild
