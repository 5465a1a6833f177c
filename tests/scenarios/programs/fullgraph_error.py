"""The explicit graph break under fullgraph=True: the compile fails with Unsupported (the
graph-break text becomes the failure reason) and the call raises in the program."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("fullgraph_error", __doc__)


def step(x):
    y = x.cos() * 2
    torch._dynamo.graph_break()
    return y.sin() + 1


facts.function("step", step)
facts.line("break", step, "graph_break()")
compiled = torch.compile(step, backend="aot_eager", fullgraph=True)
x = torch.randn(8, 4)
try:
    compiled(x)
    raise SystemExit("fullgraph=True compiled a graph break")
except torch._dynamo.exc.Unsupported as e:
    facts.failure("step", e, type="Unsupported", layer="dynamo",
                  reason="Call to `torch._dynamo.graph_break()`", line="break")
facts.call("step", x)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=1)
facts.write()
