// The small, focused test fixtures (graph break, recompile chain, dynamic shapes, backend
// failure, compiled autograd, ids repeating after reset, one rank of a distributed job). Each is
// a few KB to a few tens of KB, written with Detail::Lite compiles from synth_helpers; the 2024
// legacy form lives in legacy_fixture.cpp.
#include "core/synth/scenarios.h"
#include "core/synth/synth_helpers.h"

#include "core/writer/trace_writer.h"

namespace dynascope {

using namespace synth;

namespace {

TensorInput tensor(const std::string& local, std::vector<int64_t> size, std::vector<int64_t> stride)
{
    TensorInput t;
    t.source = "L['" + local + "']";
    t.size = std::move(size);
    t.stride = std::move(stride);
    return t;
}

std::vector<WriteFrame> site(int64_t line, const std::string& loc)
{
    return { frame(kTrainPy, 40, "<module>", "main()"), frame(kTrainPy, line, "main", loc) };
}

std::string simpleGraph(const std::string& fn, int64_t line, const std::string& code,
    const std::string& rows, const std::string& op)
{
    return "class GraphModule(torch.nn.Module):\n"
           "    def forward(self, L_x_: \"f32["
        + rows + ", 128][128, 1]cpu\"):\n        l_x_ = L_x_\n        \n         # File: "
        + kTrainPy + ":" + std::to_string(line) + " in " + fn + ", code: " + code + "\n        "
        + op + ": \"f32[" + rows
        + ", 128][128, 1]cpu\" = l_x_ * 2.0;  l_x_ = None\n        return (" + op + ",)\n        ";
}

CompileSpec baseSpec(int64_t frameId, int64_t fcid, const std::string& fn, int64_t firstLine,
    int64_t callLine, const std::string& callLoc)
{
    CompileSpec s;
    s.id = { std::nullopt, frameId, fcid, 0 };
    s.detail = Detail::Lite;
    s.stack = site(callLine, callLoc);
    s.stack.push_back(frame(kTrainPy, firstLine, fn));
    s.coName = fn;
    s.coFilename = kTrainPy;
    s.coFirstLineno = firstLine;
    s.frameKey = frameId + 1;
    s.tracingUs = 4200;
    s.backendUs = 180000;
    s.inputs = { tensor("x", { 8, 128 }, { 128, 1 }) };
    s.fxGraph = simpleGraph(fn, firstLine + 1, "return x * 2.0", "8", "mul");
    s.fxSizesJson = "{\"l_x_\": [8, 128], \"mul\": [8, 128]}";
    return s;
}

} // namespace

void writeGraphBreakFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    CompileSpec s = baseSpec(0, 0, "step", 16, 30, "y = step(x)");
    s.graphBreakText = "Graph break in user code at /home/alice/proj/train.py:19\n"
                       "Graph Break Reason: Data-dependent branching\n"
                       "  Explanation: Detected data-dependent branching (e.g. `if my_tensor:`). "
                       "Dynamo does not support tracing dynamic control flow.\n"
                       "  Hint: Use `torch.cond` to express dynamic control flow.\n"
                       "\n"
                       "  Developer debug context: attempted to jump with TensorVariable()\n"
                       "\n"
                       "User code traceback:\n"
                       "  File \"/home/alice/proj/train.py\", line 40, in <module>\n"
                       "    main()\n"
                       "  File \"/home/alice/proj/train.py\", line 30, in main\n"
                       "    y = step(x)\n"
                       "  File \"/home/alice/proj/train.py\", line 19, in step\n"
                       "    if y.sum() > 0:\n";
    s.restartReasons = { "Data-dependent branching" };
    s.numGraphBreaks = 1;
    s.fxGraph = simpleGraph("step", 18, "y = x * 2.0", "8", "y");
    s.fxSizesJson = "{\"l_x_\": [8, 128], \"y\": [8, 128]}";
    writeCompile(w, s);
    w.advanceUs(2100);

