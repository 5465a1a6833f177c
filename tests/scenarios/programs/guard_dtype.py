"""A guard on dtype: the same function called with float32 and then float64 input recompiles on
the TENSOR_MATCH guard of L['x'] (dtype mismatch, expected Float, actual Double)."""
import torch
from scenario_facts import Facts

facts = Facts("guard_dtype", __doc__)


def scale(x):
    return x.exp() * 2


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager")
for dtype in (torch.float32, torch.float64):
    x = torch.randn(8, 4, dtype=dtype)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x)
facts.recompile("scale", values=["torch.float32", "torch.float64"], mismatch="dtype",
                source="L['x']", guard_kind="TENSOR_MATCH", reason="dtype mismatch")
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0)
facts.write()
