// Findings from the kernels Inductor generated (core/analysis/kernels.h): kernel-compile-time
// (compiling Triton kernels was most of a frame's compiles) and autotune-miss (kernels
// benchmarked over several configs because the autotune cache had no answer). One finding per
// frame, as the other rules group theirs.
#include "core/analysis/findings_rules.h"

#include "core/analysis/kernels.h"

#include <algorithm>
#include <map>
#include <set>

namespace dynascope::findings {

namespace {

// A compile whose Triton kernels took at least this share of its duration, and this long.
constexpr double kKernelShare = 0.5;
constexpr int64_t kMinKernelUs = 100'000;

struct FrameKernels {
    std::vector<uint32_t> heavy; // compiles where compiling kernels dominated
    int64_t heavyKernelUs = 0;
    double heavyCompileUs = 0;
    std::map<std::string, uint32_t> heavyNames; // kernel name -> compiles that compiled it
    std::vector<uint32_t> tuned; // compiles that autotuned after a miss
    uint64_t tunedKernels = 0;
    int64_t tunedUs = 0;
    int64_t minConfigs = 0, maxConfigs = 0;
    std::string firstTuned; // a kernel's name, for the title
};

std::string plural(uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

void kernelRules(Context& cx)
{
    const Trace& t = cx.trace;
    std::map<uint32_t, FrameKernels> byFrame;
    for (const Compile& c : t.compiles) {
        if (cx.stop.stop_requested())
            return;
        if (c.startRecord == kNone || c.frame == kNone)
            continue;
        const CompileKernels ks = compileKernels(t, c);
        if (ks.kernels.empty())
            continue;
        KernelCounts n;
        n.add(ks.kernels);
        FrameKernels& fk = byFrame[c.frame];
        if (n.compileTimeUs >= kMinKernelUs && c.durationUs() > 0
            && static_cast<double>(n.compileTimeUs) >= kKernelShare * c.durationUs()) {
            fk.heavy.push_back(c.index);
            fk.heavyKernelUs += n.compileTimeUs;
            fk.heavyCompileUs += c.durationUs();
            for (const Kernel& k : ks.kernels)
                if (k.compileTimeUs)
                    ++fk.heavyNames[k.name];
        }
        bool tuned = false;
        for (const Kernel& k : ks.kernels) {
            if (k.autotuneState != "miss" || k.numConfigs.value_or(0) <= 1)
                continue;
            tuned = true;
            ++fk.tunedKernels;
            fk.tunedUs += k.compileTimeUs.value_or(0);
            const int64_t configs = *k.numConfigs;
            fk.minConfigs = fk.minConfigs ? std::min(fk.minConfigs, configs) : configs;
            fk.maxConfigs = std::max(fk.maxConfigs, configs);
            if (fk.firstTuned.empty())
                fk.firstTuned = k.name;
        }
        if (tuned)
            fk.tuned.push_back(c.index);
    }

    for (const auto& [frame, fk] : byFrame) {
        if (!fk.heavy.empty()) {
            Finding& f = cx.add(Rule::KernelCompileTime, FindingSeverity::Note, frame);
            char pct[16];
            std::snprintf(pct, sizeof pct, "%.0f%%",
                100.0 * static_cast<double>(fk.heavyKernelUs) / fk.heavyCompileUs);
            cx.setTitle(f, cx.codeTitle(frame),
                " spent " + formatUs(static_cast<double>(fk.heavyKernelUs))
                    + " compiling Triton kernels, " + pct + " of "
                    + (fk.heavy.size() == 1 ? "its compile" : "those compiles") + " ("
                    + plural(fk.heavy.size(), "compile", "compiles") + ")");
            f.compiles = fk.heavy;
            f.count = fk.heavy.size();
            f.costUs = static_cast<double>(fk.heavyKernelUs);
            f.evidence.emplace_back("compiles", cx.compileList(fk.heavy));
            f.evidence.emplace_back(
                "kernel compile time", formatUs(static_cast<double>(fk.heavyKernelUs)));
            f.evidence.emplace_back("compile time", formatUs(fk.heavyCompileUs));
            // The same kernel compiled again in several compiles: recompiles for new sizes.
            std::string again;
            uint32_t times = 0;
            for (const auto& [name, n] : fk.heavyNames)
                if (n > times) {
                    times = n;
                    again = name;
                }
            if (times > 1)
                f.evidence.emplace_back(
                    "compiled again", again + " in " + std::to_string(times) + " compiles");
            f.why = "Inductor compiles every Triton kernel it generates (and every config it "
                    "tunes) before the first call runs; in these compiles that was most of the "
                    "time, not tracing or lowering.";
            f.hint = times > 1
                ? "The same kernel is compiled again by each recompile: make the changing size "
                  "dynamic (torch._dynamo.mark_dynamic, or dynamic=True) so one kernel serves "
                  "every size. Keep the caches between runs (TORCHINDUCTOR_CACHE_DIR holds the FX "
                  "graph and Triton caches) so a second run loads the kernels instead."
                : "Keep the caches between runs (TORCHINDUCTOR_CACHE_DIR holds the FX graph and "
                  "Triton caches; torch.compiler.save_cache_artifacts() carries them to another "
                  "machine) so a second run loads the kernels instead of compiling them; "
                  "compile_threads sets how many kernels compile side by side.";
        }
        if (!fk.tuned.empty()) {
            Finding& f = cx.add(Rule::AutotuneMiss, FindingSeverity::Note, frame);
            const std::string configs = fk.minConfigs == fk.maxConfigs
                ? std::to_string(fk.maxConfigs)
                : std::to_string(fk.minConfigs) + "-" + std::to_string(fk.maxConfigs);
            cx.setTitle(f, cx.codeTitle(frame),
                " autotuned " + plural(fk.tunedKernels, "Triton kernel", "Triton kernels")
                    + " because the autotune cache missed (" + configs + " configs each"
                    + (fk.tunedUs
                            ? ", " + formatUs(static_cast<double>(fk.tunedUs)) + " compiling them"
                            : std::string())
                    + ")");
            f.compiles = fk.tuned;
            f.count = fk.tunedKernels;
            f.costUs = static_cast<double>(fk.tunedUs);
            f.evidence.emplace_back("compiles", cx.compileList(fk.tuned));
            f.evidence.emplace_back("kernels tuned", std::to_string(fk.tunedKernels));
            f.evidence.emplace_back("configs per kernel", configs);
            f.evidence.emplace_back("first kernel", fk.firstTuned);
            if (fk.tunedUs)
                f.evidence.emplace_back(
                    "their compile time", formatUs(static_cast<double>(fk.tunedUs)));
            f.why = "On a miss Inductor compiles every candidate config of the kernel and times "
                    "them on the device before the first call; a hit (a best config saved by an "
                    "earlier run) compiles one. A first run on a machine always misses.";
            f.hint = "Keep the autotune cache: it is saved beside the kernel in "
                     "TORCHINDUCTOR_CACHE_DIR (autotune_local_cache), so keep that folder between "
                     "runs, or share one across machines (autotune_remote_cache); an FX graph "
                     "cache hit skips tuning altogether. Where compile time matters more than the "
                     "last few percent, do not use mode=\"max-autotune\", which tunes many more "
                     "configs.";
        }
    }
}

} // namespace dynascope::findings
