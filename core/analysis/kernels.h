// The kernels Inductor generated for a compile, read from its records when asked (the output
// code can be megabytes, so nothing is kept in the model): the Triton and C++ kernels each
// inductor_output_code defines, the extern calls it makes (extern_kernels.mm, addmm, bmm,
// convolution, ...), and what the triton_kernel_info artifacts say of each Triton kernel (its
// compile time, the autotune cache's state, the configs it benchmarked or the one it ran).
//
// triton_kernel_info (PyTorch's async_compile.py, one per graph, JSON) maps each kernel name to
// {"autotune_cache_state": "miss", "num_configs": 2, "compile_time_us": 551300}, or to "only 1
// config" with "only_config" ([["XBLOCK", 1], ["num_warps", 4], ...]), "hit" with
// "best_config", "force_disabled", or no state at all (the cache was not consulted).
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/trace.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynascope {

enum class KernelKind : uint8_t {
    Pointwise, // triton_poi_*
    Reduction, // triton_red_*
    PersistentReduction, // triton_per_*
    Template, // triton_tem_* (matmul and convolution templates)
    Triton, // another Triton kernel (triton_for_*, user kernels)
    Cpp, // cpp_fused_* (Inductor's CPU backend)
    Extern, // an extern call: extern_kernels.mm, addmm, bmm, convolution, ...
};
inline constexpr size_t kKernelKindCount = 7;
// "pointwise", "reduction", "persistent_reduction", "template", "triton", "cpp", "extern"
const char* toString(KernelKind k);
KernelKind kernelKindOf(std::string_view name); // from a generated kernel's name
bool isTriton(KernelKind k);

struct Kernel {
    std::string name; // "triton_poi_fused_addmm_gelu_0", "cpp_fused_gelu_0", "extern_kernels.mm"
    KernelKind kind = KernelKind::Triton;
    // The ATen operations it runs, from the output code's "Original ATen: [aten.addmm, aten.gelu]"
    // comment; without one, the fused part of its name ("addmm_gelu"), and opsFromName is set.
    std::vector<std::string> fusedOps;
    bool opsFromName = false;
    std::optional<int64_t> compileTimeUs; // triton_kernel_info's compile_time_us
    // triton_kernel_info's autotune_cache_state ("miss", "hit", "only 1 config",
    // "force_disabled"); empty when it says none or the trace has no info for the kernel.
    std::string autotuneState;
    std::optional<int64_t> numConfigs; // configs benchmarked on a miss
    std::string config; // only_config or best_config: "XBLOCK=1, num_warps=16, ..."
    bool hasInfo = false; // named by a triton_kernel_info artifact
    uint32_t codeRecord = kNone; // the inductor_output_code record that defines (or calls) it
    uint32_t codeLine = 0; // 1-based line of its definition (extern: first call) in that payload
    uint32_t infoRecord = kNone; // the triton_kernel_info record
    uint32_t calls = 0; // extern calls: how many times the code calls it
    // The graph its output code compiled, from the "# AOT ID: ['0_forward']" line: "inference",
    // "forward", "backward", or "" when the code does not say.
    std::string graph;
};

struct CompileKernels {
    std::vector<Kernel> kernels; // output code order, extern calls after the generated kernels
    std::vector<Diagnostic> diagnostics; // payloads that did not read as expected
    uint32_t outputCodes = 0; // inductor_output_code records read
    // The FX graph cache hit: the code was loaded, not generated, and no triton_kernel_info
    // is logged for its kernels (nothing was compiled or tuned).
    bool fxGraphCacheHit = false;
};

// Reads the compile's inductor_output_code and triton_kernel_info records.
CompileKernels compileKernels(const Trace& trace, const Compile& compile);

struct KernelCounts {
    std::array<uint64_t, kKernelKindCount> byKind {};
    uint64_t generated = 0; // Triton and C++ kernels (extern calls not counted)
    uint64_t externCalls = 0; // distinct extern kernels called
    int64_t compileTimeUs = 0; // sum of compile_time_us
    uint64_t autotuneMisses = 0; // kernels benchmarked after an autotune cache miss
    bool any() const { return generated || externCalls; }
    void add(const std::vector<Kernel>& kernels);
    void add(const KernelCounts& other);
};

// Each compile's kernel counts (Trace::compiles order), and the diagnostics of the payloads
// that did not read as expected: one pass over every compile's records (the summary and the
// report count with it).
struct TraceKernelCounts {
    std::vector<KernelCounts> perCompile;
    std::vector<Diagnostic> diagnostics;
};
TraceKernelCounts countTraceKernels(const Trace& trace);
// "1 pointwise, 2 reduction, 3 extern" (kinds with none left out), or "" when none.
std::string describeKernelCounts(const KernelCounts& counts);
// The counts as the reports say them: "1 pointwise, 2 extern; 551.3 ms compiling Triton
// kernels; 1 autotuned after a cache miss" ("" when none).
std::string kernelSentence(const KernelCounts& counts);

} // namespace dynascope
