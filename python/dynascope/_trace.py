"""Loading a trace, and the Trace and Diff objects."""

from __future__ import annotations

import json
import os
import threading
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, Union, overload

from dynascope import _core
from dynascope._errors import TraceError
from dynascope._model import Compile, Finding, KernelCounts

if TYPE_CHECKING:
    import pandas
    import pyarrow

Input = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]

_SEVERITIES = ("note", "warning", "error")
TABLES = ("compiles", "graph_breaks", "recompiles", "findings", "phases")


def load(
    *inputs: Input,
    run: Union[str, int] = "newest",
    latest: bool = False,
    verify: bool = True,
    max_decompressed: int = 64 << 30,
    threads: int = 0,
) -> "Trace":
    """Load a trace: files, folders of per-rank files, ``.zst``/``.gz``, TORCH_LOGS text, or
    the bytes of one already in memory.

    Each input is a path (``str`` or ``os.PathLike``; ``"-"`` reads standard input), or
    ``bytes``-like data (a ``str`` holding a newline is taken as the text itself). Paths and
    data cannot be mixed in one call. A folder's files are grouped into runs and the newest run
    is read; ``run`` picks another (a number, 1 = the oldest, or ``"all"``), ``latest`` takes
    only the newest file of a folder. ``verify`` checks every payload against its MD5 as the
    CLI does. ``max_decompressed`` refuses a compressed input that expands past that many bytes.

    The GIL is released while loading. Problems inside a file do not stop the load: they are in
    ``Trace.diagnostics``. An input that cannot be read at all raises :class:`TraceError`,
    which names the file and line.
    """
    if not inputs:
        raise TypeError("load() needs at least one path or bytes")
    paths: list[str] = []
    buffers: list[tuple[str, bytes]] = []
    for i, item in enumerate(inputs):
        if isinstance(item, (bytes, bytearray, memoryview)):
            buffers.append((f"<bytes {i + 1}>" if len(inputs) > 1 else "<bytes>", bytes(item)))
        elif isinstance(item, str) and "\n" in item:
            buffers.append((f"<text {i + 1}>" if len(inputs) > 1 else "<text>", item.encode()))
        elif isinstance(item, (str, os.PathLike)):
            paths.append(os.fspath(item))
        else:
            raise TypeError(f"load() takes paths or bytes, not {type(item).__name__}")
    if paths and buffers:
        raise TypeError("load() takes either paths or data in memory, not both in one call")
    return _load(paths, buffers, run, latest, verify, max_decompressed, threads)


