// Large synthetic traces for benchmarks (dynascope-bench) and stress tests: one long-running
// process compiling "programs" of new functions (frame ids keep growing) until the output reaches
// a size. A program has the mix real logs have: an encoder and a decoder forward with 6-40 layers
// each (FX, AOT and post-grad graphs and generated code of tens of KB, describe_* records and a
// guard tree over every parameter, fx graph cache miss or hit), a graph break with its resume
// frame, a recompile chain on a size guard ending in a dynamic-shape compile, small helper
// compiles and, every fifth program, a backend failure. Every compile has the full chromium B/E
// nesting and a ~20 KB compilation_metrics line (full-size inductor_config). About 65% of the
// bytes are payload lines. Deterministic: the same options give the same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

namespace dynascope {

struct ScaleTraceOptions {
    uint64_t targetBytes = 100ull << 20; // stop after the program that reaches this size
    std::optional<int64_t> rank; // written into every envelope (one file per rank)
    uint64_t seed = 1; // varies shapes, layer counts and timings
};

struct ScaleTraceStats {
    uint64_t bytes = 0;
    uint64_t compiles = 0; // dynamo_start records
    uint64_t programs = 0;
};

ScaleTraceStats writeScaleTrace(std::ostream& out, const ScaleTraceOptions& options);

} // namespace dynascope
