// Time by phase: a compile's time split into parts that do not overlap and add up to the
// compile's duration.
//
// Chromium spans nest (dynamo > entire_frame_compile > compile_attempt_0 > backend_compile >
// create_aot_dispatcher_function > inductor_compile > code_gen ...), so summing spans by name
// counts time twice, and the direct children of the outermost span are uninformative
// (entire_frame_compile holds nearly everything). Instead each moment of the compile is
// attributed to the innermost span covering it whose name maps to a compiler layer; names with
// no mapping inherit the layer of the span around them. Moments no span covers (compiles timed
// by metrics or the glog prefix, gaps between spans) are "unattributed". Spans are clipped to the
// compile's [start, end], so the parts sum to Compile::durationUs().
//
// The mapping is a fixed table of PyTorch's span names plus a few name patterns (see
// phaseGroupOf); docs/cli.md ("The compile report") documents it.
#pragma once

#include "core/model/trace.h"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace dynascope {

enum class PhaseGroup : uint8_t {
    DynamoTracing, // bytecode_tracing
    Guards, // build_guards
    DynamoOther, // dynamo, entire_frame_compile, compile_attempt_N, gc: Dynamo's own time
    Backend, // backend_compile, OutputGraph.call_user_compiler: custom backends, eager
    AotAutograd, // create_aot_dispatcher_function, aot_*, joint graph passes, partitioning
    Inductor, // inductor_compile, compile_fx_inner, GraphLowering.run, pre/post-grad passes
    InductorCodegen, // code_gen, Scheduler.codegen, PyCodeCache, compile_file, async_compile
    Autotuning, // *benchmark*, CachingAutotuner.*
    Cache, // AOTAutogradCache.*, FxGraphCache.*, *_cache_get/put, inductor_codecache_torch_key
    CudaGraphs, // cudagraphify*, CUDAGraphTreeManager.*
    Other, // spans with no mapping and no mapped span around them
    Unattributed, // compile time no span covers
};
inline constexpr size_t kPhaseGroupCount = 12;
using PhaseTimes = std::array<double, kPhaseGroupCount>; // microseconds per PhaseGroup

const char* phaseGroupId(PhaseGroup g); // "dynamo_tracing" (JSON keys)
const char* phaseGroupLabel(PhaseGroup g); // "Dynamo tracing"
// The layer of a span name; nullopt: inherit the layer of the enclosing span.
std::optional<PhaseGroup> phaseGroupOf(std::string_view spanName);
// Exclusive time per group for one compile; sums to c.durationUs().
PhaseTimes phaseTimes(const Compile& c);

} // namespace dynascope
