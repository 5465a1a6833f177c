"""The fleet command line: ``python -m dynascope fleet ...`` and ``fleet-compare ...``
(:func:`cli_main`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Sequence

from dynascope.fleet._cluster import _distributed, local_client, scan
from dynascope.fleet._compare import compare
from dynascope.fleet._fleet import Fleet
from dynascope.fleet._inputs import DEFAULT_MAX_BYTES, expand_paths

if TYPE_CHECKING:
    import pandas


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
        p.add_argument(
            "--batch", type=int, help="traces per task (default: chosen as scan() does)"
        )
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
