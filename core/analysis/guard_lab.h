// The guard lab: would a described input reuse one of a frame's compiles or recompile? Each
// compile with a guard tree is a cache entry; Dynamo checks the newest first and runs the first
// whose guards all pass. Facts the description does not give come from the recorded call (the
// newest entry's own guards); a guard whose facts are neither given nor recorded is "not
// known", and the answer names the facts that would settle it.
#pragma once

#include "core/analysis/guard_input.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

struct Trace;

enum class GuardOutcome : uint8_t { Pass, Fail, Unknown };
const char* toString(GuardOutcome o); // "pass", "fail", "not known"

struct GuardCheck {
    int node = -1; // in the entry's guard tree
    std::string kind; // TENSOR_MATCH, LAMBDA_GUARD, ...
    std::string expr;
    GuardOutcome outcome = GuardOutcome::Pass;
    std::string what; // "dtype", "size mismatch at index 0", ...
    std::string expected, actual;
    std::vector<std::string> needs; // Unknown: the facts that would settle it
    bool understood = true; // false: a form the lab does not read (counted, never guessed)
};

struct EntryAnswer {
    uint32_t compile = 0; // Trace::compiles index
    std::string id; // "[0/1]"
    GuardOutcome outcome = GuardOutcome::Pass;
    std::optional<GuardCheck> failed; // the first guard that fails
    std::vector<GuardCheck> unknown; // guards not known (when none fails)
    size_t guards = 0, passed = 0, notUnderstood = 0;
};

struct GuardLabAnswer {
    std::vector<EntryAnswer> entries; // newest first, as Dynamo checks them
    std::optional<size_t> reused; // index into entries
    bool recompiles = false; // no entry matches
    bool known = true; // false: an entry before the match (or every one) is not known
    int recompileLimit = 8;
    int entriesLeft = 0; // recompiles left before the frame falls back to eager
    std::string automaticDynamic; // what the next compile would make dynamic
    std::string verdict; // "reuses [0/1]", "recompiles: no entry matches", "not known: ..."
};

// One guard tree against the input (prefill from `recorded`, the newest entry's tree).
// `firstCompiles`: the cache as it stood after the frame's first N compiles (file order), for a
// question asked at that moment of the run (a probe); all of them by default.
GuardLabAnswer evaluateGuards(
    const Trace& trace, uint32_t frame, const GuardInput& input, size_t firstCompiles = SIZE_MAX);

struct RangeRow {
    int64_t lo = 0, hi = 0; // sizes with the same verdict
    std::string verdict;
};
struct RangeAnswer {
    std::vector<RangeRow> rows;
    std::string advice; // the fewest mark_dynamic calls (or dynamic=True) for one compile
};
RangeAnswer evaluateRange(const Trace& trace, uint32_t frame, const GuardInput& input);

// The call a compile was made for, as a description to start from (the What if section's
// first text): each local tensor its TENSOR_MATCH guard names, "x: f32[32, 128]", a dynamic
// dimension (which the guard leaves open) as the size its symbol was created with, else 2, with
// its device and requires_grad; then the ambient state where it is not the default ("grad:
// off", "autocast: cpu bf16"). "" when the compile has no tensor guards.
std::string recordedInputDescription(const Trace& trace, uint32_t compile);

// The frame named by NAME (code name), [N] or N (frame id), or #INDEX; kNone-like npos if none.
std::optional<uint32_t> findGuardFrame(
    const Trace& trace, const std::string& key, std::string& error);

} // namespace dynascope
