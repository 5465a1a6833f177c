"""A data-dependent `if x.sum() > 0:`. Dynamo compiles the partial graph before the branch in the
same attempt (no restart: [0/0] stays attempt 0 and its restart_reasons is empty); only the
dynamo_graph_break_reason artifact shows the break. The taken branch resumes in
torch_dynamo_resume_in_step_at_<line>."""
import torch
from scenario_facts import Facts

facts = Facts("graph_break_data_dependent", __doc__)


def step(x):
    y = x.sin()
    if y.sum() > 0:
        return y.cos()
    return y.tan()


facts.function("step", step)
facts.line("break", step, "if y.sum() > 0:")
compiled = torch.compile(step, backend="aot_eager")
x = torch.ones(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "break", resume=True, mode="partial", reason="Data-dependent branching",
                  gb_type="Data-dependent branching")
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0)
facts.write()