def loads(data: Union[str, bytes], name: str = "<memory>", *, verify: bool = True) -> "Trace":
    """Load one trace from its text or bytes (plain, ``.zst`` or ``.gz``), calling it ``name``
    in diagnostics and errors."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    return _load([], [(name, raw)], "newest", False, verify, 64 << 30, 0)


def _load(
    paths: list[str],
    buffers: list[tuple[str, bytes]],
    run: Union[str, int],
    latest: bool,
    verify: bool,
    max_decompressed: int,
    threads: int,
) -> "Trace":
    handle, errors = _core.load(
        paths, buffers, str(run), latest, verify, max_decompressed, threads
    )
    if handle is None or errors:
        raise TraceError(errors)
    return Trace(handle)


def _severity_rank(name: str) -> int:
    try:
        return _SEVERITIES.index(name)
    except ValueError:
        raise ValueError("min_severity takes 'note', 'warning' or 'error'") from None


class Trace:
    """A loaded trace: its compiles, findings, reports and tables.

    Build one with :func:`dynascope.load`. The trace is immutable; findings are worked out
    once, on first use, and shared by every method that needs them.
    """

    def __init__(self, handle: _core.TraceHandle) -> None:
        self._handle = handle
        self._compiles: Optional[list[Compile]] = None
        self._findings: Optional[list[Finding]] = None
        self._lock = threading.Lock()

    # --- what was loaded -------------------------------------------------------------------
    @property
    def inputs(self) -> list[str]:
        """The paths (or data names) given to load()."""
        return list(self._handle.inputs)

    @property
    def files(self) -> list[dict[str, Any]]:
        """One dict per file read: path, format, rank, bytes, records, bad_lines, run, label."""
        return self._handle.files()

    @property
    def torch_version(self) -> Optional[str]:
        """The PyTorch release that wrote the trace ("2.13.0", "2.11.0+cu130"), or None when
        the trace does not say."""
        return self._handle.torch_version or None

    @property
    def torch_version_from(self) -> Optional[str]:
        """Where the trace names its release: "torch_version artifact" (PyTorch 2.13 and 2.14
        write one into every file), "compilation_metrics" (2.11 writes no artifact: a compile's
        metrics carry it), or None when it does not (TORCH_LOGS text)."""
        return self._handle.torch_version_from or None

    @property
    def diagnostics(self) -> list[dict[str, Any]]:
        """Problems found while reading, each with file, line, severity, code and message."""
        return self._handle.diagnostics()

    # --- compiles ---------------------------------------------------------------------------
    @property
    def compiles(self) -> list[Compile]:
        """Every compile, in file order (files in the order read)."""
        with self._lock:
            if self._compiles is None:
                self._compiles = [
                    Compile._from_dict(self, self._handle.compile(i))
                    for i in range(self._handle.compile_count)
                ]
            return self._compiles

    def compile(self, id: Union[str, int]) -> Compile:
        """A compile by index (``int``, or ``"#7"``) or by id (``"[0/1]"``, ``"0/1"``).

        An id that repeats (after ``torch._dynamo.reset()``, or across ranks) raises
        ValueError: use the index then.
        """
        if isinstance(id, int):
            return self.compiles[id]
        found = self._handle.select(id)
        if len(found) != 1:
            raise ValueError(f"'{id}' names {len(found)} compiles")
        return self.compiles[found[0]]

    def __iter__(self) -> Iterator[Compile]:
        return iter(self.compiles)

    def __len__(self) -> int:
        return self._handle.compile_count

    # --- analyses ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The document ``dynascope-cli summary --json`` prints (``dynascope-summary``, same
        schema and version)."""
        return dict(json.loads(self._handle.summary_json(self._verify)))

    def summary_text(self) -> str:
        """The plain-text summary ``dynascope-cli summary`` prints."""
        return self._handle.summary_text(self._verify)

    @property
    def totals(self) -> dict[str, Any]:
        """The summary's totals: files, compiles, recompiles, graph_breaks, failures, ..."""
        return dict(self.summary()["totals"])

    @property
    def kernel_counts(self) -> KernelCounts:
        """The kernels Inductor generated over the whole trace, counted (``totals["kernels"]``);
        each compile's are ``Compile.kernel_counts``."""
        return KernelCounts(**self.totals["kernels"])

    def findings(self, min_severity: str = "note") -> list[Finding]:
        """What is wrong in the trace, ranked: errors first, then by compile time, then count."""
        least = _severity_rank(min_severity)
        with self._lock:
            if self._findings is None:
                self._findings = [
                    Finding._from_dict(self, i, d) for i, d in enumerate(self._handle.findings())
                ]
            found = self._findings
        return [f for f in found if _severity_rank(f.severity) >= least]

    def diagnose(self, min_severity: str = "note") -> dict[str, Any]:
        """The document ``dynascope-cli diagnose --json`` prints (``dynascope-findings``)."""
        _severity_rank(min_severity)
        return dict(json.loads(self._handle.findings_json(min_severity)))

    def guards(self, frame: str, input: Union[str, Sequence[str]]) -> dict[str, Any]:
        """The guard lab: would a call with ``input`` reuse one of ``frame``'s compiles or
        recompile? ``frame`` is a function's name, ``"[FRAME_ID]"`` or ``"#INDEX"``; ``input``
        one description or several (``"x: f32[48, 128]"``, ``"k: 7"``, ``"grad: off"``,
        ``"x.size(0) in 1..512"``). The ``dynascope-guard-lab`` document that
        ``dynascope-cli guards --json`` prints: ``verdict``, ``reused``, ``entries``, ...
        Raises ValueError for a frame the trace lacks or a description it cannot read."""
        inputs = [input] if isinstance(input, str) else list(input)
        return dict(json.loads(self._handle.guards(frame, inputs, True)))

    def guards_text(self, frame: str, input: Union[str, Sequence[str]]) -> str:
        """The guard lab's answer as ``dynascope-cli guards`` prints it."""
        inputs = [input] if isinstance(input, str) else list(input)
        return self._handle.guards(frame, inputs, False)

    def report(self, format: str = "md") -> str:
        """The compile report, as ``dynascope-cli report`` writes it: ``md``, ``html`` (a page
        that stands alone) or ``json``."""
        return self._handle.report(format, self._verify)

    def export_chrome(self, phases: bool = True) -> str:
        """The trace in Chrome's Trace Event Format (Perfetto, chrome://tracing), as text."""
        return self._handle.chrome_trace(phases)

    def export_subset(self, compiles: Union[str, Sequence[int]], redact: bool = False) -> bytes:
        """A TORCH_TRACE file holding only the given compiles' records: ids (``"[0/1],[0/2]"``)
        or indices. ``redact`` drops payloads and replaces paths and function names."""
        ids = compiles if isinstance(compiles, str) else ",".join(f"#{i}" for i in compiles)
        return self._handle.subset(ids, redact)

    def _why(self, index: int, format: str) -> str:
        return self._handle.why(index, format, True)

    # --- tables -----------------------------------------------------------------------------
    def table(self, name: str) -> dict[str, list[Any]]:
        """The table ``name`` (compiles, graph_breaks, recompiles, findings, phases) as columns:
        a dict of column name to list. to_pandas() and to_arrow() build on it."""
        return self._handle.table(name)

    def to_pandas(self, name: str = "compiles") -> "pandas.DataFrame":
        """The table ``name`` as a pandas DataFrame (``pip install dynascope[pandas]``)."""
        from dynascope._tables import to_pandas

        return to_pandas(name, self.table(name))

    def to_arrow(self, name: str = "compiles") -> "pyarrow.Table":
        """The table ``name`` as a pyarrow Table (``pip install dynascope[arrow]``)."""
        from dynascope._tables import to_arrow

        return to_arrow(name, self.table(name))

    # --- pictures ---------------------------------------------------------------------------
    def timeline_svg(
        self, width: int = 720, highlight: Sequence[int] = (), max_lanes: int = 12, title: str = ""
    ) -> str:
        """A small picture of the timeline, drawn by the core as SVG (no Qt): a lane per frame
        (``max_lanes`` at most: those with trouble first), each compile coloured by status with
        a glyph beside the colour; ``highlight`` (compile indices) emphasises some compiles and
        fades the rest. ``dynascope-cli export svg`` draws the same picture."""
        return self._handle.timeline_svg(width, max_lanes, list(highlight), title)

    def open_app(self) -> None:
        """Open this trace in the Dynascope desktop app (see :func:`dynascope.open_app`)."""
        from dynascope._app import open_app

        open_app(*self.inputs)

    @property
    def _verify(self) -> bool:
        return self._handle.verify

    def __repr__(self) -> str:
        t = self.totals
        return (
            f"<Trace {', '.join(self.inputs)}: {t['compiles']} compiles, "
            f"{t['recompiles']} recompiles, {t['graph_breaks']} graph breaks, "
            f"{t['failures']} failures>"
        )

    def _repr_html_(self) -> str:
        from dynascope._html import trace_html

        return trace_html(self)


