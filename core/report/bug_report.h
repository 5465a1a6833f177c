// "Copy as bug report": the why-chain of one compile as Markdown for a GitHub issue.
//  - a recompile: reason -> the guard that failed in the earlier compile, expected vs actual ->
//    the frame's source line and call site, plus the values that changed along the frame;
//  - a graph break: reason -> user code traceback -> the resume frame it leads to;
//  - a failure: type, reason, user frame, traceback;
// then the compile's key metrics. Guards and tracebacks go in fenced code blocks; every trace
// string is inside code, so nothing from a log becomes Markdown or HTML markup.
#pragma once

#include "core/analysis/findings.h"
#include "core/model/trace.h"

#include <cstdint>
#include <string>

namespace dynascope {

// compile is a Trace::compiles index; an index out of range gives "". `findings` are the
// trace's (findFindings): the report ends with those that name the compile.
std::string bugReportMarkdown(
    const Trace& trace, uint32_t compile, const std::vector<Finding>& findings);

} // namespace dynascope
