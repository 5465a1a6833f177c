// The PyTorch release that wrote a trace ("2.13.0", "2.11.0+cu130") and where the trace says it:
// the torch_version artifact PyTorch writes into every file (2.13 and 2.14 do), else the
// "pytorch_version" field of a compile's compilation_metrics (2.11 writes no artifact).
// TORCH_LOGS text names no release.
#pragma once

#include "core/model/trace.h"

#include <string>

namespace dynascope {

struct TorchVersion {
    std::string version; // "" when the trace names none
    // "torch_version artifact", "compilation_metrics", or "" (not known)
    std::string from;
};

// Reads the first 4,096 records for the artifact, then the compiles' metrics records.
TorchVersion torchVersionOf(const Trace& trace);
// torchVersionOf(trace).version.
std::string torchVersion(const Trace& trace);

} // namespace dynascope
