// writeExampleTrace: the bundled example, one training script (/home/alice/proj/train.py and
// model.py) compiled under PyTorch 2.8 with Inductor on CPU:
//   [0/0]      MLP.forward (model.py) compiles cleanly.
//   [1/0]      step(x) breaks the graph at train.py:19 (`if y.sum() > 0:`, data-dependent
//              branching): dynamo_graph_break_reason at attempt 0, then [1/0_1] compiles the graph
//              before the break; [2/0] is the resume frame torch_dynamo_resume_in_step_at_19.
//   [3/0..3/4] scale(x) called with 32, 64, 128, 256 and 512 rows. The script sets
//              torch._dynamo.config.automatic_dynamic_shapes = False (with the default True,
//              PyTorch would mark dim 0 dynamic at the first recompile, [3/1], and stop there),
//              so each new size recompiles on the TENSOR_MATCH size guard; before the 512-row call
//              it calls torch._dynamo.mark_dynamic(x, 0), so [3/4] compiles with size=[None, 128]
//              (create_symbol s0, shape guards with user stacks, DYNAMIC_INDICES guard) and later
//              sizes no longer recompile.
//   [4/0]      export_step(x, w) with the custom backend my_backend, which raises:
//              BackendCompilerFailed, with a dynamo_error traceback.
// Plus records outside compiles: a torch_version artifact, a link, a compilation_metrics_runtime.
#include "core/synth/scenarios.h"
#include "core/synth/synth_helpers.h"

#include "core/writer/trace_writer.h"

