"""The bundled example (resources/examples/example.log is this scenario's trace): one script that
walks the debugging ladder.
  - MLP.forward compiles cleanly with Inductor (assert_close against eager);
  - step() graph-breaks on a data-dependent `if` and resumes in
    torch_dynamo_resume_in_step_at_<line>;
  - scale() is called with 32, 64, 128, 256 and 512 rows: the 64-row call recompiles on the size
    guard and, under the default automatic dynamic shapes, compiles dim 0 dynamic
    (size=[None, 128]), so the later sizes no longer recompile;
  - export_step() goes through a custom backend that raises (BackendCompilerFailed)."""
import torch
from torch import nn
from scenario_facts import Facts

facts = Facts("example", __doc__)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(128, 256)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        h = self.act(self.fc1(x))
        return self.fc2(h)


def step(x):
    y = torch.tanh(x) * 2
    if y.sum() > 0:
        return y.relu()
    return y.neg()


def scale(x):
    return (x * 0.5 + 1).sum(dim=-1)


def my_backend(gm, example_inputs):
    raise RuntimeError("my_backend: lowering is not implemented for this graph")


def export_step(x, w):
    return torch.nn.functional.linear(x, w).softmax(dim=-1)


torch.manual_seed(0)
model = MLP().eval()
facts.function("forward", model)
facts.function("step", step)
facts.function("scale", scale)
facts.function("export_step", export_step)
facts.line("break", step, "if y.sum() > 0:")

x = torch.randn(32, 128)
with torch.inference_mode():
    torch.testing.assert_close(torch.compile(model, backend="inductor")(x), model(x))
facts.call("forward", x)

torch.testing.assert_close(torch.compile(step, backend="aot_eager")(x), step(x))
facts.call("step", x)

cscale = torch.compile(scale, backend="aot_eager")
rows = [32, 64, 128, 256, 512]
for n in rows:
    xs = torch.randn(n, 128)
    torch.testing.assert_close(cscale(xs), scale(xs))
    facts.call("scale", xs)

w = torch.randn(16, 128)
try:
    torch.compile(export_step, backend=my_backend)(x, w)
    raise SystemExit("my_backend did not raise")
except Exception as e:
    facts.failure("export_step", e, type="BackendCompilerFailed", layer="backend",
                  reason="my_backend: lowering is not implemented")
facts.call("export_step", x, w)

facts.graph_break("step", "break", resume=True, mode="partial", reason="Data-dependent branching")
facts.recompile("scale", values=rows[:2], mismatch="size", source="L['x']",
                guard_kind="TENSOR_MATCH", reason="size mismatch at index 0",
                extra={"expected": "32", "actual": "64"})
facts.expect(compiles=6, recompiles=1, graph_breaks=1, failures=1, rows=rows,
             dynamic_function="scale", dynamic_compile=1, dynamic_size=[None, 128])
facts.write()
