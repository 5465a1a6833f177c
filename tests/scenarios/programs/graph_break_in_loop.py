"""A graph break inside a loop: Dynamo cannot resume inside the loop body, so it skips the frame
(falls back to eager, "Failed to handle graph break gracefully") and no resume frame follows.
PyTorch counts the frame as compiled but not ok (counters frames total 1, ok 0) and logs the
compile with fail_type Unsupported: one graph break and one failure, though the program never
sees an exception."""
import torch
from scenario_facts import Facts

facts = Facts("graph_break_in_loop", __doc__)


def step(x):
    for i in range(3):
        x = x * 2
        print("iteration", i)
    return x + 1


facts.function("step", step)
facts.line("break", step, "print(")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=False, mode="skip", reason="print")
facts.expect(compiles=1, recompiles=0, graph_breaks=1, failures=1, frame_skipped=True)
facts.write()
