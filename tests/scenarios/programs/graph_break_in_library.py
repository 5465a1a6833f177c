"""A graph break in library code: the compiled `clip` calls torch.nn.utils.clip_grad_norm_ with
error_if_nonfinite=True, which Dynamo inlines; inside it, `if error_if_nonfinite and
torch.logical_or(total_norm.isnan(), total_norm.isinf()):` branches on a tensor's value, so the
graph breaks in torch/nn/utils/clip_grad.py, not in this file. The user's own line is the call
into the library, which is where the fix goes (error_if_nonfinite=False, or check the norm
after the compiled step). Dynamo restarts the analysis and compiles `clip` up to the call, an
empty graph; the library's code then runs in eager, in its own frames, which Dynamo does not
compile (PyTorch's files are skipped): one compile."""
import torch
import torch.nn.utils.clip_grad
from scenario_facts import Facts

facts = Facts("graph_break_in_library", __doc__)

model = torch.nn.Linear(8, 8)
model(torch.randn(4, 8)).sum().backward()
params = list(model.parameters())


def clip(ps):
    return torch.nn.utils.clip_grad_norm_(ps, 1e9, error_if_nonfinite=True)  # 1e9: nothing clipped


facts.function("clip", clip)
facts.function("get_total_norm", torch.nn.utils.clip_grad._get_total_norm)
facts.line("call", clip, "clip_grad_norm_(")
facts.line("break", torch.nn.utils.clip_grad._get_total_norm, "torch.logical_or(")
compiled = torch.compile(clip, backend="eager")
for _ in range(2):
    torch.testing.assert_close(compiled(params), clip(params))
    facts.call("clip", params[0])
facts.graph_break("clip", "break", resume=False, mode="restart",
                  reason="Data-dependent branching", gb_type="Data-dependent branching",
                  extra={"in": "get_total_norm", "library": "torch", "called_at": "call",
                         "empty_graph": True})
facts.expect(compiles=1, recompiles=0, graph_breaks=1, failures=0)
facts.write()
