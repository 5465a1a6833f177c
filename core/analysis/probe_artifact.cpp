#include "core/analysis/probe_artifact.h"

#include "core/util/json_dom.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace dynascope {

namespace {

using json::Element;

// Lists in a payload are trace content: bounded, so a hostile artifact cannot make this grow
// faster than its own size (each kept element costs a few bytes of payload anyway).
constexpr size_t kMaxList = 1u << 20;

std::string str(Element e, std::string_view key)
{
    auto s = json::str(e, key);
    return s ? std::string(*s) : std::string();
}

std::optional<double> finite(Element e, std::string_view key)
{
    auto d = json::number(e, key);
    if (!d || !std::isfinite(*d))
        return std::nullopt;
    return *d;
}

uint64_t count(Element e, std::string_view key)
{
    auto i = json::integer(e, key);
    return i && *i > 0 ? static_cast<uint64_t>(*i) : 0;
}

std::optional<bool> boolean(Element e, std::string_view key)
{
    bool b = false;
    if (e[key].get_bool().get(b))
        return std::nullopt;
    return b;
}

std::vector<double> numbers(Element e, std::string_view key)
{
    std::vector<double> out;
    simdjson::dom::array a;
    if (e[key].get_array().get(a))
        return out;
    for (Element v : a) {
        double d = 0;
        int64_t i = 0;
        if (!v.get_double().get(d) && std::isfinite(d))
            out.push_back(d);
        else if (!v.get_int64().get(i))
            out.push_back(static_cast<double>(i));
        if (out.size() >= kMaxList)
            break;
    }
    return out;
}

std::vector<std::string> strings(Element e, std::string_view key)
{
    std::vector<std::string> out;
    simdjson::dom::array a;
    if (e[key].get_array().get(a))
        return out;
    for (Element v : a) {
        std::string_view s;
        if (!v.get_string().get(s))
            out.emplace_back(s);
        if (out.size() >= kMaxList)
            break;
    }
    return out;
}

std::vector<CompileId> compileIds(Element e, std::string_view key)
{
    std::vector<CompileId> out;
    for (const auto& s : strings(e, key))
        if (auto id = CompileId::parse(s))
            out.push_back(*id);
    return out;
}

std::optional<double> median(std::vector<double> v)
{
    if (v.empty())
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

ProbeCallable readCallable(Element c)
{
    ProbeCallable p;
    p.id = json::integer(c, "id").value_or(0);
    p.kind = str(c, "kind");
    p.name = str(c, "name");
    p.qualname = str(c, "qualname");
    p.file = str(c, "file");
    p.line = std::max<int64_t>(0, json::integer(c, "line").value_or(0));
    p.requestedBackend = str(c, "requested_backend");
    p.backend = str(c, "backend");
    p.dynamic = boolean(c, "dynamic");
    p.droppedOptions = strings(c, "dropped_options");
    p.compiledCallables = count(c, "compiled_callables");
    p.calls = count(c, "calls");
    p.totalUs = std::max(0.0, finite(c, "total_us").value_or(0));
    p.firstCallUs = finite(c, "first_call_us");
    p.firstCallStartUs = finite(c, "first_call_start_us").value_or(0);
    p.steadyUs = numbers(c, "steady_us");
    for (double d : numbers(c, "steady_compiled"))
        if (d >= 0)
            p.steadyCompiled.push_back(static_cast<uint64_t>(d));
    simdjson::dom::array calls;
    if (!c["compiling_calls"].get_array().get(calls)) {
        for (Element cc : calls) {
            if (!cc.is_object())
                continue;
            ProbeCompilingCall call;
            call.call = count(cc, "call");
            call.startUs = finite(cc, "start_us").value_or(0);
            call.us = std::max(0.0, finite(cc, "us").value_or(0));
            call.compiles = compileIds(cc, "compiles");
            p.compilingCalls.push_back(std::move(call));
            if (p.compilingCalls.size() >= kMaxList)
                break;
        }
    }
    p.compilingCallsDropped = count(c, "compiling_calls_dropped");
    p.eagerUs = numbers(c, "eager_us");
    Element check;
    if (!c["check"].get(check) && check.is_object()) {
        ProbeCheck k;
        k.checked = count(check, "checked");
        k.mismatches = count(check, "mismatches");
        k.errors = count(check, "errors");
        k.uncomparable = count(check, "uncomparable");
        Element m;
        if (!check["first_mismatch"].get(m) && m.is_object()) {
            k.firstMismatchCall = count(m, "call");
            k.firstMismatch = str(m, "message");
        }
        Element err;
        if (!check["first_error"].get(err) && err.is_object()) {
            k.firstErrorCall = count(err, "call");
            k.firstErrorType = str(err, "type");
            k.firstError = str(err, "message");
        }
        p.check = std::move(k);
    }
    Element error;
    if (!c["error"].get(error) && error.is_object()) {
        ProbeError e;
        e.call = count(error, "call");
        e.type = str(error, "type");
        e.message = str(error, "message");
        e.compiles = compileIds(error, "compiles");
        p.error = std::move(e);
    }
    p.peakRssMib = finite(c, "peak_rss_mib");
    p.cudaPeakMib = finite(c, "cuda_peak_mib");
    return p;
}

} // namespace

std::optional<double> ProbeCallable::steadyMedianUs() const
{
    std::vector<double> clean;
    for (size_t i = 0; i < steadyUs.size(); ++i) {
        const uint64_t call = i + 1;
        if (std::find(steadyCompiled.begin(), steadyCompiled.end(), call) == steadyCompiled.end())
            clean.push_back(steadyUs[i]);
    }
    return median(clean);
}

std::optional<double> ProbeCallable::eagerMedianUs() const
{
    if (eagerUs.size() > 1)
        return median(std::vector<double>(eagerUs.begin() + 1, eagerUs.end()));
    return median(eagerUs);
}

std::string ProbeCallable::label() const
{
    std::string where = std::filesystem::path(file).filename().string();
    if (line > 0)
        where += ":" + std::to_string(line);
    const std::string& n = qualname.empty() ? name : qualname;
    return where.empty() ? n : n + " (" + where + ")";
}

bool ProbeCallable::sameCode(const ProbeCallable& o) const
{
    return qualname == o.qualname && name == o.name && line == o.line
        && std::filesystem::path(file).filename() == std::filesystem::path(o.file).filename();
}

std::optional<ProbeRecording> parseProbeArtifact(const std::string& text, std::string* error)
{
    auto fail = [&](const std::string& why) -> std::optional<ProbeRecording> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    simdjson::dom::parser parser;
    Element root;
    if (auto err = parser.parse(text).get(root))
        return fail(std::string("the payload is not JSON: ") + simdjson::error_message(err));
    if (!root.is_object() || str(root, "format") != "dynascope-probe")
        return fail("the payload is not a dynascope-probe document");
    const auto version = json::integer(root, "version");
    if (!version || *version != 1)
        return fail("dynascope-probe version " + (version ? std::to_string(*version) : "?")
            + " is not one this Dynascope reads (1)");
    ProbeRecording r;
    r.event = str(root, "event");
    Element config;
    if (!root["config"].get(config) && config.is_object()) {
        r.configName = str(config, "name");
        r.backend = str(config, "backend");
        r.dynamic = boolean(config, "dynamic");
        r.check = boolean(config, "check").value_or(false);
        r.steps = std::max<int64_t>(0, json::integer(config, "steps").value_or(0));
    }
    r.pid = json::integer(root, "pid").value_or(0);
    r.torchVersion = str(root, "torch_version");
    r.python = str(root, "python");
    r.argv = strings(root, "argv");
    r.cuda = boolean(root, "cuda").value_or(false);
    simdjson::dom::array callables;
    if (!root["callables"].get_array().get(callables)) {
        for (Element c : callables) {
            if (c.is_object())
                r.callables.push_back(readCallable(c));
            if (r.callables.size() >= kMaxList)
                break;
        }
    }
    r.peakRssMib = finite(root, "peak_rss_mib");
    r.cudaPeakMib = finite(root, "cuda_peak_mib");
    Element exc;
    if (!root["exception"].get(exc) && exc.is_object()) {
        r.exceptionType = str(exc, "type");
        r.exceptionMessage = str(exc, "message");
    }
    return r;
}

ProbeArtifacts readProbeArtifacts(const Trace& trace)
{
    ProbeArtifacts out;
    auto kind = std::find(trace.kindNames.begin(), trace.kindNames.end(), "artifact");
    if (kind == trace.kindNames.end())
        return out;
    const auto kindIndex = static_cast<uint16_t>(kind - trace.kindNames.begin());
    simdjson::dom::parser parser;
    for (uint32_t f = 0; f < trace.files.size(); ++f) {
        const TraceFile& file = trace.files[f];
        std::optional<ProbeRecording> last;
        std::optional<ProbeRecording> start; // argv and versions come with the first event
        for (uint32_t r = file.firstRecord; r < file.firstRecord + file.recordCount; ++r) {
            if (trace.records[r].kind != kindIndex)
                continue;
            Element meta;
            if (parser.parse(trace.headerJson(r)).get(meta) || !meta.is_object())
                continue;
            Element artifact;
            if (meta["artifact"].get(artifact) || !artifact.is_object()
                || str(artifact, "name") != kProbeArtifactName)
                continue;
            std::string why;
            auto rec = parseProbeArtifact(trace.payload(r), &why);
            if (!rec) {
                out.diagnostics.push_back({ Severity::Warning, DiagnosticCode::BadPayload,
                    file.path, trace.records[r].line,
                    std::string(kProbeArtifactName) + " artifact: " + why });
                continue;
            }
            rec->file = f;
            rec->record = r;
            if (!start)
                start = *rec;
            last = std::move(rec);
        }
        if (!last)
            continue;
        if (start && start->record != last->record) {
            if (last->argv.empty())
                last->argv = start->argv;
            if (last->torchVersion.empty())
                last->torchVersion = start->torchVersion;
            if (last->python.empty())
                last->python = start->python;
            last->cuda = last->cuda || start->cuda;
        }
        out.recordings.push_back(std::move(*last));
    }
    return out;
}

std::vector<uint32_t> compilesOfCallable(
    const Trace& trace, const ProbeRecording& recording, const ProbeCallable& callable)
{
    std::vector<uint32_t> out;
    if (callable.compilingCalls.empty())
        return out;
    // The recording's compiles by id (ids repeat after torch._dynamo.reset()), and by start time.
    std::map<std::string, std::vector<uint32_t>> byId;
    std::vector<std::pair<double, uint32_t>> byStart;
    for (const Compile& c : trace.compiles) {
        if (c.file != recording.file)
            continue;
        byId[c.id.key()].push_back(c.index);
        if (c.startUs > 0)
            byStart.emplace_back(c.startUs, c.index);
    }
    std::sort(byStart.begin(), byStart.end());
    std::set<uint32_t> taken;
    for (const ProbeCompilingCall& call : callable.compilingCalls) {
        bool any = false;
        for (const CompileId& id : call.compiles) {
            auto it = byId.find(id.key());
            if (it == byId.end())
                continue;
            uint32_t best = kNone;
            for (uint32_t index : it->second) {
                if (taken.count(index))
                    continue;
                if (best == kNone)
                    best = index;
                // Of repeated ids, the one that starts in this call (1 ms of clock slack).
                const double start = trace.compiles[index].startUs;
                if (start > 0 && call.startUs > 0 && start + 1e3 >= call.startUs) {
                    best = index;
                    break;
                }
            }
            if (best != kNone) {
                taken.insert(best);
                out.push_back(best);
                any = true;
            }
        }
        if (any || call.startUs <= 0)
            continue;
        // No ids recorded (a PyTorch without compile callbacks): the compiles that start inside
        // the call.
        auto from = std::lower_bound(
            byStart.begin(), byStart.end(), std::make_pair(call.startUs, uint32_t { 0 }));
        for (auto it = from; it != byStart.end() && it->first <= call.startUs + call.us; ++it) {
            if (taken.insert(it->second).second)
                out.push_back(it->second);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

uint32_t frameOfCallable(
    const Trace& trace, const ProbeRecording& recording, const ProbeCallable& callable)
{
    uint32_t byName = kNone;
    const auto base = std::filesystem::path(callable.file).filename();
    for (const Frame& f : trace.frames) {
        if (f.file != recording.file || f.coName != callable.name)
            continue;
        if (f.coFilename == callable.file && f.coFirstLineno == callable.line)
            return f.index;
        if (byName == kNone && std::filesystem::path(f.coFilename).filename() == base
            && (callable.line == 0 || f.coFirstLineno == callable.line))
            byName = f.index;
    }
    return byName;
}

} // namespace dynascope
