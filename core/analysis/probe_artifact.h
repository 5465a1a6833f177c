// The probe's artifact: what `dynascope-cli probe`'s Python helper (resources/python/
// dynascope_probe.py) measured inside the program and wrote into the trace as an `artifact`
// record named "dynascope_probe" (JSON payload, format "dynascope-probe", version 1; docs/
// recording.md, "The probe artifact"). Read from a loaded trace, after the load: the loader
// keeps every record, and this reads the artifacts' payloads back through Trace::payload.
//
// Payloads are trace content: every field is checked, an unreadable artifact becomes a
// diagnostic, and nothing here is ever run or used as a path.
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

inline constexpr const char* kProbeArtifactName = "dynascope_probe";

// A call during which Dynamo compiled (the first call, and any call that recompiled).
struct ProbeCompilingCall {
    uint64_t call = 0; // 0 = the first call
    double startUs = 0; // epoch microseconds
    double us = 0; // the call's wall time, compiling included
    std::vector<CompileId> compiles; // ids Dynamo gave the compiles that started during it
};

// --check: the callable's measured calls run again eagerly on copies of their inputs.
struct ProbeCheck {
    uint64_t checked = 0; // outputs compared
    uint64_t mismatches = 0; // compared and different (torch.testing.assert_close failed)
    uint64_t errors = 0; // the eager run raised
    uint64_t uncomparable = 0; // outputs assert_close cannot compare
    std::optional<uint64_t> firstMismatchCall;
    std::string firstMismatch; // assert_close's message
    std::optional<uint64_t> firstErrorCall;
    std::string firstErrorType, firstError;
};

// An exception that escaped a call of the compiled callable (the first one).
struct ProbeError {
    uint64_t call = 0;
    std::string type; // "BackendCompilerFailed"
    std::string message;
    std::vector<CompileId> compiles; // compiles that started during that call
};

// One compiled callable: the code one or more torch.compile calls wrapped (calls to torch.compile
// of the same code with the same backend are one callable).
struct ProbeCallable {
    int64_t id = 0;
    std::string kind; // "function", "module"
    std::string name; // code name ("forward")
    std::string qualname; // "MLP.forward"
    std::string file; // absolute path as the program saw it
    int64_t line = 0; // first line of the code
    std::string requestedBackend; // what the program passed ("inductor", a function's name)
    std::string backend; // what the probe compiled with ("none": not compiled)
    std::optional<bool> dynamic;
    std::vector<std::string> droppedOptions; // mode=, options= dropped for a non-Inductor backend
    uint64_t compiledCallables = 0; // torch.compile calls that made it
    uint64_t calls = 0;
    double totalUs = 0; // all calls
    std::optional<double> firstCallUs;
    double firstCallStartUs = 0;
    std::vector<double> steadyUs; // calls 1..N (the steady-state window)
    std::vector<uint64_t> steadyCompiled; // calls of that window that compiled again
    std::vector<ProbeCompilingCall> compilingCalls;
    uint64_t compilingCallsDropped = 0; // compiling calls past the 256 kept
    std::vector<double> eagerUs; // --check: the eager runs of the measured calls
    std::optional<ProbeCheck> check;
    std::optional<ProbeError> error;
    std::optional<double> peakRssMib, cudaPeakMib;

    // Median wall time of the steady-state calls that did not compile; nullopt without any.
    std::optional<double> steadyMedianUs() const;
    // Median of the --check eager runs after the first (warm), else of all; nullopt without any.
    std::optional<double> eagerMedianUs() const;
    // Identity across runs of one program: "MLP.forward (model.py:7)".
    std::string label() const;
    bool sameCode(const ProbeCallable& other) const;
};

// What one process measured: its last probe artifact (a snapshot after the first callable's
// measured calls, then one at exit).
struct ProbeRecording {
    uint32_t file = kNone; // Trace::files index
    uint32_t record = kNone; // the artifact read (the last one of the file)
    std::string event; // "start", "snapshot", "end"
    bool complete() const { return event == "end"; } // the process reached its exit
    std::string configName; // the probe's name for the run ("aot_eager")
    std::string backend; // "none", "program", "eager", ...
    std::optional<bool> dynamic;
    bool check = false;
    int64_t steps = 0;
    int64_t pid = 0;
    std::string torchVersion, python;
    std::vector<std::string> argv;
    bool cuda = false;
    std::vector<ProbeCallable> callables;
    std::optional<double> peakRssMib, cudaPeakMib;
    // An exception that ended the program (sys.excepthook saw it).
    std::string exceptionType, exceptionMessage;

    // CUDA's allocator peak when the process used CUDA, else its peak RSS.
    std::optional<double> peakMib() const { return cudaPeakMib ? cudaPeakMib : peakRssMib; }
};

struct ProbeArtifacts {
    std::vector<ProbeRecording> recordings; // one per file that has a probe artifact
    std::vector<Diagnostic> diagnostics; // artifacts that do not read
};

// The probe artifacts of every file of the trace.
ProbeArtifacts readProbeArtifacts(const Trace& trace);
// One payload (the JSON text) read into a recording; nullopt with *error when it does not read.
std::optional<ProbeRecording> parseProbeArtifact(const std::string& json, std::string* error);

// The compiles a callable's calls made, in trace order: those of its compiling calls, found by
// compile id in the recording's file (the first not yet taken that starts at or after the call),
// else by time (a compile that starts inside a compiling call).
std::vector<uint32_t> compilesOfCallable(
    const Trace& trace, const ProbeRecording& recording, const ProbeCallable& callable);
// The trace's frame of the callable's code (same name, file and first line; else same name and
// file name), kNone when it never compiled.
uint32_t frameOfCallable(
    const Trace& trace, const ProbeRecording& recording, const ProbeCallable& callable);

} // namespace dynascope
