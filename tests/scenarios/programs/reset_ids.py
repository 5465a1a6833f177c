"""torch._dynamo.reset() and compiling again: the second round of compiles starts the frame
numbering over, so the compile ids [0/0] and [1/0] appear twice in one file."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("reset_ids", __doc__)


def first(x):
    return x.relu() + 1


def second(x):
    return x.sigmoid() * 2


facts.function("first", first)
facts.function("second", second)
x = torch.randn(8, 4)
for round_ in range(2):
    for fn in (first, second):
        torch.testing.assert_close(torch.compile(fn, backend="aot_eager")(x), fn(x))
        facts.call(fn.__name__, x, round=round_)
    if round_ == 0:
        torch._dynamo.reset()
facts.expect(compiles=4, recompiles=0, graph_breaks=0, failures=0,
             ids=["0/0", "1/0", "0/0", "1/0"])
facts.write()
