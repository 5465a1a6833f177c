// Run against run: what changed between two traces of the same program ("this week's version
// is worse than last week's"). Matches the two traces and lists the changes, ranked by impact:
//
//  - ranks by rank (files without one by position); two single-rank traces are matched whatever
//    their ranks (comparing rank 1 with rank 3 of one job);
//  - frames by code object: function, file name and first line; then function and file name
//    (the code around it moved); then the function alone when it is unique on both sides (the
//    script was renamed); resume frames (torch_dynamo_resume_in_f_at_N) by their function and
//    the order of the breaks they come from;
//  - per matched frame: compiles and recompiles, graph breaks added, removed or moved (break
//    type, user file:line, GB code), recompile reasons (mismatch kind and guarded source) that
//    appeared or went, guard changes of the first compile (a size that became dynamic:
//    size=[64, 128] against size=[None, 128]; the number of guards), failures new and fixed,
//    compile time and per compiler phase with the ratio (only beyond the noise threshold),
//    cache hits that became misses;
//  - for the runs: frames only in one, the PyTorch version, findings (findings.h) present in one
//    run only, and the totals.
//
// Facts only, with the words each change's renderer needs (core/report/diff_render.h).
#pragma once

#include "core/analysis/findings.h"
#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

struct DiffOptions {
    // A time change is reported when one side took timeRatio times the other or more, and the
    // difference is more than minTimeUs: the same script run twice on a busy 2-core machine
    // differs by up to 1.8x in a frame's compile time (tst_diff's same-script pairs), a real
    // regression (a cold cache, recompiles) by more.
    double timeRatio = 2.0;
    double minTimeUs = 250e3;
};

// One change: kind ("graph_break_added", "recompiles", "compile_time", ...), the two sides as
// text ("" where a side has none), and a sentence.
struct DiffChange {
    std::string kind;
    std::string a, b;
    std::string text;
    bool worse = false; // B is worse than A in this change
    double impact = 0; // for ranking: microseconds of compile time, or more for failures
};

struct RunCounts {
    uint64_t compiles = 0, recompiles = 0, graphBreaks = 0, failures = 0;
    double compileUs = 0;
    uint64_t cacheHits = 0, cacheMisses = 0;
};

struct FrameDiff {
    enum class Status { Same, Changed, OnlyA, OnlyB };
    Status status = Status::Same;
    std::string label; // "scale (train.py:25)", from B when both have it
    std::optional<int64_t> rank;
    uint32_t frameA = kNone, frameB = kNone; // Trace::frames indices
    std::string matchedBy; // "code object", "function and file", "function", "resume order"
    RunCounts a, b;
    std::vector<DiffChange> changes;
    double impact = 0;
};
const char* toString(FrameDiff::Status s); // "same", "changed", "only_a", "only_b"

struct TraceDiff {
    std::vector<FrameDiff> frames; // ranked: most impact first, unchanged frames last
    std::vector<DiffChange> runChanges; // version, findings only in one run, totals
    RunCounts a, b;
    std::string versionA, versionB; // PyTorch versions when the traces carry them
    size_t changedFrames() const;
};

// One side of a comparison: a trace and its findings (findFindings), computed once by the caller.
struct DiffSide {
    const Trace& trace;
    const std::vector<Finding>& findings;
};
TraceDiff diffTraces(const DiffSide& a, const DiffSide& b, const DiffOptions& options = {});

// What --fail-on checks: B worse than A in graph breaks, recompiles, failures, or total compile
// time by more than compileTimeRatio (0.2 = 20%).
struct FailOn {
    bool graphBreaks = false, recompiles = false, failures = false;
    std::optional<double> compileTimeRatio;
};
// Parses "graph-breaks,recompiles,failures,compile-time=20%"; nullopt (and `error`) when bad.
std::optional<FailOn> parseFailOn(const std::string& list, std::string& error);
// The reasons B is worse, one line each (empty: not worse in what `fail` checks).
std::vector<std::string> regressions(const TraceDiff& d, const FailOn& fail);

} // namespace dynascope
