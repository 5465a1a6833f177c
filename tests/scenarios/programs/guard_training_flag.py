"""A guard on a module's training flag: the model is called in train() mode and then after
eval(); dropout behaves differently, so the second call recompiles on the guard of
L['self'].training."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("guard_training_flag", __doc__)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.lin(x)).relu()


torch.manual_seed(0)
model = Block()
facts.function("forward", model)
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(4, 16)
with torch.no_grad():
    model.train()
    compiled(x)
    facts.call("forward", x, training=True)
    model.eval()
    torch.testing.assert_close(compiled(x), model(x))
    facts.call("forward", x, training=False)
facts.recompile("forward", values=[True, False], mismatch="value", source="training",
                guard_kind="", reason="training")
facts.expect(compiles=2, recompiles=1, graph_breaks=0, failures=0)
facts.write()
