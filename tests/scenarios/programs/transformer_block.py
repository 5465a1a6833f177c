"""A small transformer block (attention + MLP, layer norms, residuals) compiled with Inductor
under inference_mode: realistic graph, guard and output-code sizes; checked against eager."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("transformer_block", __doc__)


class Block(nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, need_weights=False)
        x = x + a
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
model = Block().eval()
facts.function("forward", model)
x = torch.randn(2, 16, 64)
with torch.inference_mode():
    want = model(x)
    torch.testing.assert_close(torch.compile(model, backend="inductor")(x), want,
                               atol=1e-4, rtol=1e-4)
facts.call("forward", x)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=0, backend="inductor")
facts.write()
