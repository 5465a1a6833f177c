// Internal to the findings analysis (findings.h): the context the rules share and the rule
// groups, one file each: findings_recompiles.cpp, findings_breaks.cpp, findings_costs.cpp,
// findings_probe.cpp, findings_ranks.cpp (with findings_ranks_frames.cpp).
#pragma once

#include "core/analysis/findings.h"
#include "core/util/text_format.h"

#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::findings {

struct Context {
    const Trace& trace;
    std::stop_token stop;
    std::vector<Finding> out;

    // "`scale` (train.py:25)" (title form) and "scale (train.py:25)" (Finding::frameLabel): the
    // frame's code, as every rank compiles it. A title about a finding's own frame is made with
    // setTitle(), which leaves the rank's place to the words that name it ("on rank 3", or "on
    // ranks 0-255" once merged).
    std::string codeTitle(uint32_t frame) const;
    std::string codeLabel(uint32_t frame) const;
    // The frame named inside another finding's text, with " on rank N" when the trace has
    // several ranks.
    std::string frameMention(uint32_t frame) const;
    // f.title = aboutFrame + rest, where aboutFrame ends with codeTitle(f.frame): the words that
    // name the finding's rank go between the two.
    void setTitle(Finding& f, std::string aboutFrame, std::string rest);
    // "[0/1], [0/2] and 3 more" (at most eight named).
    std::string compileList(const std::vector<uint32_t>& compiles) const;
    // A finding about `frame`, with its label, its ladder step (finding_rule.h) and, in a trace
    // of several ranks, the frame's rank filled in.
    Finding& add(Rule rule, FindingSeverity severity, uint32_t frame);
    // Where in each finding's title its rank's words go (setTitle), parallel to `out`.
    std::vector<size_t> rankAt;
    size_t& rankAtOf(size_t finding);
    // Sum of the compiles' durations.
    double durationOf(const std::vector<uint32_t>& compiles) const;
};

// "812 µs", "41.2 ms", "2.41 s" (text::duration, as the app and the reports say it).
std::string formatUs(double us);
// "L['x']" -> "x", "G['THRESHOLD']" -> "THRESHOLD", "L['self']._modules['drop'].training" ->
// "self.drop.training": how the user's code names a guarded source.
std::string userName(std::string_view source);
using text::baseName; // the file name without its folders
using text::firstLine;

void recompileRules(Context& cx); // recompile-shape, recompile-guard, dynamic-still-recompiles,
                                  // recompile-limit
void breakRules(Context& cx); // graph-break, graph-break-io, data-dependent,
                              // graph-break-skipped-frame, failure, fullgraph-error
void costRules(Context& cx); // cold-start, cache-miss, empty-graph, small-graphs, guard-cost
void kernelRules(Context& cx); // kernel-compile-time, autotune-miss, graph-break-lost-fusion
                               // (findings_kernels.cpp)
void cudagraphRules(Context& cx); // cudagraphs-skipped (findings_cudagraphs.cpp)
void probeRules(Context& cx); // wrong-result, compile-payoff (the probe's artifact)
void rankRules(Context& cx); // rank-only-compiles, rank-recompiles, rank-graph-breaks,
                             // rank-failures, rank-cache, straggler (two ranks or more)

} // namespace dynascope::findings
