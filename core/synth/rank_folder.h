// One distributed job's TORCH_TRACE folder: a file per rank
// (dedicated_log_torch_trace_rank_<r>.log, "rank" in every envelope), written with TraceWriter for
// the rank-divergence tests. Every rank compiles the same frames: `forward` (model.py:12) as [0/0];
// `step` (train.py:16), which breaks at train.py:19 (data-dependent branching) and resumes in
// torch_dynamo_resume_in_step_at_19 [2/0]; and `helper` (train.py:30) as [3/0]. Each compile has
// PyTorch's records in their order (chromium dynamo, entire_frame_compile, bytecode_tracing,
// backend_compile, inductor_compile and build_guards B/E events, dynamo_start, the fx_graph_cache
// artifact, compilation_metrics), about 6 KB, and takes 0.1-0.6 s; the ranks' times differ by 2% at
// most. Divergence is planted on request, one rank each, and what was planted is returned; the
// planted extra compiles are short (under 50 ms in all), so that only the straggler plant makes a
// straggler. Deterministic: the same options give the same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace dynascope::synth {

struct RankFolderOptions {
    int64_t ranks = 8;
    // `forward` compiles once more on this rank, [0/1] at the end (a last batch of 16 rows).
    std::optional<int64_t> extraRecompileRank;
    // `helper` breaks at train.py:32 (a print) on this rank and resumes in [4/0].
    std::optional<int64_t> graphBreakRank;
    // `helper` fails to compile on this rank (BackendCompilerFailed).
    std::optional<int64_t> failureRank;
    // `helper` is never compiled on this rank.
    std::optional<int64_t> missingFrameRank;
    // `forward`'s fx_graph_cache lookup misses on this rank; the other ranks (and the other
    // frames) hit. Timings do not depend on the cache, so this plant makes no straggler.
    std::optional<int64_t> cacheMissRank;
    // Every compile of this rank takes stragglerFactor times as long.
    std::optional<int64_t> stragglerRank;
    double stragglerFactor = 3;
};

// What a folder holds that the ranks do not share: the findings rule that should name it, the
// rank, and the frame (function, file name, first line; empty for the straggler). When several
// helper plants name one rank, the missing frame wins over the failure, the failure over the
// break.
struct PlantedDivergence {
    std::string rule; // "rank-recompiles", "rank-graph-breaks", "rank-failures",
                      // "rank-only-compiles", "rank-cache", "straggler"
    int64_t rank = 0;
    std::string function; // "forward", "helper"
    std::string file; // "model.py", "train.py"
    int64_t line = 0;
};
std::vector<PlantedDivergence> plantedDivergence(const RankFolderOptions& options);

// One rank's file.
void writeRankTrace(std::ostream& out, int64_t rank, const RankFolderOptions& options);

struct RankFolder {
    std::vector<std::string> files; // by rank
    std::vector<PlantedDivergence> planted;
    uint64_t bytes = 0;
};
// Writes every rank's file into `dir` (which must exist); throws std::runtime_error when a file
// cannot be written.
RankFolder writeRankFolder(const std::string& dir, const RankFolderOptions& options);

} // namespace dynascope::synth
