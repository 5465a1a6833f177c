"""A custom backend that raises: the compile fails with BackendCompilerFailed (layer: backend),
fail_reason "backend='broken_backend' raised: RuntimeError: ...", a dynamo_error traceback. With
suppress_errors off the call raises in the program."""
import torch
from scenario_facts import Facts

facts = Facts("backend_raises", __doc__)


def broken_backend(gm, example_inputs):
    raise RuntimeError("broken_backend cannot lower this graph")


def export_step(x, w):
    return (x @ w).tanh()


facts.function("export_step", export_step)
facts.line("call", export_step, "(x @ w).tanh()")
x, w = torch.randn(8, 16), torch.randn(16, 4)
try:
    torch.compile(export_step, backend=broken_backend)(x, w)
    raise SystemExit("the broken backend did not raise")
except Exception as e:  # torch._dynamo.exc.BackendCompilerFailed
    facts.failure("export_step", e, type="BackendCompilerFailed", layer="backend",
                  reason="broken_backend cannot lower this graph")
facts.call("export_step", x, w)
facts.expect(compiles=1, recompiles=0, graph_breaks=0, failures=1)
facts.write()
