// Building blocks shared by the synthetic scenarios (internal to core/synth; implemented in
// synth_helpers.cpp, guard_text.cpp and synth_text.cpp): a CompileSpec that
// describes one compile of one frame (inputs, graph, backend, guards, graph break, failure,
// dynamic shapes, timings) and writeCompile(), which writes all of its records in PyTorch's order
// (chromium B/E nesting, dynamo_start, describe_*, graphs, cache artifacts, guard tree,
// compilation_metrics). Plain types only: JSON is built inside the .cpp with nlohmann.
#pragma once

#include "core/model/compile_id.h"
#include "core/writer/trace_writer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynascope::synth {

inline constexpr int64_t kDefaultPid = 4242;
inline constexpr int64_t kDefaultStartUs = 1773484862000000; // 2026-03-14 10:41:02 UTC
inline const std::string kTrainPy = "/home/alice/proj/train.py";
inline const std::string kModelPy = "/home/alice/proj/model.py";

struct TensorInput {
    std::string source; // "L['x']" or "L['self']._modules['fc1']._parameters['weight']"
    std::vector<int64_t> size; // concrete sizes of the example input
    std::vector<int64_t> stride;
    std::vector<bool> dynamicDims; // true = symbolic (shows as None in TENSOR_MATCH)
    std::string dtype = "torch.float32";
    bool requiresGrad = false;
    bool parameter = false;
    bool markedDynamic = false; // torch._dynamo.mark_dynamic: DYNAMIC_INDICES guard
};

struct SymbolSpec { // create_symbol
    std::string symbol; // "s0"
    int64_t value = 0;
    std::string source; // "L['x'].size()[0]"
    WriteFrame userFrame;
};

struct ShapeGuardSpec { // guard_added_fast (and a LAMBDA_GUARD line in the tree)
    std::string expr; // "16 < s0"
    std::string treeExpr; // "16 < L['x'].size()[0]"
    WriteFrame userFrame;
};

struct SpecializationSpec { // symbolic_shape_specialization
    std::string symbol;
    std::vector<std::string> sources;
    std::string value;
    std::string reason;
    WriteFrame userFrame;
};

enum class Detail {
    Full, // every chromium phase, cache artifacts, output code, metrics copy on the dynamo E event
    Lite, // the main phases only (small fixtures)
};

struct CompileSpec {
    CompileId id; // attempt is ignored: a graph break adds attempt 1
    std::optional<int64_t> rank;
    std::vector<WriteFrame> stack; // dynamo_start: call site frames then the compiled function
    std::string coName;
    std::string coFilename;
    int64_t coFirstLineno = 0;
    int64_t frameKey = 1;
    int64_t cacheSize = 0;
    int64_t accumulatedCacheSize = 0;
    Detail detail = Detail::Full;
    bool legacy2024 = false; // 2024 form (dynamo_guards, 2024 metrics, chromium without ids)

    std::vector<TensorInput> inputs;
    std::vector<SymbolSpec> symbols;
    std::vector<ShapeGuardSpec> shapeGuards;
    std::vector<SpecializationSpec> specializations;

    // recompile_reasons artifact payload entries (empty: none); metrics recompile_reason.
    std::vector<std::string> recompileReasons;
    bool recompileReasonsRawText = false; // newer PyTorch: one reason as raw text

    // Graph break: the dynamo_graph_break_reason artifact text (modern form; empty: none) and the
    // restart reasons of the final attempt. restartReasons non-empty => attempt 1 happens.
    std::string graphBreakText;
    std::vector<std::string> restartReasons;
    int64_t numGraphBreaks = 0;

    // Graph
    std::string fxGraph; // dynamo_output_graph payload
    std::string fxSizesJson = "{}"; // dynamo_output_graph "sizes" JSON object
    int64_t graphOpCount = 1;
    int64_t graphNodeCount = 3;
    int64_t graphInputCount = 1;
    std::string aotGraph; // aot_inference_graph payload ("" = no AOT stage: custom backend)
    std::string aotBackwardGraph; // training: aot_forward_graph + aot_backward_graph
    std::string outputCode; // inductor_output_code payload
    std::string outputCodeFile;
    std::string cacheKey; // fx graph cache key (52 chars)
    bool cacheHit = false;
    std::string backendName = "inductor";

    // Failure (backend)
    std::string failType;
    std::string failReason;
    std::string failUserFile;
    int64_t failUserLine = 0;
    std::string errorTraceback; // dynamo_error artifact
    std::string compiledAutogradGraph; // compiled_autograd_graph payload

    // Guards
    std::string guardTree; // "" = generated from inputs and shape guards
    std::vector<std::string> extraRootGuards; // tree lines under RootGuardManager ("KIND: expr")
    int64_t guardCount = 0; // 0 = computed
    double guardLatencyUs = 15.88;

    // Timing (microseconds)
    int64_t tracingUs = 9000;
    int64_t backendUs = 450000;
    int64_t guardsUs = 3500;

    bool automaticDynamicShapes = true; // dynamo_config value
    // compilation_metrics inductor_config JSON string ("" = inductorConfigJson(), about 1 KB;
    // the scale scenario passes a full-size one, about 15 KB as in 2025 logs).
    std::string inductorConfig;
};

// Writes every record of one compile, advancing the writer clock.
void writeCompile(TraceWriter& w, const CompileSpec& spec);

// The default dynamo_cpp_guards_str tree for the spec's inputs and shape guards.
std::string cppGuardTree(const CompileSpec& spec);

// check_tensor(...) text of a TENSOR_MATCH guard.
std::string checkTensorText(const TensorInput& t);

// dynamo_config as the JSON string PyTorch stores in compilation_metrics (about 3.3 KB).
std::string dynamoConfigJson(bool automaticDynamicShapes, bool legacy2024 = false);

// Size list for FX annotations: "32, 128" or "s0, 128".
std::string sizeText(const TensorInput& t, bool forTensorMatch);

// A deterministic 52-char base32-ish key (fx graph cache keys, file names) from a seed string.
std::string fakeKey(std::string_view seed, size_t len = 52);

// A stable 64-bit FNV-1a hash (seeds for jitter, keys and addresses).
uint64_t stableHash(std::string_view s);
// "32, 128" from a size or stride list.
std::string joinSizes(const std::vector<int64_t>& v);
// inductor_config as the JSON string of compilation_metrics (about 1 KB subset).
std::string inductorConfigJson();
// Inductor's generated CPU module for a compile (inductor_output_code payload).
std::string inductorOutputCode(const CompileSpec& spec, const std::string& kernel);

// Small, standard pieces of text.
std::string pythonTracebackFrames(); // "Traceback (most recent call last):" + dynamo frames
WriteFrame frame(
    const std::string& file, int64_t line, const std::string& name, const std::string& loc = "");

} // namespace dynascope::synth
