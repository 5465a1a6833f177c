// Compile cost against runtime gain: after how many calls compiling a callable paid for itself,
// from the call timings the probe's artifact carries (probe_artifact.h). For `probe` reports, and
// for the Findings panel: a finding reads these as they are.
//
// Per compiled callable (and so per frame: the callable's code is the frame Dynamo compiled
// first; resume frames and nested frames compiled during its calls count towards it):
//   overhead   = what its compiling calls took beyond a steady-state compiled call
//                (sum of those calls' times - their number x the steady-state median)
//   gain       = eager time per call - compiled steady-state time per call
//   break-even = ceil(overhead / gain) calls, when gain > 0
// The eager time per call comes from the probe's eager run (no torch.compile, same program) when
// one is given, else from the --check runs inside this run, which ran each measured call's
// inputs eagerly too.
#pragma once

#include "core/analysis/probe_artifact.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

enum class PayoffVerdict : uint8_t {
    PaidOff, // break-even reached within the calls the program made
    NotYet, // it would pay off, after more calls than the program made
    Never, // a compiled call is not faster than an eager one
    Unknown, // no eager time, or no steady-state time, to compare
};
const char* toString(PayoffVerdict v); // "paid_off", "not_yet", "never", "unknown"

struct CallablePayoff {
    std::string label; // "MLP.forward (mlp.py:7)"
    uint32_t frame = kNone; // Trace::frames index of the callable's code
    std::vector<uint32_t> compiles; // the compiles its calls made
    double compileUs = 0; // sum of those compiles' durations in the trace
    uint64_t calls = 0;
    double overheadUs = 0;
    std::optional<double> compiledUs; // steady-state median per call
    std::optional<double> eagerUs; // per call without torch.compile
    std::string eagerSource; // "eager run", "--check", "" (none)
    std::optional<double> gainUs; // eagerUs - compiledUs
    std::optional<uint64_t> breakEvenCalls;
    PayoffVerdict verdict = PayoffVerdict::Unknown;
    std::string detail; // the verdict in plain words, without the label (Dynascope's words only)
    std::string text; // label + ": " + detail
};

// One entry per callable of `compiled` that was compiled (backend other than "none"). eagerRun:
// the probe's run of the same program without torch.compile (its callables are matched by code).
std::vector<CallablePayoff> compilePayoff(
    const Trace& trace, const ProbeRecording& compiled, const ProbeRecording* eagerRun = nullptr);

} // namespace dynascope
