// Findings: what is wrong in a trace, ranked by cost, each with its evidence and the next step.
// The compiler-debugging ladder, walked on the trace: graph breaks, recompilations and the
// guards that failed, dynamic shapes only where shapes really vary, which compiler layer failed
// (backend "eager", then "aot_eager", then the default), and what compiling cost against the
// traced run. Facts come from the why-chain pieces (why_chain.h); every sentence is made here,
// in Dynascope's words, with PyTorch's own GB code, explanation and hints kept beside them.
//
// Rules (finding_rule.h holds them as data; docs/findings.md documents each):
//   recompile-shape, recompile-guard, recompile-limit, dynamic-still-recompiles,
//   graph-break, graph-break-skipped-frame, graph-break-io, data-dependent,
//   failure, fullgraph-error,
//   cold-start, cache-miss, empty-graph, small-graphs, guard-cost,
//   wrong-result, compile-payoff (from dynascope-cli probe's artifact, when the trace has one),
//   and, when the trace holds two ranks or more, how the ranks diverge: rank-only-compiles,
//   rank-recompiles, rank-graph-breaks, rank-failures, rank-cache, straggler.
// A clean trace (compiles once, no break, no failure) gives notes at most, never a warning.
//
// Cost: linear in the trace (one pass over the compiles; a guard tree parsed only for a
// recompile's earlier compile, once; ranks grouped with hash maps, never compared pairwise).
#pragma once

#include "core/analysis/finding_rule.h"
#include "core/model/trace.h"
#include "core/util/rank_sets.h"

#include <cstdint>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace dynascope {

struct Finding {
    Rule rule = Rule::GraphBreak;
    FindingSeverity severity = FindingSeverity::Note;
    // One line in plain words: "`scale` (train.py:25) compiled 5 times because the size of `x`
    // dimension 0 changed: 32 → 64 → 128 → 256 → 512".
    std::string title;
    std::vector<uint32_t> compiles; // Trace::compiles indices, in trace order
    uint32_t frame = kNone; // Trace::frames index ("" frame when several or none)
    std::string frameLabel; // "scale (train.py:25)"
    // The evidence: labelled facts in order ("values", "32 → 64 → 128"), ("compiles", ...).
    std::vector<std::pair<std::string, std::string>> evidence;
    std::string why; // why it matters: what it cost, how often, which step of the ladder
    std::string ladderStep; // "graph breaks", "recompilations", "failed guards", ...
    std::string hint; // the next step, in words
    std::string code; // code for it when there is some: "torch._dynamo.mark_dynamic(x, 0)"
    // PyTorch's own words when the trace has them.
    std::string gbCode; // "gb0124"
    std::string explanation;
    std::vector<std::string> pytorchHints;
    std::string userFile; // the user line the finding is about ("" when none)
    int64_t userLine = 0;
    double costUs = 0; // compile time attributable to the finding
    uint64_t count = 0; // occurrences (recompiles, breaks, compiles)
    // The ranks a finding about one rank's frame is about, when the trace holds several ranks:
    // one, or several once the same finding on several ranks was merged into one ("on ranks
    // 0-255"). Empty for a single-rank trace and for the rules that compare ranks.
    std::vector<int64_t> ranks;
    // Rank findings: the trace files of the ranks it singles out (the straggler, the ranks that
    // recompiled, broke or failed where the others did not), for markers on their rows.
    std::vector<uint32_t> files;
};

// Every finding of the trace, ranked: errors first, then by attributable compile time, then by
// count (ties keep rule order). Stops early (returning what it has) when `stop` is requested.
std::vector<Finding> findFindings(const Trace& trace, std::stop_token stop = {});

// Counts by severity, for status bars and summaries: { errors, warnings, notes }.
struct FindingCounts {
    size_t errors = 0, warnings = 0, notes = 0;
};
FindingCounts countFindings(const std::vector<Finding>& findings);

// "[0/1]", with " (rank N)" when the trace has several ranks: how findings name compiles.
std::string findingCompileLabel(const Trace& trace, uint32_t compile);

} // namespace dynascope
