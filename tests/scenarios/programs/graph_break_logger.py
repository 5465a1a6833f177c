"""A logging.Logger call in compiled code: Dynamo does not trace `logger.warning` ("logging.Logger
method not supported for non-export cases"), so the graph breaks there and the rest resumes in
torch_dynamo_resume_in_step_at_<line>. PyTorch's hint for it is
torch._dynamo.config.ignore_logging_functions (the call is dropped while tracing), not the
reorderable_logging_functions of a print."""
import logging

import torch
from scenario_facts import Facts

facts = Facts("graph_break_logger", __doc__)
logger = logging.getLogger("scenario")


def step(x):
    y = x.relu() * 2
    logger.warning("step: %s", tuple(y.shape))
    return y.sum(dim=-1)


facts.function("step", step)
facts.line("log", step, "logger.warning(")
compiled = torch.compile(step, backend="aot_eager")
x = torch.randn(8, 4)
torch.testing.assert_close(compiled(x), step(x))
facts.call("step", x)
facts.graph_break("step", "log", resume=True, mode="restart", reason="logging.Logger",
                  gb_type="logging.Logger method not supported for non-export cases",
                  extra={"io_code": "torch._dynamo.config.ignore_logging_functions.add("
                                    "logger.warning)"})
# After the break, logger.warning runs in eager under Dynamo's frame callback: PyTorch counts
# each frame of the logging module it looks at (counters["frames"]["total"], about 40) though it
# compiles none of them, and the trace has no record of them.
facts.expect(compiles=2, recompiles=0, graph_breaks=1, failures=0, eager_frames_counted=True)
facts.write()
