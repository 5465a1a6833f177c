// Markdown and JSON of the probe report (probe_report.h). Every string from a trace or a program
// sits in a Markdown code span or fenced block, or goes through mdText.
#include "core/report/probe_report.h"
#include "core/util/text_format.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <sstream>

namespace dynascope {

namespace {

using nlohmann::ordered_json;

std::string dur(const std::optional<double>& us)
{
    return us ? text::duration(*us) : "—";
}

std::string mib(const std::optional<double>& m)
{
    if (!m)
        return "—";
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(*m < 10 ? 1 : 0);
    s << *m;
    return s.str();
}

std::string counted(uint64_t n, const std::string& what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string relative(const std::string& path, const std::string& folder)
{
    std::error_code ec;
    auto rel = std::filesystem::relative(path, folder, ec);
    if (ec || rel.empty() || rel.string().starts_with(".."))
        return path;
    return rel.string();
}

std::string checkText(const ProbeCallable& c)
{
    if (!c.check)
        return "—";
    const ProbeCheck& k = *c.check;
    std::string s
        = std::to_string(k.checked - k.mismatches) + "/" + std::to_string(k.checked) + " match";
    if (k.mismatches)
        s += ", " + std::to_string(k.mismatches) + " differ";
    if (k.errors)
        s += ", " + std::to_string(k.errors) + " eager errors";
    if (k.uncomparable)
        s += ", " + std::to_string(k.uncomparable) + " not comparable";
    return s;
}

ordered_json optNumber(const std::optional<double>& v)
{
    return v ? ordered_json(std::llround(*v)) : ordered_json(nullptr);
}

ordered_json optMib(const std::optional<double>& v)
{
    return v ? ordered_json(std::round(*v * 10) / 10) : ordered_json(nullptr);
}

ordered_json optText(const std::string& s)
{
    return s.empty() ? ordered_json(nullptr) : ordered_json(s);
}

ordered_json callableJson(const ProbeCallableRow& cr)
{
    const ProbeCallable& c = cr.callable;
    ordered_json j;
    j["label"] = c.label();
    j["name"] = c.name;
    j["qualname"] = c.qualname;
    j["file"] = c.file;
    j["line"] = c.line;
    j["kind"] = c.kind;
    j["requested_backend"] = c.requestedBackend;
    j["backend"] = c.backend;
    j["calls"] = c.calls;
    j["total_us"] = std::llround(c.totalUs);
    j["first_call_us"] = optNumber(c.firstCallUs);
    j["steady_us"] = optNumber(c.steadyMedianUs());
    ordered_json samples = ordered_json::array();
    for (double d : c.steadyUs)
        samples.push_back(std::llround(d));
    j["steady_samples_us"] = samples;
    j["eager_us"] = optNumber(c.eagerMedianUs());
    if (c.check) {
        ordered_json k;
        k["checked"] = c.check->checked;
        k["mismatches"] = c.check->mismatches;
        k["errors"] = c.check->errors;
        k["uncomparable"] = c.check->uncomparable;
        k["first_mismatch"] = optText(c.check->firstMismatch);
        j["check"] = k;
    } else {
        j["check"] = nullptr;
    }
    ordered_json compiles = ordered_json::array();
    for (size_t i = 0; i < cr.compiles.size() && i < cr.compileIds.size(); ++i)
        compiles.push_back({ { "index", cr.compiles[i] }, { "id", cr.compileIds[i] } });
    j["compiles"] = compiles;
    if (cr.payoff) {
        const CallablePayoff& p = *cr.payoff;
        ordered_json po;
        po["verdict"] = toString(p.verdict);
        po["compile_us"] = std::llround(p.compileUs);
        po["overhead_us"] = std::llround(p.overheadUs);
        po["compiled_us"] = optNumber(p.compiledUs);
        po["eager_us"] = optNumber(p.eagerUs);
        po["eager_source"] = optText(p.eagerSource);
        po["gain_us"] = p.gainUs ? ordered_json(std::llround(*p.gainUs)) : ordered_json(nullptr);
        po["break_even_calls"]
            = p.breakEvenCalls ? ordered_json(*p.breakEvenCalls) : ordered_json(nullptr);
        po["text"] = p.text;
        j["payoff"] = po;
    } else {
        j["payoff"] = nullptr;
    }
    return j;
}

} // namespace

std::string probeReportMarkdown(const ProbeReport& r)
{
    std::ostringstream md;
    md << "# Probe of " << text::mdCode(run::joinCommandLine(r.command)) << "\n\n";
    md << "**Verdict:** " << r.verdict.markdown << "\n\n";
    md << "| Configuration | First call | Steady state per call | Recompiles | Graph breaks | Peak "
          "MiB | Outcome |\n";
    md << "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
    for (const auto& row : r.rows) {
        const bool ran = row.outcome != ProbeOutcome::NotRun;
        md << "| " << row.config.label() << " | " << dur(row.firstCallUs) << " | "
           << dur(row.steadyUs) << " | " << (ran ? std::to_string(row.recompiles) : "—") << " | "
           << (ran ? std::to_string(row.graphBreaks) : "—") << " | " << mib(row.peakMib) << " | "
           << text::mdCode(row.outcomeText, true) << " |\n";
    }
    std::string peak = "peak RSS of the process";
    for (const auto& row : r.rows)
        if (row.peakSource == "cuda")
            peak = "CUDA allocator peak where the run used CUDA, else peak RSS";
    md << "\nFirst call: the first call of each compiled callable (compiling included), summed. "
          "Steady state: the median of calls 2 to "
       << (r.steps + 1) << " of each that did not compile again, summed. Peak MiB: " << peak
       << ". Outputs "
       << (r.check ? "compared with eager (--check)" : "not compared with eager (add --check)")
       << ".\n";

    // Payoff of the runs that went well; callables without a steady state or an eager time to
    // weigh against are left out (their tables say so).
    bool anyCompiled = false, anyPayoff = false;
    for (const auto& row : r.rows)
        for (const auto& c : row.callables)
            if (c.payoff && row.outcome == ProbeOutcome::Ok) {
                anyCompiled = true;
                anyPayoff = anyPayoff || c.payoff->verdict != PayoffVerdict::Unknown;
            }
    if (anyCompiled) {
        md << "\n## Did compiling pay for itself?\n\n";
        if (!anyPayoff)
            md << "Nothing to weigh: no compiled callable made a steady-state call with an eager "
                  "time to compare (call it more than once, or let the eager run do so).\n";
        for (const auto& row : r.rows)
            for (const auto& c : row.callables)
                if (c.payoff && row.outcome == ProbeOutcome::Ok
                    && c.payoff->verdict != PayoffVerdict::Unknown)
                    md << "- " << row.config.label() << ": " << text::mdCode(c.payoff->label)
                       << ": " << c.payoff->detail << "\n";
    }

    md << "\n## Runs\n";
    for (const auto& row : r.rows) {
        md << "\n### " << row.config.label() << ": " << text::mdCode(row.outcomeText) << "\n\n";
        if (row.outcome == ProbeOutcome::NotRun) {
            md << "Not run.\n";
            continue;
        }
        md << "- The program " << row.exitText << " after " << text::duration(row.seconds * 1e6)
           << ".\n";
        if (row.traceFiles.empty())
            md << "- No trace.\n";
        for (const auto& f : row.traceFiles)
            md << "- Trace: " << text::mdCode(relative(f, r.folder)) << "\n";
        md << "- " << counted(row.compiles, "compile") << ", "
           << counted(row.recompiles, "recompile") << ", "
           << counted(row.graphBreaks, "graph break") << ", " << counted(row.failures, "failure")
           << ".\n";
        if (row.failingCompile != kNone) {
            md << "- First failing compile " << text::mdCode(row.failingId) << " in "
               << text::mdCode(row.failingFunction);
            if (!row.failingFile.empty())
                md << " ("
                   << text::mdCode(std::string(text::baseName(row.failingFile)) + ":"
                          + std::to_string(row.failingLine))
                   << ")";
            if (!row.failingLayer.empty())
                md << ", layer " << text::mdCode(row.failingLayer);
            md << ":\n\n"
               << text::mdFence(text::headLines(row.failingType + ": " + row.failingReason, 12));
        }
        if (!row.errorType.empty())
            md << "- "
               << (row.errorCallable.empty()
                          ? std::string("The program ended with ")
                          : "Call " + std::to_string(row.errorCall.value_or(0) + 1) + " of "
                              + text::mdCode(row.errorCallable) + " raised ")
               << text::mdCode(row.errorType) << ":\n\n"
               << text::mdFence(text::headLines(row.errorMessage, 12));
        if (!row.mismatchMessage.empty())
            md << "- First mismatch with eager, call " << (row.mismatchCall.value_or(0) + 1)
               << " of " << text::mdCode(row.mismatchCallable) << ":\n\n"
               << text::mdFence(text::headLines(row.mismatchMessage, 12));
        for (const auto& n : row.notes)
            md << "- " << text::mdText(n) << "\n";
        if (!row.callables.empty()) {
            md << "\n| Callable | Backend | Calls | First call | Steady state per call | Eager "
                  "per call | Check |\n";
            md << "| --- | --- | ---: | ---: | ---: | ---: | --- |\n";
            for (const auto& cr : row.callables) {
                const ProbeCallable& c = cr.callable;
                md << "| " << text::mdCode(c.label(), true) << " | "
                   << text::mdCode(c.backend, true) << " | " << c.calls << " | "
                   << dur(c.firstCallUs) << " | " << dur(c.steadyMedianUs()) << " | "
                   << dur(c.eagerMedianUs()) << " | " << checkText(c) << " |\n";
            }
        }
    }
    for (const auto& n : r.notes)
        md << "\n" << text::mdText(n) << "\n";
    return md.str();
}

std::string probeReportJson(const ProbeReport& r)
{
    ordered_json root;
    root["format"] = "dynascope-probe-report";
    root["format_version"] = 1;
    root["generator"] = r.generator;
    root["folder"] = r.folder;
    root["command"] = r.command;
    root["check"] = r.check;
    root["steps"] = r.steps;
    ordered_json verdict;
    verdict["text"] = r.verdict.text;
    verdict["layer"] = optText(r.verdict.layer);
    verdict["configuration"] = r.verdict.row >= 0
        ? ordered_json(r.rows[static_cast<size_t>(r.verdict.row)].config.name)
        : ordered_json(nullptr);
    verdict["payoff"] = optText(r.verdict.payoff);
    root["verdict"] = verdict;
    ordered_json rows = ordered_json::array();
    for (const auto& row : r.rows) {
        ordered_json j;
        j["configuration"] = row.config.name;
        j["label"] = row.config.label();
        j["backend"] = row.config.backend;
        j["dynamic"] = row.config.dynamic;
        j["outcome"] = toString(row.outcome);
        j["outcome_text"] = row.outcomeText;
        j["first_call_us"] = optNumber(row.firstCallUs);
        j["steady_us"] = optNumber(row.steadyUs);
        j["calls"] = row.calls;
        j["compiles"] = row.compiles;
        j["recompiles"] = row.recompiles;
        j["graph_breaks"] = row.graphBreaks;
        j["failures"] = row.failures;
        j["peak_mib"] = optMib(row.peakMib);
        j["peak_source"] = optText(row.peakMib ? row.peakSource : std::string());
        j["seconds"] = std::round(row.seconds * 1000) / 1000;
        j["exit"] = optText(row.exitText);
        ordered_json files = ordered_json::array();
        for (const auto& f : row.traceFiles)
            files.push_back(f);
        j["trace_files"] = files;
        if (row.failingCompile != kNone) {
            ordered_json f;
            f["compile"] = { { "index", row.failingCompile }, { "id", row.failingId } };
            f["function"] = row.failingFunction;
            f["file"] = row.failingFile;
            f["line"] = row.failingLine;
            f["type"] = row.failingType;
            f["reason"] = row.failingReason;
            f["layer"] = optText(row.failingLayer);
            f["ran_eagerly"] = row.failingRanEagerly;
            j["failure"] = f;
        } else {
            j["failure"] = nullptr;
        }
        if (!row.errorType.empty()) {
            ordered_json e;
            e["callable"] = optText(row.errorCallable);
            e["call"] = row.errorCall ? ordered_json(*row.errorCall) : ordered_json(nullptr);
            e["type"] = row.errorType;
            e["message"] = row.errorMessage;
            j["error"] = e;
        } else {
            j["error"] = nullptr;
        }
        if (!row.mismatchMessage.empty()) {
            ordered_json m;
            m["callable"] = row.mismatchCallable;
            m["call"] = row.mismatchCall ? ordered_json(*row.mismatchCall) : ordered_json(nullptr);
            m["message"] = row.mismatchMessage;
            j["mismatch"] = m;
        } else {
            j["mismatch"] = nullptr;
        }
        ordered_json callables = ordered_json::array();
        for (const auto& cr : row.callables)
            callables.push_back(callableJson(cr));
        j["callables"] = callables;
        j["notes"] = row.notes;
        rows.push_back(j);
    }
    root["rows"] = rows;
    root["notes"] = r.notes;
    return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace dynascope
