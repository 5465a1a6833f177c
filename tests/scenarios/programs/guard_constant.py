"""A guard on a Python constant: scale(x, factor) is called with factor=2 and then factor=3.
Ints are specialised, so the second call recompiles on the EQUALS_MATCH guard of L['factor']
(reason "L['factor'] == 2")."""
import torch
from scenario_facts import Facts

facts = Facts("guard_constant", __doc__)


def scale(x, factor):
    return x * factor + 1


facts.function("scale", scale)
compiled = torch.compile(scale, backend="aot_eager")
x = torch.randn(8, 4)
for factor in (2, 3):
    torch.testing.assert_close(compiled(x, factor), scale(x, factor))
    facts.call("scale", x, factor=factor)
facts.recompile("scale", values=[2, 3], mismatch="value", source="L['factor']",
                guard_kind="EQUALS_MATCH", reason="factor == 2")
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0)
facts.write()
