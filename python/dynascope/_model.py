"""The facts of a compile and of a finding, as plain typed objects.

They are built from the core's dicts (python/src/py_convert.cpp), whose keys are the field
names below; docs/python.md lists them. Every object keeps the trace it came from alive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from dynascope._trace import Trace


@dataclass(frozen=True)
class StackFrame:
    """A frame of a logged stack: file, line, function and, in newer logs, the source text."""

    file: str
    line: int
    function: str
    code: str = ""


@dataclass(frozen=True)
class Phase:
    """A compiler phase of a compile (a chromium span): ``inductor_compile``, ``aot_...``."""

    name: str
    category: str
    start_us: float
    duration_us: float
    depth: int
    open: bool


@dataclass(frozen=True)
class GraphBreak:
    """A graph break: where user code broke the graph, why, and the frame that resumes after.

    ``type`` is the break type (the first line of PyTorch's structured text), ``gb_code``
    PyTorch's ``gbNNNN`` code, ``file``/``line`` the user line. ``resume_compile`` is the index
    of the first compile of the ``torch_dynamo_resume_in_*`` frame, ``resume_id`` its id.
    """

    reason: str
    type: str
    operation: str
    file: str
    line: int
    gb_code: Optional[str]
    explanation: str
    hints: tuple[str, ...]
    skips_frame: bool
    cannot_resume: bool
    traceback: str
    user_frames: tuple[StackFrame, ...]
    resume_frame: Optional[int]
    resume_compile: Optional[int]
    resume_id: Optional[str]


@dataclass(frozen=True)
class RecompileReason:
    """One earlier cache entry's rejection of the call: the guard that failed.

    ``primary`` marks the rejection by the newest earlier entry (what the app's Why tab leads
    with). ``mismatch`` is ``size``, ``stride``, ``dtype``, ``requires_grad``, ``value``, ...;
    ``guard_kind``/``guard_expr`` the failed guard in the earlier compile's guard tree;
    ``fix`` the code that would avoid the recompile when the trace names it.
    """

    text: str
    primary: bool
    earlier_compile: Optional[int]
    earlier_id: Optional[str]
    mismatch: str
    source: str
    dim: Optional[int]
    expected: str
    actual: str
    guard_kind: Optional[str]
    guard_expr: Optional[str]
    guard_where: Optional[str]
    fix: Optional[str]


@dataclass(frozen=True)
class Failure:
    """Why a compile failed, and the compiler layer that failed (``dynamo``, ``aot_autograd``,
    ``backend``, ``inductor``; ``None`` when nothing says)."""

    type: str
    raw_type: str
    reason: str
    file: str
    line: int
    layer: Optional[str]
    frame_skipped: bool
    recompile_limit: bool
    traceback: str


@dataclass(frozen=True)
class CacheEvent:
    """A compile cache lookup: ``cache`` (``fx_graph_cache``, ...) and ``kind`` (``hit``,
    ``miss``, ``bypass``)."""

    cache: str
    kind: str
    ts_us: float


@dataclass(frozen=True)
class Kernel:
    """A kernel Inductor generated for a compile, or an extern kernel its code calls.

    ``kind`` is ``pointwise`` (``triton_poi_*``), ``reduction`` (``triton_red_*``),
    ``persistent_reduction`` (``triton_per_*``), ``template`` (``triton_tem_*``), ``triton``
    (another Triton kernel), ``cpp`` (``cpp_fused_*``, the CPU backend) or ``extern``
    (``extern_kernels.mm``, ``addmm``, ...). ``fused_ops`` are the ATen operations it runs, from
    the output code's "Original ATen" comment (``ops_from_name``: from its name instead);
    ``graph`` is ``inference``, ``forward``, ``backward`` or None. ``compile_time_us``,
    ``autotune_state`` (``miss``, ``hit``, ``only 1 config``, ``force_disabled``),
    ``num_configs`` (benchmarked on a miss) and ``config`` (the one run or the best) come from
    ``triton_kernel_info`` (``has_info``); None where it says nothing, as on the CPU or after an
    FX graph cache hit. ``code_line`` is the 1-based line of its definition (an extern kernel's
    first call) in the output code; ``calls`` how often the code calls an extern kernel.
    """

    name: str
    kind: str
    fused_ops: tuple[str, ...]
    ops_from_name: bool
    graph: Optional[str]
    compile_time_us: Optional[int]
    autotune_state: Optional[str]
    num_configs: Optional[int]
    config: Optional[str]
    has_info: bool
    code_line: int
    calls: int

    @property
    def is_extern(self) -> bool:
        return self.kind == "extern"


@dataclass(frozen=True)
class KernelCounts:
    """A compile's (or a trace's) kernels counted: ``generated`` (Triton and C++ kernels),
    ``by_kind`` (every kind, ``extern`` counting the distinct extern kernels of each graph),
    ``compile_time_us`` (the Triton compile times logged), ``autotune_misses`` (kernels
    benchmarked over several configs after an autotune cache miss). The summary's
    ``compiles[].kernels`` and ``totals.kernels`` hold the same counts."""

    generated: int
    by_kind: dict[str, int]
    compile_time_us: int
    autotune_misses: int


def _stack(frames: list[dict[str, Any]]) -> tuple[StackFrame, ...]:
    return tuple(StackFrame(**f) for f in frames)


@dataclass(frozen=True, repr=False)
class Compile:
    """One compile of a frame (one ``dynamo_start``), with everything the trace says of it.

    ``index`` is its position in the trace (the identity: ids repeat after a reset and across
    ranks); ``id`` is PyTorch's ``[0/1]``. ``function``/``filename``/``line`` name the compiled
    code; ``status`` is ``ok``, ``graph_break``, ``empty``, ``error`` or ``missing``.
    Times are epoch microseconds; ``duration`` is in seconds.
    """

    trace: "Trace" = field(compare=False)
    index: int
    id: str
    key: str
    frame_id: Optional[int]
    frame_compile_id: Optional[int]
    attempt: int
    compiled_autograd_id: Optional[int]
    rank: Optional[int]
    file_index: int
    frame: Optional[int]
    function: str
    filename: str
    line: int
    status: str
    is_recompile: bool
    has_dynamo_start: bool
    start_us: float
    duration_us: float
    time_source: str
    attempts: int
    guard_count: Optional[int]
    graph_op_count: Optional[int]
    graph_node_count: Optional[int]
    cache_size: Optional[int]
    stack: tuple[StackFrame, ...]
    phases: tuple[Phase, ...]
    graph_breaks: tuple[GraphBreak, ...]
    recompile_reasons: tuple[RecompileReason, ...]
    restart_reasons: tuple[str, ...]
    failure: Optional[Failure]
    cache_events: tuple[CacheEvent, ...]

    @classmethod
    def _from_dict(cls, trace: "Trace", d: dict[str, Any]) -> "Compile":
        d = dict(d)
        d["stack"] = _stack(d["stack"])
        d["phases"] = tuple(Phase(**p) for p in d["phases"])
        breaks = []
        for b in d["graph_breaks"]:
            b = dict(b)
            b["hints"] = tuple(b["hints"])
            b["user_frames"] = _stack(b["user_frames"])
            breaks.append(GraphBreak(**b))
        d["graph_breaks"] = tuple(breaks)
        d["recompile_reasons"] = tuple(RecompileReason(**r) for r in d["recompile_reasons"])
        d["restart_reasons"] = tuple(d["restart_reasons"])
        d["failure"] = Failure(**d["failure"]) if d["failure"] else None
        d["cache_events"] = tuple(CacheEvent(**e) for e in d["cache_events"])
        return cls(trace=trace, **d)

    @property
    def duration(self) -> float:
        """The compile's duration in seconds."""
        return self.duration_us / 1e6

    @property
    def primary_reason(self) -> Optional[RecompileReason]:
        """The rejection by the newest earlier cache entry, or None for a first compile."""
        for r in self.recompile_reasons:
            if r.primary:
                return r
        return None

    @property
    def cache_hits(self) -> int:
        return sum(1 for e in self.cache_events if e.kind == "hit")

    @property
    def cache_misses(self) -> int:
        return sum(1 for e in self.cache_events if e.kind == "miss")

    @cached_property
    def _kernels(self) -> dict[str, Any]:
        return self.trace._handle.kernels(self.index)

    @cached_property
    def kernels(self) -> tuple[Kernel, ...]:
        """The kernels Inductor generated for this compile (output code order), then the extern
        kernels its code calls. Read from the trace's output code on first use; empty where
        the compile generated no code (no graph, an eager backend, TORCH_LOGS text)."""
        return tuple(
            Kernel(**dict(k, fused_ops=tuple(k["fused_ops"]))) for k in self._kernels["kernels"]
        )

    @property
    def kernel_counts(self) -> KernelCounts:
        """The kernels counted by kind, with their compile time and autotune misses."""
        return KernelCounts(**self._kernels["counts"])

    @property
    def fx_graph_cache_hit(self) -> bool:
        """The FX graph cache supplied the output code: its kernels were loaded, not compiled
        or tuned (no compile times are logged for them)."""
        return bool(self._kernels["fx_graph_cache_hit"])

    def why(self, format: str = "text") -> str:
        """Why this compile happened and what went wrong: the app's Why tab (with every older
        cache entry's rejection listed), as ``text`` or ``md`` (Markdown)."""
        return self.trace._why(self.index, format)

    def bug_report(self) -> str:
        """The app's "Copy as bug report": this compile's why-chain as Markdown for an issue."""
        return self.trace._handle.bug_report(self.index)

    def findings(self) -> list["Finding"]:
        """The findings that name this compile, ranked."""
        return [f for f in self.trace.findings() if self.index in f.compile_indices]

    def timeline_svg(self, width: int = 720) -> str:
        """The trace's timeline as SVG with this compile emphasised."""
        return self.trace.timeline_svg(width=width, highlight=[self.index])

    @property
    def place(self) -> str:
        """Where the compiled code is, as far as the trace says: ``train.py:25``, ``train.py``
        when the line is not known (``line`` is then 0), ``""`` when the file is not."""
        if not self.filename:
            return ""
        return f"{self.filename}:{self.line}" if self.line > 0 else self.filename

    def __repr__(self) -> str:
        where = self.place.rsplit("/", 1)[-1]
        rank = f" rank {self.rank}" if self.rank is not None else ""
        return (
            f"<Compile {self.id}{rank} {self.function or '(unknown function)'}"
            f"{' (' + where + ')' if where else ''} {self.status}"
            f" {self.duration_us / 1e3:.1f} ms>"
        )

    def _repr_html_(self) -> str:
        from dynascope._html import compile_html

        return compile_html(self)


