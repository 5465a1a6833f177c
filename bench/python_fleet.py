"""Fleet benchmark: traces/s of dynascope.fleet serially and on Dask, peak RSS per worker, and
loading in two Python threads against one (dynascope.load releases the GIL).

    PYTHONPATH=... python bench/python_fleet.py [--count 1000] [--data DIR] [--workers 1,2]

Not a test: it prints figures (and with --json FILE writes them). The inputs are made once
into --data (default build/fleet-bench): the committed scenario recordings, synthetic traces
of 1 to 10 MB from dynascope-bench --keep, and 8-rank folders from dynascope-fixtures
--rank-folder; --count jobs laid out as jobs-COUNT/job-NNNN/, hard links to those files (so
1,000 jobs take the disk of a few dozen traces; the page cache holds them all, so the figures
are parsing and analysis, not disk). Half the jobs are recordings (16-90 KB .zst), 40% a
synthetic trace (1-11 MB, cycling through the sizes), 10% an 8-rank folder (about 210 KB).

The runs: a serial loop of summarize_one; for each --workers size, scan() with its automatic
batch and with batch=1 (one task per trace); with the most workers, scan(batch=--batch) and
batch=1 on a plain LocalCluster (Dask's MALLOC_TRIM_THRESHOLD_ on the workers).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RECORDED = REPO / "tests" / "scenarios" / "recorded" / "torch-2.13.0"
SIZES_MB = list(range(1, 11))


def log(text: str) -> None:
    print(text, flush=True)


def tool(name: str, override: str | None) -> Path:
    path = Path(override) if override else REPO / "build" / "bin" / name
    if not path.exists():
        flag = name.split("-")[-1]
        sys.exit(f"python_fleet.py: {path} not found (build the C++ tree, or pass --{flag})")
    return path


def link(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy(src, dst)


def make_data(data: Path, count: int, bench: Path, fixtures: Path) -> list[str]:
    """The inputs, made once: returns the job paths."""
    synth = data / "synthetic"
    for mb in SIZES_MB:
        folder = synth / f"{mb}M"
        if not any(folder.glob("dedicated_log_torch_trace*")):
            subprocess.run(
                [str(bench), "--size", f"{mb}M", "--keep", str(folder), "--runs", "1",
                 "--no-ui", "--no-app", "--tlparse", "none"],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
    ranks = data / "ranks8"
    if not any(ranks.glob("dedicated_log_torch_trace*")):
        subprocess.run(
            [str(fixtures), "--rank-folder", str(ranks), "8"], check=True, stdout=subprocess.DEVNULL
        )
    recordings = sorted(RECORDED.glob("*/dedicated_log_torch_trace*.zst"))
    if not recordings:
        sys.exit(f"python_fleet.py: no recordings in {RECORDED}")
    synthetic = [next((synth / f"{mb}M").glob("dedicated_log_torch_trace*")) for mb in SIZES_MB]
    rank_files = sorted(ranks.glob("dedicated_log_torch_trace*"))

    root = data / f"jobs-{count}"
    stamp = root / "done"
    paths: list[str] = []
    seen = {"recording": 0, "synthetic": 0}
    for i in range(count):
        job = root / f"job-{i:04d}"
        kind = i % 10
        if kind < 9:
            which = "recording" if kind < 5 else "synthetic"
            pool = recordings if which == "recording" else synthetic
            src = pool[seen[which] % len(pool)]
            seen[which] += 1
            paths.append(str(job / src.name))
            files = [src]
            target = job
        else:
            target = job / "trace"
            paths.append(str(target))
            files = rank_files
        if not stamp.exists():
            target.mkdir(parents=True, exist_ok=True)
            for f in files:
                if not (target / f.name).exists():
                    link(f, target / f.name)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(str(count))
    return paths


def worker_memory() -> dict[str, float]:
    """This process's peak and current resident set, MB (runs on each worker)."""
    out: dict[str, float] = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmHWM:", "VmRSS:")):
                key, value = line.split(":", 1)
                out[key] = int(value.split()[0]) / 1024
    return out


