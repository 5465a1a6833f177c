// A run-against-run comparison (core/analysis/trace_diff.h) as `dynascope-cli diff` writes it:
// JSON ("format": "dynascope-diff", "version": 1, docs/cli.md "Diff JSON"), Markdown for an
// issue or a CI log, and a standalone HTML page. Trace text is escaped or in code.
#pragma once

#include "core/analysis/trace_diff.h"

#include <string>
#include <vector>

namespace dynascope {

inline constexpr int kDiffJsonVersion = 1;

struct DiffInputs {
    std::vector<std::string> a, b; // the paths given for each side
};

std::string diffJson(const TraceDiff& d, const DiffInputs& inputs);
std::string diffMarkdown(const TraceDiff& d, const DiffInputs& inputs);
std::string diffHtml(const TraceDiff& d, const DiffInputs& inputs);

} // namespace dynascope
