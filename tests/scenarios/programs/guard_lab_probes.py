"""The guard lab's truth: after a few compiles, the program calls its compiled functions with
probe inputs (other sizes inside and outside the shape guards, other dtypes, requires_grad, a
non-contiguous tensor, other Python constants, no_grad, autocast, a module's training flag,
inference mode and inference tensors, which only the dispatch key set tells apart) and
records, for each, whether PyTorch compiled again (its frame counter before and after the call),
how many cache entries the frame had before it, and which entry ran: each compile's graph is
tagged with its number by the backend, so the tag that runs names the cache entry Dynamo chose. A probe is written in the guard lab's own
words (dynascope-cli guards --input), so the test asks Dynascope the same question, on the trace
as it stood before the probe, and compares the verdict with what PyTorch did."""
import torch
from torch._dynamo.utils import counters
from scenario_facts import Facts

facts = Facts("guard_lab_probes", __doc__)


def scale(x):
    return x * 2 + 1


def shift(x, k):
    return x + k


def mul(x):
    return x * 3


def neg(x):
    return -x


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(x) * 3


net = Net()
facts.function("scale", scale)
facts.function("shift", shift)
facts.function("mul", mul)
facts.function("neg", neg)
facts.function("forward", net)
entries = {"scale": 0, "shift": 0, "mul": 0, "neg": 0, "forward": 0}
probes = []
current = [None]  # the function the running probe calls
ran = []  # the tags of the graphs that ran


def tagging(gm, example_inputs):
    """The eager backend, with the graph tagged by the frame's compile number (frame_compile_id:
    the number of compiles the frame had before this one)."""
    function = current[0]
    tag = entries[function] + sum(1 for f, _ in ran_compiles if f == function)
    ran_compiles.append((function, tag))

    def run(*args):
        ran.append(tag)
        return gm.forward(*args)
    return run


ran_compiles = []  # compiles made during the running probe
compiled_scale = torch.compile(scale, backend=tagging)
compiled_shift = torch.compile(shift, backend=tagging)
compiled_mul = torch.compile(mul, backend=tagging)
compiled_neg = torch.compile(neg, backend=tagging)
compiled_net = torch.compile(net, backend=tagging)


def frames():
    return counters["frames"]["total"]


def probe(function, description, call):
    before = frames()
    current[0] = function
    ran.clear()
    ran_compiles.clear()
    call()
    compiled = frames() - before
    probes.append({"function": function, "input": description, "entries_before": entries[function],
                   "recompiled": compiled > 0, "ran_entry": ran[-1] if ran else None})
    entries[function] += compiled


def t(*sizes, dtype=torch.float32, requires_grad=False):
    return torch.randn(*sizes, dtype=dtype, requires_grad=requires_grad)


on = "requires_grad=False; grad: on"
# scale: a static first compile, a dtype, then sizes (automatic dynamic takes over).
probe("scale", f"x: f32[8, 4] {on}", lambda: compiled_scale(t(8, 4)))
probe("scale", f"x: f32[8, 4] {on}", lambda: compiled_scale(t(8, 4)))
probe("scale", f"x: f64[8, 4] {on}", lambda: compiled_scale(t(8, 4, dtype=torch.float64)))
probe("scale", f"x: f64[8, 4] {on}", lambda: compiled_scale(t(8, 4, dtype=torch.float64)))
probe("scale", f"x: f32[8, 4] {on}", lambda: compiled_scale(t(8, 4)))
probe("scale", f"x: f32[16, 4] {on}", lambda: compiled_scale(t(16, 4)))
for rows in (32, 5, 2, 1000):
    probe("scale", f"x: f32[{rows}, 4] {on}", lambda r=rows: compiled_scale(t(r, 4)))
probe("scale", f"x: f32[1, 4] {on}", lambda: compiled_scale(t(1, 4)))
probe("scale", f"x: f32[1, 4] {on}", lambda: compiled_scale(t(1, 4)))
probe("scale", f"x: f32[8, 5] {on}", lambda: compiled_scale(t(8, 5)))
probe("scale", f"x: f32[8, 6] {on}", lambda: compiled_scale(t(8, 6)))
probe("scale", f"x: f16[8, 4] {on}", lambda: compiled_scale(t(8, 4, dtype=torch.float16)))
probe("scale", f"x: f16[8, 4] {on}", lambda: compiled_scale(t(8, 4, dtype=torch.float16)))
probe("scale", "x: f32[8, 4] requires_grad; grad: on",
      lambda: compiled_scale(t(8, 4, requires_grad=True)))
probe("scale", "x: f32[12, 4] requires_grad; grad: on",
      lambda: compiled_scale(t(12, 4, requires_grad=True)))


def under_no_grad(fn):
    with torch.no_grad():
        fn()