def reset_peak() -> bool:
    """Reset this process's VmHWM (Linux: write 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def bench_cluster(
    paths: list[str],
    workers: int,
    serial_s: float,
    dask_env: bool = False,
    batch: int | None = None,
) -> dict[str, Any]:
    """scan(batch=) on fleet.local_client(workers) (batch None: scan's automatic choice);
    ``dask_env``: a plain LocalCluster instead, whose workers get Dask's
    MALLOC_TRIM_THRESHOLD_=65536."""
    import distributed

    from dynascope import fleet

    started = time.perf_counter()
    if dask_env:
        client = distributed.Client(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
    else:
        client = fleet.local_client(workers, dashboard_address=None)
    try:
        client.wait_for_workers(workers)
        start_s = time.perf_counter() - started
        # import the package on every worker before timing
        client.run(lambda: __import__("dynascope.fleet"))
        before = client.run(worker_memory)
        client.run(reset_peak)
        threads = sum(client.nthreads().values())
        # what scan(batch=None) picks (its private rule; the bench only reports it)
        chosen = fleet._cluster._auto_batch(len(paths), threads) if batch is None else batch
        t0 = time.perf_counter()
        result = fleet.scan(paths, client, progress=False, batch=batch)
        wall = time.perf_counter() - t0
        after = client.run(worker_memory)
    finally:
        client.close()
    errors = int(result.traces["error"].notna().sum())
    peaks = sorted(m["VmHWM"] for m in after.values())
    return {
        "workers": workers,
        "dask_malloc_env": dask_env,
        "batch": "auto" if batch is None else batch,
        "traces_per_task": chosen,
        "tasks": -(-len(paths) // chosen),
        "start_s": round(start_s, 2),
        "scan_s": round(wall, 2),
        "traces_per_s": round(len(paths) / wall, 1),
        "speedup_over_serial": round(serial_s / wall, 2),
        "rss_idle_mb": [round(m["VmRSS"], 1) for m in before.values()],
        "peak_rss_mb": [round(p, 1) for p in peaks],
        "errors": errors,
        "load_average": round(os.getloadavg()[0], 2),
    }


def bench_threads(paths: list[str], rounds: int) -> dict[str, Any]:
    import dynascope
    from dynascope import fleet

    def load(p: str) -> int:
        return len(dynascope.load(p, threads=1))

    def timed(fn: Any, nthreads: int) -> float:
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            if nthreads == 1:
                for p in paths:
                    fn(p)
            else:
                with ThreadPoolExecutor(nthreads) as pool:
                    list(pool.map(fn, paths))
            best = min(best, time.perf_counter() - t0)
        return best

    load1, load2 = timed(load, 1), timed(load, 2)
    sum1, sum2 = timed(fleet.summarize_one, 1), timed(fleet.summarize_one, 2)
    return {
        "traces": len(paths),
        "bytes": sum(os.path.getsize(p) for p in paths),
        "load_1_thread_s": round(load1, 3),
        "load_2_threads_s": round(load2, 3),
        "load_speedup": round(load1 / load2, 2),
        "summarize_1_thread_s": round(sum1, 3),
        "summarize_2_threads_s": round(sum2, 3),
        "summarize_speedup": round(sum1 / sum2, 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="jobs to scan (default 1000)")
    ap.add_argument("--data", default=str(REPO / "build" / "fleet-bench"), help="input cache")
    ap.add_argument("--workers", default="1,2", help="LocalCluster sizes, comma-separated")
    ap.add_argument("--threads-traces", type=int, default=100,
                    help="synthetic traces the thread figure loads (default 100)")  # fmt: skip
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the thread figure (best)")
    ap.add_argument("--bench", help="dynascope-bench (default build/bin/dynascope-bench)")
    ap.add_argument("--fixtures", help="dynascope-fixtures (default build/bin/...)")
    ap.add_argument("--json", help="also write the figures there")
    ap.add_argument("--batch", type=int, default=10,
                    help="one more run, most workers, scan(batch=N) (0: none)")  # fmt: skip
    ap.add_argument("--no-one-per-task", dest="one_per_task", action="store_false",
                    help="skip the runs with scan(batch=1)")  # fmt: skip
    ap.add_argument("--no-dask-env", dest="dask_env", action="store_false",
                    help="skip the run with Dask's default worker environment")  # fmt: skip
    args = ap.parse_args()

    import dynascope
    from dynascope import fleet

    data = Path(args.data)
    t0 = time.perf_counter()
    paths = make_data(data, args.count, tool("dynascope-bench", args.bench),
                      tool("dynascope-fixtures", args.fixtures))  # fmt: skip
    total = 0
    for p in paths:
        q = Path(p)
        total += (sum(f.stat().st_size for f in q.iterdir()) if q.is_dir() else q.stat().st_size)
    log(f"inputs: {len(paths)} jobs, {total / 1e6:.0f} MB on disk (made or found in "
        f"{time.perf_counter() - t0:.1f} s, {data})")  # fmt: skip
    load_start = round(os.getloadavg()[0], 2)
    log(f"machine: {os.cpu_count()} cores, load average {load_start:.2f}; "
        f"dynascope {dynascope.__version__}, Python {sys.version.split()[0]}")  # fmt: skip

    # warm the page cache and the imports, then the serial figure
    for p in paths[:50]:
        fleet.summarize_one(p)
    t0 = time.perf_counter()
    rows = [fleet.summarize_one(p) for p in paths]
    serial_s = time.perf_counter() - t0
    errors = sum(1 for r in rows if r["trace"]["error"])
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures: dict[str, Any] = {
        "count": len(paths),
        "bytes": total,
        "cores": os.cpu_count(),
        "serial": {
            "scan_s": round(serial_s, 2),
            "traces_per_s": round(len(paths) / serial_s, 1),
            "mb_per_s": round(total / 1e6 / serial_s, 1),
            "errors": errors,
            "peak_rss_mb_client": round(peak_mb, 1),
        },
        "clusters": [],
    }
    table = fleet.Fleet.from_results(rows)
    kept = sum(
        int(getattr(table, n).memory_usage(deep=True).sum()) for n in ("traces", "findings", "frames")
    )
    figures["kept"] = {
        "findings_per_trace": round(len(table.findings) / len(paths), 1),
        "frames_per_trace": round(len(table.frames) / len(paths), 1),
        "pickled_bytes_per_trace": len(pickle.dumps(rows)) // len(paths),
        "dataframe_bytes_per_trace": kept // len(paths),
    }
    s = figures["serial"]
    log(f"serial (summarize_one in a loop): {s['scan_s']} s, {s['traces_per_s']} traces/s, "
        f"{s['mb_per_s']} MB/s, {errors} errors; this process's peak RSS {peak_mb:.0f} MB"
    )  # fmt: skip
    k = figures["kept"]
    log(f"kept per trace: {k['findings_per_trace']} findings, {k['frames_per_trace']} frames; "
        f"{k['pickled_bytes_per_trace']:,} bytes pickled (a task's result), "
        f"{k['dataframe_bytes_per_trace']:,} bytes in the three DataFrames")  # fmt: skip
    del rows, table

    sizes = [int(x) for x in args.workers.split(",") if x]
    # per size: scan's default (batch=None) and one task per trace; then, most workers, a
    # fixed batch and Dask's own worker environment (one task per trace, as before)
    runs: list[tuple[int, bool, int | None]] = []
    for w in sizes:
        runs.append((w, False, None))
        if args.one_per_task:
            runs.append((w, False, 1))
    if sizes and args.batch > 0:
        runs.append((max(sizes), False, args.batch))
    if sizes and args.dask_env:
        runs.append((max(sizes), True, 1))
    for w, dask_env, batch in runs:
        c = bench_cluster(paths, w, serial_s, dask_env, batch)
        figures["clusters"].append(c)
        how = "plain LocalCluster (Dask's MALLOC_TRIM_THRESHOLD_)" if dask_env else "local_client"
        how += f", batch {c['batch']} ({c['tasks']} tasks of up to {c['traces_per_task']})"
        log(f"{how}, {w} worker(s): scan {c['scan_s']} s, {c['traces_per_s']} traces/s, "
            f"{c['speedup_over_serial']}x serial (start {c['start_s']} s, not counted); "
            f"worker RSS idle {c['rss_idle_mb']} MB, peak {c['peak_rss_mb']} MB; "
            f"{c['errors']} errors; load average {c['load_average']}")  # fmt: skip

    synthetic = [p for p in paths if "_bench" in os.path.basename(p)][: args.threads_traces]
    th = bench_threads(synthetic, args.rounds)
    figures["threads"] = th
    log(f"threads, {th['traces']} synthetic traces ({th['bytes'] / 1e6:.0f} MB), best of "
        f"{args.rounds}: dynascope.load 1 thread {th['load_1_thread_s']} s, 2 threads "
        f"{th['load_2_threads_s']} s ({th['load_speedup']}x); summarize_one 1 thread "
        f"{th['summarize_1_thread_s']} s, 2 threads {th['summarize_2_threads_s']} s "
        f"({th['summarize_speedup']}x)")  # fmt: skip
    figures["load_average_start"] = load_start
    figures["load_average_end"] = round(os.getloadavg()[0], 2)
    log(json.dumps(figures))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
