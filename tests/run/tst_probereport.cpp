// The probe's artifact and report, without torch: traces written with the trace writer carry
// "dynascope_probe" artifacts as resources/python/dynascope_probe.py writes them; probe folders
// are laid out as `dynascope-cli probe` lays them out. Checked: the artifact's fields, bad
// artifacts as diagnostics, compiles matched to callables, the payoff arithmetic, each kind of
// ladder verdict, the Markdown and JSON, a manifest that tries to leave its folder, and
// `probe --report` of the CLI. The same checks on real PyTorch 2.13 runs are in
// recordedProbeFolders (tests/probe/recorded, committed) and tst_probe_live.
#include "core/analysis/compile_payoff.h"
#include "core/analysis/probe_artifact.h"
#include "core/load/loader.h"
#include "core/report/probe_report.h"
#include "core/run/probe_session.h"
#include "core/run/run_folder.h"
#include "core/synth/synth_helpers.h"
#include "core/writer/trace_writer.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dynascope;
using nlohmann::json;

namespace {

const std::string kModel = "/home/alice/proj/model.py";

struct SynthCompile {
    int64_t frame = 0, frameCompile = 0;
    std::string name = "step";
    int64_t line = 12;
    std::string failType, failReason;
};

SynthCompile ok(int64_t frame = 0, int64_t frameCompile = 0)
{
    SynthCompile c;
    c.frame = frame;
    c.frameCompile = frameCompile;
    return c;
}

SynthCompile failing(const std::string& type, const std::string& reason)
{
    SynthCompile c;
    c.failType = type;
    c.failReason = reason;
    return c;
}

synth::CompileSpec spec(const SynthCompile& c)
{
    synth::CompileSpec s;
    s.id = { std::nullopt, c.frame, c.frameCompile, 0 };
    s.detail = synth::Detail::Lite;
    s.stack = { synth::frame("/home/alice/proj/train.py", 30, "<module>", "loss = step(x)"),
        synth::frame(kModel, c.line, c.name) };
    s.coName = c.name;
    s.coFilename = kModel;
    s.coFirstLineno = c.line;
    s.frameKey = c.frame + 1;
    s.tracingUs = 4000;
    s.backendUs = 100000;
    synth::TensorInput x;
    x.source = "L['x']";
    x.size = { 8, 16 };
    x.stride = { 16, 1 };
    s.inputs = { x };
    s.backendName = "aot_eager";
    if (!c.failType.empty()) {
        s.failType = c.failType;
        s.failReason = c.failReason;
        s.failUserFile = kModel;
        s.failUserLine = c.line + 1;
    }
    return s;
}

// A callable as the helper writes it.
json callable(const std::string& backend, uint64_t calls, double first, std::vector<double> steady,
    std::vector<std::string> compiles = { "0/0" })
{
    json c = { { "id", 1 }, { "kind", "function" }, { "name", "step" }, { "qualname", "step" },
        { "file", kModel }, { "line", 12 }, { "requested_backend", "inductor" },
        { "backend", backend }, { "dynamic", nullptr }, { "dropped_options", json::array() },
        { "compiled_callables", 1 }, { "calls", calls }, { "total_us", first },
        { "first_call_us", first }, { "first_call_start_us", 1773484861000000.0 },
        { "steady_us", steady }, { "steady_compiled", json::array() },
        { "compiling_calls", json::array() }, { "compiling_calls_dropped", 0 },
        { "eager_us", json::array() }, { "check", nullptr }, { "error", nullptr },
        { "peak_rss_mib", 300.5 }, { "cuda_peak_mib", nullptr } };
    if (backend != "none" && !compiles.empty())
        c["compiling_calls"].push_back({ { "call", 0 }, { "start_us", 1773484861000000.0 },
            { "us", first }, { "compiles", compiles } });
    return c;
}

json probeDoc(const std::string& name, const std::string& backend, std::vector<json> callables,
    const std::string& event = "end", bool check = false)
{
    return { { "format", "dynascope-probe" }, { "version", 1 }, { "event", event },
        { "time_us", 1773484870000000.0 },
        { "config",
            { { "name", name }, { "backend", backend }, { "dynamic", nullptr }, { "check", check },
                { "steps", 10 } } },
        { "pid", 77 }, { "callables", callables }, { "peak_rss_mib", 310.25 },
        { "cuda_peak_mib", nullptr }, { "exception", nullptr } };
}

// A trace: the compiles, then the probe artifacts (as PyTorch logs them: no compile id).
std::string synthTrace(const std::vector<SynthCompile>& compiles, const std::vector<json>& docs)
{
    std::ostringstream out;
    TraceWriter w(out, synth::kDefaultPid, synth::kDefaultStartUs);
    for (const auto& c : compiles) {
        synth::writeCompile(w, spec(c));
        w.advanceUs(5000);
    }
    for (const auto& d : docs)
        w.artifact(WriteContext {}, kProbeArtifactName, "json", d.dump(1));
    return out.str();
}

std::shared_ptr<const Trace> loadText(const QTemporaryDir& dir, const std::string& text)
{
    const std::string path = dir.filePath(QStringLiteral("t.log")).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    auto r = load({ path });
    return r.trace;
}

// A probe folder as the CLI lays it out.
struct Run {
    ProbeConfig config;
    std::string trace; // "" = no trace
    int exitCode = 0;
    bool ran = true;
};

void writeSession(const QString& folder, const std::vector<Run>& runs, bool check = false)
{
    ProbeOptions o;
    o.command = { "python", "train.py" };
    o.workingDirectory = "/home/alice/proj";
    o.check = check;
    for (const auto& r : runs)
        o.configs.push_back(r.config);
    std::ofstream(QDir(folder).filePath(QString::fromLatin1(kProbeManifestFile)).toStdString())
        << probeManifestJson(o);
    for (const auto& r : runs) {
        const std::string dir
            = QDir(folder).filePath(QString::fromStdString(r.config.name)).toStdString();
        std::filesystem::create_directories(dir);
        if (!r.ran)
            continue;
        if (!r.trace.empty())
            std::ofstream(dir + "/dedicated_log_torch_trace_abcd1234.log") << r.trace;
        run::RunRecord rec;
        rec.command = o.command;
        rec.traceFolder = dir;
        rec.seconds = 9.5;
        rec.exit = run::ExitStatus { false, r.exitCode, 0, false };
        rec.probeConfig = r.config.name;
        QVERIFY(run::writeRunRecord(dir, rec, nullptr));
    }
}

ProbeReport reportOf(const QString& folder)
{
    std::string error;
    auto session = loadProbeSession(folder.toStdString(), &error);
    if (!session)
        qFatal("%s", error.c_str());
    return buildProbeReport(*session);
}

const ProbeConfig kNoCompile { "no_compile", "none", false };
const ProbeConfig kEager { "eager", "eager", false };
const ProbeConfig kAot { "aot_eager", "aot_eager", false };
const ProbeConfig kInductor { "inductor", "inductor", false };

std::string eagerTrace()
{
    return synthTrace(
        {}, { probeDoc("no_compile", "none", { callable("none", 20, 2000, { 300, 310, 290 }) }) });
}

} // namespace

class TestProbeReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsTheArtifact()
    {
        QTemporaryDir tmp;
        json c = callable("aot_eager", 20, 250000, { 400, 9000, 410, 420 });
        c["steady_compiled"] = { 2 }; // call 2 recompiled: not steady state
        c["compiling_calls"].push_back({ { "call", 2 }, { "start_us", 1773484861500000.0 },
            { "us", 9000 }, { "compiles", { "0/1" } } });
        c["eager_us"] = { 900, 500, 520, 510, 530 };
        c["check"] = { { "checked", 5 }, { "mismatches", 1 },
            { "first_mismatch", { { "call", 3 }, { "message", "Tensor-likes are not close!" } } },
            { "errors", 0 }, { "first_error", nullptr }, { "uncomparable", 0 } };
        json snapshot = probeDoc(
            "aot_eager", "aot_eager", { callable("aot_eager", 11, 250000, {}) }, "snapshot");
        snapshot["argv"] = { "train.py", "--steps", "20" };
        snapshot["torch_version"] = "2.13.0+cpu";
        const auto trace = loadText(tmp,
            synthTrace(
                { ok(), ok(0, 1) }, { snapshot, probeDoc("aot_eager", "aot_eager", { c }) }));
        QVERIFY(trace);
        QCOMPARE(trace->compiles.size(), size_t(2));
        const ProbeArtifacts a = readProbeArtifacts(*trace);
        QVERIFY(a.diagnostics.empty());
        QCOMPARE(a.recordings.size(), size_t(1));
        const ProbeRecording& r = a.recordings.front();
        QCOMPARE(r.event, std::string("end")); // the last one wins
        QVERIFY(r.complete());
        QCOMPARE(r.configName, std::string("aot_eager"));
        QCOMPARE(r.steps, int64_t(10));
        QCOMPARE(r.argv.size(), size_t(3)); // from the earlier event
        QCOMPARE(r.torchVersion, std::string("2.13.0+cpu"));
        QCOMPARE(*r.peakMib(), 310.25);
        QCOMPARE(r.callables.size(), size_t(1));
        const ProbeCallable& p = r.callables.front();
        QCOMPARE(p.calls, uint64_t(20));
        QCOMPARE(*p.firstCallUs, 250000.0);
        QCOMPARE(*p.steadyMedianUs(), 410.0); // 9000 (call 2 compiled) left out
        QCOMPARE(*p.eagerMedianUs(), 515.0); // the first (cold) eager run left out
        QCOMPARE(p.check->mismatches, uint64_t(1));
        QCOMPARE(*p.check->firstMismatchCall, uint64_t(3));
        QCOMPARE(p.label(), std::string("step (model.py:12)"));
        // Both compiles belong to the callable, matched by their ids; its frame is step's.
        QCOMPARE(compilesOfCallable(*trace, r, p), (std::vector<uint32_t> { 0, 1 }));
        const uint32_t frame = frameOfCallable(*trace, r, p);
        QVERIFY(frame != kNone);
        QCOMPARE(trace->frames[frame].coName, std::string("step"));
    }

    void matchesCompilesByTimeWithoutIds()
    {
        QTemporaryDir tmp;
        json c = callable("eager", 3, 1e9, { 10, 10 }, {});
        // One compiling call around the whole trace, no ids (a PyTorch without callbacks).
        c["compiling_calls"].push_back(
            { { "call", 0 }, { "start_us", double(synth::kDefaultStartUs) }, { "us", 1e9 },
                { "compiles", json::array() } });
        const auto trace
            = loadText(tmp, synthTrace({ ok(), ok(0, 1) }, { probeDoc("eager", "eager", { c }) }));
        const auto a = readProbeArtifacts(*trace);
        QCOMPARE(compilesOfCallable(*trace, a.recordings[0], a.recordings[0].callables[0]),
            (std::vector<uint32_t> { 0, 1 }));
    }

    void badArtifactsAreDiagnostics()
    {
        QTemporaryDir tmp;
        std::ostringstream out;
        TraceWriter w(out, synth::kDefaultPid, synth::kDefaultStartUs);
        w.artifact(WriteContext {}, kProbeArtifactName, "json", "{not json");
        json future = probeDoc("x", "eager", {});
        future["version"] = 2;
        w.artifact(WriteContext {}, kProbeArtifactName, "json", future.dump());
        json hostile = probeDoc("x", "eager", { callable("eager", 5, 100, { 1, 2 }) });
        hostile["callables"][0]["calls"] = -5;
        hostile["callables"][0]["steady_us"] = { "a", 3.0, nullptr };
        hostile["callables"][0]["line"] = -3;
        hostile["callables"][0]["first_call_us"] = "soon";
        w.artifact(WriteContext {}, kProbeArtifactName, "json", hostile.dump());
        w.artifact(WriteContext {}, "other_artifact", "json", "{}");
        const auto trace = loadText(tmp, out.str());
        const auto a = readProbeArtifacts(*trace);
        QCOMPARE(a.diagnostics.size(), size_t(2));
        QVERIFY(a.diagnostics[0].message.find("not JSON") != std::string::npos);
        QVERIFY(a.diagnostics[1].message.find("version 2") != std::string::npos);
        QVERIFY(a.diagnostics[1].line > 0);
        QCOMPARE(a.recordings.size(), size_t(1));
        const ProbeCallable& p = a.recordings[0].callables[0];
        QCOMPARE(p.calls, uint64_t(0));
        QCOMPARE(p.line, int64_t(0));
        QVERIFY(!p.firstCallUs);
        QCOMPARE(p.steadyUs, std::vector<double> { 3.0 });
    }

    void payoffArithmetic()
    {
        QTemporaryDir tmp;
        // Compiling call 1 s; steady 1 ms; eager 3 ms: overhead 999 ms, gain 2 ms, 500 calls.
        auto make = [&](uint64_t calls, double eagerUs) {
            const std::string t = synthTrace({ ok() },
                { probeDoc("inductor", "inductor",
                    { callable("inductor", calls, 1e6, { 1000, 1000, 1000 }) }) });
            auto trace = loadText(tmp, t);
            auto compiled = readProbeArtifacts(*trace).recordings.at(0);
            ProbeRecording eager = compiled;
            eager.callables[0].backend = "none";
            eager.callables[0].steadyUs = { eagerUs, eagerUs };
            return compilePayoff(*trace, compiled, &eager).at(0);
        };
        CallablePayoff p = make(1000, 3000);
        QCOMPARE(p.verdict, PayoffVerdict::PaidOff);
        QCOMPARE(p.overheadUs, 999000.0);
        QCOMPARE(*p.gainUs, 2000.0);
        QCOMPARE(*p.breakEvenCalls, uint64_t(500));
        QCOMPARE(p.eagerSource, std::string("eager run"));
        QVERIFY2(p.text.find("paid for itself after 500 calls (the program made 1,000)")
                != std::string::npos,
            p.text.c_str());
        QCOMPARE(p.compiles.size(), size_t(1));
        QVERIFY(p.compileUs > 0); // the compile's own duration in the trace
        p = make(20, 3000);
        QCOMPARE(p.verdict, PayoffVerdict::NotYet);
        QVERIFY2(p.text.find("pays for itself after 500 calls; the program made only 20")
                != std::string::npos,
            p.text.c_str());
        p = make(20, 800);
        QCOMPARE(p.verdict, PayoffVerdict::Never);
        QVERIFY(!p.breakEvenCalls);
        QVERIFY2(p.text.find("never pays for itself") != std::string::npos, p.text.c_str());
        // No eager run: --check's eager times, else unknown.
        const auto trace = loadText(tmp,
            synthTrace({ ok() },
                { probeDoc("inductor", "inductor", { callable("inductor", 20, 1e6, { 1000 }) }) }));
        const auto rec = readProbeArtifacts(*trace).recordings.at(0);
        QCOMPARE(compilePayoff(*trace, rec).at(0).verdict, PayoffVerdict::Unknown);
        auto withCheck = rec;
        withCheck.callables[0].eagerUs = { 9000, 5000, 5000 };
        p = compilePayoff(*trace, withCheck).at(0);
        QCOMPARE(p.eagerSource, std::string("--check"));
        QCOMPARE(*p.breakEvenCalls, uint64_t(250)); // 999 ms / 4 ms
    }

    void verdictFailsWithAotEagerButNotEager()
    {
        QTemporaryDir tmp;
        const std::string reason = "backend='aot_eager' raised:\nRuntimeError: Cannot access data "
                                   "pointer of Tensor (e.g. FakeTensor)";
        json failed = callable("aot_eager", 1, 320000, {});
        failed["error"] = { { "call", 0 }, { "type", "BackendCompilerFailed" },
            { "message", reason }, { "compiles", { "0/0" } } };
        writeSession(tmp.path(),
            { { kNoCompile, eagerTrace() },
                { kEager,
                    synthTrace({ ok() },
                        { probeDoc(
                            "eager", "eager", { callable("eager", 20, 170000, { 340, 350 }) }) }) },
                { kAot,
                    synthTrace({ failing("BackendCompilerFailed", reason) },
                        { probeDoc("aot_eager", "aot_eager", { failed }) }),
                    1 },
                { kInductor, "", 0, false } });
        const ProbeReport r = reportOf(tmp.path());
        QCOMPARE(r.rows.size(), size_t(4));
        QCOMPARE(r.rows[0].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::Failed);
        QCOMPARE(r.rows[2].outcomeText, std::string("failed at [0/0]"));
        QCOMPARE(r.rows[2].failingLayer, std::string("aot_autograd"));
        QCOMPARE(r.rows[3].outcome, ProbeOutcome::NotRun);
        QCOMPARE(r.verdict.layer, std::string("aot_autograd"));
        QCOMPARE(r.verdict.row, 2);
        QVERIFY2(
            r.verdict.text.starts_with("fails with aot_eager but not eager: look at AOTAutograd; "
                                       "first failing compile [0/0] in `step` (model.py:13): "
                                       "BackendCompilerFailed: backend='aot_eager' raised: "
                                       "RuntimeError: Cannot access data pointer"),
            r.verdict.text.c_str());
        QCOMPARE(*r.rows[1].firstCallUs, 170000.0);
        QCOMPARE(*r.rows[1].steadyUs, 345.0);
        QCOMPARE(r.rows[1].compiles, uint64_t(1));
        QCOMPARE(*r.rows[0].steadyUs, 300.0);
        // The eager backend's compile never pays: 345 µs against 300 µs eager.
        QVERIFY(r.rows[1].callables.at(0).payoff);
        QCOMPARE(r.rows[1].callables[0].payoff->verdict, PayoffVerdict::Never);

        const std::string md = probeReportMarkdown(r);
        QVERIFY2(md.find("**Verdict:** fails with aot_eager but not eager: look at AOTAutograd; "
                         "first failing compile `[0/0]` in `step` (`model.py:13`)")
                != std::string::npos,
            md.c_str());
        QVERIFY(md.find("| backend=aot_eager | 320.0 ms | — | 0 | 0 | 310 | `failed at [0/0]` |")
            != std::string::npos);
        QVERIFY(md.find("| eager, no torch.compile | 2.00 ms | 300 µs |") != std::string::npos);
        QVERIFY(md.find("### backend=inductor: `not run`") != std::string::npos);
        QVERIFY(md.find("stopped before every configuration ran") != std::string::npos);

        const json j = json::parse(probeReportJson(r));
        QCOMPARE(j["format"].get<std::string>(), std::string("dynascope-probe-report"));
        QCOMPARE(j["format_version"].get<int>(), 1);
        QCOMPARE(j["verdict"]["layer"].get<std::string>(), std::string("aot_autograd"));
        QCOMPARE(j["verdict"]["configuration"].get<std::string>(), std::string("aot_eager"));
        QCOMPARE(j["rows"][2]["outcome"].get<std::string>(), std::string("failed"));
        QCOMPARE(j["rows"][2]["failure"]["compile"]["id"].get<std::string>(), std::string("[0/0]"));
        QCOMPARE(j["rows"][1]["steady_us"].get<int>(), 345);
        QCOMPARE(j["rows"][1]["callables"][0]["compiles"][0]["id"].get<std::string>(),
            std::string("[0/0]"));
        QCOMPARE(j["rows"][1]["callables"][0]["payoff"]["verdict"].get<std::string>(),
            std::string("never"));
        QVERIFY(j["rows"][3]["outcome"] == "not_run");
    }

    void verdictWrongResultIsNotAFailure()
    {
        QTemporaryDir tmp;
        json wrong = callable("inductor", 20, 900000, { 100, 100 });
        wrong["check"] = { { "checked", 11 }, { "mismatches", 2 },
            { "first_mismatch",
                { { "call", 0 },
                    { "message", "Tensor-likes are not close!\n\nMismatched elements: 3 / 80" } } },
            { "errors", 0 }, { "first_error", nullptr }, { "uncomparable", 0 } };
        json good = callable("aot_eager", 20, 200000, { 200, 200 });
        good["check"] = { { "checked", 11 }, { "mismatches", 0 }, { "first_mismatch", nullptr },
            { "errors", 0 }, { "first_error", nullptr }, { "uncomparable", 0 } };
        writeSession(tmp.path(),
            { { kNoCompile, eagerTrace() },
                { kAot,
                    synthTrace(
                        { ok() }, { probeDoc("aot_eager", "aot_eager", { good }, "end", true) }) },
                { kInductor,
                    synthTrace(
                        { ok() }, { probeDoc("inductor", "inductor", { wrong }, "end", true) }) } },
            true);
        const ProbeReport r = reportOf(tmp.path());
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::WrongResult);
        QCOMPARE(r.rows[2].outcomeText, std::string("wrong result"));
        QCOMPARE(r.verdict.layer, std::string("inductor"));
        QVERIFY2(r.verdict.text.starts_with("gives a wrong result with inductor but not aot_eager: "
                                            "look at Inductor; first mismatch with eager in call 1 "
                                            "of step (model.py:12): Tensor-likes are not close! "
                                            "Mismatched elements: 3 / 80"),
            r.verdict.text.c_str());
    }

    void verdictEagerFailsFirst()
    {
        QTemporaryDir tmp;
        json err = callable("none", 1, 100, {});
        err["error"] = { { "call", 0 }, { "type", "ValueError" }, { "message", "bad shape" },
            { "compiles", json::array() } };
        writeSession(tmp.path(),
            { { kNoCompile, synthTrace({}, { probeDoc("no_compile", "none", { err }) }), 1 },
                { kEager, synthTrace({ ok() }, { probeDoc("eager", "eager", { err }) }), 1 } });
        const ProbeReport r = reportOf(tmp.path());
        QCOMPARE(r.verdict.layer, std::string("eager"));
        QVERIFY2(r.verdict.text.starts_with("fails without torch.compile too (call 1 of step "
                                            "(model.py:12) raised ValueError: bad shape)"),
            r.verdict.text.c_str());
    }

    void verdictFirstBackendAndDynamic()
    {
        QTemporaryDir tmp;
        // Only inductor was tried, and it fails: the verdict says to add the lower rungs.
        writeSession(tmp.path(),
            { { kNoCompile, eagerTrace() },
                { kInductor,
                    synthTrace({ failing("BackendCompilerFailed",
                                   "backend='inductor' raised:\nLoweringException: boom") },
                        { probeDoc("inductor", "inductor", { callable("inductor", 1, 1, {}) }) }),
                    1 } });
        ProbeReport r = reportOf(tmp.path());
        QCOMPARE(r.verdict.layer, std::string("inductor"));
        QVERIFY2(r.verdict.text.starts_with("fails with inductor, the first backend tried: look at "
                                            "Inductor (add eager and aot_eager to --backends"),
            r.verdict.text.c_str());

        QTemporaryDir dyn;
        const ProbeConfig dynamic { "inductor_dynamic", "inductor", true };
        writeSession(dyn.path(),
            { { kNoCompile, eagerTrace() },
                { kInductor,
                    synthTrace({ ok() },
                        { probeDoc("inductor", "inductor",
                            { callable("inductor", 20, 1e6, { 100 }) }) }) },
                { dynamic,
                    synthTrace({ failing("BackendCompilerFailed",
                                   "backend='inductor' raised:\nGuardOnDataDependentSymNode") },
                        { probeDoc(
                            "inductor_dynamic", "inductor", { callable("inductor", 1, 1, {}) }) }),
                    1 } });
        r = reportOf(dyn.path());
        QCOMPARE(r.verdict.layer, std::string("dynamic_shapes"));
        QVERIFY2(r.verdict.text.starts_with("fails with dynamic=True but not with static shapes"),
            r.verdict.text.c_str());
    }

    void verdictCleanLadderSaysWhetherCompilingPaid()
    {
        QTemporaryDir tmp;
        writeSession(tmp.path(),
            { { kNoCompile, eagerTrace() },
                { kInductor,
                    synthTrace({ ok() },
                        { probeDoc("inductor", "inductor",
                            { callable("inductor", 20, 1e6, { 100, 100, 100 }) }) }) } });
        const ProbeReport r = reportOf(tmp.path());
        QVERIFY(r.verdict.layer.empty());
        QCOMPARE(r.verdict.row, -1);
        QVERIFY2(r.verdict.text.starts_with("every configuration ran: no layer fails (outputs were "
                                            "not compared with eager: add --check); with inductor, "
                                            "step (model.py:12): compiling cost"),
            r.verdict.text.c_str());
        // 999.9 ms overhead, 200 µs saved a call: 5,000 calls; it made 20.
        QVERIFY2(r.verdict.text.find("pays for itself after 5,000 calls; the program made only 20")
                != std::string::npos,
            r.verdict.text.c_str());
        QVERIFY(
            probeReportMarkdown(r).find("## Did compiling pay for itself?") != std::string::npos);
    }

    void noMeasurementsIsSaid()
    {
        QTemporaryDir tmp;
        writeSession(tmp.path(), { { kNoCompile, "" }, { kEager, "" } });
        const ProbeReport r = reportOf(tmp.path());
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::NoMeasurements);
        QVERIFY2(r.verdict.text.starts_with("no configuration measured anything"),
            r.verdict.text.c_str());
    }

    void manifestCannotLeaveItsFolder()
    {
        QTemporaryDir tmp;
        std::ofstream(tmp.filePath(QString::fromLatin1(kProbeManifestFile)).toStdString())
            << R"({"format": "dynascope-probe-runs", "version": 1, "command": ["x"], "runs": [
                  {"name": "../../etc", "backend": "eager", "dynamic": false, "folder": "../../etc"}]})";
        std::string error;
        QVERIFY(!loadProbeSession(tmp.path().toStdString(), &error));
        QVERIFY2(error.find("not a plain name") != std::string::npos, error.c_str());
        QVERIFY(!loadProbeSession(tmp.filePath(QStringLiteral("nowhere")).toStdString(), &error));
        QVERIFY(!isProbeSessionFolder(tmp.filePath(QStringLiteral("nowhere")).toStdString()));
    }

    void configsFromTheCommandLine()
    {
        std::string error;
        auto c = probeConfigs({ "eager", "aot_eager", "inductor" }, true, &error);
        QVERIFY(c);
        QCOMPARE(c->size(), size_t(5));
        QCOMPARE((*c)[0].label(), std::string("eager, no torch.compile"));
        QCOMPARE((*c)[2].label(), std::string("backend=aot_eager"));
        QCOMPARE((*c)[4].name, std::string("inductor_dynamic"));
        QCOMPARE((*c)[4].label(), std::string("backend=inductor, dynamic=True"));
        QCOMPARE(
            probeConfigs({ "program" }, false, &error)->at(1).label(), std::string("as written"));
        QVERIFY(!probeConfigs({ "../x" }, false, &error));
        QVERIFY(!probeConfigs({ "eager", "eager" }, false, &error));
        QVERIFY(!probeConfigs({}, false, &error));
        QVERIFY(!probeConfigs({ "none" }, false, &error));
    }

    void cliReportsAFolderAgain()
    {
        QTemporaryDir tmp;
        writeSession(tmp.path(),
            { { kNoCompile, eagerTrace() },
                { kInductor,
                    synthTrace({ ok() },
                        { probeDoc("inductor", "inductor",
                            { callable("inductor", 20, 1e6, { 100 }) }) }) } });
        QProcess p;
        p.start(QStringLiteral(DYNASCOPE_CLI),
            { QStringLiteral("probe"), QStringLiteral("--report"), tmp.path(),
                QStringLiteral("--json") });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const json j = json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["rows"].size(), size_t(2));
        p.start(QStringLiteral(DYNASCOPE_CLI),
            { QStringLiteral("probe"), QStringLiteral("--report"),
                tmp.filePath(QStringLiteral("none")) });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        p.start(QStringLiteral(DYNASCOPE_CLI),
            { QStringLiteral("probe"), QStringLiteral("--steps"), QStringLiteral("0"),
                QStringLiteral("python") });
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 1);
    }

    void recordedProbeFolders()
    {
        // Real PyTorch 2.13 runs of tests/probe/programs, recorded with tests/probe/record.sh.
        const QDir recorded(QStringLiteral(DYNASCOPE_PROBE_RECORDED));
        if (!recorded.exists())
            QSKIP("no recorded probe folders in tests/probe/recorded");
        // custom_op_backward: the backward fails under AOTAutograd's fake tensors.
        ProbeReport r = reportOf(recorded.filePath(QStringLiteral("custom_op_backward")));
        QCOMPARE(r.rows.size(), size_t(3));
        QCOMPARE(r.rows[0].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::Failed);
        QCOMPARE(r.rows[2].failingType, std::string("BackendCompilerFailed"));
        QCOMPARE(r.verdict.layer, std::string("aot_autograd"));
        QVERIFY2(r.verdict.text.starts_with("fails with aot_eager but not eager: look at "
                                            "AOTAutograd; first failing compile [0/0] in `step`"),
            r.verdict.text.c_str());
        QVERIFY2(r.verdict.text.find("Cannot access data pointer of Tensor") != std::string::npos,
            r.verdict.text.c_str());
        QCOMPARE(r.rows[1].calls, uint64_t(4));
        QCOMPARE(r.rows[1].callables.at(0).compileIds, std::vector<std::string> { "[0/0]" });
        // perturbed_backend: --check tells the perturbing backend's wrong result from a crash.
        r = reportOf(recorded.filePath(QStringLiteral("perturbed_backend")));
        QVERIFY(r.check);
        QCOMPARE(r.rows[1].outcome, ProbeOutcome::Ok);
        QCOMPARE(r.rows[2].outcome, ProbeOutcome::WrongResult);
        QCOMPARE(r.verdict.layer, std::string("program"));
        QVERIFY2(r.verdict.text.starts_with("gives a wrong result with its own backend "
                                            "`perturbing_backend` but not eager"),
            r.verdict.text.c_str());
        // mlp_steady: after the first call, Inductor's code runs far faster.
        r = reportOf(recorded.filePath(QStringLiteral("mlp_steady")));
        const EvidenceRow& inductor = r.rows.at(1);
        QCOMPARE(inductor.outcome, ProbeOutcome::Ok);
        QVERIFY(inductor.firstCallUs && inductor.steadyUs);
        QVERIFY(*inductor.steadyUs * 10 < *inductor.firstCallUs);
        QCOMPARE(inductor.calls, uint64_t(30));
        QVERIFY(inductor.callables.at(0).payoff);
        QVERIFY(inductor.callables[0].payoff->breakEvenCalls
            || inductor.callables[0].payoff->verdict == PayoffVerdict::Never);
    }
};

QTEST_GUILESS_MAIN(TestProbeReport)
#include "tst_probereport.moc"
