"""A helper under torch.compiler.disable called from a compiled function: Dynamo graph-breaks
at the call (the helper runs in eager) and resumes after it; the helper itself never
compiles."""
import torch
from scenario_facts import Facts

facts = Facts("compiler_disable", __doc__)


@torch.compiler.disable
def log_stats(t):
    return float(t.abs().max())


def step(x):
    y = x.sigmoid() * 4
    peak = log_stats(y)
    return y - peak


facts.function("step", step)
facts.function("helper", log_stats)
facts.line("break", step, "log_stats(y)")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=True, mode="restart", reason="disable")
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0, never_compiled=["helper"])
facts.write()
