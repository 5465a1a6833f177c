// The links of a built file that need all of its compiles: a graph break to the frame PyTorch
// compiled for the code after it (torch_dynamo_resume_in_<fn>_at_<line>), and a recompile
// reason to the earlier compile it names and to the failed guard in that compile's guards.
// Both are linear in compiles, frames and reasons (hash maps, cursors that only move forward)
// and return early when `stop` is requested.
#pragma once

#include "core/model/trace.h"

#include <stop_token>
#include <string>
#include <vector>

namespace dynascope {

// Gives each compile its graph breaks (the artifacts' when it has any, else its
// restart_reasons) and links them to resume frames. `artifactBreaks` is by compile index.
void linkGraphBreaks(
    Trace& t, std::vector<std::vector<GraphBreak>>& artifactBreaks, std::stop_token stop);

// Parses each compile's recompile reasons (`reasonTexts` by compile index, else its metric)
// and links each to the latest earlier compile of the id it names and to the failed guard. The
// reasons' user stacks' texts go to `pool`.
void linkRecompileReasons(Trace& t, std::vector<std::vector<std::string>>& reasonTexts,
    StringPool& pool, std::stop_token stop);

} // namespace dynascope
