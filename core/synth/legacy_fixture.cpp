// writeLegacy2024Fixture: a log in the mid-2024 form. The glog prefix carries a thread id, stack
// frames have no "loc", guards are a dynamo_guards JSON list, chromium events have no cat/tid,
// "args": null and no compile id on the envelope, metrics have the 2024 field set (no compile_id)
// and fail_type is "<class '...'>". The graph break is visible only as restart_reasons of the
// final attempt [0/0_1] and the resume frame [1/0]; [2/0] fails in the backend.
#include "core/synth/scenarios.h"
#include "core/synth/synth_helpers.h"

#include "core/writer/trace_writer.h"

namespace dynascope {

using namespace synth;

void writeLegacy2024Fixture(std::ostream& out)
{
    const int64_t threadId = 140211872302912;
    const int64_t start = 1718190245000000; // 2024-06-12 11:04:05 UTC
    TraceWriter w(out, threadId, start);
    const std::string test = "/home/alice/proj/test_legacy.py";

    auto spec = [&](int64_t frameId, const std::string& fn, int64_t firstLine) {
        CompileSpec s;
        s.id = { std::nullopt, frameId, 0, 0 };
        s.legacy2024 = true;
        s.detail = Detail::Lite;
        s.stack
            = { frame(test, 61, "<module>"), frame(test, 52, "run"), frame(test, firstLine, fn) };
        s.coName = fn;
        s.coFilename = test;
        s.coFirstLineno = firstLine;
        s.frameKey = frameId + 1;
        s.tracingUs = 6100;
        s.backendUs = 40;
        s.backendName = "eager";
        TensorInput x;
        x.source = "L['x']";
        x.size = { 4, 4 };
        x.stride = { 4, 1 };
        s.inputs = { x };
        s.fxSizesJson = "{\"l_x_\": [4, 4], \"cos\": [4, 4]}";
        s.fxGraph = "class GraphModule(torch.nn.Module):\n"
                    "    def forward(self, L_x_ : torch.Tensor):\n"
                    "        l_x_ = L_x_\n"
                    "        \n"
                    "        # File: "
            + test + ":" + std::to_string(firstLine + 1) + " in " + fn
            + ", code: x = torch.cos(x)\n"
              "        cos = torch.cos(l_x_);  l_x_ = None\n"
              "        return (cos,)\n"
              "        ";
        return s;
    };

    CompileSpec a = spec(0, "fn", 44);
    a.restartReasons = { "'skip function graph_break in file "
                         "/home/alice/.venv/lib/python3.10/site-packages/torch/_dynamo/"
                         "decorators.py'" };
    writeCompile(w, a);
    w.advanceUs(1700);

    CompileSpec b = spec(1, "torch_dynamo_resume_in_fn_at_46", 46);
    b.stack = { frame(test, 61, "<module>"), frame(test, 52, "run"), frame(test, 46, "fn"),
        frame(test, 46, "torch_dynamo_resume_in_fn_at_46") };
    writeCompile(w, b);
    w.advanceUs(2300);

    CompileSpec c = spec(2, "broken", 55);
    c.backendName = "broken_backend";
    c.failType = "<class 'torch._dynamo.exc.BackendCompilerFailed'>";
    c.failReason = "backend='broken_backend' raised:\nRuntimeError: broken backend";
    c.failUserFile = test;
    c.failUserLine = 57;
    writeCompile(w, c);
}

} // namespace dynascope
