"""Calls with 32, 64, 128, 256 and 512 rows with torch.compile(dynamic=True): one compile with
symbolic sizes from the start (size=[None, None]: both dims dynamic), no recompile."""
import torch
from scenario_facts import Facts

facts = Facts("dynamic_true", __doc__)


def scale(x):
    return (x * 2 + 1).relu().sum(dim=1)


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager", dynamic=True)
rows = [32, 64, 128, 256, 512]
for n in rows:
    x = torch.randn(n, 128)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0, rows=rows,
             dynamic_compile=0, dynamic_size=[None, None])
facts.write()
