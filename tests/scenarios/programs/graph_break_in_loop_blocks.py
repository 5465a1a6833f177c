"""A graph break in a loop over blocks, and what it costs the blocks: Net.forward prints inside
its `for` over four Block modules, so Dynamo skips the whole frame (a break in a loop cannot
resume). Each block's own forward is then a frame Dynamo compiles on its own: the first block
gets the input (requires_grad False), the next ones get activations (requires_grad True), so
Block.forward recompiles on the requires_grad of x ([1/1]), and the four blocks run as separate
graphs with Python in between. The recompile is a consequence of the skipped frame: fixing the
break in the loop puts the blocks back into one graph."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("graph_break_in_loop_blocks", __doc__)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)

    def forward(self, x):
        return torch.relu(self.lin(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(4)])

    def forward(self, x):
        for i, block in enumerate(self.blocks):
            x = block(x)
            print("block", i)
        return x


net = Net()
facts.function("forward", net)
facts.function("block", net.blocks[0])
facts.line("break", net, "print(")
facts.line("call", net, "block(x)")
compiled = torch.compile(net, backend="aot_eager")
x = torch.randn(8, 16)
for _ in range(2):
    torch.testing.assert_close(compiled(x), net(x))
    facts.call("forward", x)
facts.graph_break("forward", "break", resume=False, mode="skip", reason="print")
facts.recompile("block", values=[False, True], mismatch="requires_grad", source="L['x']",
                guard_kind="TENSOR_MATCH", reason="requires_grad",
                extra={"caused_by_skipped": "forward"})
facts.expect(compiles=3, recompiles=1, graph_breaks=1, failures=1, frame_skipped=True)
facts.write()
