"""The map step of a fleet scan: :func:`summarize_one` loads one trace where it runs, keeps its
rows (one for the trace, one per finding, one per compiled frame) and drops the trace;
:func:`summarize_batch` does it for several paths in one task.

Both are plain picklable functions that need nothing but dynascope (Dask, Spark and Ray run
them); they are pickled by reference as ``dynascope.fleet.summarize_one`` and
``dynascope.fleet.summarize_batch`` (the package sets their ``__module__``).
"""

from __future__ import annotations

import os
import time
from typing import Any, Mapping, Optional, Sequence

import dynascope
from dynascope.fleet._columns import FINDING_COLUMNS, FRAME_COLUMNS, TRACE_COLUMNS
from dynascope.fleet._inputs import (
    DEFAULT_MAX_BYTES,
    TraceTooLarge,
    _error_message,
    _layout,
    _local_input,
)


def _empty_row(schema: Mapping[str, tuple[str, str]]) -> dict[str, Any]:
    return {name: None for name in schema}


def summarize_one(
    path: str,
    storage_options: Optional[dict[str, Any]] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    threads: int = 0,
) -> dict[str, Any]:
    """The map step: load one trace where this runs, keep its rows, drop the trace.

    ``path`` is a local file or folder (a folder is one job, all its ranks: its own
    ``dedicated_log_torch_trace*`` files, else those of its ``rank_N`` subfolders), a
    ``file://`` URL, or any fsspec URL (``s3://...``, with that backend installed;
    ``storage_options`` go to fsspec). Local inputs are streamed in place; remote ones are
    copied to a temporary folder first (their trace files only), then deleted.
    ``threads`` goes to :func:`dynascope.load` (0: the core decides).

    Returns ``{"trace": row, "findings": [rows], "frames": [rows]}``: plain dicts whose keys
    are :data:`TRACE_COLUMNS`, :data:`FINDING_COLUMNS` and :data:`FRAME_COLUMNS`. It never
    raises: an input that is missing, corrupt, not a trace or larger than ``max_bytes`` bytes
    on disk gives a trace row whose ``error`` says why (naming the file) and ``error_type``
    the kind, its counts null, and no findings or frames. The function is picklable and needs
    nothing but dynascope, so Spark and Ray can run it too.
    """
    started = time.perf_counter()
    path = os.fspath(path)
    job, rank = _layout(path)
    row = _empty_row(TRACE_COLUMNS)
    row.update(path=path, job=job, rank=rank)
    findings: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    remap: Optional[tuple[str, str]] = None
    size: Optional[int] = None
    try:
        with _local_input(path, storage_options, max_bytes) as (inputs, is_dir, size, remap):
            row["bytes"] = size
            job, rank = _layout(path, is_dir)
            row.update(job=job, rank=rank)
            trace = dynascope.load(*inputs, threads=threads)
            try:
                row, findings, frames = _rows(trace, row, is_dir)
            finally:
                del trace
    except Exception as exc:  # noqa: BLE001 - the contract: never raise, say why in the row
        if isinstance(exc, TraceTooLarge):
            size = exc.size
        row = _empty_row(TRACE_COLUMNS)
        row.update(path=path, job=job, rank=rank, bytes=size)
        row["error"] = _error_message(exc, path, remap)
        row["error_type"] = type(exc).__name__
        findings, frames = [], []
    row["load_s"] = time.perf_counter() - started
    return {"trace": row, "findings": findings, "frames": frames}


def summarize_batch(
    paths: Sequence[str],
    storage_options: Optional[dict[str, Any]] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    threads: int = 0,
) -> list[dict[str, Any]]:
    """:func:`summarize_one` over several paths in turn, in one task (:func:`scan`'s tasks
    when it puts more than one trace in each)."""
    return [summarize_one(p, storage_options, max_bytes, threads) for p in paths]


def _lost_result(path: str, exc: Optional[BaseException], attempts: int) -> dict[str, Any]:
    """The result of a trace whose task was lost ``attempts`` times (its worker died)."""
    job, rank = _layout(path)
    row = _empty_row(TRACE_COLUMNS)
    kind = type(exc).__name__ if exc is not None else "CancelledError"
    row.update(
        path=path,
        job=job,
        rank=rank,
        error=f"{path}: the task was lost {attempts} time(s), last: {kind}: {exc}",
        error_type=kind,
    )
    return {"trace": row, "findings": [], "frames": []}


