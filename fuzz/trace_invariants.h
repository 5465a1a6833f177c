// Invariants of a loaded Trace that must hold for any input bytes, however hostile: every index
// points inside its table, back-links agree with forward links, counts agree with each other, and
// every accessor the views call (payload(), header(), payloadHashMatches()) works on every record.
// Shared by the libFuzzer target, the g++-built replay driver and the robustness tests, so a
// violation found by one is checked by all.
#pragma once

#include "core/model/trace.h"

#include <string>
#include <string_view>

namespace dynascope::fuzz {

// Returns an empty string when every invariant holds, otherwise one line per violation (the
// first few). `exercise` also calls the per-record accessors (payload(), header(), ...) and every
// writer (summaries, reports, bug reports, Chrome trace, TORCH_TRACE subsets, which must load
// again as the same compiles), which is what makes a fuzzer find crashes behind the model.
std::string checkTrace(const Trace& trace, bool exercise = true);

// The whole pipeline on one input, as the fuzzers run it: InputBuffer::fromBytes (so zstd and
// gzip are decompressed, with a small limit), buildFile, checkTrace; then the same trace appended
// twice into one (as the loader does for several ranks) and checked again. Returns the
// violations ("" when none).
std::string runOne(std::string_view bytes, uint64_t maxDecompressed = 4u << 20);

} // namespace dynascope::fuzz
