"""torch._dynamo.graph_break() in user code: a user-inserted break (GB code gb0025), the frame
restarts and the rest resumes in torch_dynamo_resume_in_step_at_<line>."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("graph_break_explicit", __doc__)


def step(x):
    y = x.cos() * 2
    torch._dynamo.graph_break()
    return y.sin() + 1


facts.function("step", step)
facts.line("break", step, "graph_break()")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=True, mode="restart",
                  reason="Call to `torch._dynamo.graph_break()`",
                  gb_type="Call to `torch._dynamo.graph_break()`",
                  extra={"gb_code": "gb0025"})
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0)
facts.write()
