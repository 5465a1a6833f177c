// Parsers for the free text PyTorch logs about graph breaks and failures: the
// `dynamo_graph_break_reason` artifact and Python tracebacks.
#pragma once

#include "core/model/trace.h"

#include <string_view>

namespace dynascope {

// Fills reason, file, line, traceback and userFrames from the artifact text.
GraphBreak parseGraphBreakText(std::string_view text);

// Frames of a Python traceback ("  File \"x.py\", line 3, in f" + optional source line).
Stack parsePythonTraceback(std::string_view text);

// "<class 'torch._dynamo.exc.BackendCompilerFailed'>" -> "BackendCompilerFailed";
// "torch._dynamo.exc.Unsupported" -> "Unsupported"; bare names unchanged.
std::string normaliseExceptionType(std::string_view raw);

} // namespace dynascope
