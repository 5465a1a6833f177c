"""A guard on requires_grad: the function called with a plain tensor and then with one that
requires grad recompiles on the TENSOR_MATCH guard of L['x'] (requires_grad mismatch)."""
import torch
from scenario_facts import Facts

facts = Facts("guard_requires_grad", __doc__)


def scale(x):
    return (x * 3).sin()


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager")
for rg in (False, True):
    x = torch.randn(8, 4, requires_grad=rg)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x, requires_grad=rg)
facts.recompile("scale", values=[False, True], mismatch="requires_grad", source="L['x']",
                guard_kind="TENSOR_MATCH", reason="requires_grad mismatch")
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0)
facts.write()
