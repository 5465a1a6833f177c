"""The failing-backend program of the probe tests: a custom op whose backward reads the gradient's
data pointer, as a backward that calls into a C kernel does. Eager PyTorch and backend="eager" run
the backward on real tensors and work; AOTAutograd traces the backward at compile time with fake
tensors, which have no data, so backend="aot_eager" (and Inductor, which sits on AOTAutograd)
fails with BackendCompilerFailed. `dynascope-cli probe` should say: fails with aot_eager but not
eager, look at AOTAutograd."""
import torch


@torch.library.custom_op("dynascope_probe_demo::scale", mutates_args=())
def scale(x: torch.Tensor, factor: float) -> torch.Tensor:
    return x * factor


@scale.register_fake
def _(x, factor):
    return torch.empty_like(x)


def _setup_context(ctx, inputs, output):
    ctx.factor = inputs[1]


def _backward(ctx, grad):
    grad = grad.contiguous()
    grad.data_ptr()  # where a C kernel would read the gradient's memory
    return grad * ctx.factor, None


scale.register_autograd(_backward, setup_context=_setup_context)


def step(x):
    return scale(x.sin(), 2.0).sum()


torch.manual_seed(0)
compiled = torch.compile(step)
for i in range(4):
    x = torch.randn(64, requires_grad=True)
    loss = compiled(x)
    loss.backward()
print("custom_op_backward: gradient norm", float(x.grad.norm()))
