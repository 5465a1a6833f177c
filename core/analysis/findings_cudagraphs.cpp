// cudagraphs-skipped (findings.h): under torch.compile(mode="reduce-overhead") Inductor wraps
// each graph in a CUDA graph, unless something in it stops that; it then logs why in
// compilation_metrics.cudagraph_skip_reason (bwd_compilation_metrics' for a backward), which
// PyTorch 2.11 to 2.14 write as "skipping cudagraphs due to <reason>" (or "disabling cudagraphs
// due to ..."). Only compile-time skips reach the trace: skips seen while the program runs (a
// mutation, the re-record limit) go to the TORCH_LOGS text (`cudagraphs`) alone.
#include "core/analysis/findings_rules.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace dynascope::findings {

namespace {

bool contains(std::string_view s, std::string_view what)
{
    return s.find(what) != std::string_view::npos;
}

// The reason without PyTorch's lead ("skipping cudagraphs due to "), its first line only (the
// stack PyTorch appends after "Found from :" is evidence of its own).
std::string shortReason(std::string_view reason)
{
    for (std::string_view lead : { "skipping cudagraphs due to ", "disabling cudagraphs due to " })
        if (reason.starts_with(lead)) {
            reason.remove_prefix(lead.size());
            break;
        }
    reason = firstLine(reason);
    if (const size_t found = reason.find(". Found from"); found != std::string_view::npos)
        reason = reason.substr(0, found);
    return std::string(reason);
}

// What to do, by what PyTorch says stopped the CUDA graph.
std::string hintFor(std::string_view reason)
{
    if (contains(reason, "mutated inputs") || contains(reason, "mutation"))
        return "An input is changed in place inside the graph: keep the in-place update out of "
               "the compiled function, or return the new value instead of mutating the input.";
    if (contains(reason, "cpu device") || contains(reason, "non-cuda"))
        return "A tensor of the graph is on the CPU: move every input and buffer to the GPU, or "
               "keep the CPU work out of the compiled function.";
    if (contains(reason, "multiple devices"))
        return "The graph uses more than one device: compile the work of each device apart.";
    if (contains(reason, "dynamic shape") || contains(reason, "unbacked"))
        return "An operator with a data-dependent output shape (nonzero, unique, .item() "
               "captured) cannot be recorded: keep it out of the compiled function, or pad to a "
               "fixed size.";
    if (contains(reason, "incompatible op") || contains(reason, "CPU"))
        return "An operator in the graph cannot run in a CUDA graph: move it out of the compiled "
               "function.";
    return "Remove what PyTorch names, or compile without mode=\"reduce-overhead\" (its launch "
           "savings are gone for this graph anyway).";
}

} // namespace

void cudagraphRules(Context& cx)
{
    const Trace& t = cx.trace;
    // One finding per frame, graph (forward or backward) and reason.
    using Key = std::tuple<uint32_t, bool, std::string>;
    std::map<Key, std::vector<uint32_t>> groups;
    std::map<Key, std::string> fullReason;
    for (const Compile& c : t.compiles) {
        if (cx.stop.stop_requested())
            return;
        for (const bool backward : { false, true }) {
            const std::string& r = backward ? c.cudagraphSkipReasonBackward : c.cudagraphSkipReason;
            if (r.empty())
                continue;
            const Key key { c.frame, backward, shortReason(r) };
            groups[key].push_back(c.index);
            fullReason.try_emplace(key, r);
        }
    }
    for (const auto& [key, compiles] : groups) {
        const auto& [frame, backward, reason] = key;
        const std::string& full = fullReason[key];
        Finding& f = cx.add(Rule::CudagraphsSkipped, FindingSeverity::Warning, frame);
        cx.setTitle(f, "CUDA graphs skipped for " + cx.codeTitle(frame),
            std::string(backward ? " (its backward)" : "") + ": " + reason
                + (compiles.size() > 1 ? " (" + std::to_string(compiles.size()) + " compiles)"
                                       : ""));
        f.compiles = compiles;
        f.count = compiles.size();
        f.costUs = cx.durationOf(compiles);
        f.evidence.emplace_back("compiles", cx.compileList(compiles));
        f.evidence.emplace_back("reason", std::string(firstLine(full)));
        if (const size_t found = full.find("Found from :"); found != std::string::npos) {
            std::string_view from = std::string_view(full).substr(found + 12);
            while (!from.empty() && (from.front() == ' ' || from.front() == '\n'))
                from.remove_prefix(1);
            if (!from.empty())
                f.evidence.emplace_back("found from", std::string(firstLine(from)));
        }
        f.why = "mode=\"reduce-overhead\" asked for CUDA graphs, but this graph runs without "
                "one: every call pays the kernel launches one by one, the overhead the mode was "
                "chosen to remove. The trace keeps only the last reason a compile gave; skips "
                "seen while the program ran are in TORCH_LOGS=cudagraphs only.";
        f.hint = hintFor(reason);
    }
}

} // namespace dynascope::findings
