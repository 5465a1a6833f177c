"""Many traces at once: a fleet scan on Dask, its tables, and the comparison of two scans.

One task per trace: :func:`summarize_one` loads a trace where it runs, keeps a few rows of
facts (one row for the trace, one per finding, one per compiled frame) and drops the trace, so
a worker holds one trace at a time and the client holds rows only. :func:`scan` runs it over a
Dask distributed cluster (the one given, or a LocalCluster of worker processes) and returns a
:class:`Fleet` of pandas DataFrames; :func:`compare` ranks what got worse between two scans::

    from dynascope import fleet
    tonight = fleet.scan("/shared/jobs/*/trace")     # a LocalCluster, one worker per core
    tonight.worst(10)
    tonight.to_parquet("fleet-2024-06-02")
    fleet.compare("fleet-2024-06-01", tonight)       # what got worse since last night

``summarize_one`` is a plain picklable function of a path, so Spark (``mapInPandas``) and Ray
(``ray.data``) can run it as well. ``python -m dynascope fleet`` and ``fleet-compare`` are the
command line (:func:`cli_main`). The reference, with every column: docs/fleet.md.

Needs ``pip install dynascope[fleet]`` (dask[distributed], pandas, pyarrow, fsspec).
"""

from __future__ import annotations

import argparse
import contextlib
import glob as globmod
import html
import math
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import uuid
from typing import (
    TYPE_CHECKING,
    Any,
    Iterable,
    Iterator,
    Mapping,
    Optional,
    Sequence,
    Union,
    cast,
)
from urllib.parse import unquote, urlparse

import dynascope
from dynascope._errors import TraceError

if TYPE_CHECKING:
    import pandas
    from distributed import Client

__all__ = [
    "FINDING_COLUMNS",
    "FRAME_COLUMNS",
    "TRACE_COLUMNS",
    "Fleet",
    "TraceTooLarge",
    "cli_main",
    "compare",
    "expand_paths",
    "local_client",
    "scan",
    "summarize_batch",
    "summarize_one",
]

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]

DEFAULT_MAX_BYTES = 2 << 30

# --- the tables' columns: name -> (pandas dtype, meaning). docs/fleet.md repeats them. -------

TRACE_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("string", "the input as given: a file, a folder (one job, all its ranks) or a URL"),
    "job": (
        "string",
        "the job, from the layout: the nearest folder of the path (the folder itself for a "
        "folder) that is neither a rank folder (rank_N, rankN, rank-N) nor a generic name "
        "(trace, traces, torch_trace, logs, ...)",
    ),
    "rank": (
        "Int64",
        "the rank: from a rank_N folder or a *_rank_N* file name, else (one file) the rank the "
        "file's records give; null for a folder of several ranks",
    ),
    "ranks": ("Int64", "distinct ranks among the files read (1 for a trace without ranks)"),
    "runs": ("Int64", "runs the input holds (a folder can hold several: the newest is read)"),
    "torch_version": ("string", "the PyTorch release that wrote the trace, null if unknown"),
    "compiles": ("Int64", "compiles (dynamo_start records: the summary's totals)"),
    "recompiles": ("Int64", "recompiles (compiles of a frame after its first)"),
    "graph_breaks": ("Int64", "graph breaks"),
    "failures": ("Int64", "compiles that failed"),
    "compile_time_s": ("float64", "sum of the compiles' durations, in seconds"),
    "cache_hits": ("Int64", "FX graph and AOTAutograd cache hits, all compiles"),
    "cache_misses": ("Int64", "FX graph and AOTAutograd cache misses, all compiles"),
    "findings_error": ("Int64", "findings of severity error"),
    "findings_warning": ("Int64", "findings of severity warning"),
    "findings_note": ("Int64", "findings of severity note"),
    "top_rules": ("string", "the rules of the 3 top-ranked findings, comma-joined"),
    "bytes": ("Int64", "bytes on disk of the input's trace files (null when unknown)"),
    "load_s": ("float64", "seconds the task took: fetch, load, rows (not the same twice)"),
    "error": (
        "string",
        "why the input could not be read (the message names the file); null when it was",
    ),
    "error_type": (
        "string",
        "the error's kind: TraceError, FileNotFoundError, TraceTooLarge, KilledWorker, ...",
    ),
}

FINDING_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("string", "the trace's path (as in the traces table)"),
    "job": ("string", "the trace's job"),
    "rank": (
        "Int64",
        "the trace's rank, else the rank of the finding's files when they are one rank",
    ),
    "rule": ("string", "the rule id: recompile-shape, graph-break, failure, ..."),
    "severity": ("string", "error, warning or note"),
    "title": ("string", "the one-line title"),
    "frame_label": ("string", "the frame it is about: function (file:line), empty if none"),
    "function": (
        "string",
        "the frame's function (the finding's frame, else its first compile's); null if none",
    ),
    "file": ("string", "the frame's file (co_filename as the trace has it)"),
    "line": ("Int64", "the frame's first line"),
    "user_file": ("string", "the file of the user line it points at (a break, a guard)"),
    "user_line": ("Int64", "that user line"),
    "cost_s": ("float64", "compile time attributable to it, in seconds"),
    "count": ("Int64", "how many times it happened (compiles, breaks, ...)"),
}

FRAME_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("string", "the trace's path"),
    "job": ("string", "the trace's job"),
    "rank": ("Int64", "the rank that compiled it (the compile's, else the trace's)"),
    "function": ("string", "the compiled function (co_name)"),
    "file": ("string", "its file (co_filename)"),
    "line": ("Int64", "its first line (co_firstlineno)"),
    "compiles": ("Int64", "compiles of the frame"),
    "recompiles": ("Int64", "of which recompiles"),
    "graph_breaks": ("Int64", "graph breaks in its compiles"),
    "failures": ("Int64", "its compiles that failed"),
    "compile_time_s": ("float64", "sum of its compiles' durations, in seconds"),
}

