// The findings' rules as data: one enum, and one table that gives each its stable id (what JSON,
// the CLI and Python say), its severity at most, the step of the debugging ladder it belongs to,
// and the word or two the app marks a rank's row with. Severities are named and parsed here
// only. Rules are documented one by one in docs/findings.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace dynascope {

enum class FindingSeverity : uint8_t { Note, Warning, Error };
const char* toString(FindingSeverity s); // "note", "warning", "error"
// "note", "warning", "error" -> the severity; nullopt for anything else.
std::optional<FindingSeverity> severityNamed(std::string_view name);

enum class Rule : uint8_t {
    RecompileShape,
    RecompileGuard,
    RecompileLimit,
    DynamicStillRecompiles,
    GraphBreak,
    GraphBreakSkippedFrame,
    GraphBreakIo,
    DataDependent,
    Failure,
    FullgraphError,
    ColdStart,
    CacheMiss,
    EmptyGraph,
    SmallGraphs,
    GuardCost,
    WrongResult,
    CompilePayoff,
    RankOnlyCompiles,
    RankRecompiles,
    RankGraphBreaks,
    RankFailures,
    RankCache,
    Straggler,
    KernelCompileTime,
    AutotuneMiss,
    GraphBreakLostFusion,
    CudagraphsSkipped,
};

struct RuleInfo {
    Rule rule;
    std::string_view id; // "recompile-shape": stable, in every document
    FindingSeverity maxSeverity; // the highest severity it reports at
    std::string_view ladderStep; // "recompilations", "graph breaks", ...
    // Whether it compares the ranks of a job (then it runs on two ranks or more, and names
    // the ranks it singles out instead of being one finding per rank).
    bool comparesRanks;
    std::string_view rankWord; // the app's mark on a rank's row ("straggler"), "" when none
};

// Every rule, in the order of the enum.
std::span<const RuleInfo> allRules();
const RuleInfo& ruleInfo(Rule rule);
inline std::string_view toString(Rule rule)
{
    return ruleInfo(rule).id;
}
// "recompile-shape" -> Rule::RecompileShape; nullopt for an id no rule has.
std::optional<Rule> ruleNamed(std::string_view id);

} // namespace dynascope
