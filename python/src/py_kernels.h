// The kernels Inductor generated for a compile (core/analysis/kernels.h) as Python dicts: the
// keys are the field names of Kernel and KernelCounts in python/dynascope/_model.py, documented
// in docs/python.md. These functions build Python objects: call them with the GIL held.
#pragma once

#include "core/analysis/kernels.h"

#include <nanobind/nanobind.h>

namespace dynascope::py {

namespace nb = nanobind;

// {"generated", "by_kind", "compile_time_us", "autotune_misses"}: the summary's
// compiles[].kernels (core/writer/json_fields.h), as a dict.
nb::dict kernelCountsDict(const KernelCounts& counts);

// {"kernels": [kernel dicts], "counts": kernelCountsDict, "fx_graph_cache_hit", "output_codes"}.
nb::dict compileKernelsDict(const CompileKernels& kernels);

} // namespace dynascope::py