_SCHEMAS = {"traces": TRACE_COLUMNS, "findings": FINDING_COLUMNS, "frames": FRAME_COLUMNS}


class TraceTooLarge(ValueError):
    """An input larger than ``max_bytes`` (bytes on disk): it is not read. ``size`` is its
    size in bytes."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"{path}: {size:,} bytes, over the limit of {limit:,}")
        self.path, self.size, self.limit = path, size, limit

    def __reduce__(self) -> tuple[Any, tuple[str, int, int]]:
        return (TraceTooLarge, (self.path, self.size, self.limit))


# --- where a path is, and what job and rank it is ------------------------------------------

_RANK_DIR = re.compile(r"^rank[_-]?(\d+)$", re.IGNORECASE)
_RANK_FILE = re.compile(r"_rank_?(\d+)(?=[_.-]|$)", re.IGNORECASE)
_GENERIC_DIRS = {
    "trace",
    "traces",
    "torch_trace",
    "torch_traces",
    "torch-trace",
    "torch-traces",
    "torchtrace",
    "dedicated_log",
    "log",
    "logs",
}
_TRACE_SUFFIXES = (".log", ".log.zst", ".log.gz", ".zst", ".gz")


def _is_trace_name(name: str) -> bool:
    """The names the core reads from a folder (core/load/loader.cpp isTraceName)."""
    return name.startswith("dedicated_log_torch_trace") and name.endswith(_TRACE_SUFFIXES)


def _is_url(path: str) -> bool:
    return "://" in path


def _file_url_path(path: str) -> Optional[str]:
    """The local path of a ``file://`` URL, None for anything else."""
    if not path.startswith("file://"):
        return None
    parsed = urlparse(path)
    local = unquote(parsed.path)
    if parsed.netloc not in ("", "localhost"):
        local = "//" + parsed.netloc + local
    return local


