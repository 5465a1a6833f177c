// writeScaleTrace(): see scale_trace.h. Built from the same CompileSpec/writeCompile() blocks as
// the example and the fixtures; only the sizes and the repetition are new here.
#include "core/synth/scale_trace.h"
#include "core/synth/synth_helpers.h"

#include "core/writer/trace_writer.h"

#include <nlohmann/json.hpp>

namespace dynascope {

using namespace synth;

namespace {

using OJson = nlohmann::ordered_json;

struct Rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

// A full-size inductor_config (2025 logs: ~15 KB, ~400 keys): the fixtures' subset plus the
// option families PyTorch has (triton.*, cpp.*, aot_inductor.*, trace.*, ...).
std::string fullInductorConfig()
{
    OJson c = OJson::parse(inductorConfigJson());
    const char* families[] = { "triton", "cpp", "aot_inductor", "trace", "cuda" };
    const char* options[] = { "enable_kernel_profile", "max_tiles", "prefer_nd_tiling",
        "autotune_pointwise", "autotune_cublasLt", "autotune_at_compile_time",
        "tiling_prevents_"
        "pointwise_fusion",
        "tiling_prevents_reduction_fusion", "unique_user_kernel_names", "descriptive_names",
        "persistent_reductions", "cooperative_reductions", "force_cooperative_reductions",
        "multi_kernel", "divisible_by_16", "min_split_scan_rblock", "store_cubin",
        "spill_threshold", "use_block_ptr", "inject_relu_bug_TESTING_ONLY",
        "codegen_upcast_to_fp32", "enable_persistent_tma_matmul", "skip_l1_cache",
        "disallow_failing_autotune_kernels_TESTING_ONLY", "dense_indexing", "debug_sync_graph",
        "debug_sync_kernel", "fast_path_cudagraph_asserts", "slow_path_cudagraph_asserts",
        "cudagraph_trees_history_recording", "cudagraph_support_input_mutation",
        "cudagraph_unexpected_rerecord_limit", "cudagraph_dynamic_shape_warn_limit",
        "force_cudagraph_sync", "force_cudagraphs_warmup", "vec_isa_ok", "min_chunk_size", "cxx",
        "enable_kernel_profile_extra", "weight_prepack", "inject_log1p_bug_TESTING_ONLY",
        "enable_floating_point_contract_flag", "enable_unsafe_math_opt_flag",
        "enable_tiling_heuristics", "gemm_max_k_slices", "gemm_cache_blocking",
        "gemm_thread_factors", "enable_loop_tail_vec", "enable_concat_linear",
        "use_decompose_tanh" };
    uint64_t k = 0;
    for (const char* f : families)
        for (const char* o : options) {
            std::string key = std::string(f) + "." + o;
            switch (k++ % 5) {
            case 0:
                c[key] = false;
                break;
            case 1:
                c[key] = nullptr;
                break;
            case 2:
                c[key] = int64_t(k % 7 == 0 ? -1 : int64_t(k % 64));
                break;
            case 3:
                c[key] = true;
                break;
            default:
                c[key] = std::string("/tmp/torchinductor_alice/") + fakeKey(key, 12);
                break;
            }
        }
    return TraceWriter::pythonJson(c.dump());
}

const std::string kModule = "/home/alice/.venv/lib/python3.11/site-packages/torch/nn/modules/"
                            "module.py";

std::vector<WriteFrame> callSite(int64_t line, const std::string& loc)
{
    return { frame(kTrainPy, 88, "<module>", "main()"), frame(kTrainPy, line, "main", loc) };
}

TensorInput tensor(const std::string& source, std::vector<int64_t> size)
{
    TensorInput t;
    t.source = source;
    t.size = size;
    t.stride.assign(size.size(), 1);
    for (size_t i = size.size(); i-- > 1;)
        t.stride[i - 1] = t.stride[i] * size[i];
    return t;
}

std::string shape(const std::vector<int64_t>& size, const std::vector<int64_t>& stride)
{
    return "\"f32[" + joinSizes(size) + "][" + joinSizes(stride) + "]cpu\"";
}

// The model: layers of linear + gelu under L['self']._modules['layerN'].
struct ModelGraphs {
    std::string fx, aot, backward, code, sizes;
};

ModelGraphs modelGraphs(int layers, int64_t batch, int64_t hidden, bool training, int64_t line)
{
    ModelGraphs g;
    const std::string act = shape({ batch, hidden }, { hidden, 1 });
    const std::string w = shape({ hidden, hidden }, { hidden, 1 });
    const std::string b = shape({ hidden }, { 1 });
    std::string sig = "L_x_: " + act;
    std::string aliases = "        l_x_ = L_x_\n";
    std::string aotSig = "arg0_1: " + act;
    OJson sizes;
    sizes["l_x_"] = { batch, hidden };
    for (int i = 0; i < layers; ++i) {
        std::string p = "L_self_modules_layer" + std::to_string(i) + "_parameters_";
        sig += ", " + p + "weight_: " + w + ", " + p + "bias_: " + b;
        std::string lp = "l_self_modules_layer" + std::to_string(i) + "_parameters_";
        aliases += "        " + lp + "weight_ = " + p + "weight_\n        " + lp + "bias_ = " + p
            + "bias_\n";
        aotSig += ", arg" + std::to_string(2 * i + 1) + "_1: " + w + ", arg"
            + std::to_string(2 * i + 2) + "_1: " + b;
    }
    g.fx = "class GraphModule(torch.nn.Module):\n    def forward(self, " + sig + "):\n" + aliases
        + "        \n";
    g.aot = "class <lambda>(torch.nn.Module):\n    def forward(self, " + aotSig + "):\n";
    g.backward
        = "class GraphModule(torch.nn.Module):\n    def forward(self, tangents_1: " + act + "):\n";
    std::string prev = "l_x_", aotPrev = "arg0_1";
    for (int i = 0; i < layers; ++i) {
        const std::string n = std::to_string(i);
        const std::string lp = "l_self_modules_layer" + n + "_parameters_";
        const std::string file = "         # File: " + kModelPy + ":"
            + std::to_string(line + 1 + 2 * i) + " in forward, code: x = self.act(self.layer" + n
            + "(x))\n";
        g.fx += file + "        linear_" + n + ": " + act + " = torch._C._nn.linear(" + prev + ", "
            + lp + "weight_, " + lp + "bias_);  " + prev + " = " + lp + "weight_ = " + lp
            + "bias_ = None\n        x_" + n + ": " + act + " = torch._C._nn.gelu(linear_" + n
            + ");  linear_" + n + " = None\n        \n";
        prev = "x_" + n;
        sizes["linear_" + n] = { batch, hidden };
        sizes["x_" + n] = { batch, hidden };
        const std::string wa = "arg" + std::to_string(2 * i + 1) + "_1";
        const std::string ba = "arg" + std::to_string(2 * i + 2) + "_1";
        g.aot += file + "        permute_" + n + ": " + shape({ hidden, hidden }, { 1, hidden })
            + " = torch.ops.aten.permute.default(" + wa + ", [1, 0]);  " + wa + " = None\n"
            + "        addmm_" + n + ": " + act + " = torch.ops.aten.addmm.default(" + ba + ", "
            + aotPrev + ", permute_" + n + ");  " + ba + " = " + aotPrev + " = permute_" + n
            + " = None\n        mul_" + n + ": " + act + " = torch.ops.aten.mul.Tensor(addmm_" + n
            + ", 0.5)\n        erf_" + n + ": " + act + " = torch.ops.aten.erf.default(addmm_" + n
            + ");  addmm_" + n + " = None\n        gelu_" + n + ": " + act
            + " = torch.ops.aten.mul.Tensor(mul_" + n + ", erf_" + n + ");  mul_" + n + " = erf_"
            + n + " = None\n        \n";
        aotPrev = "gelu_" + n;
        if (training)
            g.backward += "        mm_" + n + ": " + w + " = torch.ops.aten.mm.default(permute_" + n
                + ", tangents_1);  permute_" + n + " = None\n        sum_" + n + ": " + b
                + " = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True)\n        view_" + n
                + ": " + b + " = torch.ops.aten.view.default(sum_" + n + ", ["
                + std::to_string(hidden) + "]);  sum_" + n + " = None\n";
        // Three fused kernels per layer in the generated module.
        for (const char* kernel :
            { "cpp_fused_addmm_gelu_", "cpp_fused_native_layer_norm_", "cpp_fused_add_residual_" })
            g.code += "\n\n" + std::string(kernel) + n
                + " = async_compile.cpp_pybinding(['float*', 'const float*'], '''\n"
                  "#include <torch/csrc/inductor/cpp_prefix.h>\nextern \"C\"  void kernel(float* "
                  "in_out_ptr0,\n                       const float* in_ptr0)\n{\n    #pragma omp "
                  "parallel num_threads(2)\n    {\n        int tid = omp_get_thread_num();\n       "
                  " {\n"
                  "            #pragma omp for\n            for(int64_t "
                  "x0=static_cast<int64_t>(0L); "
                  "x0<static_cast<int64_t>("
                + std::to_string(batch * hidden)
                + "L); x0+=static_cast<int64_t>(16L))\n            {\n                auto tmp0 = "
                  "at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), "
                  "static_cast<int64_t>(16));\n                auto tmp1 = "
                  "static_cast<float>(0.5);\n"
                  "                auto tmp2 = at::vec::Vectorized<float>(tmp1);\n                "
                  "auto "
                  "tmp3 = tmp0 * tmp2;\n                auto tmp4 = static_cast<float>("
                  "0.7071067811865476);\n                auto tmp5 = tmp0 * "
                  "at::vec::Vectorized<float>"
                  "(tmp4);\n                auto tmp6 = tmp5.erf();\n                auto tmp7 = "
                  "tmp3 "
                  "* (tmp6 + at::vec::Vectorized<float>(static_cast<float>(1.0)));\n               "
                  " "
                  "tmp7.store(in_out_ptr0 + static_cast<int64_t>(x0));\n            }\n        }\n "
                  "   "
                  "}\n}\n''')\n";
    }
    g.fx += "        return (" + prev + ",)\n        ";
    g.aot += "        return (" + aotPrev + ",)\n        ";
    g.backward += "        return (None,)\n        ";
    g.sizes = sizes.dump();
    return g;
}

std::string generatedModule(const std::string& kernels, int layers, int64_t batch, int64_t hidden)
{
    std::string s = "# AOT ID: ['0_inference']\nfrom ctypes import c_void_p, c_long, c_int\n"
                    "import torch\nimport math\nimport random\nimport os\nimport tempfile\n"
                    "from math import inf, nan\nfrom torch._inductor.hooks import "
                    "run_intermediate_hooks\nfrom torch._inductor.utils import maybe_profile\n"
                    "from torch import device, empty_strided\nfrom torch._inductor.async_compile "
                    "import AsyncCompile\nfrom torch._inductor.select_algorithm import "
                    "extern_kernels\n\naten = torch.ops.aten\nassert_size_stride = "
                    "torch._C._dynamo.guards.assert_size_stride\nempty_strided_cpu = "
                    "torch._C._dynamo.guards._empty_strided_cpu\nasync_compile = AsyncCompile()\n";
    s += kernels;
    s += "\n\nasync_compile.wait(globals())\ndel async_compile\n\ndef call(args):\n    "
         "arg0_1, = args[:1]\n    args.clear()\n";
    std::string hb = std::to_string(hidden);
    for (int i = 0; i < layers; ++i) {
        const std::string n = std::to_string(i);
        s += "    buf" + n + " = empty_strided_cpu((" + std::to_string(batch) + ", " + hb + "), ("
            + hb + ", 1), torch.float32)\n    extern_kernels.addmm(arg" + std::to_string(2 * i + 2)
            + "_1, " + (i ? "buf" + std::to_string(i - 1) : std::string("arg0_1"))
            + ", reinterpret_tensor(arg" + std::to_string(2 * i + 1) + "_1, (" + hb + ", " + hb
            + "), (1, " + hb + "), 0), alpha=1, beta=1, out=buf" + n + ")\n    buf" + n
            + "_view = buf" + n + "; del buf" + n + "  # reuse\n    cpp_fused_addmm_gelu_" + n
            + "(buf" + n + "_view, arg" + std::to_string(2 * i + 2) + "_1)\n";
    }
    s += "    return (buf" + std::to_string(layers - 1)
        + "_view, )\n\n\ndef benchmark_compiled_"
          "module(times=10, repeat=10):\n    from torch._dynamo.testing import rand_strided\n    "
          "from torch._inductor.utils import print_performance\n    arg0_1 = rand_strided(("
        + std::to_string(batch) + ", " + hb + "), (" + hb
        + ", 1), device='cpu', dtype=torch.float32)\n    fn = lambda: call([arg0_1])\n    return "
          "print_performance(fn, times=times, repeat=repeat)\n\n\nif __name__ == \"__main__\":\n"
          "    from torch._inductor.wrapper_benchmark import compiled_module_main\n    "
          "compiled_module_main('None', benchmark_compiled_module)\n";
    return s;
}

std::string breakText(const std::string& fn, int64_t line, const std::string& code)
{
    return "Graph break in user code at " + kTrainPy + ":" + std::to_string(line)
        + "\nGraph Break Reason: Data-dependent branching\n  Explanation: Detected data-dependent "
          "branching (e.g. `if my_tensor:`). Dynamo does not support tracing dynamic control "
          "flow.\n  Hint: This graph break is fundamental - it is unlikely that Dynamo will ever "
          "be able to trace through your code. Consider finding a workaround.\n  Hint: Use "
          "`torch.cond` to express dynamic control flow.\n\n  Developer debug context: attempted "
          "to jump with TensorVariable()\n\nUser code traceback:\n  File \""
        + kTrainPy + "\", line 88, in <module>\n    main()\n  File \"" + kTrainPy
        + "\", line 70, in main\n    y = " + fn + "(x)\n  File \"" + kTrainPy + "\", line "
        + std::to_string(line) + ", in " + fn + "\n    " + code + "\n\n" + pythonTracebackFrames()
        + "torch._dynamo.exc.Unsupported: Data-dependent branching\n";
}

class ScaleWriter {
public:
    ScaleWriter(std::ostream& out, const ScaleTraceOptions& o)
        : m_w(out, kDefaultPid + (o.rank ? *o.rank : 0), kDefaultStartUs)
        , m_o(o)
        , m_config(fullInductorConfig())
    {
    }

