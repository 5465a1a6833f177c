"""The fleet tables' columns: name -> (pandas dtype, meaning). docs/fleet.md repeats them.

:data:`TRACE_COLUMNS` (one row per input), :data:`FINDING_COLUMNS` (one per finding) and
:data:`FRAME_COLUMNS` (one per compiled frame and rank): the keys of :func:`summarize_one`'s
rows and the columns, in order and type, of :class:`Fleet`'s DataFrames.
"""

from __future__ import annotations

from typing import Mapping

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

Schema = Mapping[str, tuple[str, str]]

_SCHEMAS: dict[str, Schema] = {
    "traces": TRACE_COLUMNS,
    "findings": FINDING_COLUMNS,
    "frames": FRAME_COLUMNS,
}
