// The compile report: what a maintainer wants first from a trace attached to a bug report. Built
// once from a Trace into plain data (self-contained: renderers never need the Trace), then
// rendered as Markdown, standalone HTML or JSON (report_render.h).
//
// Counting rules are the summary's (core/model/trace.h), so the report and `summary --json` always
// agree: compiles are dynamo_start records, recompiles compiles with frame_compile_id > 0, graph
// breaks per compile the graph-break artifacts else restart_reasons, failures non-empty fail_type.
// Grouping rules (documented in docs/cli.md, "The compile report"):
//  - graph breaks are deduplicated by (reason, user file, user line);
//  - recompiles are grouped by their primary reason (the one against the newest earlier cache
//    entry) into (guard kind, mismatch, guarded source, frame's function file:line), with the
//    values that changed in compile order (expected of the first, then each actual);
//  - time by phase is exclusive time per compiler layer (phase_groups.h).
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/kernels.h"
#include "core/model/phase_groups.h"
#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

struct ReportOptions {
    // Payload hash mismatches become diagnostics (Trace::verifyPayloads: what the load found,
    // or every payload read again).
    bool verifyPayloads = true;
    const Trace::PayloadCheck* check = nullptr; // a check already made (else made here)
};

struct CacheCounts {
    uint64_t hits = 0, misses = 0, bypasses = 0;
    // hits / (hits + misses); bypasses are neither. nullopt when nothing was looked up.
    std::optional<double> hitRate() const;
};

// A compile as the report names it.
struct CompileRef {
    uint32_t index = kNone; // Trace::compiles index (the identity: ids repeat after a reset)
    std::string id; // "[0/1]"
    std::optional<int64_t> rank;
    CompileStatus status = CompileStatus::Missing;
    bool recompile = false; // frame_compile_id > 0
};

// The numbers of the evidence table, for a whole trace, one file or one frame.
struct Evidence {
    uint64_t compiles = 0; // with a dynamo_start
    uint64_t compilesWithoutStart = 0;
    uint64_t recompiles = 0;
    uint64_t graphBreaks = 0;
    uint64_t failures = 0;
    double totalCompileUs = 0; // sum of compile durations
    std::optional<CompileRef> firstCompile; // earliest timed compile (else the first one)
    double firstCompileUs = 0; // its duration
    double firstCompileStartUs = 0; // its start, epoch microseconds (0 = unknown)
    CacheCounts cache;
    PhaseTimes phases {};
    KernelCounts kernels; // the kernels Inductor generated (core/analysis/kernels.h)
};

struct FileEntry {
    uint32_t index = 0;
    std::string path;
    std::optional<int64_t> rank;
    uint64_t records = 0;
    uint64_t badLines = 0;
    std::optional<uint64_t> payloadHashMismatches; // nullopt: not verified
    uint64_t diagnostics = 0;
    Evidence evidence;
};

struct FrameEntry {
    uint32_t frame = 0; // Trace::frames index
    uint32_t file = 0;
    std::optional<int64_t> rank;
    std::string function;
    std::string filename;
    int64_t line = 0;
    // The caller of the first compile (dynamo_start stack), empty when not logged.
    std::string callerFile;
    int64_t callerLine = 0;
    std::string callerFunction;
    std::string callerCode; // source text of the call when logged
    Evidence evidence;
    std::optional<int64_t> guardCount; // of the latest compile that logged one
    std::vector<CompileRef> compiles;
};

struct GraphBreakGroup {
    std::string reason;
    std::string file;
    int64_t line = 0;
    uint64_t count = 0; // occurrences
    std::string function; // compiled function of the first occurrence
    std::vector<CompileRef> compiles; // distinct, in order
    std::vector<CompileRef> resumes; // the resume frames' first compiles, distinct
    std::string traceback; // user code traceback of the first occurrence
};

struct RecompileStep {
    CompileRef compile;
    std::optional<CompileRef> earlier;
    std::string text; // the primary reason as logged
    std::string detail; // the reason without its "<earlier id>: " prefix
    std::string expected, actual;
    uint64_t otherReasons = 0; // reasons against older cache entries
};

struct ValueChain {
    uint32_t file = 0;
    std::optional<int64_t> rank;
    std::vector<std::string> values; // e.g. 32, 64, 128, 256, 512
};

struct RecompileGroup {
    std::string guardKind; // "TENSOR_MATCH" when the guard was found, else ""
    std::string mismatch; // "size", "dtype", ..., "unknown" (no reason logged)
    std::string source; // "L['x']"
    std::string function, filename;
    int64_t line = 0;
    std::string guardExpr; // the matched guard in the first step's earlier compile
    std::string guardWhere;
    uint64_t count = 0; // recompiles in this group
    std::vector<RecompileStep> steps; // compile order
    std::vector<ValueChain> chains; // per file; empty when no values were logged
};

struct FailureEntry {
    CompileRef compile;
    std::string function, filename;
    int64_t functionLine = 0;
    std::string type, reason, file;
    int64_t line = 0;
    std::string traceback;
};

// A finding (core/analysis/findings.h) with its compiles as the report names them.
struct ReportFinding {
    Finding finding;
    std::vector<CompileRef> compiles;
};

struct Report {
    std::string generator; // "dynascope 0.1.0"
    std::vector<ReportFinding> findings; // ranked: what the report says first
    std::vector<FileEntry> files;
    Evidence total;
    std::vector<FrameEntry> frames;
    std::vector<GraphBreakGroup> graphBreaks;
    std::vector<RecompileGroup> recompiles;
    std::vector<FailureEntry> failures;
    std::vector<Diagnostic> diagnostics; // the loader's plus payload hash mismatches
    bool payloadsVerified = true;
};

// `findings` are the trace's (findFindings), computed once by the caller.
Report buildReport(
    const Trace& trace, const std::vector<Finding>& findings, const ReportOptions& options = {});

// The frames, most total compile time first (ties keep trace order): how the Markdown and HTML
// reports list them. Report::frames itself stays in trace order.
std::vector<const FrameEntry*> framesByCompileTime(const Report& report);

// The common folder of the report's files when there are several in one folder ("" otherwise):
// headers name the folder once instead of every path.
std::string commonFolder(const Report& report);

// "[0/1]" plus " (rank N)" when the trace has several ranks.
std::string compileLabel(const CompileRef& c, bool withRank);

} // namespace dynascope
