// Findings from the kernels Inductor generated (core/analysis/kernels.h): kernel-compile-time
// (compiling Triton kernels was most of a frame's compiles) and autotune-miss (kernels
// benchmarked over several configs because the autotune cache had no answer), one finding per
// frame, as the other rules group theirs; graph-break-lost-fusion (a graph break left a graph
// of one kernel on each side: what one fused kernel could do runs as several, with Python in
// between), one finding per break site.
#include "core/analysis/findings_rules.h"

#include "core/analysis/kernels.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

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

// What a compile's kernels are, kept from the one read of its output code.
struct CompileKernelSummary {
    bool read = false;
    KernelCounts counts;
    std::vector<std::pair<std::string, KernelKind>> generated; // name, kind (output code order)
};

// A graph on one side of a break that is small enough that the break cost a fusion: one
// generated kernel or none, and no extern kernel (an mm between them would not fuse anyway).
bool oneKernelAtMost(const CompileKernelSummary& k)
{
    return k.read && k.counts.generated <= 1 && k.counts.externCalls == 0;
}

struct BreakSite {
    uint32_t frame = kNone;
    const GraphBreak* first = nullptr;
    std::set<uint32_t> before, after; // the compiles that broke here; their resume compiles
    uint64_t breaks = 0;
};

bool isItemBreak(const GraphBreak& gb)
{
    const auto has = [](std::string_view s, std::string_view what) {
        return s.find(what) != std::string_view::npos;
    };
    const std::string_view title = gb.details.empty() ? std::string_view() : gb.details[0].title;
    return has(gb.reason, "Tensor.item()") || has(gb.reason, "capture_scalar_outputs")
        || has(title, "Tensor.item()") || has(title, "capture_scalar_outputs");
}

