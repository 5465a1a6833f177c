// Recompile linking: a recompile reason ("0/0: tensor 'x' size mismatch at index 0. expected 2,
// actual 3") names an earlier compile and, in words, the guard of that compile that failed. No
// guard id is logged, so the match is textual: the guarded source (L['x']) and the mismatch kind
// select a node of the earlier compile's guard tree.
#pragma once

#include "core/model/guard_tree.h"
#include "core/model/trace.h"

#include <string_view>

namespace dynascope {

// Splits "<id>: <detail>" and classifies the detail (mismatch kind, source, expected, actual).
// The user stack's texts go to `pool`.
RecompileReason parseRecompileReason(std::string_view text, StringPool& pool);

// The node of `tree` that the reason's detail refers to, or -1.
int matchGuard(const RecompileReason& reason, const GuardTree& tree);

} // namespace dynascope
