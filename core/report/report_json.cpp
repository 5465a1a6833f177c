// The report as JSON (schema in docs/cli.md, "Report JSON"). Field order is fixed (ordered_json)
// and times are integer microseconds, so the document is stable for scripts and diffs.
#include "core/report/report_render.h"

#include "core/report/findings_json.h"

#include <nlohmann/json.hpp>

#include "core/writer/json_fields.h"

namespace dynascope {

using jsonfields::orNull;
using jsonfields::us;
using nlohmann::ordered_json;

namespace {
ordered_json refJson(const CompileRef& r)
{
    return { { "index", r.index }, { "id", r.id }, { "rank", orNull(r.rank) },
        { "status", toString(r.status) }, { "recompile", r.recompile } };
}

ordered_json refsJson(const std::vector<CompileRef>& refs)
{
    ordered_json a = ordered_json::array();
    for (const auto& r : refs)
        a.push_back(refJson(r));
    return a;
}

ordered_json evidenceJson(const Evidence& e)
{
    ordered_json j;
    j["compiles"] = e.compiles;
    j["compiles_without_start"] = e.compilesWithoutStart;
    j["recompiles"] = e.recompiles;
    j["graph_breaks"] = e.graphBreaks;
    j["failures"] = e.failures;
    j["total_compile_us"] = us(e.totalCompileUs);
    if (e.firstCompile) {
        j["first_compile"] = { { "compile", refJson(*e.firstCompile) },
            { "duration_us", us(e.firstCompileUs) }, { "start_us", us(e.firstCompileStartUs) } };
    } else {
        j["first_compile"] = nullptr;
    }
    auto rate = e.cache.hitRate();
    j["cache"] = { { "hits", e.cache.hits }, { "misses", e.cache.misses },
        { "bypasses", e.cache.bypasses }, { "hit_rate", orNull(rate) } };
    ordered_json phases = ordered_json::object();
    for (size_t i = 0; i < kPhaseGroupCount; ++i)
        phases[phaseGroupId(static_cast<PhaseGroup>(i))] = us(e.phases[i]);
    j["phases_us"] = std::move(phases);
    j["kernels"] = jsonfields::kernels(e.kernels);
    return j;
}
} // namespace

std::string reportJson(const Report& rep)
{
    ordered_json root;
    root["format"] = "dynascope-report";
    root["format_version"] = 1;
    root["generator"] = rep.generator;
    ordered_json findings = ordered_json::array();
    for (const auto& rf : rep.findings)
        findings.push_back(findingJson(rf.finding, refsJson(rf.compiles),
            rf.finding.frameLabel.empty() ? ordered_json(nullptr)
                                          : ordered_json({ { "label", rf.finding.frameLabel } })));
    root["findings"] = std::move(findings);
    ordered_json groups = ordered_json::array();
    for (size_t i = 0; i < kPhaseGroupCount; ++i)
        groups.push_back({ { "id", phaseGroupId(static_cast<PhaseGroup>(i)) },
            { "label", phaseGroupLabel(static_cast<PhaseGroup>(i)) } });
    root["phase_groups"] = std::move(groups);
    root["payloads_verified"] = rep.payloadsVerified;
    root["evidence"] = evidenceJson(rep.total);

    ordered_json files = ordered_json::array();
    for (const auto& f : rep.files) {
        ordered_json o;
        o["index"] = f.index;
        o["path"] = f.path;
        o["rank"] = orNull(f.rank);
        o["records"] = f.records;
        o["bad_lines"] = f.badLines;
        o["payload_hash_mismatches"] = orNull(f.payloadHashMismatches);
        o["diagnostics"] = f.diagnostics;
        o["evidence"] = evidenceJson(f.evidence);
        files.push_back(std::move(o));
    }
    root["files"] = std::move(files);

    ordered_json frames = ordered_json::array();
    for (const auto& f : rep.frames) {
        ordered_json o;
        o["frame"] = f.frame;
        o["file"] = f.file;
        o["rank"] = orNull(f.rank);
        o["function"] = f.function;
        o["filename"] = f.filename;
        o["line"] = f.line;
        if (f.callerFile.empty())
            o["caller"] = nullptr;
        else
            o["caller"] = { { "file", f.callerFile }, { "line", f.callerLine },
                { "function", f.callerFunction }, { "code", f.callerCode } };
        o["guard_count"] = orNull(f.guardCount);
        o["evidence"] = evidenceJson(f.evidence);
        o["compiles"] = refsJson(f.compiles);
        frames.push_back(std::move(o));
    }
    root["frames"] = std::move(frames);

    ordered_json breaks = ordered_json::array();
    for (const auto& g : rep.graphBreaks) {
        ordered_json o;
        o["reason"] = g.reason;
        o["file"] = g.file;
        o["line"] = g.line;
        o["count"] = g.count;
        o["function"] = g.function;
        o["compiles"] = refsJson(g.compiles);
        o["resume_compiles"] = refsJson(g.resumes);
        o["traceback"] = g.traceback;
        breaks.push_back(std::move(o));
    }
    root["graph_breaks"] = std::move(breaks);

    ordered_json recompiles = ordered_json::array();
    for (const auto& g : rep.recompiles) {
        ordered_json o;
        o["guard_kind"] = g.guardKind;
        o["mismatch"] = g.mismatch;
        o["source"] = g.source;
        o["function"] = g.function;
        o["filename"] = g.filename;
        o["line"] = g.line;
        o["guard_expr"] = g.guardExpr;
        o["guard_where"] = g.guardWhere;
        o["count"] = g.count;
        o["values"] = g.chains.empty() ? ordered_json::array() : ordered_json(g.chains[0].values);
        ordered_json chains = ordered_json::array();
        for (const auto& c : g.chains)
            chains.push_back(
                { { "file", c.file }, { "rank", orNull(c.rank) }, { "values", c.values } });
        o["value_chains"] = std::move(chains);
        ordered_json steps = ordered_json::array();
        for (const auto& s : g.steps) {
            steps.push_back({ { "compile", refJson(s.compile) },
                { "earlier", s.earlier ? refJson(*s.earlier) : ordered_json(nullptr) },
                { "reason", s.text }, { "expected", s.expected }, { "actual", s.actual },
                { "other_reasons", s.otherReasons } });
        }
        o["steps"] = std::move(steps);
        recompiles.push_back(std::move(o));
    }
    root["recompiles"] = std::move(recompiles);

    ordered_json failures = ordered_json::array();
    for (const auto& f : rep.failures) {
        ordered_json o;
        o["compile"] = refJson(f.compile);
        o["function"] = f.function;
        o["filename"] = f.filename;
        o["function_line"] = f.functionLine;
        o["type"] = f.type;
        o["reason"] = f.reason;
        o["file"] = f.file;
        o["line"] = f.line;
        o["traceback"] = f.traceback;
        failures.push_back(std::move(o));
    }
    root["failures"] = std::move(failures);

    root["diagnostics"] = jsonfields::diagnostics(rep.diagnostics);
    return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<ReportFormat> parseReportFormat(std::string_view name)
{
    if (name == "md" || name == "markdown")
        return ReportFormat::Markdown;
    if (name == "html")
        return ReportFormat::Html;
    if (name == "json")
        return ReportFormat::Json;
    return std::nullopt;
}

std::string renderReport(const Report& report, ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return reportHtml(report);
    case ReportFormat::Json:
        return reportJson(report);
    case ReportFormat::Markdown:
        break;
    }
    return reportMarkdown(report);
}

} // namespace dynascope