def _layout(path: str, is_dir: Optional[bool] = None) -> tuple[Optional[str], Optional[int]]:
    """Job and rank from the path: ``.../JOB/rank_N/file``, ``.../JOB/file_rank_N.log``,
    ``.../JOB/trace`` (a folder). ``is_dir`` None guesses from the name."""
    rest = path.split("://", 1)[1] if _is_url(path) else path
    parts = [p for p in rest.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts:
        return None, None
    name = parts[-1]
    if is_dir is None:
        is_dir = not (_is_trace_name(name) or name.endswith(_TRACE_SUFFIXES))
    rank: Optional[int] = None
    if is_dir:
        folders = parts
    else:
        folders = parts[:-1]
        m = _RANK_FILE.search(name)
        if m:
            rank = int(m.group(1))
    job: Optional[str] = None
    fallback: Optional[str] = None
    for folder in reversed(folders):
        m = _RANK_DIR.match(folder)
        if m:
            if rank is None:
                rank = int(m.group(1))
            continue
        if folder == "..":
            break
        if folder.lower() in _GENERIC_DIRS:
            fallback = fallback or folder
            continue
        job = folder
        break
    return job or fallback, rank


def _fsspec() -> Any:
    try:
        import fsspec  # type: ignore[import-untyped]
    except ImportError:
        raise ImportError(
            "reading URLs needs fsspec: pip install fsspec (or dynascope[fleet])"
        ) from None
    return fsspec


def _rank_key(name: str) -> tuple[int, str]:
    m = _RANK_DIR.match(name)
    return (int(m.group(1)) if m else -1, name)


def _local_folder(folder: str) -> tuple[list[str], int]:
    """What to load for a local folder, and its trace files' bytes: the folder itself when it
    holds trace files, else its rank_N subfolders that do (one job, its ranks one folder each),
    else the folder (the load says it holds no trace)."""

    def traces_in(d: str) -> int:
        total, found = 0, False
        with os.scandir(d) as entries:
            for e in entries:
                if _is_trace_name(e.name) and e.is_file():
                    total += e.stat().st_size
                    found = True
        return total if found else -1

    own = traces_in(folder)
    if own >= 0:
        return [folder], own
    ranks: list[tuple[str, int]] = []
    with os.scandir(folder) as entries:
        for e in sorted(entries, key=lambda e: _rank_key(e.name)):
            if _RANK_DIR.match(e.name) and e.is_dir():
                size = traces_in(e.path)
                if size >= 0:
                    ranks.append((e.path, size))
    if ranks:
        return [p for p, _ in ranks], sum(n for _, n in ranks)
    return [folder], 0


def _remote_traces(fs: Any, folder: str) -> list[tuple[str, int]]:
    return [
        (str(e["name"]), int(e.get("size") or 0))
        for e in fs.ls(folder, detail=True)
        if e.get("type") == "file" and _is_trace_name(_basename(str(e["name"])))
    ]


@contextlib.contextmanager
def _local_input(
    path: str, storage_options: Optional[Mapping[str, Any]], max_bytes: int
) -> Iterator[tuple[list[str], bool, int, Optional[tuple[str, str]]]]:
    """Yield (local paths to load, whether the input is a folder, its bytes on disk,
    (temp prefix, url prefix) or None).

    Local paths and file:// URLs are used in place; anything else is fetched with fsspec into
    a temporary folder (a folder: its trace files, or its rank_N subfolders' trace files),
    deleted afterwards."""
    local = _file_url_path(path) if _is_url(path) else path
    if local is not None:
        try:
            st = os.stat(local)
        except FileNotFoundError:
            raise FileNotFoundError(f"{path}: no such file or folder") from None
        is_dir = os.path.isdir(local)
        here, size = _local_folder(local) if is_dir else ([local], st.st_size)
        if size > max_bytes:
            raise TraceTooLarge(path, size, max_bytes)
        yield here, is_dir, size, None
        return

    fs, root = _fsspec().core.url_to_fs(path, **dict(storage_options or {}))
    if not fs.exists(root):
        raise FileNotFoundError(f"{path}: no such file or folder")
    is_dir = bool(fs.isdir(root))
    # (remote file, size, the subfolder of the temporary folder it goes to)
    files: list[tuple[str, int, str]] = []
    if is_dir:
        files = [(n, size, "") for n, size in _remote_traces(fs, root)]
        if not files:
            subfolders = [
                str(e["name"])
                for e in fs.ls(root, detail=True)
                if e.get("type") == "directory" and _RANK_DIR.match(_basename(str(e["name"])))
            ]
            for sub in sorted(subfolders, key=lambda n: _rank_key(_basename(n))):
                files += [(n, size, _basename(sub)) for n, size in _remote_traces(fs, sub)]
        if not files:
            message = "the folder holds no dedicated_log_torch_trace*.log files"
            raise TraceError([{"file": path, "line": 0, "message": message}])
        url_prefix = path.rstrip("/")
    else:
        files = [(root, int(fs.size(root) or 0), "")]
        url_prefix = path.rsplit("/", 1)[0]
    size = sum(n for _, n, _ in files)
    if size > max_bytes:
        raise TraceTooLarge(path, size, max_bytes)
    tmp = tempfile.mkdtemp(prefix="dynascope-fleet-")
    try:
        inputs: list[str] = []
        for name, _, sub in files:
            folder = os.path.join(tmp, sub) if sub else tmp
            os.makedirs(folder, exist_ok=True)
            target = os.path.join(folder, _basename(name))
            fs.get_file(name, target)
            entry = folder if is_dir else target
            if entry not in inputs:
                inputs.append(entry)
        yield inputs, is_dir, size, (tmp, url_prefix)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _basename(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1]


def _error_message(exc: BaseException, path: str, remap: Optional[tuple[str, str]]) -> str:
    text = str(exc) or type(exc).__name__
    if remap is not None:
        text = text.replace(remap[0], remap[1])
    local = _file_url_path(path)
    if path not in text and (local is None or local not in text):
        text = f"{path}: {text}"
    return text


# --- the map step ------------------------------------------------------------------------------


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


# --- inputs --------------------------------------------------------------------------------


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def expand_paths(
    paths: Paths, storage_options: Optional[Mapping[str, Any]] = None
) -> list[str]:
    """The inputs a scan runs over: a list is taken as it is (each item one trace); a string
    is a local glob (``jobs/*/trace``, ``**`` allowed), a ``file://`` glob, or an fsspec URL
    or glob (``s3://bucket/jobs/*/trace``), matches sorted; a string without glob characters
    is itself when it exists, else nothing."""
    if not isinstance(paths, (str, os.PathLike)):
        return [os.fspath(p) for p in paths]
    text = os.fspath(paths)
    local = _file_url_path(text) if _is_url(text) else text
    if local is not None:
        if _has_glob(local):
            found = sorted(globmod.glob(local, recursive=True))
        else:
            found = [local] if os.path.exists(local) else []
        if local is not text:
            return ["file://" + p for p in found]
        return found
    fs, root = _fsspec().core.url_to_fs(text, **dict(storage_options or {}))
    if _has_glob(root):
        matches = sorted(str(m) for m in fs.glob(root))
    else:
        matches = [root] if fs.exists(root) else []
    return [str(fs.unstrip_protocol(m)) for m in matches]


# --- the scan ------------------------------------------------------------------------------


class _Progress:
    """A plain line on stderr every ``step`` percent (not a terminal, or no Dask bar)."""

    def __init__(self, total: int, enabled: bool, step: int = 10) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.step = step
        self.next = step
        self.errors = 0
        self.started = time.perf_counter()

    def tick(self, done: int, error: bool) -> None:
        self.errors += 1 if error else 0
        if not self.enabled:
            return
        percent = 100 * done // self.total
        if percent >= self.next or done == self.total:
            while self.next <= percent:
                self.next += self.step
            elapsed = time.perf_counter() - self.started
            print(
                f"dynascope fleet: {done:,}/{self.total:,} traces ({percent}%), "
                f"{self.errors} unreadable, {elapsed:.1f} s",
                file=sys.stderr,
                flush=True,
            )


def _distributed() -> Any:
    """dask.distributed, as Any: most of its API is untyped."""
    import importlib

    return importlib.import_module("distributed")


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536. Setting any malloc threshold
# turns off glibc's dynamic mmap threshold, so every buffer over 128 KiB that a load allocates
# is a fresh mmap, faulted in page by page and unmapped at free: 7-13x the page faults and
# 30-90% more CPU per load (docs/fleet.md, bench/python_fleet.py). Our workers run without it.
_WORKER_ENV_UNSET = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}


def local_client(workers: Optional[int] = None, **cluster_kwargs: Any) -> "Client":
    """A ``distributed.Client`` on a new LocalCluster made for fleet scans: ``workers``
    worker processes (default ``os.cpu_count()``), one thread each, started without Dask's
    ``MALLOC_TRIM_THRESHOLD_`` (it makes loading 30-90% slower: docs/fleet.md). Other keyword
    arguments go to LocalCluster (``dashboard_address``, ``memory_limit``, ``host``, ...).
    Closing the client closes the cluster. :func:`scan` uses one when given no client."""
    import dask

    d = _distributed()
    kwargs: dict[str, Any] = {
        "n_workers": workers or os.cpu_count() or 1,
        "threads_per_worker": 1,
        "processes": True,
    }
    kwargs.update(cluster_kwargs)
    with dask.config.set(_WORKER_ENV_UNSET):
        return d.Client(**kwargs)  # type: ignore[no-any-return]


