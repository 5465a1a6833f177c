// The Python module's view of one loaded trace: the core's Trace plus what is worked out from it
// once, on first use, and kept (the findings, the payload check). Python objects hold it through
// a std::shared_ptr, so a Compile or a Finding keeps its trace alive.
//
// Every method that reads the trace may run with the GIL released (python/src/module.cpp says
// which): the trace is immutable, and the cached parts are guarded by a mutex.
#pragma once

#include "core/analysis/findings.h"
#include "core/load/loader.h"
#include "core/model/trace.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dynascope::py {

// What Python's load() was given, turned into the loader's options.
struct LoadRequest {
    std::vector<std::string> paths; // files, folders, "-"
    // Bytes already in memory, each with the name diagnostics call it by ("<memory>").
    std::vector<std::pair<std::string, std::string>> buffers;
    std::string run = "newest"; // "newest", "all" or a run number
    bool latest = false;
    bool verify = true;
    uint64_t maxDecompressed = 64ull << 30;
    unsigned threads = 0;
};

class TraceHandle {
public:
    TraceHandle(std::shared_ptr<const Trace> trace, std::vector<std::string> inputs, bool verify);

    const Trace& trace() const { return *m_trace; }
    const std::shared_ptr<const Trace>& shared() const { return m_trace; }
    const std::vector<std::string>& inputs() const { return m_inputs; }
    bool verified() const { return m_verify; }

    // Every finding, ranked (findFindings), computed once.
    const std::vector<Finding>& findings();
    // The payload check (Trace::verifyPayloads), made once.
    const Trace::PayloadCheck& payloadCheck();
    // The diagnostics of the load, then those of the payload check when verifying.
    std::vector<Diagnostic> diagnostics();

private:
    std::shared_ptr<const Trace> m_trace;
    std::vector<std::string> m_inputs;
    bool m_verify = true;
    std::mutex m_mutex;
    std::optional<std::vector<Finding>> m_findings;
    std::optional<Trace::PayloadCheck> m_check;
};

// The outcome of a load: a trace, or the errors that stopped every input from being read.
struct LoadOutcome {
    std::shared_ptr<TraceHandle> trace;
    std::vector<Diagnostic> errors;
};

// Runs the loader (no Python object is touched: callable without the GIL). An invalid run
// choice is an error of the outcome, like an unreadable file.
LoadOutcome loadRequest(const LoadRequest& request);

} // namespace dynascope::py
