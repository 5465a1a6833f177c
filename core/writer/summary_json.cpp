#include "core/writer/summary_json.h"

#include "core/util/text_format.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "core/analysis/kernels.h"
#include "core/analysis/torch_version.h"
#include "core/load/runs.h"
#include "core/writer/json_fields.h"

namespace dynascope {

using jsonfields::orNull;
using jsonfields::us;
using nlohmann::ordered_json;

namespace {
// The runs the inputs hold (core/load/runs.h), loaded or not, each with its files (duplicates
// included, with the file they copy).
ordered_json runsJson(const Trace& t)
{
    ordered_json runs = ordered_json::array();
    for (const auto& run : t.runs) {
        ordered_json r;
        r["number"] = run.number;
        r["loaded"] = run.loaded;
        r["start_us"] = us(run.startUs);
        r["end_us"] = us(run.endUs);
        r["ranks"] = run.ranks();
        ordered_json files = ordered_json::array();
        for (const auto& f : run.files) {
            ordered_json o;
            o["path"] = f.path;
            o["rank"] = orNull(f.rank);
            o["bytes"] = f.bytes;
            o["run"] = run.number;
            o["duplicate_of"]
                = f.duplicateOf.empty() ? ordered_json(nullptr) : ordered_json(f.duplicateOf);
            files.push_back(std::move(o));
        }
        r["files"] = std::move(files);
        runs.push_back(std::move(r));
    }
    return runs;
}

ordered_json compileJson(const Trace& t, const Compile& c, const KernelCounts& kernels)
{
    ordered_json j;
    j["index"] = c.index;
    j["id"] = c.id.display();
    j["rank"] = orNull(t.files[c.file].rank);
    j["file"] = c.file;
    j["frame"] = c.frame;
    j["attempts"] = c.attempts.size();
    j["has_dynamo_start"] = c.startRecord != kNone;
    j["status"] = toString(c.status);
    j["co_name"] = c.coName;
    j["co_filename"] = c.coFilename;
    j["co_firstlineno"] = c.coFirstLineno;
    j["start_us"] = us(c.startUs);
    j["duration_us"] = us(c.durationUs());
    j["time_source"] = toString(c.timeSource);
    j["guard_count"] = orNull(c.guardCount);
    j["graph_op_count"] = orNull(c.graphOpCount);
    ordered_json breaks = ordered_json::array();
    for (const auto& gb : c.graphBreaks) {
        ordered_json b;
        b["reason"] = gb.reason;
        b["file"] = gb.file;
        b["line"] = gb.line;
        b["resume_compile"] = gb.resumeCompile == kNone
            ? ordered_json(nullptr)
            : ordered_json(t.compiles[gb.resumeCompile].id.display());
        breaks.push_back(std::move(b));
    }
    j["graph_breaks"] = std::move(breaks);
    ordered_json reasons = ordered_json::array();
    for (const auto& r : c.recompileReasons) {
        ordered_json o;
        o["text"] = r.text;
        o["earlier_compile"] = r.earlierCompile == kNone
            ? ordered_json(nullptr)
            : ordered_json(t.compiles[r.earlierCompile].id.display());
        o["earlier_index"]
            = r.earlierCompile == kNone ? ordered_json(nullptr) : ordered_json(r.earlierCompile);
        o["mismatch"] = r.mismatch;
        o["source"] = r.source;
        o["expected"] = r.expected;
        o["actual"] = r.actual;
        // The tree is parsed from the file when first needed: one that changed since it was
        // loaded gives no nodes (Trace::sourceProblems says so).
        const GuardTree* tree
            = r.earlierCompile == kNone ? nullptr : t.compiles[r.earlierCompile].guards.get();
        if (r.guardNode >= 0 && tree && static_cast<size_t>(r.guardNode) < tree->nodes.size()) {
            const GuardNode& g = tree->nodes[static_cast<size_t>(r.guardNode)];
            o["guard"] = { { "kind", g.kind }, { "expr", g.expr }, { "where", g.where } };
        } else {
            o["guard"] = nullptr;
        }
        reasons.push_back(std::move(o));
    }
    j["recompile_reasons"] = std::move(reasons);
    if (c.failure) {
        j["failure"] = { { "type", c.failure->type }, { "reason", c.failure->reason },
            { "file", c.failure->file }, { "line", c.failure->line } };
    } else {
        j["failure"] = nullptr;
    }
    int hits = 0, misses = 0, bypasses = 0;
    for (const auto& e : c.cacheEvents)
        (e.kind == CacheKind::Hit ? hits : e.kind == CacheKind::Miss ? misses : bypasses)++;
    j["cache"] = { { "hits", hits }, { "misses", misses }, { "bypasses", bypasses } };
    j["kernels"] = jsonfields::kernels(kernels);
    return j;
}
} // namespace

std::string summaryJson(const Trace& t, const SummaryOptions& options)
{
    Trace::PayloadCheck check;
    if (options.verifyPayloads)
        check = options.check ? *options.check : t.verifyPayloads();
    ordered_json root;
    root["format"] = "dynascope-summary";
    root["format_version"] = 1;
    // The release that wrote the trace, and where the trace says it (null: it does not).
    const TorchVersion torch = torchVersionOf(t);
    root["pytorch_version"]
        = torch.version.empty() ? ordered_json(nullptr) : ordered_json(torch.version);
    root["pytorch_version_from"]
        = torch.from.empty() ? ordered_json(nullptr) : ordered_json(torch.from);
    ordered_json files = ordered_json::array();
    for (size_t i = 0; i < t.files.size(); ++i) {
        const TraceFile& f = t.files[i];
        ordered_json o;
        o["path"] = f.path;
        o["format"] = toString(f.format);
        o["rank"] = orNull(f.rank);
        o["bytes"] = f.bytes;
        o["decoded_bytes"] = f.decodedBytes;
        o["compression"]
            = f.compression.empty() ? ordered_json(nullptr) : ordered_json(f.compression);
        o["records"] = f.recordCount;
        o["bad_lines"] = f.badLines;
        o["run"] = f.run ? ordered_json(f.run) : ordered_json(nullptr);
        o["duplicate_of"] = nullptr; // a duplicate is never loaded: see runs[].files
        o["payload_hash_mismatches"] = options.verifyPayloads
            ? ordered_json(check.mismatchesPerFile[i])
            : ordered_json(nullptr);
        files.push_back(std::move(o));
    }
    root["files"] = std::move(files);
    root["runs"] = runsJson(t);
    const TraceKernelCounts kernels = countTraceKernels(t);
    KernelCounts allKernels;
    ordered_json compiles = ordered_json::array();
    for (const auto& c : t.compiles) {
        compiles.push_back(compileJson(t, c, kernels.perCompile[c.index]));
        allKernels.add(kernels.perCompile[c.index]);
    }
    root["compiles"] = std::move(compiles);

    ordered_json totals;
    totals["files"] = t.files.size();
    totals["compiles"] = t.compileCount();
    totals["compiles_without_start"] = t.compiles.size() - t.compileCount();
    totals["recompiles"] = t.recompileCount();
    totals["graph_breaks"] = t.graphBreakCount();
    totals["failures"] = t.failureCount();
    uint64_t records = 0;
    for (const auto& f : t.files)
        records += f.recordCount;
    totals["records"] = records;
    ordered_json perKind = ordered_json::object();
    for (const auto& [k, n] : t.kindCounts)
        perKind[k] = n;
    totals["records_per_kind"] = std::move(perKind);
    totals["kernels"] = jsonfields::kernels(allKernels);
    std::vector<Diagnostic> diags = t.diagnostics;
    diags.insert(diags.end(), check.diagnostics.begin(), check.diagnostics.end());
    diags.insert(diags.end(), kernels.diagnostics.begin(), kernels.diagnostics.end());
    totals["diagnostics"] = diags.size();
    root["totals"] = std::move(totals);

    root["diagnostics"] = jsonfields::diagnostics(diags);
    return root.dump(options.indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string summaryText(const Trace& t, const SummaryOptions& options)
{
    Trace::PayloadCheck check;
    if (options.verifyPayloads)
        check = options.check ? *options.check : t.verifyPayloads();
    std::ostringstream out;
    for (size_t i = 0; i < t.files.size(); ++i) {
        const TraceFile& f = t.files[i];
        out << f.path << ": " << (f.rank ? "rank " + std::to_string(*f.rank) + ", " : "") << f.bytes
            << " bytes, " << f.recordCount << " records, " << f.badLines << " bad lines";
        if (options.verifyPayloads)
            out << ", " << check.mismatchesPerFile[i] << " payload hash mismatches";
        out << "\n";
    }
    const TorchVersion torch = torchVersionOf(t);
    out << "PyTorch "
        << (torch.version.empty() ? std::string("release: not in the trace")
                                  : torch.version + " (from the " + torch.from + ")")
        << "\n";
    if (t.runs.size() > 1) {
        out << "\n";
        for (const auto& run : t.runs)
            out << describeRun(run) << (run.loaded ? ", loaded" : ", not loaded") << "\n";
    }
    out << "\n";
    const TraceKernelCounts kernels = countTraceKernels(t);
    KernelCounts allKernels;
    for (const auto& c : t.compiles) {
        out << c.id.display() << "  " << toString(c.status) << "  " << c.coName << "  "
            << text::codePlace(c.coFilename, c.coFirstLineno) << "  " << us(c.durationUs())
            << " us\n";
        for (const auto& gb : c.graphBreaks)
            out << "    graph break: " << gb.reason.substr(0, gb.reason.find('\n')) << " ("
                << gb.file << ":" << gb.line << ")\n";
        for (const auto& r : c.recompileReasons)
            out << "    recompile: " << r.text.substr(0, r.text.find('\n')) << "\n";
        if (c.failure)
            out << "    failure: " << c.failure->type << ": "
                << c.failure->reason.substr(0, c.failure->reason.find('\n')) << "\n";
        const KernelCounts& k = kernels.perCompile[c.index];
        allKernels.add(k);
        if (k.any())
            out << "    kernels: " << describeKernelCounts(k)
                << (k.compileTimeUs ? "; " + text::duration(double(k.compileTimeUs)) + " compiling"
                                    : std::string())
                << "\n";
    }
    out << "\ncompiles " << t.compileCount() << ", recompiles " << t.recompileCount()
        << ", graph breaks " << t.graphBreakCount() << ", failures " << t.failureCount()
        << ", kernels " << allKernels.generated << " (+" << allKernels.externCalls << " extern)"
        << ", diagnostics "
        << t.diagnostics.size() + check.diagnostics.size() + kernels.diagnostics.size() << "\n";
    return out.str();
}

} // namespace dynascope
