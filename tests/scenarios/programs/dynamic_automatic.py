"""Calls with 32, 64, 128, 256 and 512 rows under the default settings (automatic dynamic
shapes): the first call compiles static, the second recompiles on the size guard and marks dim 0
dynamic (size=[None, 128]), and every later size reuses that dynamic compile."""
import torch
from scenario_facts import Facts

facts = Facts("dynamic_automatic", __doc__)


def scale(x):
    return (x * 2 + 1).relu().sum(dim=1)


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager")
rows = [32, 64, 128, 256, 512]
for n in rows:
    x = torch.randn(n, 128)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x)
facts.recompile("scale", values=rows[:2], mismatch="size", source="L['x']",
                guard_kind="TENSOR_MATCH", reason="size mismatch at index 0",
                extra={"expected": "32", "actual": "64"})
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0, rows=rows,
             dynamic_compile=1, dynamic_size=[None, 128])
facts.write()
