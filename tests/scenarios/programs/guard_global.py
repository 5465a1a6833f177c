"""A guard on a global: the compiled function reads the module-level THRESHOLD; the program
changes it between calls, so the second call recompiles on the guard of G['THRESHOLD']."""
import torch
from scenario_facts import Facts

facts = Facts("guard_global", __doc__)

THRESHOLD = 0.5


def clip(x):
    return torch.clamp(x, min=-THRESHOLD, max=THRESHOLD)


facts.function("clip", clip)
compiled = torch.compile(clip, backend="aot_eager")
x = torch.randn(8, 4)
values = []
for t in (0.5, 0.25):
    THRESHOLD = t
    torch.testing.assert_close(compiled(x), clip(x))
    facts.call("clip", x, THRESHOLD=t)
    values.append(t)
facts.recompile("clip", values=values, mismatch="value", source="G['THRESHOLD']",
                guard_kind="", reason="THRESHOLD")
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0)
facts.write()
