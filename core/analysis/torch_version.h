// The PyTorch release that wrote a trace, as its torch_version artifact says ("2.13.0",
// "2.11.0+cu130"). Reads the first 4,096 records at most.
#pragma once

#include "core/model/trace.h"

#include <string>

namespace dynascope {

// "" when the trace has no torch_version artifact in its first records.
std::string torchVersion(const Trace& trace);

} // namespace dynascope
