"""Comparing two fleet scans: :func:`compare` ranks, per frame (function and file, summed over
jobs), what got worse and what got better between them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Union, cast

from dynascope.fleet._fleet import Fleet, _pattern
from dynascope.fleet._inputs import PathLike

if TYPE_CHECKING:
    import pandas

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
    "compile_time_s": (
        "cold-start",
        "cache-miss",
        "guard-cost",
        "small-graphs",
        "kernel-compile-time",
        "autotune-miss",
    ),
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
