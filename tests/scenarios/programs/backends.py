"""One model through backend="eager", "aot_eager" and "inductor" (the debugging ladder: which
layer changes the result). Each backend compiles its own function, so each is a frame of its own
with one compile; all three results equal eager's."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("backends", __doc__)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 8)).eval()


def run_eager(x):
    return model(x).softmax(dim=-1)


def run_aot_eager(x):
    return model(x).softmax(dim=-1)


def run_inductor(x):
    return model(x).softmax(dim=-1)


x = torch.randn(16, 32)
with torch.no_grad():
    want = run_eager(x)
    for label, fn, backend in [("eager", run_eager, "eager"),
                               ("aot_eager", run_aot_eager, "aot_eager"),
                               ("inductor", run_inductor, "inductor")]:
        facts.function(label, fn)
        torch.testing.assert_close(torch.compile(fn, backend=backend)(x), want)
        facts.call(label, x)
facts.expect(compiles=3, recompiles=0, graph_breaks=0, failures=0,
             backends={"eager": "eager", "aot_eager": "aot_eager", "inductor": "inductor"})
facts.write()
