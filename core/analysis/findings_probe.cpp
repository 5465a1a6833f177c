// wrong-result and compile-payoff (findings.h): what the probe's artifact (probe_artifact.h)
// measured inside the traced process, when the trace has one.
#include "core/analysis/compile_payoff.h"
#include "core/analysis/findings_rules.h"
#include "core/analysis/probe_artifact.h"

namespace dynascope::findings {

void probeRules(Context& cx)
{
    const ProbeArtifacts artifacts = readProbeArtifacts(cx.trace);
    for (const ProbeRecording& rec : artifacts.recordings) {
        // --check: a compiled callable whose outputs differ from eager's.
        for (const ProbeCallable& c : rec.callables) {
            if (!c.check || c.check->mismatches == 0)
                continue;
            const uint32_t frame = frameOfCallable(cx.trace, rec, c);
            Finding& f = cx.add(Rule::WrongResult, FindingSeverity::Error, frame);
            f.title = "`" + c.qualname + "` (" + std::string(baseName(c.file)) + ":"
                + std::to_string(c.line) + ") computes a different result compiled than eager: "
                + std::to_string(c.check->mismatches) + " of " + std::to_string(c.check->checked)
                + " checked calls differ";
            f.compiles = compilesOfCallable(cx.trace, rec, c);
            f.count = c.check->mismatches;
            f.costUs = 1e15; // a wrong answer outranks any compile time
            f.evidence.emplace_back("backend", c.backend);
            if (c.check->firstMismatchCall)
                f.evidence.emplace_back(
                    "first differing call", std::to_string(*c.check->firstMismatchCall));
            if (!c.check->firstMismatch.empty())
                f.evidence.emplace_back(
                    "assert_close", std::string(firstLine(c.check->firstMismatch)));
            f.why = "The program runs, but with other numbers: nothing after this call can be "
                    "trusted until the layer that changes the result is found.";
            f.hint = "Walk the ladder with dynascope-cli probe --check: backend=\"eager\" (Dynamo "
                     "alone), then \"aot_eager\" (AOTAutograd), then the default; the first "
                     "backend that differs names the layer.";
            f.code = "dynascope-cli probe --check -- python " + std::string(baseName(c.file));
        }
        // After how many calls compiling paid for itself, per callable.
        for (const CallablePayoff& p : compilePayoff(cx.trace, rec)) {
            if (p.verdict == PayoffVerdict::Unknown)
                continue;
            const bool never = p.verdict == PayoffVerdict::Never;
            Finding& f = cx.add(Rule::CompilePayoff,
                never ? FindingSeverity::Warning : FindingSeverity::Note, p.frame);
            f.title = "Compiling " + p.text;
            f.compiles = p.compiles;
            f.count = p.calls;
            f.costUs = p.compileUs;
            f.evidence.emplace_back("calls", std::to_string(p.calls));
            f.evidence.emplace_back("compile time", formatUs(p.compileUs));
            if (p.compiledUs)
                f.evidence.emplace_back("compiled call (steady state)", formatUs(*p.compiledUs));
            if (p.eagerUs)
                f.evidence.emplace_back("eager call (" + p.eagerSource + ")", formatUs(*p.eagerUs));
            if (p.breakEvenCalls)
                f.evidence.emplace_back("break-even", std::to_string(*p.breakEvenCalls) + " calls");
            f.why = never ? "A compiled call is not faster than an eager one: the compile time is "
                            "never won back."
                          : "Compiling costs time once and saves some on each call after.";
            f.hint = never ? "Leave this callable uncompiled (torch.compiler.disable), or compile "
                             "a larger region where fusion has more to gain; measure the real "
                             "workload again."
                           : "Measure the real workload: the break-even is per this program's "
                             "calls.";
        }
    }
}

} // namespace dynascope::findings
