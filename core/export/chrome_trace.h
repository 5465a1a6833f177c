// Chrome trace export: the compiles of a Trace in the Trace Event Format
// (`{"traceEvents": [...], "displayTimeUnit": "ms"}`), which Perfetto and chrome://tracing open.
//
// One process per rank (pid = rank; files without a rank, or sharing one, get the smallest numbers
// no rank uses) and one thread per frame (tid = Trace::frames index), named by process_name /
// thread_name metadata events ("rank N", "function file:line"). Each compile is a complete "X"
// event (args: compile_id, index, status, co_name, file:line, recompile reasons, graph break
// reasons, failure) with its chromium phase spans as X events inside it; graph breaks,
// recompiles, failures and cache hits/misses are thread-scoped instant events. Timestamps are the
// trace's epoch microseconds, as integers. Events are written one at a time, never as one document.
#pragma once

#include "core/model/trace.h"

#include <ostream>

namespace dynascope {

struct ChromeTraceOptions {
    bool phases = true; // X events for the compiles' chromium spans
};

// The pid used for a file of the trace (see the file comment).
int64_t chromePid(const Trace& trace, uint32_t file);

void writeChromeTrace(
    const Trace& trace, std::ostream& out, const ChromeTraceOptions& options = {});

} // namespace dynascope