def _dashboard_link(client: "Client") -> Optional[str]:
    try:
        services = client.scheduler_info().get("services", {})
        if "dashboard" not in services:
            return None
        link = client.dashboard_link
        return str(link) if link else None
    except Exception:  # noqa: BLE001 - a missing dashboard is not an error
        return None


def _lost_result(path: str, exc: Optional[BaseException], attempts: int) -> dict[str, Any]:
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


def scan(
    paths: Paths,
    client: Optional["Client"] = None,
    *,
    workers: Optional[int] = None,
    progress: bool = True,
    retries: int = 3,
    max_bytes: int = DEFAULT_MAX_BYTES,
    storage_options: Optional[dict[str, Any]] = None,
    batch: int = 1,
    load_threads: int = 1,
) -> "Fleet":
    """Summarise every trace of ``paths`` on a Dask distributed cluster: one task per trace.

    ``paths`` is a list (each item one trace: a file, a folder of ranks, a URL), or a string:
    a local or fsspec glob (:func:`expand_paths`). A string that matches nothing raises
    FileNotFoundError; an empty list gives an empty Fleet.

    ``client`` is a ``distributed.Client``; without one, a LocalCluster of ``workers`` worker
    processes (default ``os.cpu_count()``), one thread each, is started and closed afterwards
    (:func:`local_client`).
    Tasks run :func:`summarize_one` (``client.map(..., pure=False)``; keys
    ``summarize_one-<scan>-<index>``), and results are gathered as they complete, so the
    client holds rows, never traces. A task lost with its worker (killed, out of memory) is
    run again up to ``retries`` times; still lost, its trace gets an error row: the scan never
    fails because of one trace. ``progress`` shows Dask's progress bar in a terminal, else a
    line on stderr every 10%, and prints the dashboard's link when there is one.

    ``batch`` > 1 makes each task summarise that many traces in turn
    (:func:`summarize_batch`): fewer, longer tasks, for scans of small traces where Dask's
    per-task cost (a few ms) is a good part of the work; a lost task reruns its whole batch.
    ``storage_options`` go to fsspec for URLs. ``load_threads`` is the core's threads per load
    (``dynascope.load(threads=)``): 1, as the workers already use the cores; 0 lets the core
    use every core of the machine for each load.
    """
    todo = expand_paths(paths, storage_options)
    if not todo:
        if isinstance(paths, (str, os.PathLike)):
            raise FileNotFoundError(f"no trace matches {os.fspath(paths)}")
        return Fleet.from_results([])
    own = client is None
    active: Any = local_client(workers) if client is None else client
    try:
        results = _run(
            active, todo, progress, retries, max_bytes, storage_options, batch, load_threads
        )
    finally:
        if own:
            active.close()
    return Fleet.from_results(results)


def summarize_batch(
    paths: Sequence[str],
    storage_options: Optional[dict[str, Any]] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    threads: int = 0,
) -> list[dict[str, Any]]:
    """:func:`summarize_one` over several paths in turn, in one task (``scan(batch=N)``)."""
    return [summarize_one(p, storage_options, max_bytes, threads) for p in paths]


def _run(
    client: Any,
    todo: list[str],
    show: bool,
    retries: int,
    max_bytes: int,
    storage_options: Optional[dict[str, Any]],
    batch: int,
    load_threads: int,
) -> list[dict[str, Any]]:
    as_completed = _distributed().as_completed
    link = _dashboard_link(client) if show else None
    if link:
        print(f"dynascope fleet: dashboard {link}", file=sys.stderr, flush=True)
    prefix = f"summarize_one-{uuid.uuid4().hex}"
    kwargs: dict[str, Any] = {"max_bytes": max_bytes, "threads": load_threads}
    if storage_options:
        kwargs["storage_options"] = storage_options
    batch = max(1, batch)
    spans = [(i, min(i + batch, len(todo))) for i in range(0, len(todo), batch)]

    def submit(span: tuple[int, int], attempt: int) -> Any:
        key = f"{prefix}-{span[0]}" + (f"-retry{attempt}" if attempt else "")
        if batch == 1:
            return client.submit(
                summarize_one, todo[span[0]], key=key, retries=retries, pure=False, **kwargs
            )
        return client.submit(
            summarize_batch,
            todo[span[0] : span[1]],
            key=key.replace("summarize_one-", "summarize_batch-"),
            retries=retries,
            pure=False,
            **kwargs,
        )

    if batch == 1:
        futures = client.map(
            summarize_one,
            todo,
            key=[f"{prefix}-{i}" for i in range(len(todo))],
            retries=retries,
            pure=False,
            **kwargs,
        )
    else:
        futures = [submit(span, 0) for span in spans]
    index = {f.key: n for n, f in enumerate(futures)}
    bar = show and sys.stdout.isatty() and sys.stderr.isatty()
    held: list[Any] = []
    if bar:
        # Dask's own bar (distributed.progress, on stdout) follows the tasks by key and waits
        # for every key to be known to the scheduler: the finished results stay there until
        # the scan ends (rows, small). Without the bar each is released once gathered.
        from distributed.diagnostics.progressbar import TextProgressBar

        address: Any = getattr(client.scheduler, "address", None)
        keys = [f.key for f in futures]
        held = futures
        drawing = threading.Thread(
            target=TextProgressBar,
            args=(keys,),
            kwargs={"scheduler": address, "complete": True},
            daemon=True,
        )
        drawing.start()
    plain = _Progress(len(todo), show and not bar)
    # with_results: the results are fetched in the client's event loop as tasks finish, many
    # at a time, not one round trip per result from this thread.
    pending = as_completed(futures, with_results=True, raise_errors=False)
    del futures  # from here on the client holds only the futures still running
    results: list[Optional[dict[str, Any]]] = [None] * len(todo)
    attempts = [0] * len(spans)
    done = 0
    for future, value in pending:
        n = index.pop(future.key)
        first, stop = spans[n]
        got: Optional[list[dict[str, Any]]] = None
        failure: Optional[BaseException] = None
        if isinstance(value, BaseException):  # CancelledError
            failure = value
        elif isinstance(value, tuple) and len(value) == 3 and isinstance(value[1], BaseException):
            failure = value[1]  # an erred task, as (type, exception, traceback): KilledWorker
        elif batch == 1 and isinstance(value, dict):
            got = [value]
        elif batch > 1 and isinstance(value, list) and len(value) == stop - first:
            got = value
        else:
            failure = RuntimeError(f"unexpected task result {type(value).__name__}")
        del future, value  # the last reference: the result is released on the cluster
        if got is None:
            if attempts[n] < retries:
                attempts[n] += 1
                again = submit(spans[n], attempts[n])
                index[again.key] = n
                pending.add(again)
                continue
            got = [_lost_result(todo[i], failure, attempts[n] + 1) for i in range(first, stop)]
        for i, result in zip(range(first, stop), got):
            results[i] = result
            done += 1
            plain.tick(done, result["trace"].get("error") is not None)
    if bar:
        drawing.join(timeout=5)  # its last frame, before anything else is printed
    del held
    return [r if r is not None else _lost_result(todo[i], None, 0) for i, r in enumerate(results)]


