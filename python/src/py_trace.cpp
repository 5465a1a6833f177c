#include "python/src/py_trace.h"

#include "core/io/input_buffer.h"

#include <algorithm>

namespace dynascope::py {

TraceHandle::TraceHandle(
    std::shared_ptr<const Trace> trace, std::vector<std::string> inputs, bool verify)
    : m_trace(std::move(trace))
    , m_inputs(std::move(inputs))
    , m_verify(verify)
{
}

const std::vector<Finding>& TraceHandle::findings()
{
    std::lock_guard lock(m_mutex);
    if (!m_findings)
        m_findings = findFindings(*m_trace);
    return *m_findings;
}

const Trace::PayloadCheck& TraceHandle::payloadCheck()
{
    std::lock_guard lock(m_mutex);
    if (!m_check)
        m_check = m_trace->verifyPayloads();
    return *m_check;
}

std::vector<Diagnostic> TraceHandle::diagnostics()
{
    std::vector<Diagnostic> out = m_trace->diagnostics;
    if (m_verify) {
        const auto& check = payloadCheck();
        out.insert(out.end(), check.diagnostics.begin(), check.diagnostics.end());
    }
    return out;
}

LoadOutcome loadRequest(const LoadRequest& request)
{
    LoadOutcome out;
    LoadOptions options;
    options.newestOnly = request.latest;
    options.verifyPayloads = request.verify;
    options.maxDecompressedBytes = request.maxDecompressed;
    options.threads = request.threads;
    if (!parseRunChoice(request.run, options)) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.code = DiagnosticCode::Other;
        d.message = "run must be 'newest', 'all' or a run number (1 = the oldest), not '"
            + request.run + "'";
        out.errors.push_back(std::move(d));
        return out;
    }
    LoadResult result;
    std::vector<std::string> inputs;
    if (!request.buffers.empty()) {
        std::vector<LoadedBytes> loaded;
        for (const auto& [name, bytes] : request.buffers) {
            std::string error;
            auto buffer = InputBuffer::fromBytes(bytes, request.maxDecompressed, error);
            if (!buffer) {
                Diagnostic d;
                d.severity = Severity::Error;
                d.code = DiagnosticCode::IoError;
                d.file = name;
                d.message = error;
                out.errors.push_back(std::move(d));
                continue;
            }
            loaded.push_back({ name, std::move(buffer), error });
            inputs.push_back(name);
        }
        if (!out.errors.empty())
            return out;
        result = loadFromMemory(loaded, inputs, options);
    } else {
        inputs = request.paths;
        result = load(request.paths, options);
    }
    // A path the caller named that could not be read at all is an error, as open() would make
    // it: a typo must not pass as a smaller trace.
    for (const Diagnostic& d : result.errors)
        if (std::find(request.paths.begin(), request.paths.end(), d.file) != request.paths.end())
            out.errors.push_back(d);
    if (!out.errors.empty())
        return out;
    // Some input read: the trace, with the files of a named folder that could not be read among
    // its diagnostics (the CLI exits 2 for those, after printing them; Python keeps what parsed).
    if (result.trace && !result.trace->records.empty()) {
        out.trace = std::make_shared<TraceHandle>(
            std::move(result.trace), std::move(inputs), request.verify);
        return out;
    }
    out.errors = std::move(result.errors);
    // Nothing to analyse: every input is empty, cut before its first record, or not a trace.
    // The CLI prints the counts of such a load (all zero); Python raises, with what was found.
    if (out.errors.empty() && result.trace && result.trace->records.empty()) {
        for (const Diagnostic& d : result.trace->diagnostics)
            if (d.severity != Severity::Info)
                out.errors.push_back(d);
        if (out.errors.empty()) {
            for (const TraceFile& f : result.trace->files) {
                Diagnostic d;
                d.severity = Severity::Error;
                d.code = DiagnosticCode::NotATrace;
                d.file = f.path;
                d.message = f.decodedBytes == 0 ? "the file is empty" : "no trace records in it";
                out.errors.push_back(std::move(d));
            }
        }
    }
    if (out.errors.empty()) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.message = "nothing could be read";
        out.errors.push_back(std::move(d));
    }
    return out;
}

} // namespace dynascope::py
