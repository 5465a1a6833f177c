#include "python/src/py_kernels.h"

#include "python/src/py_convert.h"

namespace dynascope::py {

namespace {

nb::object optional(const std::optional<int64_t>& v)
{
    return v ? nb::object(nb::int_(*v)) : nb::none();
}

nb::object textOrNone(std::string_view s)
{
    return s.empty() ? nb::none() : nb::object(str(s));
}

nb::dict kernelDict(const Kernel& k)
{
    nb::dict d;
    d["name"] = str(k.name);
    d["kind"] = toString(k.kind);
    nb::list ops;
    for (const std::string& op : k.fusedOps)
        ops.append(str(op));
    d["fused_ops"] = ops;
    d["ops_from_name"] = k.opsFromName;
    d["graph"] = textOrNone(k.graph);
    d["compile_time_us"] = optional(k.compileTimeUs);
    d["autotune_state"] = textOrNone(k.autotuneState);
    d["num_configs"] = optional(k.numConfigs);
    d["config"] = textOrNone(k.config);
    d["has_info"] = k.hasInfo;
    d["code_line"] = k.codeLine;
    d["calls"] = k.calls;
    return d;
}

} // namespace

nb::dict kernelCountsDict(const KernelCounts& n)
{
    nb::dict byKind;
    for (size_t i = 0; i < kKernelKindCount; ++i)
        byKind[toString(static_cast<KernelKind>(i))] = n.byKind[i];
    nb::dict d;
    d["generated"] = n.generated;
    d["by_kind"] = byKind;
    d["compile_time_us"] = n.compileTimeUs;
    d["autotune_misses"] = n.autotuneMisses;
    return d;
}

nb::dict compileKernelsDict(const CompileKernels& k)
{
    nb::list kernels;
    for (const Kernel& kernel : k.kernels)
        kernels.append(kernelDict(kernel));
    KernelCounts counts;
    counts.add(k.kernels);
    nb::dict d;
    d["kernels"] = kernels;
    d["counts"] = kernelCountsDict(counts);
    d["fx_graph_cache_hit"] = k.fxGraphCacheHit;
    d["output_codes"] = k.outputCodes;
    return d;
}

} // namespace dynascope::py
