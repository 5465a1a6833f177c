#include "core/report/probe_report.h"

#include "core/util/text_format.h"

#include <algorithm>
#include <filesystem>

namespace dynascope {

const char* toString(ProbeOutcome o)
{
    switch (o) {
    case ProbeOutcome::Ok:
        return "ok";
    case ProbeOutcome::WrongResult:
        return "wrong_result";
    case ProbeOutcome::Failed:
        return "failed";
    case ProbeOutcome::NotRun:
        return "not_run";
    case ProbeOutcome::NoMeasurements:
        break;
    }
    return "no_measurements";
}

namespace {

// The first lines of a reason, joined, at most about `limit` characters.
std::string shortText(std::string_view s, size_t limit = 300)
{
    std::string out;
    size_t pos = 0;
    while (pos < s.size() && out.size() < limit) {
        size_t end = s.find('\n', pos);
        if (end == std::string_view::npos)
            end = s.size();
        std::string_view line = s.substr(pos, end - pos);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
            line.remove_suffix(1);
        if (!line.empty()) {
            if (!out.empty())
                out += ' ';
            out += line;
        }
        pos = end + 1;
    }
    if (out.size() > limit) {
        size_t cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        out = out.substr(0, cut) + "…";
    }
    return out;
}

// Which layer a configuration adds on top of the one before it in the ladder.
// Text in two forms at once: plain (terminal, GUI, JSON) and Markdown, where everything that came
// from a trace or a program is a code span and only Dynascope's own words are bare.
struct Doc {
    std::string plain, md;
    Doc& w(std::string_view s) // Dynascope's own words (and checked plain backend names)
    {
        plain += s;
        md += s;
        return *this;
    }
    Doc& c(std::string_view s) // trace text: as it is in plain text, a code span in Markdown
    {
        plain += s;
        md += text::mdCode(s);
        return *this;
    }
    Doc& q(std::string_view s) // a name: in backticks in plain text too
    {
        plain += "`" + std::string(s) + "`";
        md += text::mdCode(s);
        return *this;
    }
    Doc& add(const Doc& d)
    {
        plain += d.plain;
        md += d.md;
        return *this;
    }
};

// Which layer a configuration adds on top of the one before it in the ladder.
std::string layerOf(const ProbeConfig& c, const std::string& programBackend, Doc& d)
{
    if (c.backend == "eager") {
        d.w("Dynamo (graph capture; backend=eager runs the captured graph as it is)");
        return "dynamo";
    }
    if (c.backend == "aot_eager") {
        d.w("AOTAutograd");
        return "aot_autograd";
    }
    if (c.backend == "inductor") {
        d.w("Inductor");
        return "inductor";
    }
    if (c.backend == "program") {
        d.w("the program's own torch.compile arguments");
        if (!programBackend.empty())
            d.w(" (backend ").q(programBackend).w(")");
        return "program";
    }
    d.w("the backend " + c.backend);
    return "backend";
}

void backendName(const ProbeConfig& c, const std::string& programBackend, Doc& d)
{
    if (c.backend != "program")
        d.w(c.backend);
    else if (programBackend.empty())
        d.w("the program's own settings");
    else
        d.w("its own backend ").q(programBackend);
}

void where(Doc& d, const std::string& function, const std::string& file, int64_t line)
{
    d.q(function);
    if (!file.empty()) {
        std::string at(text::baseName(file));
        if (line > 0)
            at += ":" + std::to_string(line);
        d.w(" (").c(at).w(")");
    }
}

const ProbeRecording* mainRecording(const ProbeRunData& run, std::vector<std::string>& notes)
{
    const auto& recs = run.artifacts.recordings;
    if (recs.empty())
        return nullptr;
    if (recs.size() > 1)
        notes.push_back(std::to_string(recs.size())
            + " processes wrote measurements; the times and memory are the first file's ("
            + std::string(text::baseName(run.trace->files[recs.front().file].path)) + ")");
    return &recs.front();
}

EvidenceRow buildRow(const ProbeRunData& run, const ProbeRecording* eagerRecording)
{
    EvidenceRow row;
    row.config = run.config;
    if (!run.record) {
        row.outcome = ProbeOutcome::NotRun;
        row.outcomeText = "not run";
        return row;
    }
    const run::RunRecord& rec = *run.record;
    row.seconds = rec.seconds;
    if (!rec.spawnError.empty()) {
        row.outcome = ProbeOutcome::Failed;
        row.outcomeText = "failed to start";
        row.exitText = "could not start: " + rec.spawnError;
        return row;
    }
    if (rec.exit)
        row.exitText = rec.exit->describe();
    for (const auto& e : run.loadErrors)
        row.notes.push_back("trace: " + e);
    const Trace* trace = run.trace.get();
    const ProbeRecording* recording = nullptr;
    if (trace) {
        for (const auto& f : trace->files)
            row.traceFiles.push_back(f.path);
        row.compiles = trace->compileCount();
        row.recompiles = trace->recompileCount();
        row.graphBreaks = trace->graphBreakCount();
        row.failures = trace->failureCount();
        for (const auto& d : run.artifacts.diagnostics)
            row.notes.push_back(d.format());
        recording = mainRecording(run, row.notes);
        for (const Compile& c : trace->compiles) {
            if (!c.failure || c.failure->recompileLimit)
                continue;
            const Failure& f = *c.failure;
            row.failingCompile = c.index;
            row.failingId = c.id.display();
            row.failingFunction = c.coName;
            row.failingFile = f.file.empty() ? c.coFilename : f.file;
            row.failingLine = f.file.empty() ? c.coFirstLineno : f.line;
            row.failingType = f.type;
            row.failingReason = f.reason;
            row.failingLayer = f.layer;
            row.failingRanEagerly = f.frameSkipped;
            break;
        }
    }
    if (recording) {
        std::vector<CallablePayoff> payoff;
        if (trace && run.config.backend != "none")
            payoff = compilePayoff(*trace, *recording, eagerRecording);
        bool anySteady = false, anyFirst = false;
        double first = 0, steady = 0;
        for (const ProbeCallable& c : recording->callables) {
            ProbeCallableRow cr;
            cr.callable = c;
            if (trace) {
                cr.compiles = compilesOfCallable(*trace, *recording, c);
                for (uint32_t i : cr.compiles)
                    cr.compileIds.push_back(trace->compiles[i].id.display());
            }
            for (const auto& p : payoff)
                if (p.label == c.label())
                    cr.payoff = p;
            row.calls += c.calls;
            if (c.firstCallUs) {
                first += *c.firstCallUs;
                anyFirst = true;
            }
            if (auto s = c.steadyMedianUs()) {
                steady += *s;
                anySteady = true;
            }
            if (c.error && row.errorType.empty()) {
                row.errorCallable = c.label();
                row.errorType = c.error->type;
                row.errorMessage = c.error->message;
                row.errorCall = c.error->call;
            }
            if (c.check) {
                row.checked = row.checked || c.check->checked > 0;
                if (c.check->mismatches > 0 && row.mismatchMessage.empty()) {
                    row.mismatchCallable = c.label();
                    row.mismatchMessage = c.check->firstMismatch;
                    row.mismatchCall = c.check->firstMismatchCall;
                }
                if (c.check->errors > 0)
                    row.notes.push_back("--check: the eager run of " + c.label() + " raised "
                        + c.check->firstErrorType + " (" + shortText(c.check->firstError, 200)
                        + "); those calls were not compared");
                if (c.check->uncomparable > 0)
                    row.notes.push_back("--check: " + std::to_string(c.check->uncomparable)
                        + " output(s) of " + c.label() + " could not be compared");
            }
            if (!c.droppedOptions.empty())
                row.notes.push_back(c.label()
                    + ": mode=/options= are Inductor's and were left out "
                      "with backend "
                    + c.backend);
            row.callables.push_back(std::move(cr));
        }
        if (anyFirst)
            row.firstCallUs = first;
        if (anySteady)
            row.steadyUs = steady;
        row.peakMib = recording->peakMib();
        row.peakSource = recording->cudaPeakMib ? "cuda" : "rss";
        if (row.errorType.empty() && !recording->exceptionType.empty()) {
            row.errorType = recording->exceptionType;
            row.errorMessage = recording->exceptionMessage;
        }
        if (!recording->complete())
            row.notes.push_back("the process ended before the probe wrote its measurements at exit"
                                " (killed, or it crashed): these are from a snapshot");
    }

    const bool exitFailed = rec.exit && (rec.exit->signaled || rec.exit->code != 0);
    if (row.failingCompile != kNone) {
        row.outcome = ProbeOutcome::Failed;
        row.outcomeText = "failed at " + row.failingId;
        if (row.failingRanEagerly)
            row.outcomeText += " (ran eagerly)";
    } else if (exitFailed) {
        row.outcome = ProbeOutcome::Failed;
        row.outcomeText = "failed";
        if (!row.errorType.empty())
            row.outcomeText += ": " + row.errorType;
        row.outcomeText += rec.exit->signaled ? " (" + run::signalName(rec.exit->signal) + ")"
                                              : " (exit " + std::to_string(rec.exit->code) + ")";
    } else if (!row.errorCallable.empty()) {
        row.outcome = ProbeOutcome::Failed;
        row.outcomeText = "failed: " + row.errorType + " in call "
            + std::to_string(row.errorCall.value_or(0) + 1) + " of " + row.errorCallable;
    } else if (!row.mismatchMessage.empty()) {
        row.outcome = ProbeOutcome::WrongResult;
        row.outcomeText = "wrong result";
    } else if (!recording || recording->callables.empty()) {
        row.outcome = ProbeOutcome::NoMeasurements;
        row.outcomeText = "no measurements";
    } else {
        row.outcome = ProbeOutcome::Ok;
        row.outcomeText = "ok";
    }
    return row;
}

std::string programBackendOf(const ProbeReport& r)
{
    for (const auto& row : r.rows)
        for (const auto& c : row.callables)
            if (!c.callable.requestedBackend.empty())
                return c.callable.requestedBackend;
    return {};
}

Doc failureDetail(const EvidenceRow& row)
{
    Doc d;
    if (row.failingCompile != kNone) {
        d.w("first failing compile ").c(row.failingId).w(" in ");
        where(d, row.failingFunction, row.failingFile, row.failingLine);
        d.w(": ").c((row.failingType.empty() ? std::string() : row.failingType + ": ")
            + shortText(row.failingReason));
        if (row.failingRanEagerly)
            d.w(" (Dynamo ran the frame eagerly instead)");
        return d;
    }
    if (!row.errorType.empty()) {
        if (row.errorCallable.empty())
            d.w("the program ended with ").c(row.errorType);
        else
            d.w("call " + std::to_string(row.errorCall.value_or(0) + 1) + " of ")
                .c(row.errorCallable)
                .w(" raised ")
                .c(row.errorType);
        if (!row.errorMessage.empty())
            d.w(": ").c(shortText(row.errorMessage));
        return d;
    }
    return d.w("the program " + row.exitText);
}

LadderVerdict ladderVerdict(const ProbeReport& r)
{
    LadderVerdict v;
    Doc d;
    auto done = [&] {
        v.text = d.plain;
        v.markdown = d.md;
        return v;
    };
    const std::string programBackend = programBackendOf(r);
    const auto bad = [](const EvidenceRow& row) {
        return row.outcome == ProbeOutcome::Failed || row.outcome == ProbeOutcome::WrongResult;
    };
    const EvidenceRow* eager = nullptr;
    for (const auto& row : r.rows)
        if (row.config.backend == "none")
            eager = &row;
    if (eager && eager->outcome == ProbeOutcome::Failed) {
        v.layer = "eager";
        v.row = static_cast<int>(eager - r.rows.data());
        d.w("fails without torch.compile too (")
            .add(failureDetail(*eager))
            .w("): make the program work in eager first; the compiled runs cannot tell more");
        return done();
    }
    const EvidenceRow* lastGood = nullptr;
    for (const auto& row : r.rows) {
        if (row.config.backend == "none" || row.config.dynamic)
            continue;
        if (!bad(row)) {
            if (row.outcome == ProbeOutcome::Ok)
                lastGood = &row;
            continue;
        }
        Doc layerText;
        v.layer = layerOf(row.config, programBackend, layerText);
        v.row = static_cast<int>(&row - r.rows.data());
        d.w(row.outcome == ProbeOutcome::Failed ? "fails" : "gives a wrong result");
        if (lastGood) {
            d.w(" with ");
            backendName(row.config, programBackend, d);
            d.w(" but not ");
            backendName(lastGood->config, programBackend, d);
            d.w(": look at ").add(layerText);
        } else if (row.config.backend == "eager") {
            d.w(" already with backend=eager, Dynamo alone: look at ").add(layerText);
        } else {
            d.w(" with ");
            backendName(row.config, programBackend, d);
            d.w(", the first backend tried: look at ")
                .add(layerText)
                .w(" (add eager and aot_eager to --backends to narrow it down)");
        }
        if (row.outcome == ProbeOutcome::Failed)
            d.w("; ").add(failureDetail(row));
        else
            d.w("; first mismatch with eager in call "
                 + std::to_string(row.mismatchCall.value_or(0) + 1) + " of ")
                .c(row.mismatchCallable)
                .w(": ")
                .c(shortText(row.mismatchMessage));
        return done();
    }
    // The static ladder holds; does dynamic=True break it?
    for (const auto& row : r.rows) {
        if (!row.config.dynamic || !bad(row))
            continue;
        v.layer = "dynamic_shapes";
        v.row = static_cast<int>(&row - r.rows.data());
        d.w(row.outcome == ProbeOutcome::Failed ? "fails" : "gives a wrong result")
            .w(" with dynamic=True but not with static shapes (backend=" + row.config.backend
                + "): look at dynamic shapes (TORCH_LOGS=dynamic), or mark only the sizes that "
                  "vary (torch._dynamo.mark_dynamic); ");
        if (row.outcome == ProbeOutcome::Failed)
            d.add(failureDetail(row));
        else
            d.w("first mismatch: ").c(shortText(row.mismatchMessage));
        return done();
    }
    bool anyMeasured = false;
    for (const auto& row : r.rows)
        anyMeasured = anyMeasured || row.outcome == ProbeOutcome::Ok;
    if (!anyMeasured) {
        d.w("no configuration measured anything: the program never called torch.compile (or ran "
            "a Python the probe could not hook, such as python -I or -E)");
        return done();
    }
    d.w(r.check ? "every configuration ran and matched eager: no layer fails"
                : "every configuration ran: no layer fails (outputs were not compared with eager: "
                  "add --check)");
    if (lastGood && lastGood->config.backend != "none") {
        const ProbeCallableRow* main = nullptr;
        for (const auto& c : lastGood->callables)
            if (c.payoff && c.payoff->verdict != PayoffVerdict::Unknown
                && (!main || c.callable.totalUs > main->callable.totalUs))
                main = &c;
        if (main) {
            Doc p;
            p.w("with ");
            backendName(lastGood->config, programBackend, p);
            p.w(", ").c(main->payoff->label).w(": " + main->payoff->detail);
            v.payoff = p.plain;
            d.w("; ").add(p);
        }
    }
    return done();
}

} // namespace

ProbeReport buildProbeReport(const ProbeSession& session)
{
    ProbeReport r;
    r.generator = std::string("dynascope ") + DYNASCOPE_VERSION;
    r.folder = session.folder;
    r.command = session.options.command;
    r.check = session.options.check;
    r.steps = session.options.steps;
    const ProbeRecording* eagerRecording = nullptr;
    for (const auto& run : session.runs)
        if (run.config.backend == "none" && !run.artifacts.recordings.empty())
            eagerRecording = &run.artifacts.recordings.front();
    for (const auto& run : session.runs)
        r.rows.push_back(buildRow(run, eagerRecording));
    r.verdict = ladderVerdict(r);
    for (const auto& row : r.rows)
        if (row.outcome == ProbeOutcome::NotRun) {
            r.notes.push_back("the probe was stopped before every configuration ran");
            break;
        }
    return r;
}

} // namespace dynascope