    void program(uint64_t index);
    uint64_t compiles() const { return m_compiles; }

private:
    CompileSpec base(int64_t frame, int64_t fcid, const std::string& fn, int64_t firstLine,
        const std::string& file, std::vector<WriteFrame> stack)
    {
        CompileSpec s;
        s.id = { std::nullopt, frame, fcid, 0 };
        s.rank = m_o.rank;
        s.stack = std::move(stack);
        s.coName = fn;
        s.coFilename = file;
        s.coFirstLineno = firstLine;
        s.frameKey = ++m_frameKey;
        s.inductorConfig = m_config;
        s.tracingUs = m_rng.range(3000, 30000);
        s.backendUs = m_rng.range(150000, 1500000);
        s.guardsUs = m_rng.range(1500, 9000);
        s.guardLatencyUs = 8.0 + double(m_rng.range(0, 2000)) / 100.0;
        return s;
    }
    void write(const CompileSpec& s)
    {
        writeCompile(m_w, s);
        ++m_compiles;
        m_w.advanceUs(m_rng.range(2000, 40000));
    }
    void model(int64_t frame, int64_t firstLine);
    int64_t graphBreak(int64_t frame); // returns frames used
    void recompileChain(int64_t frame);
    void helper(int64_t frame, const std::string& fn, int64_t line);
    void failure(int64_t frame);

