"""A `print` inside the compiled function breaks the graph (a builtin with a side effect Dynamo
does not trace); the code after it resumes in its own frame. The `without_print` variant runs
the same program with DYNASCOPE_SCENARIO_NO_PRINT=1: no print, one graph (the pair `diff` is
tested on)."""
import os

import torch
from scenario_facts import Facts

facts = Facts("graph_break_print", __doc__)
PRINT = os.environ.get("DYNASCOPE_SCENARIO_NO_PRINT") != "1"


def step(x):
    y = torch.relu(x) + 1
    if PRINT:
        print("mean so far", y.shape)
    return y * 3


facts.function("step", step)
facts.line("break", step, "print(")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
if PRINT:
    facts.graph_break("step", "break", resume=True, mode="restart", reason="print")
    facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0)
else:
    facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0)
facts.write()
