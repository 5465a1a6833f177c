// TraceFacts: what the window shows of a trace beyond the trace itself, worked out once, off the
// GUI thread: in the load job (TraceLoadController), or for a trace followed live in the
// session's own job (TraceSession::showLive). The findings (one findFindings per trace), the
// diagnostics with the payload check's, the timeline's marks (compiles and ranks the findings
// name), the counts and the Why tab's overview. Immutable once made; the views read them through
// TraceSession, and the exports and the bug report reuse the findings instead of computing them
// again. Cost: findFindings (linear in the trace) plus a pass over the findings.
#pragma once

#include "core/analysis/findings.h"
#include "core/analysis/torch_version.h"
#include "core/model/trace.h"
#include "ui/timeline/timelinerankmarkspass.h"

#include <QString>

#include <memory>
#include <stop_token>
#include <unordered_map>
#include <vector>

namespace dynascope::ui {

struct TraceFacts {
    std::shared_ptr<const Trace> trace;
    std::vector<Finding> findings; // ranked (findFindings)
    FindingCounts counts;
    // The loader's diagnostics, then the payload check's (or one saying it could not be made).
    std::vector<Diagnostic> diagnostics;
    bool payloadsVerified = false;
    // Compiles that a warning or an error names, with the worst severity (the timeline's flags).
    std::unordered_map<uint32_t, int> findingMarks;
    // Trace files (ranks) that the rank findings single out.
    std::unordered_map<uint32_t, timeline::RankMark> rankMarks;
    // The PyTorch release that wrote it, and where the trace says so (the status bar).
    TorchVersion torch;
    // "What this trace shows, most costly first:" and the top five findings, one per line; ""
    // when there is none (the Why tab with nothing selected).
    QString overview;
};

// The facts of `trace` (null: none). Stops early when `stop` is requested (the facts are then
// incomplete and dropped by the caller). Payload hashes: Trace::verifyPayloads, which reports
// what a load with LoadOptions::verifyPayloads found as it scanned.
std::shared_ptr<const TraceFacts> computeTraceFacts(
    std::shared_ptr<const Trace> trace, std::stop_token stop = {});

} // namespace dynascope::ui
