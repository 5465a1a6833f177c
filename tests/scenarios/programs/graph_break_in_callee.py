"""A graph break in a function called from the compiled one, called twice. Dynamo inlines
`helper` into `forward`, meets the break there and breaks `forward` at the call: the code after
the call resumes in torch_dynamo_resume_in_forward_at_<call line>. `helper` then runs as its own
frame, which Dynamo compiles and breaks again; PyTorch logs that second break of the same kind
with its user stack suppressed ("Graph break (user stack suppressed due to duplicate graph
break) in user code at ..."), and its rest resumes in torch_dynamo_resume_in_helper_at_<line>.
PyTorch counts 4 frames and 2 graph breaks."""
import torch
import torch._dynamo
from scenario_facts import Facts

facts = Facts("graph_break_in_callee", __doc__)


def helper(x):
    y = x * 2
    torch._dynamo.graph_break()
    return y + 1


class Block(torch.nn.Module):
    def forward(self, x):
        a = x.sin()
        b = helper(a)
        return b.cos()


block = Block()
facts.function("forward", block)
facts.function("helper", helper)
facts.line("break", helper, "graph_break()")
facts.line("call", block, "helper(a)")
compiled = torch.compile(block, backend="eager")
x = torch.randn(4)
for _ in range(2):
    torch.testing.assert_close(compiled(x), block(x))
    facts.call("forward", x)
facts.graph_break("forward", "break", resume=True, mode="restart",
                  reason="Call to `torch._dynamo.graph_break()`",
                  gb_type="Call to `torch._dynamo.graph_break()`",
                  extra={"gb_code": "gb0025", "in": "helper", "resume_at": "call"})
facts.graph_break("helper", "break", resume=True, mode="restart",
                  reason="Call to `torch._dynamo.graph_break()`",
                  gb_type="Call to `torch._dynamo.graph_break()`",
                  extra={"gb_code": "gb0025"})
facts.expect(compiles=4, recompiles=0, graph_breaks=2, failures=0)
facts.write()
