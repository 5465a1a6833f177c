"""The recompile limit reached: torch._dynamo.config.recompile_limit = 4 and the function, compiled
with dynamic=False (so ints stay specialised), is called with 8 different constants; after 4
compiles PyTorch stops compiling the frame (it warns "torch._dynamo hit config.recompile_limit")
and runs the later calls in eager. PyTorch logs the fifth attempt as compile [0/4] without a
dynamo_start: its recompile_reasons and a compilation_metrics failing with Unsupported "Dynamo
recompile limit exceeded" (gb0039)."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("recompile_limit", __doc__)

torch._dynamo.config.recompile_limit = 4


def shift(x, k):
    return x + k


facts.function("shift", shift)
compiled = torch.compile(shift, backend="aot_eager", dynamic=False)
x = torch.randn(4)
ks = list(range(8))
for k in ks:
    torch.testing.assert_close(compiled(x, k), shift(x, k))
    facts.call("shift", x, k=k)
facts.recompile("shift", values=ks[:4], mismatch="value", source="L['k']",
                guard_kind="EQUALS_MATCH", reason="k == ")
facts.data["failures"].append({"function": "shift", "caught": None, "type": "Unsupported",
                               "layer": "dynamo", "reason": "Dynamo recompile limit exceeded",
                               "line": None, "recompile_limit": True})
facts.expect(compiles=4, recompiles=3, graph_breaks=0, failures=1, recompile_limit=4, calls=8)
facts.write()
