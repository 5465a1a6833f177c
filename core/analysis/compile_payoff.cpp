#include "core/analysis/compile_payoff.h"

#include "core/util/text_format.h"

#include <cmath>

namespace dynascope {

const char* toString(PayoffVerdict v)
{
    switch (v) {
    case PayoffVerdict::PaidOff:
        return "paid_off";
    case PayoffVerdict::NotYet:
        return "not_yet";
    case PayoffVerdict::Never:
        return "never";
    case PayoffVerdict::Unknown:
        break;
    }
    return "unknown";
}

namespace {

std::string thousands(uint64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<size_t>(i), ",");
    return s;
}

std::string callsText(uint64_t n)
{
    return thousands(n) + (n == 1 ? " call" : " calls");
}

} // namespace

std::vector<CallablePayoff> compilePayoff(
    const Trace& trace, const ProbeRecording& compiled, const ProbeRecording* eagerRun)
{
    std::vector<CallablePayoff> out;
    for (const ProbeCallable& c : compiled.callables) {
        if (c.backend == "none")
            continue;
        CallablePayoff p;
        p.label = c.label();
        p.frame = frameOfCallable(trace, compiled, c);
        p.compiles = compilesOfCallable(trace, compiled, c);
        for (uint32_t i : p.compiles)
            p.compileUs += trace.compiles[i].durationUs();
        p.calls = c.calls;
        p.compiledUs = c.steadyMedianUs();
        if (eagerRun) {
            for (const ProbeCallable& e : eagerRun->callables) {
                if (e.sameCode(c) && e.backend == "none" && e.steadyMedianUs()) {
                    p.eagerUs = e.steadyMedianUs();
                    p.eagerSource = "eager run";
                    break;
                }
            }
        }
        if (!p.eagerUs && c.eagerMedianUs()) {
            p.eagerUs = c.eagerMedianUs();
            p.eagerSource = "--check";
        }
        const double steady = p.compiledUs.value_or(0);
        double compilingUs = 0;
        for (const ProbeCompilingCall& call : c.compilingCalls)
            compilingUs += call.us;
        p.overheadUs
            = std::max(0.0, compilingUs - static_cast<double>(c.compilingCalls.size()) * steady);
        const std::string head;
        if (!p.compiledUs) {
            p.text = head + "no steady-state call was measured (it ran " + callsText(c.calls)
                + "), so compiling cannot be weighed against its gain";
        } else if (!p.eagerUs) {
            p.text = head + "compiled " + text::duration(*p.compiledUs)
                + " per call; no eager time to compare with (the probe's eager run, or --check)";
        } else {
            p.gainUs = *p.eagerUs - *p.compiledUs;
            const std::string perCall = text::duration(*p.compiledUs) + " per call against "
                + text::duration(*p.eagerUs) + " eager";
            if (*p.gainUs <= 0) {
                p.verdict = PayoffVerdict::Never;
                p.text = head + "a compiled call is not faster (" + perCall + "): compiling ("
                    + text::duration(p.overheadUs) + ") never pays for itself";
            } else {
                const double n = std::ceil(p.overheadUs / *p.gainUs);
                p.breakEvenCalls = n < 1 ? 1 : n > 1e18 ? uint64_t(1e18) : uint64_t(n);
                const std::string cost = "compiling cost " + text::duration(p.overheadUs) + "; "
                    + perCall + " saves " + text::duration(*p.gainUs) + " a call, ";
                if (*p.breakEvenCalls <= c.calls) {
                    p.verdict = PayoffVerdict::PaidOff;
                    p.text = head + cost + "so it paid for itself after "
                        + callsText(*p.breakEvenCalls) + " (the program made " + thousands(c.calls)
                        + ")";
                } else {
                    p.verdict = PayoffVerdict::NotYet;
                    p.text = head + cost + "so it pays for itself after "
                        + callsText(*p.breakEvenCalls) + "; the program made only "
                        + thousands(c.calls);
                }
            }
        }
        p.detail = p.text;
        p.text = p.label + ": " + p.detail;
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace dynascope