    CompileSpec r = baseSpec(1, 0, "torch_dynamo_resume_in_step_at_19", 19, 30, "y = step(x)");
    r.stack = site(30, "y = step(x)");
    r.stack.push_back(frame(kTrainPy, 19, "step", "if y.sum() > 0:"));
    r.stack.push_back(frame(kTrainPy, 19, "torch_dynamo_resume_in_step_at_19"));
    r.inputs = { tensor("y", { 8, 128 }, { 128, 1 }) };
    r.fxGraph
        = "class GraphModule(torch.nn.Module):\n"
          "    def forward(self, L_y_: \"f32[8, 128][128, 1]cpu\"):\n"
          "        l_y_ = L_y_\n        \n"
          "         # File: /home/alice/proj/train.py:20 in torch_dynamo_resume_in_step_at_19, "
          "code: return y + 1.0\n"
          "        add: \"f32[8, 128][128, 1]cpu\" = l_y_ + 1.0;  l_y_ = None\n"
          "        return (add,)\n        ";
    r.fxSizesJson = "{\"l_y_\": [8, 128], \"add\": [8, 128]}";
    writeCompile(w, r);
}

void writeRecompileChainFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    const int64_t rows[] = { 32, 64, 128, 256, 512 };
    for (int i = 0; i < 5; ++i) {
        CompileSpec s = baseSpec(0, i, "scale", 25, 33, "scale(torch.randn(rows, 128))");
        s.cacheSize = i;
        s.accumulatedCacheSize = i;
        s.automaticDynamicShapes = false;
        s.inputs = { tensor("x", { rows[i], 128 }, { 128, 1 }) };
        std::string r = std::to_string(rows[i]);
        s.fxGraph = simpleGraph("scale", 26, "return x * 2.0", r, "mul");
        s.fxSizesJson = "{\"l_x_\": [" + r + ", 128], \"mul\": [" + r + ", 128]}";
        for (int j = i - 1; j >= 0; --j)
            s.recompileReasons.push_back("0/" + std::to_string(j)
                + ": tensor 'x' size mismatch at index 0. expected " + std::to_string(rows[j])
                + ", actual " + r);
        s.guardLatencyUs = 9.87 + i;
        writeCompile(w, s);
        w.advanceUs(1500);
    }
}

void writeDynamicShapeFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    CompileSpec s = baseSpec(0, 0, "project", 12, 31, "out = project(x, w)");
    TensorInput x = tensor("x", { 48, 128 }, { 128, 1 });
    x.dynamicDims = { true, false };
    x.markedDynamic = true;
    TensorInput wt = tensor("w", { 128, 64 }, { 64, 1 });
    s.inputs = { x, wt };
    s.symbols = {
        { "s0", 48, "L['x'].size()[0]", frame(kTrainPy, 12, "project", "def project(x, w):") },
        { "s1", 128, "L['x'].size()[1]", frame(kTrainPy, 12, "project", "def project(x, w):") },
    };
    s.shapeGuards = {
        { "2 <= s0", "2 <= L['x'].size()[0]", frame(kTrainPy, 13, "project", "y = x @ w") },
        { "s0 <= 4096", "L['x'].size()[0] <= 4096",
            frame(kTrainPy, 14, "project", "return y[:4096].relu()") },
    };
    s.specializations = { { "s1", { "L['x'].size()[1]" }, "128", "Eq(s1, 128)",
        frame(kTrainPy, 13, "project", "y = x @ w") } };
    s.fxGraph
        = "class GraphModule(torch.nn.Module):\n"
          "    def forward(self, s0: \"Sym(s0)\", L_x_: \"f32[s0, 128][128, 1]cpu\", L_w_: "
          "\"f32[128, 64][64, 1]cpu\"):\n"
          "        l_x_ = L_x_\n        l_w_ = L_w_\n        \n"
          "         # File: /home/alice/proj/train.py:13 in project, code: y = x @ w\n"
          "        y: \"f32[s0, 64][64, 1]cpu\" = l_x_ @ l_w_;  l_x_ = l_w_ = None\n        \n"
          "         # File: /home/alice/proj/train.py:14 in project, code: return "
          "y[:4096].relu()\n"
          "        getitem: \"f32[s0, 64][64, 1]cpu\" = y[slice(None, 4096, None)];  y = None\n"
          "        relu: \"f32[s0, 64][64, 1]cpu\" = getitem.relu();  getitem = None\n"
          "        return (relu,)\n        ";
    s.fxSizesJson = "{\"l_x_\": [\"s0\", 128], \"l_w_\": [128, 64], \"y\": [\"s0\", 64], "
                    "\"getitem\": [\"s0\", 64], \"relu\": [\"s0\", 64]}";
    s.graphInputCount = 3;
    s.graphNodeCount = 7;
    s.graphOpCount = 3;
    s.automaticDynamicShapes = true;
    writeCompile(w, s);
}

void writeBackendFailureFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    CompileSpec s = baseSpec(0, 0, "export_step", 36, 51, "export_step(x)");
    const std::string reason
        = "backend='my_backend' raised:\nNotImplementedError: my_backend does "
          "not support aten.mul yet\n\nSet TORCHDYNAMO_VERBOSE=1 for the internal "
          "stack trace (please do this especially if you're reporting a bug to "
          "PyTorch). For even more developer context, set TORCH_LOGS=\"+dynamo\"\n";
    s.backendName = "my_backend";
    s.failType = "BackendCompilerFailed";
    s.failReason = reason;
    s.failUserFile = kTrainPy;
    s.failUserLine = 37;
    s.backendUs = 1800;
    s.fxGraph = simpleGraph("export_step", 37, "return x * 2.0", "8", "mul");
    s.errorTraceback = pythonTracebackFrames()
        + "  File "
          "\"/home/alice/.venv/lib/python3.11/site-packages/torch/_dynamo/output_graph.py\", "
          "line 1520, in _call_user_compiler\n"
          "    compiled_fn = compiler_fn(gm, self.example_inputs())\n"
          "                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "  File \"/home/alice/proj/train.py\", line 32, in my_backend\n"
          "    raise NotImplementedError(\"my_backend does not support aten.mul yet\")\n"
          "torch._dynamo.exc.BackendCompilerFailed: "
        + reason + "\n";
    writeCompile(w, s);
}

void writeCompiledAutogradFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    CompileSpec f = baseSpec(0, 0, "forward", 12, 44, "loss = model(x).sum()");
    f.stack = site(44, "loss = model(x).sum()");
    f.stack.push_back(frame(kModelPy, 12, "forward"));
    f.coFilename = kModelPy;
    TensorInput x = f.inputs.front();
    x.requiresGrad = true;
    f.inputs = { x };
    f.aotGraph
        = "class GraphModule(torch.nn.Module):\n"
          "    def forward(self, primals_1: \"f32[8, 128][128, 1]cpu\"):\n"
          "        mul: \"f32[8, 128][128, 1]cpu\" = torch.ops.aten.mul.Tensor(primals_1, 2.0);  "
          "primals_1 = None\n"
          "        return (mul,)\n        ";
    f.aotBackwardGraph = "class GraphModule(torch.nn.Module):\n"
                         "    def forward(self, tangents_1: \"f32[8, 128][128, 1]cpu\"):\n"
                         "        mul_1: \"f32[8, 128][128, 1]cpu\" = "
                         "torch.ops.aten.mul.Tensor(tangents_1, 2.0);  tangents_1 = None\n"
                         "        return (mul_1,)\n        ";
    writeCompile(w, f);
    w.advanceUs(8000);

    const std::string t = "/home/alice/.venv/lib/python3.11/site-packages/torch/";
    for (int64_t i = 0; i < 2; ++i) {
        CompileSpec c;
        c.id = { 0, i, 0, 0 };
        c.detail = Detail::Lite;
        c.stack = { frame(kTrainPy, 40, "<module>", "main()"),
            frame(kTrainPy, 45, "main", "loss.backward()"),
            frame(t + "_tensor.py", 648, "backward", "torch.autograd.backward("),
            frame(t + "autograd/__init__.py", 353, "backward", "_engine_run_backward("),
            frame(t + "autograd/graph.py", 824, "_engine_run_backward",
                "return Variable._execution_engine.run_backward(  # Calls into the C++ engine to "
                "run the backward pass"),
            frame(t + "_dynamo/compiled_autograd.py", 1344, "runtime_wrapper",
                "return compiled_fn(inputs, sizes, scalars, hooks, packed_inputs)"),
            frame("<eval_with_key>." + std::to_string(i), 4, "forward") };
        c.coName = "forward";
        c.coFilename = "<eval_with_key>." + std::to_string(i);
        c.coFirstLineno = 4;
        c.frameKey = 2 + i;
        c.inputs = { tensor("inputs", { 8, 128 }, { 128, 1 }) };
        c.inputs.front().source = "L['inputs'][0]";
        std::string graph = "class CompiledAutograd" + std::to_string(i)
            + "(torch.nn.Module):\n"
              "    def forward(self, inputs, sizes, scalars, hooks, packed_data):\n"
              "        getitem = inputs[0]\n"
              "        getitem_1 = inputs[1];  inputs = None\n"
              "        getitem_2 = sizes[0];  sizes = None\n"
              "        validate_outputs = "
              "torch__dynamo_compiled_autograd_ops_validate_outputs([getitem], "
              "[((None, None, device(type='cpu'), 6, 0, None), [getitem_2, 128], False, 6)]);  "
              "getitem = getitem_2 = None\n"
              "        getitem_3 = validate_outputs[0];  validate_outputs = None\n"
              "        mul = torch.ops.aten.mul.Tensor(getitem_3, 2.0);  getitem_3 = None\n"
              "        return []\n        ";
        c.compiledAutogradGraph = graph;
        c.fxGraph = "class GraphModule(torch.nn.Module):\n"
                    "    def forward(self, L_inputs_0_: \"f32[8, 128][128, 1]cpu\"):\n"
                    "        l_inputs_0_ = L_inputs_0_\n        \n"
                    "         # File: <eval_with_key>."
            + std::to_string(i)
            + ":9 in forward, code: mul = torch.ops.aten.mul.Tensor(getitem_3, 2.0);  getitem_3 = "
              "None\n"
              "        mul: \"f32[8, 128][128, 1]cpu\" = torch.ops.aten.mul.Tensor(l_inputs_0_, "
              "2.0);  "
              "l_inputs_0_ = None\n"
              "        return (mul,)\n        ";
        c.fxSizesJson = "{\"l_inputs_0_\": [8, 128], \"mul\": [8, 128]}";
        writeCompile(w, c);
        w.advanceUs(25000);
    }
}

void writeResetFixture(std::ostream& out)
{
    TraceWriter w(out, kDefaultPid, kDefaultStartUs);
    for (int round = 0; round < 3; ++round) {
        CompileSpec f = baseSpec(0, 0, "f", 10, 34, "f(x)");
        f.frameKey = 1 + round * 2;
        f.guardLatencyUs = 8.5 + round;
        writeCompile(w, f);
        w.advanceUs(1200);
        CompileSpec g = baseSpec(1, 0, "g", 14, 35, "g(x)");
        g.frameKey = 2 + round * 2;
        g.fxGraph = simpleGraph("g", 15, "return x * 2.0", "8", "mul");
        writeCompile(w, g);
        w.advanceUs(50000); // torch._dynamo.reset() between rounds
    }
}

void writeRankFixture(std::ostream& out, int rank)
{
    TraceWriter w(out, kDefaultPid + rank, kDefaultStartUs + rank * 1370);
    CompileSpec s = baseSpec(0, 0, "train_step", 20, 38, "loss = train_step(batch)");
    s.rank = rank;
    s.inputs = { tensor("x", { 8, 128 }, { 128, 1 }) };
    s.fxGraph = simpleGraph("train_step", 21, "return x * 2.0", "8", "mul");
    s.tracingUs = 5100 + rank * 300;
    s.backendUs = 210000 + rank * 17000;
    writeCompile(w, s);
}

} // namespace dynascope