// "[0/0]: triton_red_fused_sin_sum_0 (reduction)": the compiles and their distinct kernels.
std::string sideText(const Context& cx, const std::set<uint32_t>& compiles,
    const std::vector<CompileKernelSummary>& kernels)
{
    std::vector<std::string> names;
    for (uint32_t c : compiles)
        for (const auto& [name, kind] : kernels[c].generated) {
            std::string n = name + " (" + toString(kind) + ")";
            if (std::find(names.begin(), names.end(), n) == names.end())
                names.push_back(std::move(n));
        }
    std::string out = cx.compileList({ compiles.begin(), compiles.end() }) + ": ";
    if (names.empty())
        return out + "no kernel";
    for (size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + names[i];
    return out;
}

// "1 reduction kernel" / "1 pointwise kernel": the kind of the first kernel of a side.
std::string sideKind(
    const std::set<uint32_t>& compiles, const std::vector<CompileKernelSummary>& kernels)
{
    for (uint32_t c : compiles)
        if (!kernels[c].generated.empty())
            return std::string("1 ") + toString(kernels[c].generated.front().second) + " kernel";
    return "no kernel";
}

void lostFusionRule(Context& cx, const std::vector<CompileKernelSummary>& kernels)
{
    const Trace& t = cx.trace;
    std::map<uint32_t, std::vector<uint32_t>> compilesOfFrame;
    for (const Compile& c : t.compiles)
        if (c.frame != kNone && c.startRecord != kNone)
            compilesOfFrame[c.frame].push_back(c.index);
    // Break sites in trace order: (frame, file, line).
    std::map<std::tuple<uint32_t, std::string, int64_t>, BreakSite> sites;
    std::vector<std::tuple<uint32_t, std::string, int64_t>> order;
    for (const Compile& c : t.compiles) {
        if (c.frame == kNone || !oneKernelAtMost(kernels[c.index]))
            continue;
        for (const GraphBreak& gb : c.graphBreaks) {
            if (gb.skipsFrame || gb.cannotResume || gb.resumeFrame == kNone)
                continue;
            const auto resumes = compilesOfFrame.find(gb.resumeFrame);
            if (resumes == compilesOfFrame.end())
                continue;
            // Every compile of the resume frame is a graph of one kernel at most, and the two
            // sides ran two kernels: the break split what could have been one.
            bool small = true, afterKernel = false;
            for (uint32_t r : resumes->second) {
                small = small && oneKernelAtMost(kernels[r]);
                afterKernel = afterKernel || kernels[r].counts.generated == 1;
            }
            if (!small || !afterKernel || kernels[c.index].counts.generated != 1)
                continue;
            auto key = std::make_tuple(c.frame, gb.file, gb.line);
            auto [it, added] = sites.try_emplace(key);
            if (added) {
                order.push_back(key);
                it->second.frame = c.frame;
                it->second.first = &gb;
            }
            it->second.before.insert(c.index);
            it->second.after.insert(resumes->second.begin(), resumes->second.end());
            ++it->second.breaks;
        }
    }
    for (const auto& key : order) {
        const BreakSite& site = sites.at(key);
        const GraphBreak& gb = *site.first;
        const GraphBreakDetail* detail = gb.details.empty() ? nullptr : &gb.details[0];
        const std::string at = gb.file.empty()
            ? std::string("its graph break")
            : std::string(baseName(gb.file)) + ":" + std::to_string(gb.line);
        const std::string type
            = std::string(firstLine(detail && !detail->title.empty() ? detail->title : gb.reason));
        Finding& f = cx.add(Rule::GraphBreakLostFusion, FindingSeverity::Note, site.frame);
        cx.setTitle(f, cx.codeTitle(site.frame),
            " runs as graphs of one kernel each, split by the graph break at " + at + ": "
                + sideKind(site.before, kernels) + " before it, " + sideKind(site.after, kernels)
                + " after it, launched apart with Python in between");
        std::set<uint32_t> all = site.before;
        all.insert(site.after.begin(), site.after.end());
        f.compiles.assign(all.begin(), all.end());
        f.count = site.breaks;
        f.evidence.emplace_back("graph break", at + ": " + type);
        f.evidence.emplace_back("before the break", sideText(cx, site.before, kernels));
        f.evidence.emplace_back("after the break", sideText(cx, site.after, kernels));
        f.evidence.emplace_back("resume frame", cx.codeLabel(gb.resumeFrame));
        f.why = "Inductor fuses the operations of one graph into as few kernels as it can; a "
                "graph break ends the graph, so each side here became a graph of its own with "
                "a single kernel, each launched on its own, its intermediate result written to "
                "memory and read back, and the break's Python and the resume frame's guards run "
                "between them. In one graph the work could be one fused kernel.";
        if (isItemBreak(gb)) {
            f.hint = "Keep the .item() in the graph so one graph holds both sides: set "
                     "torch._dynamo.config.capture_scalar_outputs = True (Dynamo then traces the "
                     "value as a symbol). A Python if on that value still breaks: keep it a "
                     "tensor and choose with torch.where(x.sum() > 0, a, b) instead.";
            f.code = "torch._dynamo.config.capture_scalar_outputs = True";
        } else {
            // PyTorch's first hint that says what to do ("This graph break is fundamental"
            // says only that the code must change).
            std::string pytorchHint;
            if (detail)
                for (const std::string& h : detail->hints)
                    if (h.find("fundamental") == std::string::npos) {
                        pytorchHint = h;
                        break;
                    }
            f.hint = "Remove the graph break at " + at
                + " so both sides compile as one graph that Inductor can fuse."
                + (pytorchHint.empty() ? "" : " PyTorch's hint: " + pytorchHint);
        }
        if (detail) {
            f.gbCode = detail->gbCode;
            f.explanation = detail->explanation;
            f.pytorchHints = detail->hints;
        }
        f.userFile = gb.file;
        f.userLine = gb.line;
    }
}

} // namespace

void kernelRules(Context& cx)
{
    const Trace& t = cx.trace;
    std::map<uint32_t, FrameKernels> byFrame;
    std::vector<CompileKernelSummary> summaries(t.compiles.size());
    for (const Compile& c : t.compiles) {
        if (cx.stop.stop_requested())
            return;
        if (c.startRecord == kNone || c.frame == kNone)
            continue;
        const CompileKernels ks = compileKernels(t, c);
        CompileKernelSummary& summary = summaries[c.index];
        summary.read = true;
        summary.counts.add(ks.kernels);
        for (const Kernel& k : ks.kernels)
            if (k.kind != KernelKind::Extern)
                summary.generated.emplace_back(k.name, k.kind);
        if (ks.kernels.empty())
            continue;
        const KernelCounts& n = summary.counts;
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
    lostFusionRule(cx, summaries);
}

} // namespace dynascope::findings
