"""A `print` inside the compiled function breaks the graph (a builtin with a side effect Dynamo
does not trace); the code after it resumes in its own frame."""
import torch
from scenario_facts import Facts

facts = Facts("graph_break_print", __doc__)


def step(x):
    y = torch.relu(x) + 1
    print("mean so far", y.shape)
    return y * 3


facts.function("step", step)
facts.line("break", step, "print(")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=True, mode="restart", reason="print")
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0)
facts.write()