@dataclass(frozen=True, repr=False)
class Finding:
    """What is wrong, what it costs and what to do: one finding of ``Trace.findings()``.

    ``rule`` is the stable rule id (``recompile-shape``, ``graph-break``, ...), ``severity``
    ``note``, ``warning`` or ``error``; ``evidence`` the labelled facts in order;
    ``next_step`` (``hint``) what to do and ``code`` the code for it when there is some;
    ``gb_code``, ``explanation`` and ``pytorch_hints`` are PyTorch's own words.
    ``cost`` is the compile time attributable to it, in seconds.
    """

    trace: "Trace" = field(compare=False)
    position: int
    rule: str
    severity: str
    title: str
    compile_indices: tuple[int, ...]
    frame: Optional[int]
    frame_label: str
    evidence: tuple[tuple[str, str], ...]
    why: str
    ladder_step: str
    hint: str
    code: Optional[str]
    gb_code: Optional[str]
    explanation: str
    pytorch_hints: tuple[str, ...]
    user_file: Optional[str]
    user_line: Optional[int]
    cost_us: float
    count: int
    files: tuple[int, ...]

    @classmethod
    def _from_dict(cls, trace: "Trace", position: int, d: dict[str, Any]) -> "Finding":
        d = dict(d)
        d["compile_indices"] = tuple(d.pop("compiles"))
        d["evidence"] = tuple((str(k), str(v)) for k, v in d["evidence"])
        d["pytorch_hints"] = tuple(d["pytorch_hints"])
        d["files"] = tuple(d["files"])
        return cls(trace=trace, position=position, **d)

    @property
    def compiles(self) -> list[Compile]:
        """The compiles it names, in trace order."""
        return [self.trace.compiles[i] for i in self.compile_indices]

    @property
    def next_step(self) -> str:
        return self.hint

    @property
    def cost(self) -> float:
        return self.cost_us / 1e6

    def markdown(self) -> str:
        """The finding as Markdown, as the app's Findings panel copies it."""
        return self.trace._handle.finding_markdown(self.position)

    def __repr__(self) -> str:
        return f"<Finding {self.severity} {self.rule}: {self.title}>"

    def _repr_html_(self) -> str:
        from dynascope._html import finding_html

        return finding_html(self)
