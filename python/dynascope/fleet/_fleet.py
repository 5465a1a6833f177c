"""The result of a fleet scan: :class:`Fleet`, three pandas DataFrames (traces, findings,
frames) with fixed column types, its views (worst traces, common findings, errors) and its
Parquet files.
"""

from __future__ import annotations

import html
import math
import os
import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional, Sequence

from dynascope.fleet._columns import (
    _SCHEMAS,
    FINDING_COLUMNS,
    FRAME_COLUMNS,
    TRACE_COLUMNS,
    Schema,
)
from dynascope.fleet._inputs import PathLike

if TYPE_CHECKING:
    import pandas


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
