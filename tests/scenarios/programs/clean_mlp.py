"""A clean compile: a small MLP under torch.inference_mode, compiled with Inductor, checked
against eager with assert_close. One frame, one compile, no break, no recompile."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("clean_mlp", __doc__)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        h = self.act(self.fc1(x))
        return self.fc2(h)


torch.manual_seed(0)
model = MLP().eval()
facts.function("forward", model)
compiled = torch.compile(model, backend="inductor")
x = torch.randn(16, 64)
with torch.inference_mode():
    expected = model(x)
    got = compiled(x)
    facts.call("forward", x)
    torch.testing.assert_close(got, expected)
    # Same shape again: served by the compiled code, no new compile.
    got = compiled(x)
    facts.call("forward", x)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0, backend="inductor",
             assert_close=True)
facts.write()
