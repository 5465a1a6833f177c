"""A graph break on `x.sum().item() > 0` (Tensor.item() without capture_scalar_outputs): the
analysis restarts ([0/0_1] compiles the graph before the break) and the code after it is
compiled as the resume frame torch_dynamo_resume_in_step_at_<line>."""
import torch
from scenario_facts import Facts

facts = Facts("graph_break_item", __doc__)


def step(x):
    y = x * 2
    if y.sum().item() > 0:
        return y + 1
    return y - 1


facts.function("step", step)
facts.line("break", step, ".item() > 0")
compiled = torch.compile(step, backend="aot_eager")
x = torch.ones(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=True, mode="restart", reason="Tensor.item()",
                  gb_type="Unsupported Tensor.item() call with capture_scalar_outputs=False")
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0)
facts.write()
