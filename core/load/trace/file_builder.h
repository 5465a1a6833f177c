// FileBuilder: one trace file -> a one-file Trace. Files are independent
// (one per process or rank), so the loader runs one FileBuilder per file in parallel and merges.
#pragma once

#include "core/load/finish/file_build_input.h"
#include "core/model/trace.h"

#include <memory>

namespace dynascope {

// Never throws for bad content: problems become diagnostics in the returned trace.
std::unique_ptr<Trace> buildFile(const FileBuildInput& input);

} // namespace dynascope
