"""torch._dynamo.mark_dynamic(x, 0) before the first call: the one compile has size=[None, 128]
and shape guards on dim 0 (create_symbol, guard_added_fast with user stacks); the calls with 32,
64, 128, 256 and 512 rows all reuse it."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("mark_dynamic", __doc__)


def scale(x):
    return (x * 2 + 1).relu().sum(dim=1)


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager")
rows = [32, 64, 128, 256, 512]
for n in rows:
    x = torch.randn(n, 128)
    torch._dynamo.mark_dynamic(x, 0)
    torch.testing.assert_close(compiled(x), scale(x))
    facts.call("scale", x)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0, rows=rows,
             dynamic_compile=0, dynamic_size=[None, 128])
facts.write()
