"""Running a fleet scan on Dask: :func:`local_client` (a LocalCluster whose workers run without
Dask's malloc setting), :func:`scan` and its loop (tasks submitted, results gathered as they
complete, lost tasks resubmitted, progress).
"""

from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Optional

from dynascope.fleet._fleet import Fleet
from dynascope.fleet._inputs import DEFAULT_MAX_BYTES, Paths, expand_paths
from dynascope.fleet._rows import _lost_result, summarize_batch, summarize_one

if TYPE_CHECKING:
    from distributed import Client


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


def scan(
    paths: Paths,
    client: Optional["Client"] = None,
    *,
    workers: Optional[int] = None,
    progress: bool = True,
    retries: int = 3,
    max_bytes: int = DEFAULT_MAX_BYTES,
    storage_options: Optional[dict[str, Any]] = None,
    batch: Optional[int] = None,
    load_threads: int = 1,
) -> "Fleet":
    """Summarise every trace of ``paths`` on a Dask distributed cluster, a few traces per task.

    ``paths`` is a list (each item one trace: a file, a folder of ranks, a URL), or a string:
    a local or fsspec glob (:func:`expand_paths`). A string that matches nothing raises
    FileNotFoundError; an empty list gives an empty Fleet.

    ``client`` is a ``distributed.Client``; without one, a LocalCluster of ``workers`` worker
    processes (default ``os.cpu_count()``), one thread each, is started and closed afterwards
    (:func:`local_client`).
    Each task runs :func:`summarize_one` on one trace (keys ``summarize_one-<scan>-<index>``)
    or :func:`summarize_batch` on ``batch`` traces in turn (keys
    ``summarize_batch-<scan>-<first index>``), ``pure=False``; results are gathered as they
    complete, so the client holds rows, never traces. A task lost with its worker (killed, out
    of memory) is run again up to ``retries`` times; a task of several traces comes back as
    one task per trace, so that a trace that always kills its worker takes only its own row
    down. Still lost, the trace gets an error row: the scan never fails because of one trace.
    ``progress`` prints the number of tasks and, when there is one, the dashboard's link, then
    shows Dask's progress bar in a terminal, else a line on stderr every 10%.

    ``batch`` is the traces per task. ``None`` (the default) chooses it from the number of
    traces and the cluster's worker threads when the scan starts: as many as still leaves at
    least 8 tasks per worker thread, at most 20, at least 1 (``min(20, max(1, traces // (8 *
    threads)))``). Few traces, or many workers, make one task per trace; many traces put a few
    in each task, so that Dask's cost per task (1.7 to 5 ms measured on 2 cores: docs/fleet.md)
    is a small part of its work, while the tasks stay many enough for retries, progress and an
    even finish. For example 100 traces on 2 threads: 6 per task (17 tasks); 300: 18 (17
    tasks); 100,000 on 128 threads: 20 (5,000 tasks); 1,000 on 128: 1. ``batch=1`` is one
    task per trace, ``batch=N`` N per task.

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
        size = _auto_batch(len(todo), _worker_threads(active)) if batch is None else batch
        results = _run(
            active, todo, progress, retries, max_bytes, storage_options, size, load_threads
        )
    finally:
        if own:
            active.close()
    return Fleet.from_results(results)


# scan(batch=None): at least this many tasks per worker thread, at most this many traces a task
TASKS_PER_THREAD = 8
MAX_BATCH = 20


def _auto_batch(traces: int, threads: int) -> int:
    """The traces per task of ``scan(batch=None)`` for ``traces`` on ``threads`` worker
    threads (0, as on a cluster whose workers have not joined yet, counts as 1)."""
    return min(MAX_BATCH, max(1, traces // (TASKS_PER_THREAD * max(1, threads))))


def _worker_threads(client: Any) -> int:
    """The threads of the cluster's workers, all together, as the scheduler knows them now."""
    return int(sum(client.nthreads().values()))


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
    if show:
        print(
            f"dynascope fleet: {len(todo):,} traces in {len(spans):,} tasks of up to {batch}",
            file=sys.stderr,
            flush=True,
        )

    def submit(span: tuple[int, int], attempt: int) -> Any:
        """A task of one trace runs summarize_one, of several summarize_batch."""
        key = f"{prefix}-{span[0]}" + (f"-retry{attempt}" if attempt else "")
        if span[1] - span[0] == 1:
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
        elif stop - first == 1 and isinstance(value, dict):
            got = [value]
        elif stop - first > 1 and isinstance(value, list) and len(value) == stop - first:
            got = value
        else:
            failure = RuntimeError(f"unexpected task result {type(value).__name__}")
        del future, value  # the last reference: the result is released on the cluster
        if got is None and attempts[n] < retries:
            # Run it again. A lost task of several traces comes back as one task per trace, so
            # that a trace that kills its worker every time takes only its own row down.
            again = [n]
            if stop - first > 1:
                again = list(range(len(spans), len(spans) + stop - first))
                spans.extend((i, i + 1) for i in range(first, stop))
                attempts.extend([attempts[n]] * (stop - first))
            for m in again:
                attempts[m] += 1
                retry = submit(spans[m], attempts[m])
                index[retry.key] = m
                pending.add(retry)
            del retry
            continue
        if got is None:
            got = [_lost_result(todo[i], failure, attempts[n] + 1) for i in range(first, stop)]
        for i, result in zip(range(first, stop), got):
            results[i] = result
            done += 1
            plain.tick(done, result["trace"].get("error") is not None)
    if bar:
        drawing.join(timeout=5)  # its last frame, before anything else is printed
    del held
    return [r if r is not None else _lost_result(todo[i], None, 0) for i, r in enumerate(results)]