    TraceWriter m_w;
    const ScaleTraceOptions& m_o;
    std::string m_config;
    Rng m_rng { 0 };
    int64_t m_frameKey = 0;
    int64_t m_nextFrame = 0;
    uint64_t m_compiles = 0;
};

void ScaleWriter::model(int64_t frame, int64_t firstLine)
{
    const int layers = int(m_rng.range(6, 40));
    const int64_t batch = 8 << m_rng.range(0, 4);
    const int64_t hidden = 128 << m_rng.range(0, 3);
    const bool training = m_rng.range(0, 1) == 1;
    std::vector<WriteFrame> st = callSite(64, "out = model(x)");
    st.push_back(synth::frame(
        kModule, 1773, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"));
    st.push_back(synth::frame(kModule, 1784, "_call_impl", "return forward_call(*args, **kwargs)"));
    st.push_back(synth::frame(kModelPy, firstLine, "forward"));
    CompileSpec s = base(frame, 0, "forward", firstLine, kModelPy, st);
    s.inputs.push_back(tensor("L['x']", { batch, hidden }));
    for (int i = 0; i < layers; ++i) {
        const std::string mod = "L['self']._modules['layer" + std::to_string(i) + "']";
        TensorInput wt = tensor(mod + "._parameters['weight']", { hidden, hidden });
        TensorInput bs = tensor(mod + "._parameters['bias']", { hidden });
        for (TensorInput* t : { &wt, &bs }) {
            t->requiresGrad = training;
            t->parameter = true;
        }
        s.inputs.push_back(wt);
        s.inputs.push_back(bs);
    }
    ModelGraphs g = modelGraphs(layers, batch, hidden, training, firstLine);
    s.fxGraph = g.fx;
    s.fxSizesJson = g.sizes;
    s.aotGraph = g.aot;
    if (training)
        s.aotBackwardGraph = g.backward;
    s.outputCode = generatedModule(g.code, layers, batch, hidden);
    s.graphOpCount = 2 * layers;
    s.graphNodeCount = 4 * layers + 2;
    s.graphInputCount = 1 + 2 * layers;
    s.cacheHit = m_rng.range(0, 3) == 0;
    write(s);
}

int64_t ScaleWriter::graphBreak(int64_t frame)
{
    const int64_t line = m_rng.range(18, 60);
    const int64_t rows = 8 << m_rng.range(0, 4);
    CompileSpec s = base(frame, 0, "step", line - 3, kTrainPy, callSite(70, "y = step(x)"));
    s.stack.push_back(synth::frame(kTrainPy, line - 3, "step"));
    s.inputs = { tensor("L['x']", { rows, 128 }) };
    s.graphBreakText = breakText("step", line, "if y.sum() > 0:");
    s.restartReasons = { "Data-dependent branching" };
    s.numGraphBreaks = 1;
    const std::string act = shape({ rows, 128 }, { 128, 1 });
    s.fxGraph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: " + act
        + "):\n        l_x_ = L_x_\n        \n         # File: " + kTrainPy + ":"
        + std::to_string(line - 2) + " in step, code: y = torch.tanh(x)\n        y: " + act
        + " = torch.tanh(l_x_);  l_x_ = None\n        \n         # File: " + kTrainPy + ":"
        + std::to_string(line) + " in step, code: if y.sum() > 0:\n        sum_1: \"f32[][]cpu\" "
        + "= y.sum()\n        gt: \"b8[][]cpu\" = sum_1 > 0;  sum_1 = None\n        return (gt, y)"
          "\n        ";
    s.fxSizesJson = "{\"l_x_\": [" + std::to_string(rows) + ", 128], \"y\": ["
        + std::to_string(rows) + ", 128], \"sum_1\": [], \"gt\": []}";
    s.aotGraph = s.fxGraph;
    s.graphOpCount = 3;
    s.graphNodeCount = 5;
    write(s);

    const std::string resume = "torch_dynamo_resume_in_step_at_" + std::to_string(line);
    CompileSpec r = base(frame + 1, 0, resume, line, kTrainPy, callSite(70, "y = step(x)"));
    r.stack.push_back(synth::frame(kTrainPy, line, "step", "if y.sum() > 0:"));
    r.stack.push_back(synth::frame(kTrainPy, line, resume));
    r.inputs = { tensor("L['y']", { rows, 128 }) };
    r.fxGraph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_y_: " + act
        + "):\n        l_y_ = L_y_\n        \n         # File: " + kTrainPy + ":"
        + std::to_string(line + 1) + " in " + resume + ", code: return y + 1.0\n        add: " + act
        + " = l_y_ + 1.0;  l_y_ = None\n        return (add,)\n        ";
    r.fxSizesJson = "{\"l_y_\": [" + std::to_string(rows) + ", 128], \"add\": ["
        + std::to_string(rows) + ", 128]}";
    r.aotGraph = r.fxGraph;
    write(r);
    return 2;
}

void ScaleWriter::recompileChain(int64_t frame)
{
    const int n = int(m_rng.range(2, 4));
    std::vector<int64_t> rows;
    for (int i = 0; i < n; ++i)
        rows.push_back(int64_t(16) << i);
    for (int i = 0; i < n; ++i) {
        const bool dynamic = i == n - 1 && n > 2;
        CompileSpec s = base(frame, i, "scale", 25, kTrainPy,
            callSite(72, dynamic ? "scale(big)" : "scale(torch.randn(rows, 128))"));
        s.stack.push_back(synth::frame(kTrainPy, 25, "scale"));
        s.cacheSize = i;
        s.accumulatedCacheSize = i;
        TensorInput x = tensor("L['x']", { rows[size_t(i)], 128 });
        if (dynamic) {
            x.dynamicDims = { true, false };
            x.markedDynamic = true;
            s.symbols = { { "s0", rows[size_t(i)], "L['x'].size()[0]",
                synth::frame(kTrainPy, 25, "scale", "def scale(x):") } };
            s.shapeGuards = { { "16 < s0", "16 < L['x'].size()[0]",
                                  synth::frame(kTrainPy, 26, "scale", "if x.shape[0] > 16:") },
                { "Eq(Mod(s0, 2), 0)", "(L['x'].size()[0] % 2) == 0",
                    synth::frame(
                        kTrainPy, 28, "scale", "return x.reshape(x.shape[0] // 2, 256)") } };
            s.specializations = { { "s1", { "L['x'].size()[1]" }, "128", "guard_size_oblivious",
                synth::frame(kTrainPy, 27, "scale", "x = x * 0.5") } };
        }
        s.inputs = { x };
        for (int j = i - 1; j >= 0; --j)
            s.recompileReasons.push_back(std::to_string(frame) + "/" + std::to_string(j)
                + ": tensor 'x' size mismatch at index 0. expected "
                + std::to_string(rows[size_t(j)]) + ", actual " + std::to_string(rows[size_t(i)]));
        const std::string sz = dynamic ? "s0, 128" : std::to_string(rows[size_t(i)]) + ", 128";
        s.fxGraph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[" + sz
            + "][128, 1]cpu\"):\n        l_x_ = L_x_\n        \n         # File: " + kTrainPy
            + ":27 in scale, code: x = x * 0.5\n        x: \"f32[" + sz
            + "][128, 1]cpu\" = l_x_ * 0.5;  l_x_ = None\n        return (x,)\n        ";
        s.fxSizesJson = dynamic ? "{\"l_x_\": [\"s0\", 128], \"x\": [\"s0\", 128]}"
                                : "{\"l_x_\": [" + std::to_string(rows[size_t(i)])
                + ", 128], \"x\": [" + std::to_string(rows[size_t(i)]) + ", 128]}";
        s.aotGraph = s.fxGraph;
        s.graphOpCount = 1;
        s.graphNodeCount = 3;
        s.automaticDynamicShapes = false;
        write(s);
    }
}

void ScaleWriter::helper(int64_t frame, const std::string& fn, int64_t line)
{
    CompileSpec s = base(frame, 0, fn, line, kTrainPy, callSite(76, "loss = " + fn + "(out, y)"));
    s.stack.push_back(synth::frame(kTrainPy, line, fn));
    const int64_t rows = 8 << m_rng.range(0, 4);
    s.inputs = { tensor("L['out']", { rows, 10 }), tensor("L['y']", { rows, 10 }) };
    const std::string act = shape({ rows, 10 }, { 10, 1 });
    s.fxGraph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_out_: " + act
        + ", L_y_: " + act + "):\n        l_out_ = L_out_\n        l_y_ = L_y_\n        \n"
        + "         # File: " + kTrainPy + ":" + std::to_string(line + 1) + " in " + fn
        + ", code: return ((out - y) ** 2).mean()\n        sub: " + act
        + " = l_out_ - l_y_;  l_out_ = l_y_ = None\n        pow_1: " + act
        + " = sub ** 2;  sub = None\n        mean: \"f32[][]cpu\" = pow_1.mean();  pow_1 = None\n"
        + "        return (mean,)\n        ";
    s.fxSizesJson = "{\"l_out_\": [" + std::to_string(rows) + ", 10], \"l_y_\": ["
        + std::to_string(rows) + ", 10], \"sub\": [" + std::to_string(rows) + ", 10], \"pow_1\": ["
        + std::to_string(rows) + ", 10], \"mean\": []}";
    s.aotGraph = s.fxGraph;
    s.graphOpCount = 3;
    s.graphNodeCount = 6;
    s.graphInputCount = 2;
    write(s);
}

void ScaleWriter::failure(int64_t frame)
{
    const std::string reason = "backend='my_backend' raised:\nNotImplementedError: my_backend "
                               "does not support aten.addmm yet\n\nSet TORCHDYNAMO_VERBOSE=1 for "
                               "the internal stack trace (please do this especially if you're "
                               "reporting a bug to PyTorch).\n";
    CompileSpec s = base(frame, 0, "export_step", 36, kTrainPy, callSite(80, "export_step(x, w)"));
    s.stack.push_back(synth::frame(kTrainPy, 36, "export_step"));
    s.backendName = "my_backend";
    s.inputs = { tensor("L['x']", { 32, 128 }), tensor("L['w']", { 128, 128 }) };
    s.fxGraph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[32, "
                "128][128, 1]cpu\", L_w_: \"f32[128, 128][128, 1]cpu\"):\n        l_x_ = L_x_\n"
                "        l_w_ = L_w_\n        \n         # File: /home/alice/proj/train.py:38 in "
                "export_step, code: return torch.addmm(x, x, w)\n        addmm: \"f32[32, "
                "128][128, 1]cpu\" = torch.addmm(l_x_, l_x_, l_w_);  l_x_ = l_w_ = None\n"
                "        return (addmm,)\n        ";
    s.fxSizesJson = "{\"l_x_\": [32, 128], \"l_w_\": [128, 128], \"addmm\": [32, 128]}";
    s.failType = "BackendCompilerFailed";
    s.failReason = reason;
    s.failUserFile = kTrainPy;
    s.failUserLine = 38;
    s.backendUs = 2300;
    s.errorTraceback = pythonTracebackFrames() + "  File \"" + kTrainPy
        + "\", line 32, in my_backend\n    raise NotImplementedError(\"my_backend does not "
          "support aten.addmm yet\")\ntorch._dynamo.exc.BackendCompilerFailed: "
        + reason + "\n";
    write(s);
}

void ScaleWriter::program(uint64_t index)
{
    m_rng = Rng { stableHash(std::to_string(m_o.seed) + "/" + std::to_string(m_o.rank.value_or(-1))
        + "/" + std::to_string(index)) };
    WriteContext outside;
    outside.rank = m_o.rank;
    std::vector<WriteFrame> st = { synth::frame(kTrainPy, 88, "<module>", "main()"),
        synth::frame(kTrainPy, 64, "main", "out = model(x)") };
    m_w.write("artifact", "{\"name\": \"torch_version\", \"encoding\": \"string\"}", outside,
        std::string("2.8.0+cpu"), "torch/_dynamo/convert_frame.py:1062", &st);
    int64_t frame = m_nextFrame;
    model(frame++, 30); // encoder
    frame += graphBreak(frame);
    recompileChain(frame++);
    helper(frame++, "loss_fn", 40);
    if (m_rng.range(0, 1))
        helper(frame++, "metric_0", 44);
    model(frame++, 130); // decoder
    if (index % 5 == 4)
        failure(frame++);
    std::vector<WriteFrame> ls = { synth::frame(kTrainPy, 88, "<module>", "main()"),
        synth::frame(kTrainPy, 84, "main", "report(step)") };
    m_w.write("link",
        "{\"name\": \"program_report\", \"url\": \"https://example.invalid/alice/run-"
            + std::to_string(index) + "\"}",
        outside, std::nullopt, "torch/_inductor/debug.py:733", &ls);
    m_w.advanceUs(m_rng.range(50000, 400000));
    m_nextFrame = frame;
}

} // namespace

ScaleTraceStats writeScaleTrace(std::ostream& out, const ScaleTraceOptions& options)
{
    ScaleWriter w(out, options);
    ScaleTraceStats stats;
    const auto start = out.tellp();
    uint64_t written = 0;
    while (written < options.targetBytes && out.good()) {
        w.program(stats.programs++);
        const auto pos = out.tellp();
        written = pos >= start ? uint64_t(pos - start) : 0;
    }
    stats.bytes = written;
    stats.compiles = w.compiles();
    return stats;
}

} // namespace dynascope