namespace dynascope {

using namespace synth;

namespace {

const std::string kModule = "/home/alice/.venv/lib/python3.11/site-packages/torch/nn/modules/"
                            "module.py";

std::vector<WriteFrame> callSite(int64_t mainLine, const std::string& mainLoc)
{
    return { frame(kTrainPy, 57, "<module>", "main()"),
        frame(kTrainPy, mainLine, "main", mainLoc) };
}

std::string mlpGraph()
{
    return "class GraphModule(torch.nn.Module):\n"
           "    def forward(self, L_x_: \"f32[32, 128][128, 1]cpu\", "
           "L_self_modules_fc1_parameters_weight_: \"f32[256, 128][128, 1]cpu\", "
           "L_self_modules_fc1_parameters_bias_: \"f32[256][1]cpu\", "
           "L_self_modules_fc2_parameters_weight_: \"f32[10, 256][256, 1]cpu\", "
           "L_self_modules_fc2_parameters_bias_: \"f32[10][1]cpu\"):\n"
           "        l_x_ = L_x_\n"
           "        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_\n"
           "        l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_\n"
           "        l_self_modules_fc2_parameters_weight_ = L_self_modules_fc2_parameters_weight_\n"
           "        l_self_modules_fc2_parameters_bias_ = L_self_modules_fc2_parameters_bias_\n"
           "        \n"
           "         # File: /home/alice/proj/model.py:13 in forward, code: h = "
           "self.act(self.fc1(x))\n"
           "        linear: \"f32[32, 256][256, 1]cpu\" = torch._C._nn.linear(l_x_, "
           "l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = "
           "l_self_modules_fc1_parameters_weight_ = l_self_modules_fc1_parameters_bias_ = None\n"
           "        h: \"f32[32, 256][256, 1]cpu\" = torch._C._nn.gelu(linear);  linear = None\n"
           "        \n"
           "         # File: /home/alice/proj/model.py:14 in forward, code: return self.fc2(h)\n"
           "        linear_1: \"f32[32, 10][10, 1]cpu\" = torch._C._nn.linear(h, "
           "l_self_modules_fc2_parameters_weight_, l_self_modules_fc2_parameters_bias_);  h = "
           "l_self_modules_fc2_parameters_weight_ = l_self_modules_fc2_parameters_bias_ = None\n"
           "        return (linear_1,)\n"
           "        ";
}

std::string mlpAot()
{
    return "class <lambda>(torch.nn.Module):\n"
           "    def forward(self, arg0_1: \"f32[256, 128][128, 1]cpu\", arg1_1: "
           "\"f32[256][1]cpu\", arg2_1: \"f32[32, 128][128, 1]cpu\", arg3_1: \"f32[10, 256][256, "
           "1]cpu\", arg4_1: \"f32[10][1]cpu\"):\n"
           "         # File: /home/alice/proj/model.py:13 in forward, code: h = "
           "self.act(self.fc1(x))\n"
           "        permute: \"f32[128, 256][1, 128]cpu\" = torch.ops.aten.permute.default(arg0_1, "
           "[1, 0]);  arg0_1 = None\n"
           "        addmm: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.addmm.default(arg1_1, "
           "arg2_1, permute);  arg1_1 = arg2_1 = permute = None\n"
           "        mul: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.mul.Tensor(addmm, 0.5)\n"
           "        mul_1: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.mul.Tensor(addmm, "
           "0.7071067811865476);  addmm = None\n"
           "        erf: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.erf.default(mul_1);  mul_1 "
           "= None\n"
           "        add: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.add.Tensor(erf, 1);  erf = "
           "None\n"
           "        mul_2: \"f32[32, 256][256, 1]cpu\" = torch.ops.aten.mul.Tensor(mul, add);  mul "
           "= add = None\n"
           "        \n"
           "         # File: /home/alice/proj/model.py:14 in forward, code: return self.fc2(h)\n"
           "        permute_1: \"f32[256, 10][1, 256]cpu\" = "
           "torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None\n"
           "        addmm_1: \"f32[32, 10][10, 1]cpu\" = torch.ops.aten.addmm.default(arg4_1, "
           "mul_2, permute_1);  arg4_1 = mul_2 = permute_1 = None\n"
           "        return (addmm_1,)\n"
           "        ";
}

TensorInput param(const std::string& mod, const std::string& name, std::vector<int64_t> size,
    std::vector<int64_t> stride)
{
    TensorInput t;
    t.source = "L['self']._modules['" + mod + "']._parameters['" + name + "']";
    t.size = std::move(size);
    t.stride = std::move(stride);
    t.requiresGrad = true;
    t.parameter = true;
    return t;
}

TensorInput input(const std::string& local, std::vector<int64_t> size, std::vector<int64_t> stride)
{
    TensorInput t;
    t.source = "L['" + local + "']";
    t.size = std::move(size);
    t.stride = std::move(stride);
    return t;
}

void writeMlp(TraceWriter& w)
{
    CompileSpec s;
    s.id = { std::nullopt, 0, 0, 0 };
    s.stack = callSite(44, "out = model(x)");
    s.stack.push_back(
        frame(kModule, 1773, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"));
    s.stack.push_back(frame(kModule, 1784, "_call_impl", "return forward_call(*args, **kwargs)"));
    s.stack.push_back(frame(kModelPy, 12, "forward"));
    s.coName = "forward";
    s.coFilename = kModelPy;
    s.coFirstLineno = 12;
    s.frameKey = 1;
    s.inputs = { input("x", { 32, 128 }, { 128, 1 }),
        param("fc1", "weight", { 256, 128 }, { 128, 1 }), param("fc1", "bias", { 256 }, { 1 }),
        param("fc2", "weight", { 10, 256 }, { 256, 1 }), param("fc2", "bias", { 10 }, { 1 }) };
    s.fxGraph = mlpGraph();
    s.fxSizesJson = "{\"l_x_\": [32, 128], \"l_self_modules_fc1_parameters_weight_\": [256, 128], "
                    "\"l_self_modules_fc1_parameters_bias_\": [256], "
                    "\"l_self_modules_fc2_parameters_weight_\": [10, 256], "
                    "\"l_self_modules_fc2_parameters_bias_\": [10], \"linear\": [32, 256], \"h\": "
                    "[32, 256], \"linear_1\": [32, 10]}";
    s.graphOpCount = 3;
    s.graphNodeCount = 9;
    s.graphInputCount = 5;
    s.aotGraph = mlpAot();
    s.tracingUs = 21500;
    s.backendUs = 1480000;
    s.guardsUs = 5200;
    s.guardLatencyUs = 21.37;
    s.automaticDynamicShapes = false;
    writeCompile(w, s);
}

const std::string kBreakReason = "Data-dependent branching";

std::string stepBreakText()
{
    return "Graph break in user code at /home/alice/proj/train.py:19\n"
           "Graph Break Reason: Data-dependent branching\n"
           "  Explanation: Detected data-dependent branching (e.g. `if my_tensor:`). Dynamo does "
           "not support tracing dynamic control flow.\n"
           "  Hint: This graph break is fundamental - it is unlikely that Dynamo will ever be able "
           "to trace through your code. Consider finding a workaround.\n"
           "  Hint: Use `torch.cond` to express dynamic control flow.\n"
           "\n"
           "  Developer debug context: attempted to jump with TensorVariable()\n"
           "\n"
           "User code traceback:\n"
           "  File \"/home/alice/proj/train.py\", line 57, in <module>\n"
           "    main()\n"
           "  File \"/home/alice/proj/train.py\", line 45, in main\n"
           "    y = step(x)\n"
           "  File \"/home/alice/proj/train.py\", line 19, in step\n"
           "    if y.sum() > 0:\n"
           "\n"
        + pythonTracebackFrames()
        + "  File \"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/"
          "symbolic_convert.py\", line 1062, in step\n"
          "    self.dispatch_table[inst.opcode](self, inst)\n"
          "  File \"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/"
          "symbolic_convert.py\", line 697, in inner\n"
          "    unimplemented_v2(\n"
          "  File \"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/exc.py\", line "
          "517, in unimplemented_v2\n"
          "    raise Unsupported(msg)\n"
          "torch._dynamo.exc.Unsupported: Data-dependent branching\n"
          "  Explanation: Detected data-dependent branching (e.g. `if my_tensor:`). Dynamo does "
          "not support tracing dynamic control flow.\n"
          "  Hint: This graph break is fundamental - it is unlikely that Dynamo will ever be able "
          "to trace through your code. Consider finding a workaround.\n"
          "  Hint: Use `torch.cond` to express dynamic control flow.\n"
          "\n"
          "  Developer debug context: attempted to jump with TensorVariable()\n"
          "\n";
}

std::string stepGraph()
{
    return "class GraphModule(torch.nn.Module):\n"
           "    def forward(self, L_x_: \"f32[32, 128][128, 1]cpu\"):\n"
           "        l_x_ = L_x_\n"
           "        \n"
           "         # File: /home/alice/proj/train.py:17 in step, code: y = torch.tanh(x)\n"
           "        y: \"f32[32, 128][128, 1]cpu\" = torch.tanh(l_x_);  l_x_ = None\n"
           "        \n"
           "         # File: /home/alice/proj/train.py:18 in step, code: y = y * 2.0\n"
           "        y_1: \"f32[32, 128][128, 1]cpu\" = y * 2.0;  y = None\n"
           "        \n"
           "         # File: /home/alice/proj/train.py:19 in step, code: if y.sum() > 0:\n"
           "        sum_1: \"f32[][]cpu\" = y_1.sum()\n"
           "        gt: \"b8[][]cpu\" = sum_1 > 0;  sum_1 = None\n"
           "        return (gt, y_1)\n"
           "        ";
}

void writeStep(TraceWriter& w)
{
    CompileSpec s;
    s.id = { std::nullopt, 1, 0, 0 };
    s.stack = callSite(45, "y = step(x)");
    s.stack.push_back(frame(kTrainPy, 16, "step"));
    s.coName = "step";
    s.coFilename = kTrainPy;
    s.coFirstLineno = 16;
    s.frameKey = 2;
    s.inputs = { input("x", { 32, 128 }, { 128, 1 }) };
    s.graphBreakText = stepBreakText();
    s.restartReasons = { kBreakReason };
    s.numGraphBreaks = 1;
    s.fxGraph = stepGraph();
    s.fxSizesJson = "{\"l_x_\": [32, 128], \"y\": [32, 128], \"y_1\": [32, 128], \"sum_1\": [], "
                    "\"gt\": []}";
    s.graphOpCount = 4;
    s.graphNodeCount = 6;
    s.aotGraph
        = "class <lambda>(torch.nn.Module):\n"
          "    def forward(self, arg0_1: \"f32[32, 128][128, 1]cpu\"):\n"
          "         # File: /home/alice/proj/train.py:17 in step, code: y = torch.tanh(x)\n"
          "        tanh: \"f32[32, 128][128, 1]cpu\" = torch.ops.aten.tanh.default(arg0_1);  "
          "arg0_1 = None\n"
          "        \n"
          "         # File: /home/alice/proj/train.py:18 in step, code: y = y * 2.0\n"
          "        mul: \"f32[32, 128][128, 1]cpu\" = torch.ops.aten.mul.Tensor(tanh, 2.0);  "
          "tanh = None\n"
          "        \n"
          "         # File: /home/alice/proj/train.py:19 in step, code: if y.sum() > 0:\n"
          "        sum_1: \"f32[][]cpu\" = torch.ops.aten.sum.default(mul)\n"
          "        gt: \"b8[][]cpu\" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None\n"
          "        return (gt, mul)\n"
          "        ";
    s.tracingUs = 14800;
    s.backendUs = 910000;
    s.automaticDynamicShapes = false;
    writeCompile(w, s);

    CompileSpec r;
    r.id = { std::nullopt, 2, 0, 0 };
    r.stack = callSite(45, "y = step(x)");
    r.stack.push_back(frame(kTrainPy, 19, "step", "if y.sum() > 0:"));
    r.stack.push_back(frame(kTrainPy, 19, "torch_dynamo_resume_in_step_at_19"));
    r.coName = "torch_dynamo_resume_in_step_at_19";
    r.coFilename = kTrainPy;
    r.coFirstLineno = 19;
    r.frameKey = 3;
    r.inputs = { input("y", { 32, 128 }, { 128, 1 }) };
    r.fxGraph = "class GraphModule(torch.nn.Module):\n"
                "    def forward(self, L_y_: \"f32[32, 128][128, 1]cpu\"):\n"
                "        l_y_ = L_y_\n"
                "        \n"
                "         # File: /home/alice/proj/train.py:20 in "
                "torch_dynamo_resume_in_step_at_19, code: return y + 1.0\n"
                "        add: \"f32[32, 128][128, 1]cpu\" = l_y_ + 1.0;  l_y_ = None\n"
                "        return (add,)\n"
                "        ";
    r.fxSizesJson = "{\"l_y_\": [32, 128], \"add\": [32, 128]}";
    r.aotGraph = "class <lambda>(torch.nn.Module):\n"
                 "    def forward(self, arg0_1: \"f32[32, 128][128, 1]cpu\"):\n"
                 "         # File: /home/alice/proj/train.py:20 in "
                 "torch_dynamo_resume_in_step_at_19, code: return y + 1.0\n"
                 "        add: \"f32[32, 128][128, 1]cpu\" = torch.ops.aten.add.Tensor(arg0_1, "
                 "1.0);  arg0_1 = None\n"
                 "        return (add,)\n"
                 "        ";
    r.tracingUs = 4100;
    r.backendUs = 620000;
    r.automaticDynamicShapes = false;
    writeCompile(w, r);
}

std::string scaleGraph(const TensorInput& x, bool dynamic)
{
    std::string sz = dynamic ? "s0, 128" : sizeText(x, false);
    std::string half = dynamic ? "((s0//2)), 256" : std::to_string(x.size[0] / 2) + ", 256";
    std::string sig = dynamic ? "s0: \"Sym(s0)\", L_x_: \"f32[s0, 128][128, 1]cpu\""
                              : "L_x_: \"f32[" + sz + "][128, 1]cpu\"";
    std::string g = "class GraphModule(torch.nn.Module):\n    def forward(self, " + sig + "):\n"
        + "        l_x_ = L_x_\n        \n"
        + "         # File: /home/alice/proj/train.py:27 in scale, code: x = x * 0.5\n"
        + "        x: \"f32[" + sz + "][128, 1]cpu\" = l_x_ * 0.5;  l_x_ = None\n        \n"
        + "         # File: /home/alice/proj/train.py:28 in scale, code: return "
          "x.reshape(x.shape[0] // 2, 256)\n";
    if (dynamic)
        g += "        floordiv: \"Sym((s0//2))\" = s0 // 2;  s0 = None\n"
             "        reshape: \"f32[((s0//2)), 256][256, 1]cpu\" = x.reshape(floordiv, 256);  x = "
             "floordiv = None\n";
    else
        g += "        reshape: \"f32[" + half + "][256, 1]cpu\" = x.reshape("
            + std::to_string(x.size[0] / 2) + ", 256);  x = None\n";
    g += "        return (reshape,)\n        ";
    return g;
}

void writeScale(TraceWriter& w)
{
    const int64_t rows[] = { 32, 64, 128, 256, 512 };
    for (int i = 0; i < 5; ++i) {
        const bool dynamic = i == 4;
        CompileSpec s;
        s.id = { std::nullopt, 3, i, 0 };
        s.stack
            = callSite(dynamic ? 50 : 47, dynamic ? "scale(big)" : "scale(torch.randn(rows, 128))");
        s.stack.push_back(frame(kTrainPy, 25, "scale"));
        s.coName = "scale";
        s.coFilename = kTrainPy;
        s.coFirstLineno = 25;
        s.frameKey = 4 + i;
        s.cacheSize = i;
        s.accumulatedCacheSize = i;
        TensorInput x = input("x", { rows[i], 128 }, { 128, 1 });
        if (dynamic) {
            x.dynamicDims = { true, false };
            x.markedDynamic = true;
            s.symbols = { { "s0", rows[i], "L['x'].size()[0]",
                frame(kTrainPy, 25, "scale", "def scale(x):") } };
            s.shapeGuards = {
                { "16 < s0", "16 < L['x'].size()[0]",
                    frame(kTrainPy, 26, "scale", "if x.shape[0] > 16:") },
                { "Eq(Mod(s0, 2), 0)", "(L['x'].size()[0] % 2) == 0",
                    frame(kTrainPy, 28, "scale", "return x.reshape(x.shape[0] // 2, 256)") },
            };
            s.extraRootGuards = { "LAMBDA_GUARD: 2 <= L['x'].size()[0]  # if x.shape[0] > 16:  "
                                  "# home/alice/proj/train.py:26 in scale (user code shown is "
                                  "first use of this value--the guard itself is not due user "
                                  "code but due to 0/1 specialization in the framework; to "
                                  "avoid specialization try torch._dynamo.mark_unbacked(tensor, "
                                  "dim))" };
            s.fxSizesJson = "{\"l_x_\": [\"s0\", 128], \"x\": [\"s0\", 128], \"reshape\": "
                            "[\"(s0//2)\", 256]}";
            s.graphInputCount = 2;
            s.graphNodeCount = 6;
            s.graphOpCount = 3;
        } else {
            s.fxSizesJson = "{\"l_x_\": [" + std::to_string(rows[i]) + ", 128], \"x\": ["
                + std::to_string(rows[i]) + ", 128], \"reshape\": [" + std::to_string(rows[i] / 2)
                + ", 256]}";
            s.graphOpCount = 2;
            s.graphNodeCount = 4;
        }
        s.inputs = { x };
        for (int j = i - 1; j >= 0; --j)
            s.recompileReasons.push_back("3/" + std::to_string(j)
                + ": tensor 'x' size mismatch at index 0. expected " + std::to_string(rows[j])
                + ", actual " + std::to_string(rows[i]));
        s.fxGraph = scaleGraph(x, dynamic);
        s.tracingUs = dynamic ? 12600 : 5400;
        s.backendUs = dynamic ? 1150000 : 540000 + i * 21000;
        s.cacheHit = false;
        s.guardLatencyUs = dynamic ? 19.42 : 11.03 + i;
        s.automaticDynamicShapes = false;
        writeCompile(w, s);
        w.advanceUs(3800 + i * 700);
    }
}

void writeExportStep(TraceWriter& w)
{
    const std::string reason = "backend='my_backend' raised:\nNotImplementedError: my_backend "
                               "does not support aten.addmm yet\n\nSet TORCHDYNAMO_VERBOSE=1 for "
                               "the internal stack trace (please do this especially if you're "
                               "reporting a bug to PyTorch). For even more developer context, set "
                               "TORCH_LOGS=\"+dynamo\"\n";
    CompileSpec s;
    s.id = { std::nullopt, 4, 0, 0 };
    s.stack = callSite(51, "export_step(x, torch.randn(128, 128))");
    s.stack.push_back(frame(kTrainPy, 36, "export_step"));
    s.coName = "export_step";
    s.coFilename = kTrainPy;
    s.coFirstLineno = 36;
    s.frameKey = 9;
    s.backendName = "my_backend";
    s.inputs = { input("x", { 32, 128 }, { 128, 1 }), input("w", { 128, 128 }, { 128, 1 }) };
    s.fxGraph = "class GraphModule(torch.nn.Module):\n"
                "    def forward(self, L_x_: \"f32[32, 128][128, 1]cpu\", L_w_: \"f32[128, "
                "128][128, 1]cpu\"):\n"
                "        l_x_ = L_x_\n        l_w_ = L_w_\n        \n"
                "         # File: /home/alice/proj/train.py:38 in export_step, code: return "
                "torch.addmm(x, x, w)\n"
                "        addmm: \"f32[32, 128][128, 1]cpu\" = torch.addmm(l_x_, l_x_, l_w_);  l_x_ "
                "= l_w_ = None\n"
                "        return (addmm,)\n        ";
    s.fxSizesJson = "{\"l_x_\": [32, 128], \"l_w_\": [128, 128], \"addmm\": [32, 128]}";
    s.failType = "BackendCompilerFailed";
    s.failReason = reason;
    s.failUserFile = kTrainPy;
    s.failUserLine = 38;
    s.backendUs = 2300;
    s.errorTraceback = pythonTracebackFrames()
        + "  File "
          "\"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/output_graph.py\", "
          "line 1545, in _call_user_compiler\n"
          "    raise BackendCompilerFailed(\n"
          "  File "
          "\"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/output_graph.py\", "
          "line 1520, in _call_user_compiler\n"
          "    compiled_fn = compiler_fn(gm, self.example_inputs())\n"
          "                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "  File \"/home/alice/proj/train.py\", line 32, in my_backend\n"
          "    raise NotImplementedError(\"my_backend does not support aten.addmm yet\")\n"
          "torch._dynamo.exc.BackendCompilerFailed: "
        + reason + "\n";
    s.automaticDynamicShapes = false;
    writeCompile(w, s);
}

std::vector<WriteFrame> outsideStack()
{
    const std::string t = "/home/alice/.venv/lib/python3.11/site-packages/torch/";
    return { frame(kTrainPy, 57, "<module>", "main()"),
        frame(kTrainPy, 44, "main", "out = model(x)"),
        frame(t + "_dynamo/eval_frame.py", 655, "_fn", "return fn(*args, **kwargs)"),
        frame(t + "_dynamo/convert_frame.py", 1062, "_log_torch_version",
            "torch._logging.trace_structured(") };
}

void writeRuntimeMetrics(TraceWriter& w)
{
    std::string meta = "{\"compile_id\": \"0/0\", \"frame_key\": null, \"co_name\": null, "
                       "\"co_filename\": null, \"co_firstlineno\": null, \"cache_size\": null, "
                       "\"accumulated_cache_size\": null, \"guard_count\": null, "
                       "\"graph_op_count\": null, \"start_time\": "
        + TraceWriter::pythonJson(std::to_string(w.clockUs() / 1000000) + "."
            + std::to_string(w.clockUs() % 1000000 + 1000000).substr(1))
        + ", \"fail_type\": null, \"fail_reason\": null, \"has_guarded_code\": null, "
          "\"is_forward\": true, \"start_time_us\": "
        + std::to_string(w.clockUs())
        + ", \"duration_us\": 1874, \"runtime_cudagraphify_time_us\": null, "
          "\"runtime_triton_autotune_time_us\": 1874, \"log_format_version\": 3, "
          "\"is_runtime\": true, \"recompile_reason\": null, \"num_graph_breaks\": null}";
    std::vector<WriteFrame> st = { frame(kTrainPy, 57, "<module>", "main()"),
        frame(kTrainPy, 44, "main", "out = model(x)") };
    w.write("compilation_metrics_runtime", meta, WriteContext {}, std::nullopt,
        "torch/_dynamo/utils.py:1641", &st);
}

} // namespace

void writeExampleTrace(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    auto st = outsideStack();
    w.write("artifact", "{\"name\": \"torch_version\", \"encoding\": \"string\"}", WriteContext {},
        std::string("2.8.0+cpu"), "torch/_dynamo/convert_frame.py:1062", &st);
    w.advanceUs(1200);
    writeMlp(w);
    w.advanceUs(2400);
    writeRuntimeMetrics(w);
    w.advanceUs(5300);
    writeStep(w);
    w.advanceUs(4100);
    writeScale(w);
    w.advanceUs(2900);
    writeExportStep(w);
    w.advanceUs(1500);
    std::vector<WriteFrame> ls = { frame(kTrainPy, 57, "<module>", "main()"),
        frame(kTrainPy, 53, "main", "torch._inductor.config.trace.upload_tar(\"run.tar\")") };
    w.write("link",
        "{\"name\": \"compile_report\", \"url\": \"https://example.invalid/alice/run-0314\"}",
        WriteContext {}, std::nullopt, "torch/_inductor/debug.py:733", &ls);
}

} // namespace dynascope