# --- the tables ----------------------------------------------------------------------------


Schema = Mapping[str, tuple[str, str]]


def _frame(rows: Sequence[Mapping[str, Any]], schema: Schema) -> "pandas.DataFrame":
    import pandas as pd

    columns: dict[str, Any] = {}
    for name, (dtype, _) in schema.items():
        values = [r.get(name) for r in rows]
        if dtype == "float64":
            values = [math.nan if v is None else float(v) for v in values]
        columns[name] = pd.Series(values, dtype=pd.api.types.pandas_dtype(dtype))
    return pd.DataFrame(columns, columns=list(schema))


def _conform(frame: "pandas.DataFrame", schema: Schema) -> "pandas.DataFrame":
    """The columns of ``schema`` in order and type (files of another version: missing ones
    null, extra ones kept at the end)."""
    import pandas as pd

    out = pd.DataFrame(index=frame.index)
    for name, (dtype, _) in schema.items():
        if name in frame.columns:
            out[name] = frame[name].astype(pd.api.types.pandas_dtype(dtype))
        else:
            out[name] = pd.Series(
                [None] * len(frame), index=frame.index, dtype=pd.api.types.pandas_dtype(dtype)
            )
    for name in frame.columns:
        if name not in schema:
            out[name] = frame[name]
    return out.reset_index(drop=True)


_NUMBER = re.compile(r"(?<![A-Za-z_])\d+(?:\.\d+)?")


def _pattern(title: str) -> str:
    """A title with its numbers (ids, lines, sizes, times) replaced by N, so one problem in
    many jobs is one pattern."""
    return _NUMBER.sub("N", title)


