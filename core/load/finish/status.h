// Compile status, the way tlparse colours compiles: error if any fail_type; else empty if
// graph_op_count is 0 or null; else graph break if restarts or breaks; else ok; no metrics at
// all: missing (the process died mid-compile or the log is cut). One difference from tlparse:
// a restart that is not a graph break (restart_reasons holding only "<class
// '...RestartAnalysis'>" entries) leaves the compile ok, where tlparse shows a restart.
//
// TORCH_LOGS text carries no metrics, so it can say less: a failure it logged, a graph break it
// logged, a compile that installed its guards (ok); nothing else (no "empty"), else missing.
// Both importers finish with this one function.
#pragma once

#include "core/model/trace.h"

namespace dynascope {

CompileStatus computeStatus(const Compile& c, TraceFormat format = TraceFormat::TorchTrace);

} // namespace dynascope
