"""Dynascope: the explorer for PyTorch compiler traces, from Python.

Load a trace that ``TORCH_TRACE=<dir>`` (or ``TORCH_LOGS``) made, and ask what the compiler
did and what is wrong, with the same core as the app and ``dynascope-cli``::

    import dynascope
    trace = dynascope.load("/tmp/trace")           # a file, a folder of ranks, .zst/.gz
    for f in trace.findings(min_severity="warning"):
        print(f.severity, f.title, "->", f.next_step)
    trace.to_pandas("recompiles")

Over many traces at once (on Dask): :mod:`dynascope.fleet`. The reference is docs/python.md.
"""

from dynascope._app import cli_path, example_path, open_app
from dynascope._core import __version__
from dynascope._errors import TraceError
from dynascope._model import (
    CacheEvent,
    Compile,
    Failure,
    Finding,
    GraphBreak,
    Kernel,
    KernelCounts,
    Phase,
    RecompileReason,
    StackFrame,
)
from dynascope._trace import TABLES, Diff, Trace, diff, load, loads

__all__ = [
    "CacheEvent",
    "Compile",
    "Diff",
    "Failure",
    "Finding",
    "GraphBreak",
    "Kernel",
    "KernelCounts",
    "Phase",
    "RecompileReason",
    "StackFrame",
    "TABLES",
    "Trace",
    "TraceError",
    "__version__",
    "cli_path",
    "diff",
    "example_path",
    "load",
    "loads",
    "open_app",
]