class Fleet:
    """The result of a scan: three pandas DataFrames.

    ``traces``: one row per input, in the order given (:data:`TRACE_COLUMNS`; unreadable ones
    have ``error`` set). ``findings``: one row per finding (:data:`FINDING_COLUMNS`).
    ``frames``: one row per compiled frame (code object) and rank (:data:`FRAME_COLUMNS`).
    """

    traces: "pandas.DataFrame"
    findings: "pandas.DataFrame"
    frames: "pandas.DataFrame"

    def __init__(
        self,
        traces: "pandas.DataFrame",
        findings: "pandas.DataFrame",
        frames: Optional["pandas.DataFrame"] = None,
    ) -> None:
        self.traces = _conform(traces, TRACE_COLUMNS)
        self.findings = _conform(findings, FINDING_COLUMNS)
        self.frames = _conform(
            frames if frames is not None else _frame([], FRAME_COLUMNS), FRAME_COLUMNS
        )

    @classmethod
    def from_results(cls, results: Iterable[Mapping[str, Any]]) -> "Fleet":
        """A Fleet from :func:`summarize_one`'s results, in order (a serial loop, or results
        gathered from Spark or Ray)."""
        traces: list[Mapping[str, Any]] = []
        findings: list[Mapping[str, Any]] = []
        frames: list[Mapping[str, Any]] = []
        for r in results:
            traces.append(r["trace"])
            findings.extend(r.get("findings", ()))
            frames.extend(r.get("frames", ()))
        return cls(
            _frame(traces, TRACE_COLUMNS),
            _frame(findings, FINDING_COLUMNS),
            _frame(frames, FRAME_COLUMNS),
        )

    # --- files -------------------------------------------------------------------------------
    def to_parquet(self, path: PathLike) -> None:
        """Write ``traces.parquet``, ``findings.parquet`` and ``frames.parquet`` into the
        folder ``path`` (made if needed)."""
        folder = os.fspath(path)
        os.makedirs(folder, exist_ok=True)
        for name in _SCHEMAS:
            getattr(self, name).to_parquet(os.path.join(folder, f"{name}.parquet"), index=False)

    @classmethod
    def read_parquet(cls, path: PathLike) -> "Fleet":
        """Read what :meth:`to_parquet` wrote: the folder, or any one of its files."""
        import pandas as pd

        folder = os.fspath(path)
        if not os.path.isdir(folder):
            if not os.path.exists(folder):
                raise FileNotFoundError(f"{folder}: no such file or folder")
            folder = os.path.dirname(folder) or "."
        tables: dict[str, Any] = {}
        for name in _SCHEMAS:
            file = os.path.join(folder, f"{name}.parquet")
            if os.path.exists(file):
                tables[name] = pd.read_parquet(file)
            elif name == "frames":
                tables[name] = None
            else:
                raise FileNotFoundError(f"{file}: no such file (not a fleet scan's folder)")
        return cls(tables["traces"], tables["findings"], tables["frames"])

    # --- views -------------------------------------------------------------------------------
    @property
    def errors(self) -> "pandas.DataFrame":
        """The traces that could not be read: path, job, rank, error_type, error."""
        t = self.traces
        cols = ["path", "job", "rank", "error_type", "error"]
        return t.loc[t["error"].notna(), cols].reset_index(drop=True)

    def worst(self, n: int = 10) -> "pandas.DataFrame":
        """The ``n`` worst traces, ranked by failures, then recompiles, then graph breaks,
        then compile time (all descending). Unreadable traces are left out: see errors."""
        t = self.traces[self.traces["error"].isna()]
        keys = ["failures", "recompiles", "graph_breaks", "compile_time_s"]
        cols = ["job", "rank", "path", *keys, "compiles", "top_rules"]
        ranked = t.sort_values(keys, ascending=False, kind="stable", na_position="last")
        return ranked.loc[:, cols].head(n).reset_index(drop=True)

    def common_findings(self, n: int = 10) -> "pandas.DataFrame":
        """The ``n`` most common findings across jobs: rule and title pattern (the title with
        its numbers as N), with ``jobs`` (distinct jobs that have it), ``traces``,
        ``findings`` (rows), ``count`` and ``cost_s`` summed, and an ``example`` title.
        Ranked by jobs, then cost."""
        import pandas as pd

        f = self.findings
        cols = ["rule", "severity", "pattern", "jobs", "traces", "findings", "count", "cost_s"]
        cols.append("example")
        if f.empty:
            return pd.DataFrame(columns=cols)
        work = pd.DataFrame(
            {
                "rule": f["rule"],
                "severity": f["severity"],
                "pattern": f["title"].fillna("").map(_pattern),
                "who": f["job"].fillna(f["path"]),
                "path": f["path"],
                "count": f["count"],
                "cost_s": f["cost_s"],
                "title": f["title"],
            }
        )
        g = work.groupby(["rule", "severity", "pattern"], sort=False, dropna=False)
        out = g.agg(
            jobs=("who", "nunique"),
            traces=("path", "nunique"),
            findings=("title", "size"),
            count=("count", "sum"),
            cost_s=("cost_s", "sum"),
            example=("title", "first"),
        ).reset_index()
        out = out.sort_values(["jobs", "cost_s"], ascending=False, kind="stable")
        return out.loc[:, cols].head(n).reset_index(drop=True)

    def __len__(self) -> int:
        return len(self.traces)

    def _counts(self) -> tuple[int, int, int, int]:
        t = self.traces
        bad = int(t["error"].notna().sum())
        jobs = int(t["job"].fillna(t["path"]).nunique())
        return len(t), bad, jobs, len(self.findings)

    def __repr__(self) -> str:
        n, bad, jobs, nf = self._counts()
        return f"<Fleet: {n} traces of {jobs} jobs ({bad} unreadable), {nf} findings>"

    def _repr_html_(self) -> str:
        n, bad, jobs, nf = self._counts()
        head = html.escape(f"Fleet: {n} traces of {jobs} jobs ({bad} unreadable), {nf} findings")
        worst = self.worst(5).to_html(index=False, border=0)
        common = self.common_findings(5).drop(columns=["example"]).to_html(index=False, border=0)
        return (
            f"<div><b>{head}</b><p>Worst traces</p>{worst}"
            f"<p>Most common findings</p>{common}</div>"
        )


# --- comparing two scans -------------------------------------------------------------------

COMPARE_COLUMNS = [
    "function",
    "file",
    "change",
    "before",
    "after",
    "delta",
    "jobs_before",
    "jobs_after",
    "sentence",
]

# (change when it went up, change when it went down, frames column, rank when up, noun)
_METRICS = (
    ("new failures", "fewer failures", "failures", 0, "failed compiles"),
    ("new recompiles", "fewer recompiles", "recompiles", 2, "recompiles"),
    ("new graph breaks", "fewer graph breaks", "graph_breaks", 3, "graph breaks"),
    ("compile time up", "compile time down", "compile_time_s", 4, "s of compile time"),
)
_RULES_OF = {
    "failures": ("failure", "fullgraph-error", "rank-failures"),
    "recompiles": ("recompile-", "dynamic-still-recompiles", "rank-recompiles"),
    "graph_breaks": ("graph-break", "data-dependent", "fullgraph-error", "rank-graph-breaks"),
    "compile_time_s": ("cold-start", "cache-miss", "guard-cost", "small-graphs"),
}


def _as_fleet(x: Union["Fleet", PathLike]) -> "Fleet":
    return x if isinstance(x, Fleet) else Fleet.read_parquet(x)