probe("scale", "x: f32[8, 4] requires_grad=False; grad: off",
      lambda: under_no_grad(lambda: compiled_scale(t(8, 4))))
probe("scale", "x: f32[8, 4] requires_grad=False; grad: off",
      lambda: under_no_grad(lambda: compiled_scale(t(8, 4))))

# shift: a Python int, then others (automatic dynamic makes it a symbol), then a float.
on_shift = "x: f32[4] requires_grad=False; grad: on"
for k in (3, 3, 4, 5, 100, -7):
    probe("shift", f"{on_shift}; k: {k}", lambda k=k: compiled_shift(t(4), k))
probe("shift", f"{on_shift}; k: 0.5", lambda: compiled_shift(t(4), 0.5))

# mul: layouts (a transposed view, channels_last) and autocast.
probe("mul", f"x: f32[8, 4] {on}", lambda: compiled_mul(t(8, 4)))
probe("mul", f"x: f32[8, 4] stride=[1, 8] {on}", lambda: compiled_mul(t(4, 8).t()))
probe("mul", f"x: f32[8, 4] stride=[1, 8] {on}", lambda: compiled_mul(t(4, 8).t()))
probe("mul", f"x: f32[2, 3, 8, 8] {on}", lambda: compiled_mul(t(2, 3, 8, 8)))
probe("mul", f"x: f32[2, 3, 8, 8] channels_last {on}",
      lambda: compiled_mul(t(2, 3, 8, 8).to(memory_format=torch.channels_last)))
probe("mul", f"x: f32[2, 3, 8, 8] channels_last {on}",
      lambda: compiled_mul(t(2, 3, 8, 8).to(memory_format=torch.channels_last)))


def under_autocast(fn):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        fn()


probe("mul", f"x: f32[8, 4] {on}; autocast: cpu bf16",
      lambda: under_autocast(lambda: compiled_mul(t(8, 4))))
probe("mul", f"x: f32[8, 4] {on}; autocast: cpu bf16",
      lambda: under_autocast(lambda: compiled_mul(t(8, 4))))
probe("mul", f"x: f32[8, 4] {on}; autocast: off", lambda: compiled_mul(t(8, 4)))

# neg: inference mode and inference tensors, all under grad mode off, so GLOBAL_STATE passes and
# only TENSOR_MATCH's dispatch key set (the tensor's keys with the thread's included keys added
# and its excluded ones removed) tells the calls apart: inference mode excludes the autograd
# keys, and an inference tensor is made without them.
def under_inference_mode(fn):
    with torch.inference_mode():
        fn()


def inference_tensor(*sizes):
    with torch.inference_mode():
        return t(*sizes)


off = "requires_grad=False; grad: off"


def neg_of(make, mode):
    x = make(8, 4)  # made before the call's mode is entered
    mode(lambda: compiled_neg(x))


probe("neg", f"x: f32[8, 4] {off}; inference_mode: off", lambda: neg_of(t, under_no_grad))
probe("neg", f"x: f32[8, 4] {off}; inference_mode: on",
      lambda: neg_of(t, under_inference_mode))
probe("neg", f"x: f32[8, 4] {off}; inference_mode: on",
      lambda: neg_of(t, under_inference_mode))
probe("neg", f"x: f32[8, 4] inference {off}; inference_mode: off",
      lambda: neg_of(inference_tensor, under_no_grad))
probe("neg", f"x: f32[8, 4] inference {off}; inference_mode: on",
      lambda: neg_of(inference_tensor, under_inference_mode))
probe("neg", f"x: f32[8, 4] inference {off}; inference_mode: on",
      lambda: neg_of(inference_tensor, under_inference_mode))
probe("neg", f"x: f32[8, 4] {off}; inference_mode: off", lambda: neg_of(t, under_no_grad))
probe("neg", f"x: f32[8, 4] {off}; inference_mode: off; autocast: cpu bf16",
      lambda: neg_of(t, lambda f: under_no_grad(lambda: under_autocast(f))))

# The module's training flag.
on_net = "x: f32[8, 4] requires_grad=False; grad: on"
probe("forward", f"{on_net}; training: True", lambda: (net.train(), compiled_net(t(8, 4))))
probe("forward", f"{on_net}; training: True", lambda: (net.train(), compiled_net(t(8, 4))))
probe("forward", f"{on_net}; training: False", lambda: (net.eval(), compiled_net(t(8, 4))))
probe("forward", f"{on_net}; training: False", lambda: (net.eval(), compiled_net(t(8, 4))))
probe("forward", f"{on_net}; training: True", lambda: (net.train(), compiled_net(t(8, 4))))

facts.data["probes"] = probes
compiles = sum(entries.values())
facts.expect(compiles=compiles, graph_breaks=0, failures=0,
             recompiles=compiles - len(entries),
             findings=["recompile-guard", "recompile-shape", "dynamic-still-recompiles"])
facts.write()