class Diff:
    """What changed between two traces of a program (``dynascope-cli diff``)."""

    def __init__(self, handle: _core.DiffHandle) -> None:
        self._handle = handle

    def to_dict(self) -> dict[str, Any]:
        """The ``dynascope-diff`` document ``dynascope-cli diff --json`` prints."""
        return dict(json.loads(self._handle.render("json")))

    def report(self, format: str = "md") -> str:
        """The diff as ``md``, ``html`` or ``json`` text."""
        return self._handle.render(format)

    @property
    def changed_frames(self) -> int:
        return self._handle.changed_frames

    def fails_on(self, checks: str) -> list[str]:
        """Why B is worse than A in ``checks`` (``"graph-breaks,recompiles,failures,
        compile-time=20%"``), one line per reason, as ``--fail-on`` has it: empty when it is
        not worse."""
        return self._handle.fails_on(checks)

    def __str__(self) -> str:
        return self.report("md")

    def __repr__(self) -> str:
        return f"<Diff: {self.changed_frames} frames changed>"

    def _repr_html_(self) -> str:
        from dynascope._html import diff_html

        return diff_html(self)


@overload
def diff(a: Trace, b: Trace) -> Diff: ...
@overload
def diff(a: Input, b: Input) -> Diff: ...
def diff(a: Union[Trace, Input], b: Union[Trace, Input]) -> Diff:
    """Compare two traces (loaded, or paths to load): frames matched by code object, the
    changes ranked by impact, as ``dynascope-cli diff``."""
    ta = a if isinstance(a, Trace) else load(a)
    tb = b if isinstance(b, Trace) else load(b)
    return Diff(_core.diff(ta._handle, tb._handle))
