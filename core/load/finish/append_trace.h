// Merging the one-file traces the importers build into one Trace: the loader merges every
// input's, the TORCH_LOGS importer its processes'.
#pragma once

#include "core/model/trace.h"

namespace dynascope {

// Appends `part` (a one-file trace) to `into`, shifting every index.
void appendTrace(Trace& into, Trace&& part);

} // namespace dynascope
