// Findings (core/analysis/findings.h) as the documents and text users read: the JSON of
// `dynascope-cli diagnose --json` (format "dynascope-findings", docs/cli.md "Findings JSON"), the
// CLI's text, and Markdown for reports and bug reports (one finding, to paste into an issue).
#pragma once

#include "core/analysis/findings.h"

#include <string>
#include <vector>

namespace dynascope {

inline constexpr int kFindingsJsonVersion = 1;

// The whole document: format, version, generator, inputs, counts, findings[].
std::string findingsJson(const Trace& trace, const std::vector<Finding>& findings);

// "warning recompile-shape: <title>" and indented evidence, why, next step, PyTorch's hints.
std::string findingsText(const std::vector<Finding>& findings);

// One finding as Markdown: a heading line, the evidence as a list, why, the next step with its
// code in a fenced block, PyTorch's explanation and hints quoted.
std::string findingMarkdown(const Finding& finding);

// A "## Findings" section with every finding (headingLevel 2 or 3).
std::string findingsMarkdown(const std::vector<Finding>& findings, int headingLevel = 2);

} // namespace dynascope
