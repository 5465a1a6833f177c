// Parsers for the free text PyTorch logs about graph breaks and failures: the
// `dynamo_graph_break_reason` artifact, restart reasons, failure reasons and Python tracebacks.
#pragma once

#include "core/model/trace.h"

#include <string_view>

namespace dynascope {

// Fills reason, file, line, traceback and userFrames from the artifact text ("Graph break in
// user code at FILE:LINE", "Graph Break Reason: ...", "User code traceback:"), and the
// structured parts of the reason (see parseGraphBreakReason). The frames' texts go to `pool`.
GraphBreak parseGraphBreakText(std::string_view text, StringPool& pool);

// A reason alone (a restart_reasons entry, or the text after "Graph Break Reason: "): strips
// PyTorch's preambles ("Encountered graph break when attempting to trace OP: ...:", "Failed to
// handle graph break gracefully. Skipping the function and falling back to eager. Graph break
// encountered:", "Encountered graph break that we cannot resume from. ...:") into operation,
// skipsFrame and cannotResume, and splits the rest into details.
GraphBreak parseGraphBreakReason(std::string_view reason);

// A restart_reasons entry that is not a graph break: PyTorch logs a restart without a break
// message as the exception's class, "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"
// (a float made dynamic, speculation failed, ...), while a graph break's restart carries the
// break text.
bool isRestartWithoutBreak(std::string_view reason);

// A restart without a break, named: the exception's bare class ("TensorifyScalarRestartAnalysis")
// and why PyTorch restarts the analysis for it, in words (empty for a class this does not know).
// An empty kind when `reason` is a graph break's restart.
struct RestartKind {
    std::string kind;
    std::string meaning;
};
RestartKind restartKindOf(std::string_view reason);

// A reason without PyTorch's "Graph Break Reason: " lead (older logs and TORCH_LOGS text start
// with it); the reason itself when it has none.
std::string_view withoutReasonLead(std::string_view reason);

// The sections of structured graph-break text: the first is the break, each "*** While handling
// this graph break, another graph break occurred: ***" starts another. Empty when the text has
// no Explanation, Hint, debug context or link (older PyTorch, other writers).
std::vector<GraphBreakDetail> parseGraphBreakDetails(std::string_view text);

// Frames of a Python traceback ("  File \"x.py\", line 3, in f" + optional source line), their
// texts interned in `pool`.
Stack parsePythonTraceback(std::string_view text, StringPool& pool);

// "<class 'torch._dynamo.exc.BackendCompilerFailed'>" -> "BackendCompilerFailed";
// "torch._dynamo.exc.Unsupported" -> "Unsupported"; bare names unchanged.
std::string normaliseExceptionType(std::string_view raw);

// The compiler layer a failure comes from, the way the debugging ladder asks it (does it fail
// with backend="eager", "aot_eager", "inductor"?): "dynamo" (tracing: Unsupported, fullgraph
// breaks, errors in user code while tracing), "aot_autograd", "inductor", "backend" (a custom
// or other backend raised), or "" when nothing says.
std::string failureLayer(const Failure& f);

// Fills a failed compile's Failure::details, frameSkipped and layer from its reason, traceback
// and graph breaks (called once the compile's records are all read).
void describeFailure(Compile& c);

} // namespace dynascope
