"""What a scenario program knows without its trace: the ground truth the trace is tested against.

Each program in this folder builds one `Facts`, records what it does (the functions it compiles,
the lines of its own source where it breaks or fails, found with `inspect`; the shapes and values
it calls with; what it expects PyTorch to do, in PyTorch's own terms) and calls `write()` at the
end, which adds PyTorch's in-process counters (`torch._dynamo.utils.counters`) and versions and
writes `facts.json` (the path in DYNASCOPE_FACTS, else facts.json in the working directory).

The schema is documented in tests/scenarios/README.md ("facts.json"); readers check `format` and
`version`. Keys are plain data: lists, dicts, strings, ints. File names are as Python has them
(the runner starts programs by their bare name, so `example.py`), the way the trace names them.
"""

import inspect
import json
import os
import platform

FORMAT = "dynascope-scenario-facts"
VERSION = 1


def _where(fn):
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:  # an nn.Module: its forward
        code = type(fn).forward.__code__
    return {
        "name": code.co_name,
        "file": code.co_filename,
        "firstlineno": code.co_firstlineno,
    }


def line_of(fn, text, nth=1):
    """The (file, line, code) of the nth line of fn's own source that contains `text`."""
    target = inspect.unwrap(fn)
    if not hasattr(target, "__code__"):
        target = type(target).forward
    lines, first = inspect.getsourcelines(target)
    seen = 0
    for i, line in enumerate(lines):
        if text in line:
            seen += 1
            if seen == nth:
                return {
                    "file": inspect.getsourcefile(target),
                    "line": first + i,
                    "code": line.strip(),
                }
    raise ValueError(f"{text!r} is not in the source of {target.__qualname__}")


class Facts:
    def __init__(self, scenario, description):
        self.data = {
            "format": FORMAT,
            "version": VERSION,
            "scenario": scenario,
            "description": description,
            # The program's file as its code names it (the bottom frame of the stack: the runner
            # starts a program compiled under its bare name from a .pyc, so argv[0] is the .pyc).
            "program": inspect.stack(0)[-1].filename,
            "functions": {},  # label -> {name, file, firstlineno}
            "lines": {},  # label -> {file, line, code}
            "calls": [],  # {function, shapes, values}
            "graph_breaks": [],  # expected breaks, see graph_break()
            "recompiles": [],  # expected recompile chains, see recompile()
            "failures": [],  # expected failures, see failure()
            "expect": {},  # scenario-level claims, see expect()
        }
        # DYNASCOPE_SCENARIO_DEVICE=cuda runs the same story on a GPU: the default device
        # for every tensor and module the program makes. The CPU (the default) adds nothing, so
        # a CPU recording's facts and trace are as they always were.
        device = os.environ.get("DYNASCOPE_SCENARIO_DEVICE", "cpu")
        if device != "cpu":
            import torch

            torch.set_default_device(device)
            self.data["device"] = device

    def function(self, label, fn):
        """A function (or module) the program compiles, under a label the other facts use."""
        self.data["functions"][label] = _where(fn)
        return self.data["functions"][label]

    def line(self, label, fn, text, nth=1):
        """Marks the line of fn's source that contains `text` (a break, a failure, a call)."""
        self.data["lines"][label] = line_of(fn, text, nth)
        return self.data["lines"][label]

    def call(self, function, *tensors, **values):
        """A call of a compiled function: the shapes of its tensor arguments and other values."""
        self.data["calls"].append(
            {
                "function": function,
                "shapes": [list(t.shape) for t in tensors],
                "dtypes": [str(t.dtype) for t in tensors],
                "values": values,
            }
        )

    def graph_break(self, function, line, resume, mode, reason, gb_type=None, extra=None):
        """A graph break in `function` (label) at the marked `line` (label).

        resume: whether PyTorch compiles the code after the break as a resume frame
            (torch_dynamo_resume_in_<fn>_at_<line>);
        mode: "restart" (the analysis restarts: attempt 1 holds the graph before the break),
            "partial" (the partial graph is compiled in the same attempt, e.g. a data-dependent
            if), "skip" (the frame falls back to eager), "error" (fullgraph=True raises);
        reason: text the reason must contain; gb_type: PyTorch's graph-break type when known.
        """
        entry = {
            "function": function,
            "line": line,
            "resume": resume,
            "mode": mode,
            "reason": reason,
        }
        if gb_type:
            entry["gb_type"] = gb_type
        if extra:
            entry.update(extra)
        self.data["graph_breaks"].append(entry)

    def recompile(self, function, values, mismatch, source, guard_kind, reason, extra=None):
        """A recompile chain of `function`: one compile per entry of `values` (what changed),
        each later one a recompile whose reason names `source`, is of kind `mismatch` (size,
        dtype, requires_grad, value, id, ...) and matches a `guard_kind` guard of the earlier
        compile; `reason` is text the reason contains."""
        entry = {
            "function": function,
            "values": values,
            "mismatch": mismatch,
            "source": source,
            "guard_kind": guard_kind,
            "reason": reason,
        }
        if extra:
            entry.update(extra)
        self.data["recompiles"].append(entry)

    def failure(self, function, exc, type, layer, reason, line=None):
        """A compile of `function` that fails: the exception the program caught, the failure
        type the trace must report, the compiler layer that failed (dynamo, backend, aot,
        inductor) and text of its reason; `line` the marked user line when there is one."""
        self.data["failures"].append(
            {
                "function": function,
                "caught": f"{type_name(exc)}: {str(exc).splitlines()[0] if str(exc) else ''}",
                "type": type,
                "layer": layer,
                "reason": reason,
                "line": line,
            }
        )

    def expect(self, **claims):
        """Scenario-level claims (compiles, recompiles, graph_breaks, failures, cache_hits,
        ranks, dynamic_size, ...): what the program's author knows PyTorch must log."""
        self.data["expect"].update(claims)

    def set(self, key, value):
        self.data[key] = value

    def snapshot(self):
        """Versions and PyTorch's in-process counters, as plain data."""
        import torch
        from torch._dynamo.utils import counters

        return {
            "torch_version": torch.__version__,
            "torch_git": getattr(torch.version, "git_version", None),
            "python": platform.python_version(),
            "counters": {k: dict(v) for k, v in sorted(counters.items()) if v},
        }

    def write(self, path=None):
        self.data.update(self.snapshot())
        path = path or os.environ.get("DYNASCOPE_FACTS") or "facts.json"
        with open(path, "w") as f:
            json.dump(self.data, f, indent=1, default=str)
            f.write("\n")
        return path


def type_name(exc):
    return type(exc).__name__
