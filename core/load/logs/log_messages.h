// Parsers for the messages of TORCH_LOGS statements (the text after the prefixes): what the
// `recompiles`, `dynamic` and `+dynamo` loggers say. Graph-break text and recompile reasons are
// the same as in a TORCH_TRACE and go through core/load/finish (graph_break_text.h,
// recompile_linker.h); guard dumps through GuardTree::parseCpp.
#pragma once

#include "core/model/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::logs {

// "scale example.py:36" -> function, file, line (the code object's first line).
struct CodeRef {
    std::string name, file;
    int64_t line = 0;
};
// Parses "NAME FILE:LINE" at the start of `text` (up to the end or a comma after LINE).
std::optional<CodeRef> parseCodeRef(std::string_view text);

// "Recompiling function scale in example.py:36\n    triggered by the following guard
// failure(s):\n    - 3/0: tensor 'x' size mismatch ...\n    - User stack trace:\n ..." (the
// recompiles and recompiles_verbose artifacts). Each reason as the TORCH_TRACE's
// recompile_reasons artifact has it: its lines without the "- " PyTorch put before them.
struct Recompiling {
    CodeRef function;
    std::vector<std::string> reasons;
};
std::optional<Recompiling> parseRecompiling(std::string_view message);

// "torch._dynamo hit config.recompile_limit (8)\n   function: 'f' (x.py:3)\n   last reason:
// 0/7: ..." (older: cache_size_limit): the frame's cache is full.
struct RecompileLimit {
    std::string limit; // "recompile_limit (8)"
    CodeRef function;
    std::string lastReason;
};
std::optional<RecompileLimit> parseRecompileLimit(std::string_view message);

// "torchdynamo start compiling forward example.py:24, stack (elided 5 frames):\n  File ..."
// (+dynamo): the compiled code object and the stack that called it; "Step 1: torchdynamo start
// tracing forward example.py:24" (dynamo at INFO) names the code object only.
struct DynamoStart {
    CodeRef function;
    Stack stack; // callers, outermost first, then the compiled function (as dynamo_start has it)
    bool compiling = false; // "start compiling" (else "start tracing")
};
// The stack's texts go to `pool`.
std::optional<DynamoStart> parseDynamoStart(std::string_view message, StringPool& pool);

// A user location as symbolic_shapes writes it (SLoc): "CODE  # FILE:LINE in FN (FRAMEWORK)",
// or "(FRAMEWORK)" alone when no user frame is known. Empty stack for the latter.
// The frame's texts go to `pool`.
Stack parseUserLocation(std::string_view sloc, StringPool& pool);

// The shape events of the `dynamic` logger, one per message line that is one:
//   create_symbol s77 = 64 for L['x'].size()[0] [2, int_oo] SLOC, for more info ...
//   create_unbacked_symbol u0 [-int_oo, int_oo] SLOC
//   eval Eq(s0, 5) [guard added] SLOC / runtime_assert u0 >= 0 [guard added] SLOC
//   set_replacement s0 = 5 (range_refined_to_singleton) VR[5, 5]   (a specialisation)
// with the TORCH_TRACE kinds (create_symbol, create_unbacked_symbol, guard_added,
// symbolic_shape_specialization). Other lines give nothing.
std::vector<ShapeEvent> parseShapeEvents(std::string_view message, StringPool& pool);

// Graph-break messages of one statement (several when one line logged two in the same
// millisecond): split where a line starts with "Graph break".
std::vector<std::string_view> splitGraphBreaks(std::string_view message);

} // namespace dynascope::logs