def _per_frame(fleet: "Fleet") -> "pandas.DataFrame":
    import pandas as pd

    fr = fleet.frames
    if fr.empty:
        return pd.DataFrame(
            columns=["function", "file"]
            + [m[2] for m in _METRICS]
            + [f"jobs_{m[2]}" for m in _METRICS]
        ).set_index(["function", "file"])
    work = fr.assign(
        who=fr["job"].fillna(fr["path"]),
        function=fr["function"].fillna(""),
        file=fr["file"].fillna(""),
    )
    g = work.groupby(["function", "file"], sort=False)
    sums = g[[m[2] for m in _METRICS]].sum()
    for m in _METRICS:
        col = m[2]
        has = work[work[col] > 0] if col != "compile_time_s" else work
        sums[f"jobs_{col}"] = has.groupby(["function", "file"], sort=False)["who"].nunique()
    return sums.fillna(0)


def _example_titles(fleet: "Fleet") -> dict[tuple[str, str, str], tuple[str, str]]:
    """(function, file, metric) -> (pattern, title) of the finding seen in most jobs."""
    f = fleet.findings
    out: dict[tuple[str, str, str], tuple[str, str]] = {}
    if f.empty:
        return out
    best: dict[tuple[str, str, str, str], tuple[set[str], str]] = {}
    for rule, fn, file, title, job, path in zip(
        f["rule"], f["function"], f["file"], f["title"], f["job"], f["path"]
    ):
        for metric, prefixes in _RULES_OF.items():
            if any(str(rule).startswith(p) for p in prefixes):
                key = (str(fn or ""), str(file or ""), metric, _pattern(str(title)))
                jobs, _ = best.setdefault(key, (set(), str(title)))
                jobs.add(str(job if isinstance(job, str) else path))
    for (fn, file, metric, pattern), (jobs, title) in best.items():
        current = out.get((fn, file, metric))
        if current is None or len(jobs) > len(best[(fn, file, metric, current[0])][0]):
            out[(fn, file, metric)] = (pattern, title)
    return out


def _fmt(value: float, metric: str) -> str:
    return f"{value:.2f}" if metric == "compile_time_s" else f"{int(round(value))}"


def compare(
    before: Union["Fleet", PathLike],
    after: Union["Fleet", PathLike],
    *,
    min_time_s: float = 0.5,
    min_time_ratio: float = 0.2,
) -> "pandas.DataFrame":
    """What changed between two scans (last night and tonight, commit A and B), per frame.

    ``before`` and ``after`` are Fleets or folders :meth:`Fleet.to_parquet` wrote. Frames
    (code objects) are matched by function and file across all jobs, their frames rows summed.
    One row per frame and kind of change, ranked: ``new failures``, ``new unreadable traces``
    (the fleet as a whole: function and file null), ``new recompiles``, ``new graph breaks``,
    ``compile time up`` (by more than ``min_time_s`` and ``min_time_ratio`` of before), then
    the improvements (``fewer ...``, ``compile time down``); within a kind, by size of the
    change. Columns: function, file, change, before, after, delta (after - before, summed over
    jobs), jobs_before, jobs_after (jobs where the frame shows it: compiled it, for compile
    time) and a sentence, which quotes a finding of the after scan where one matches.
    """
    import pandas as pd

    a, b = _as_fleet(before), _as_fleet(after)
    pa, pb = _per_frame(a), _per_frame(b)
    both = pa.add_suffix("_a").join(pb.add_suffix("_b"), how="outer").fillna(0)
    titles_b = _example_titles(b)
    titles_a = _example_titles(a)
    rows: list[dict[str, Any]] = []
    for where, r in both.iterrows():
        fn, file = (str(x) for x in cast("tuple[Any, Any]", where))
        name = f"`{fn or '(unknown function)'}` ({os.path.basename(file) or '?'})"
        for up, down, col, rank, noun in _METRICS:
            va, vb = float(r[f"{col}_a"]), float(r[f"{col}_b"])
            ja, jb = int(r[f"jobs_{col}_a"]), int(r[f"jobs_{col}_b"])
            delta = vb - va
            if col == "compile_time_s":
                if abs(delta) < max(min_time_s, min_time_ratio * min(va, vb) if va and vb else 0.0):
                    continue
            elif delta == 0:
                continue
            change = up if delta > 0 else down
            order = rank if delta > 0 else 10 + rank
            sentence = (
                f"{name}: {_fmt(va, col)} → {_fmt(vb, col)} {noun} "
                f"({'+' if delta > 0 else ''}{_fmt(delta, col)}), in {jb} jobs after, {ja} before"
            )
            if delta > 0:
                example = titles_b.get((fn, file, col))
                old = titles_a.get((fn, file, col))
                if example and (old is None or old[0] != example[0] or col != "compile_time_s"):
                    sentence += f"; e.g. “{example[1]}”"
            rows.append(
                {
                    "function": fn or None,
                    "file": file or None,
                    "change": change,
                    "before": va,
                    "after": vb,
                    "delta": delta,
                    "jobs_before": ja,
                    "jobs_after": jb,
                    "sentence": sentence,
                    "_order": order,
                    "_size": abs(delta),
                }
            )
    ea, eb = int(a.traces["error"].notna().sum()), int(b.traces["error"].notna().sum())
    if eb != ea:
        rows.append(
            {
                "function": None,
                "file": None,
                "change": "new unreadable traces" if eb > ea else "fewer unreadable traces",
                "before": float(ea),
                "after": float(eb),
                "delta": float(eb - ea),
                "jobs_before": ea,
                "jobs_after": eb,
                "sentence": f"{ea} → {eb} traces could not be read"
                + (f"; e.g. {b.errors['error'].iloc[0]}" if eb else ""),
                "_order": 1 if eb > ea else 11,
                "_size": abs(eb - ea),
            }
        )
    if not rows:
        return pd.DataFrame({c: pd.Series([], dtype="object") for c in COMPARE_COLUMNS})
    out = pd.DataFrame(rows)
    out = out.sort_values(["_order", "_size"], ascending=[True, False], kind="stable")
    out = out.loc[:, COMPARE_COLUMNS].reset_index(drop=True)
    out["function"] = out["function"].astype("string")
    out["file"] = out["file"].astype("string")
    out["change"] = out["change"].astype("string")
    out["sentence"] = out["sentence"].astype("string")
    return out


