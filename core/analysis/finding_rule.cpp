#include "core/analysis/finding_rule.h"

#include <array>

namespace dynascope {

namespace {
using S = FindingSeverity;
constexpr std::string_view kRecompiles = "recompilations";
constexpr std::string_view kGuards = "recompilations: which guard failed";
constexpr std::string_view kBreaks = "graph breaks";
constexpr std::string_view kLayer = "which compiler layer fails";
constexpr std::string_view kFirstCall = "first call against steady state";
constexpr std::string_view kRanks = "ranks in step";

constexpr std::array<RuleInfo, 27> kRules { {
    { Rule::RecompileShape, "recompile-shape", S::Warning, kGuards, false, "" },
    { Rule::RecompileGuard, "recompile-guard", S::Warning, kGuards, false, "" },
    { Rule::RecompileLimit, "recompile-limit", S::Warning, kRecompiles, false, "" },
    { Rule::DynamicStillRecompiles, "dynamic-still-recompiles", S::Warning, kGuards, false, "" },
    { Rule::GraphBreak, "graph-break", S::Warning, kBreaks, false, "" },
    { Rule::GraphBreakSkippedFrame, "graph-break-skipped-frame", S::Warning, kBreaks, false, "" },
    { Rule::GraphBreakIo, "graph-break-io", S::Warning, kBreaks, false, "" },
    { Rule::DataDependent, "data-dependent", S::Warning, kBreaks, false, "" },
    { Rule::Failure, "failure", S::Error, kLayer, false, "" },
    { Rule::FullgraphError, "fullgraph-error", S::Error, kLayer, false, "" },
    { Rule::ColdStart, "cold-start", S::Note, kFirstCall, false, "" },
    { Rule::CacheMiss, "cache-miss", S::Warning, kFirstCall, false, "" },
    { Rule::EmptyGraph, "empty-graph", S::Note, "narrow the compiled region", false, "" },
    { Rule::SmallGraphs, "small-graphs", S::Note, kBreaks, false, "" },
    { Rule::GuardCost, "guard-cost", S::Note, "measure the real workload", false, "" },
    { Rule::WrongResult, "wrong-result", S::Error, "compare compiled with eager", false, "" },
    { Rule::CompilePayoff, "compile-payoff", S::Warning, kFirstCall, false, "" },
    { Rule::RankOnlyCompiles, "rank-only-compiles", S::Warning, kRanks, true, "frames" },
    { Rule::RankRecompiles, "rank-recompiles", S::Warning, kRecompiles, true, "recompiles" },
    { Rule::RankGraphBreaks, "rank-graph-breaks", S::Warning, kBreaks, true, "graph breaks" },
    { Rule::RankFailures, "rank-failures", S::Error, kLayer, true, "failures" },
    { Rule::RankCache, "rank-cache", S::Note, kFirstCall, true, "cache misses" },
    { Rule::Straggler, "straggler", S::Warning, kRanks, true, "straggler" },
    { Rule::KernelCompileTime, "kernel-compile-time", S::Note, kFirstCall, false, "" },
    { Rule::AutotuneMiss, "autotune-miss", S::Note, kFirstCall, false, "" },
    { Rule::GraphBreakLostFusion, "graph-break-lost-fusion", S::Note, kBreaks, false, "" },
    { Rule::CudagraphsSkipped, "cudagraphs-skipped", S::Warning, "which compiler layer fails",
        false, "" },
} };

constexpr bool inEnumOrder()
{
    for (size_t i = 0; i < kRules.size(); ++i)
        if (static_cast<size_t>(kRules[i].rule) != i)
            return false;
    return true;
}
static_assert(inEnumOrder(), "kRules lists the rules in the order of enum class Rule");
static_assert(
    static_cast<size_t>(Rule::CudagraphsSkipped) + 1 == kRules.size(), "one entry per rule");
} // namespace

const char* toString(FindingSeverity s)
{
    switch (s) {
    case FindingSeverity::Error:
        return "error";
    case FindingSeverity::Warning:
        return "warning";
    case FindingSeverity::Note:
        break;
    }
    return "note";
}

std::optional<FindingSeverity> severityNamed(std::string_view name)
{
    for (FindingSeverity s : { S::Note, S::Warning, S::Error })
        if (name == toString(s))
            return s;
    return std::nullopt;
}

std::span<const RuleInfo> allRules()
{
    return kRules;
}

const RuleInfo& ruleInfo(Rule rule)
{
    return kRules[static_cast<size_t>(rule)];
}

std::optional<Rule> ruleNamed(std::string_view id)
{
    for (const RuleInfo& r : kRules)
        if (r.id == id)
            return r.rule;
    return std::nullopt;
}

} // namespace dynascope
