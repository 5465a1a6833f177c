"""The wrong-result program of the probe tests: a custom backend that runs the captured graph and
then perturbs its first output by 1e-3, the way a miscompiling backend gives plausible but wrong
numbers. Nothing fails: only comparing with eager shows it. `dynascope-cli probe --check
--backends eager,program` should report "wrong result" for the program's own backend, and "ok"
for backend=eager."""
import torch


def perturbing_backend(gm, example_inputs):
    def run(*args):
        out = gm(*args)
        if isinstance(out, (list, tuple)) and out and isinstance(out[0], torch.Tensor):
            return type(out)([out[0] + 1e-3, *out[1:]])
        return out

    return run


def predict(x, w):
    return torch.tanh(x @ w).sum(dim=-1)


torch.manual_seed(0)
w = torch.randn(32, 8)
compiled = torch.compile(predict, backend=perturbing_backend)
for i in range(6):
    y = compiled(torch.randn(16, 32), w)
print("perturbed_backend: done", tuple(y.shape))