# --- the command line ----------------------------------------------------------------------


def _table_text(frame: "pandas.DataFrame", width: int = 60) -> str:
    if frame.empty:
        return "  (none)"
    shown = frame.copy()
    for col in shown.columns:
        if shown[col].dtype == "float64":
            shown[col] = shown[col].map(lambda v: "" if v != v else f"{v:.2f}")
        elif not str(shown[col].dtype).startswith(("Int", "int")):
            shown[col] = shown[col].astype("object").where(shown[col].notna(), "")
            shown[col] = shown[col].map(lambda v: _clip(str(v), width))
    return shown.to_string(index=False)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _parser(command: str) -> argparse.ArgumentParser:
    if command == "fleet":
        p = argparse.ArgumentParser(
            prog="python -m dynascope fleet",
            description="Scan many traces on Dask: the worst jobs and the most common findings.",
        )
        p.add_argument("paths", nargs="+", help="traces: paths, globs ('jobs/*/trace') or URLs")
        where = p.add_mutually_exclusive_group()
        where.add_argument("--scheduler", help="a Dask scheduler's address (tcp://HOST:8786)")
        where.add_argument("--local", type=int, metavar="N", help="a LocalCluster of N workers")
        p.add_argument("-o", "--output", help="write the tables into this folder (Parquet)")
        p.add_argument("--top", type=int, default=10, help="rows per table (default 10)")
        p.add_argument("--retries", type=int, default=3, help="re-runs of a lost task")
        p.add_argument(
            "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="skip larger inputs"
        )
        p.add_argument("--batch", type=int, default=1, help="traces per task (default 1)")
        p.add_argument("--no-progress", action="store_true", help="no progress output")
        return p
    p = argparse.ArgumentParser(
        prog="python -m dynascope fleet-compare",
        description="Compare two fleet scans (folders written by fleet -o): what got worse.",
    )
    p.add_argument("before", help="the earlier scan's folder")
    p.add_argument("after", help="the later scan's folder")
    p.add_argument("--top", type=int, default=20, help="rows to print (default 20)")
    return p


def cli_main(argv: Sequence[str]) -> int:
    """``python -m dynascope fleet ...`` and ``fleet-compare ...``; ``argv[0]`` is the
    command. Prints the tables; returns 0 once it ran, 2 when no input matched (or a usage
    error)."""
    command = argv[0] if argv else "fleet"
    parser = _parser(command)
    try:
        args = parser.parse_args(list(argv[1:]))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if command == "fleet-compare":
        return _cli_compare(args)
    return _cli_fleet(args)


def _cli_fleet(args: argparse.Namespace) -> int:
    paths: list[str] = []
    for pattern in args.paths:
        found = expand_paths(pattern)
        if not found:
            print(f"dynascope fleet: nothing matches {pattern}", file=sys.stderr)
        paths.extend(found)
    if not paths:
        print("dynascope fleet: no input path matched", file=sys.stderr)
        return 2
    if args.scheduler:
        client: Any = _distributed().Client(args.scheduler)
    else:
        client = local_client(args.local)
    try:
        nworkers = len(client.scheduler_info().get("workers", {}))
        started = time.perf_counter()
        fleet = scan(
            paths,
            client,
            progress=not args.no_progress,
            retries=args.retries,
            max_bytes=args.max_bytes,
            batch=args.batch,
        )
        elapsed = time.perf_counter() - started
    finally:
        client.close()
    n, bad, jobs, nf = fleet._counts()
    print(
        f"Scanned {n} traces of {jobs} jobs in {elapsed:.1f} s on {nworkers} workers "
        f"({n / elapsed if elapsed else 0:.1f} traces/s): {bad} unreadable, {nf} findings"
    )
    print(f"\nWorst traces (failures, recompiles, graph breaks, compile time):")
    print(_table_text(fleet.worst(args.top).drop(columns=["path"])))
    print(f"\nMost common findings:")
    print(_table_text(fleet.common_findings(args.top).drop(columns=["example"])))
    if bad:
        print(f"\nUnreadable ({bad}):")
        for err in fleet.errors["error"].head(args.top):
            print(f"  {err}")
    if args.output:
        fleet.to_parquet(args.output)
        print(f"\nWrote {args.output}/traces.parquet, findings.parquet, frames.parquet")
    return 0


def _cli_compare(args: argparse.Namespace) -> int:
    for p in (args.before, args.after):
        if not os.path.exists(p):
            print(f"dynascope fleet-compare: {p}: no such file or folder", file=sys.stderr)
            return 2
    try:
        a, b = Fleet.read_parquet(args.before), Fleet.read_parquet(args.after)
    except (OSError, ValueError) as exc:
        print(f"dynascope fleet-compare: {exc}", file=sys.stderr)
        return 2
    result = compare(a, b)
    worse = result[~result["change"].str.startswith(("fewer", "compile time down"))]
    better = len(result) - len(worse)
    print(
        f"{args.before} ({len(a)} traces) → {args.after} ({len(b)} traces): "
        f"{len(worse)} change{'' if len(worse) == 1 else 's'} for the worse, "
        f"{better} for the better"
    )
    for sentence, change in zip(result["sentence"].head(args.top), result["change"].head(args.top)):
        print(f"  [{change}] {sentence}")
    return 0
