"""Calls with 32, 64, 128, 256 and 512 rows with torch.compile(dynamic=False): every new size
recompiles on the TENSOR_MATCH size guard, five compiles of one frame, no dynamic dimension."""
import torch
from scenario_facts import Facts

facts = Facts("dynamic_false", __doc__)


def scale(x):
    return (x * 2 + 1).relu().sum(dim=1)


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager", dynamic=False)
rows = [32, 64, 128, 256, 512]
for n in rows:
    x = torch.randn(n, 128)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x)
facts.recompile("scale", values=rows, mismatch="size", source="L['x']",
                guard_kind="TENSOR_MATCH", reason="size mismatch at index 0")
facts.expect(compiles=5, recompiles=4, graph_breaks=0, failures=0, rows=rows)
facts.write()