def _rows(
    trace: dynascope.Trace, row: dict[str, Any], is_dir: bool
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of a loaded trace (the trace row is ``row``, filled in)."""
    summary = trace.summary()
    totals = summary["totals"]
    files = trace.files
    table = trace.table("compiles")
    found = trace.findings()

    file_ranks = [f.get("rank") for f in files]
    distinct = {r for r in file_ranks if r is not None}
    if row["rank"] is None and len(distinct) == 1 and (not is_dir or len(files) == 1):
        row["rank"] = next(iter(distinct))
    durations = [float(d or 0.0) for d in table.get("duration_us", [])]
    severities = [f.severity for f in found]
    row.update(
        ranks=len(distinct) if distinct else (1 if files else 0),
        runs=len(summary.get("runs", [])),
        torch_version=trace.torch_version,
        compiles=int(totals["compiles"]),
        recompiles=int(totals["recompiles"]),
        graph_breaks=int(totals["graph_breaks"]),
        failures=int(totals["failures"]),
        compile_time_s=sum(durations) / 1e6,
        cache_hits=sum(int(v or 0) for v in table.get("cache_hits", [])),
        cache_misses=sum(int(v or 0) for v in table.get("cache_misses", [])),
        findings_error=severities.count("error"),
        findings_warning=severities.count("warning"),
        findings_note=severities.count("note"),
        top_rules=",".join(f.rule for f in found[:3]),
    )
    ident = {"path": row["path"], "job": row["job"]}

    n = len(durations)
    functions = table.get("function", [""] * n)
    filenames = table.get("filename", [""] * n)
    lines = table.get("line", [None] * n)
    ranks = table.get("rank", [None] * n)
    frame_ids = table.get("frame", [None] * n)
    first_of_frame: dict[int, int] = {}
    for i, fr in enumerate(frame_ids):
        if fr is not None and fr not in first_of_frame:
            first_of_frame[int(fr)] = i

    finding_rows: list[dict[str, Any]] = []
    for f in found:
        at: Optional[int] = None
        if f.frame is not None:
            at = first_of_frame.get(f.frame)
        if at is None and f.compile_indices and 0 <= f.compile_indices[0] < n:
            at = f.compile_indices[0]
        rank = row["rank"]
        if rank is None:
            franks = {file_ranks[i] for i in f.files if 0 <= i < len(file_ranks)}
            franks.discard(None)
            if len(franks) == 1:
                rank = next(iter(franks))
        finding_rows.append(
            {
                **ident,
                "rank": rank,
                "rule": f.rule,
                "severity": f.severity,
                "title": f.title,
                "frame_label": f.frame_label,
                "function": (functions[at] or None) if at is not None else None,
                "file": (filenames[at] or None) if at is not None else None,
                "line": lines[at] if at is not None else None,
                "user_file": f.user_file,
                "user_line": f.user_line,
                "cost_s": f.cost_us / 1e6,
                "count": f.count,
            }
        )

    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    statuses = table.get("status", [""] * n)
    failure_types = table.get("failure_type", [None] * n)
    recompiles = table.get("is_recompile", [False] * n)
    breaks = table.get("graph_breaks", [0] * n)
    for i in range(n):
        rank = ranks[i] if ranks[i] is not None else row["rank"]
        key = (rank, functions[i], filenames[i], lines[i])
        g = groups.get(key)
        if g is None:
            g = groups[key] = {
                **ident,
                "rank": rank,
                "function": functions[i] or None,
                "file": filenames[i] or None,
                "line": lines[i],
                "compiles": 0,
                "recompiles": 0,
                "graph_breaks": 0,
                "failures": 0,
                "compile_time_s": 0.0,
            }
        g["compiles"] += 1
        g["recompiles"] += 1 if recompiles[i] else 0
        g["graph_breaks"] += int(breaks[i] or 0)
        g["failures"] += 1 if (failure_types[i] or statuses[i] == "error") else 0
        g["compile_time_s"] += durations[i] / 1e6
    return row, finding_rows, list(groups.values())
