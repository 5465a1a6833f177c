"""A training step with backward under Inductor: the model's forward compiles ([0/0], its
backward graph compiled lazily), then a separately compiled loss ([1/0]); loss.backward() then
compiles the forward's backward, whose records (bwd_compilation_metrics, the backward output
code) arrive after [1/0]'s compile, under the forward's compile id. Two steps: the second reuses
everything."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("training_backward", __doc__)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 4)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def loss_fn(out, target):
    return ((out - target) ** 2).mean()


facts.function("forward", model)
facts.function("loss", loss_fn)
cmodel = torch.compile(model, backend="inductor")
closs = torch.compile(loss_fn, backend="inductor")
x, target = torch.randn(16, 32), torch.randn(16, 4)
for step in range(2):
    opt.zero_grad()
    loss = closs(cmodel(x), target)
    loss.backward()
    opt.step()
    facts.call("forward", x)
    facts.call("loss", target)
facts.expect(compiles=2, recompiles=0, graph_breaks=0, failures=0, backward_of="forward",
             steps=2)
facts.write()
