#include "core/model/phase_groups.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace dynascope {

namespace {
struct GroupInfo {
    const char* id;
    const char* label;
};
constexpr std::array<GroupInfo, kPhaseGroupCount> kGroups { {
    { "dynamo_tracing", "Dynamo tracing" },
    { "guards", "Guards" },
    { "dynamo_other", "Dynamo (other)" },
    { "backend", "Backend" },
    { "aot_autograd", "AOTAutograd" },
    { "inductor", "Inductor" },
    { "inductor_codegen", "Inductor codegen" },
    { "autotuning", "Autotuning" },
    { "cache", "Cache" },
    { "cudagraphs", "CUDA graphs" },
    { "other", "Other" },
    { "unattributed", "Unattributed" },
} };

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}
} // namespace

const char* phaseGroupId(PhaseGroup g)
{
    return kGroups[static_cast<size_t>(g)].id;
}

const char* phaseGroupLabel(PhaseGroup g)
{
    return kGroups[static_cast<size_t>(g)].label;
}

std::optional<PhaseGroup> phaseGroupOf(std::string_view n)
{
    using G = PhaseGroup;
    static const std::pair<std::string_view, G> exact[] = {
        { "bytecode_tracing", G::DynamoTracing },
        { "build_guards", G::Guards },
        { "dynamo", G::DynamoOther },
        { "entire_frame_compile", G::DynamoOther },
        { "_compile.compile_inner", G::DynamoOther },
        { "gc", G::DynamoOther },
        { "backend_compile", G::Backend },
        { "OutputGraph.call_user_compiler", G::Backend },
        { "create_aot_dispatcher_function", G::AotAutograd },
        { "min_cut_rematerialization_partition", G::AotAutograd },
        { "_recursive_joint_graph_passes", G::AotAutograd },
        { "inductor_codecache_torch_key", G::Cache },
        { "code_gen", G::InductorCodegen },
        { "compile_file", G::InductorCodegen },
    };
    for (const auto& [name, g] : exact)
        if (n == name)
            return g;
    // Patterns, most specific first.
    if (contains(n, "benchmark") || contains(n, "Benchmarker") || contains(n, "Autotuner")
        || contains(n, "autotune"))
        return G::Autotuning;
    if (contains(n, "Cache.") || contains(n, "_cache_get") || contains(n, "_cache_put")
        || contains(n, "cache_lookup"))
        return G::Cache;
    if (n.starts_with("cudagraph") || n.starts_with("CUDAGraph"))
        return G::CudaGraphs;
    if (n.starts_with("compile_attempt_"))
        return G::DynamoOther;
    if (n.starts_with("aot_") || n.starts_with("AOTAutograd"))
        return G::AotAutograd;
    if (contains(n, "codegen") || contains(n, "code_gen") || n.starts_with("PyCodeCache")
        || n.starts_with("async_compile") || n.starts_with("TritonBundler")
        || n == "GraphLowering.compile_to_fn" || n == "GraphLowering.compile_to_module"
        || n.starts_with("PythonWrapperCodegen"))
        return G::InductorCodegen;
    if (n.starts_with("inductor") || n.starts_with("compile_fx") || n.starts_with("fx_codegen")
        || n.starts_with("GraphLowering") || n.starts_with("Scheduler")
        || n.starts_with("_recursive_") || n == "additional_fake_tensor_prop"
        || contains(n, "pre_grad") || contains(n, "post_grad"))
        return G::Inductor;
    return std::nullopt;
}

PhaseTimes phaseTimes(const Compile& c)
{
    PhaseTimes out {};
    const double lo = c.startUs, hi = c.endUs;
    if (!(hi > lo))
        return out;
    struct Span {
        double start, end;
        int depth;
        std::optional<PhaseGroup> group;
    };
    std::vector<Span> spans;
    std::vector<double> cuts { lo, hi };
    for (const PhaseSpan& p : c.phases) {
        double s = std::max(lo, p.startUs), e = std::min(hi, p.endUs);
        if (!(e > s))
            continue;
        spans.push_back({ s, e, p.depth, phaseGroupOf(p.name()) });
        cuts.push_back(s);
        cuts.push_back(e);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::sort(
        spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.start < y.start; });
    // Sweep the elementary intervals between cuts, keeping the spans that cover the current one.
    // The innermost covering span is the deepest, then the later-starting one (overlapping
    // spans on one thread: the more recent one).
    std::vector<const Span*> active;
    size_t next = 0;
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        double a = cuts[k], b = cuts[k + 1];
        active.erase(std::remove_if(
                         active.begin(), active.end(), [&](const Span* s) { return s->end <= a; }),
            active.end());
        while (next < spans.size() && spans[next].start <= a)
            active.push_back(&spans[next++]);
        PhaseGroup g = PhaseGroup::Unattributed;
        const Span* best = nullptr;
        for (const Span* s : active) {
            if (!s->group)
                continue;
            if (!best || s->depth > best->depth
                || (s->depth == best->depth && s->start > best->start))
                best = s;
        }
        if (best)
            g = *best->group;
        else if (!active.empty())
            g = PhaseGroup::Other;
        out[static_cast<size_t>(g)] += b - a;
    }
    return out;
}

} // namespace dynascope
