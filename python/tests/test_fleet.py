"""dynascope.fleet: the map step, the Dask scan (serial-equal one trace a task and batched,
corrupt inputs, a worker killed mid-scan), compare(), the command line and fsspec inputs.

One LocalCluster of two worker processes on the loopback serves the whole module. The traces
are copies of the committed scenario recordings (tests/scenarios/recorded/torch-2.13.0).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
distributed = pytest.importorskip("distributed")
import cloudpickle  # noqa: E402  (comes with distributed)
import dask  # noqa: E402
from pandas.testing import assert_frame_equal  # noqa: E402

from dynascope import fleet  # noqa: E402
from dynascope.fleet import Fleet, compare, scan, summarize_one  # noqa: E402

REPO = Path(__file__).parents[2]
RECORDED = REPO / "tests" / "scenarios" / "recorded" / "torch-2.13.0"

if not RECORDED.is_dir():
    pytest.skip(f"no scenario recordings at {RECORDED}", allow_module_level=True)

# The kill plugin below is defined here: ship it to the workers by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

SCENARIOS = sorted(
    p.name for p in RECORDED.iterdir() if p.is_dir() and any(p.glob("dedicated_log_torch_trace*"))
)
GOOD = 195


def _trace_files(scenario: str) -> list[Path]:
    return sorted((RECORDED / scenario).glob("dedicated_log_torch_trace*"))


def make_jobs(root: Path, count: int = GOOD, corrupt: bool = True) -> list[str]:
    """``count`` jobs as jobs/job-NNN/..., in three layouts in turn, and five bad inputs."""
    paths: list[str] = []
    for i in range(count):
        scenario = SCENARIOS[i % len(SCENARIOS)]
        files = _trace_files(scenario)
        job = root / "jobs" / f"job-{i:03d}"
        # one file: the file, its TORCH_TRACE folder, a rank folder in turn; several ranks:
        # the TORCH_TRACE folder, or the job folder with one rank_N folder per rank
        form = i % 3 if len(files) == 1 else 1 + 2 * ((i // len(SCENARIOS)) % 2)
        if form == 0:  # the file itself
            job.mkdir(parents=True)
            shutil.copy(files[0], job)
            paths.append(str(job / files[0].name))
        elif form == 1:  # the TORCH_TRACE folder (all ranks)
            (job / "trace").mkdir(parents=True)
            for f in files:
                shutil.copy(f, job / "trace")
            paths.append(str(job / "trace"))
        elif form == 2:  # a rank folder
            (job / "rank_0").mkdir(parents=True)
            shutil.copy(files[0], job / "rank_0")
            paths.append(str(job / "rank_0" / files[0].name))
        else:  # the job's folder, a rank_N folder per rank
            for r, f in enumerate(files):
                (job / f"rank_{r}").mkdir(parents=True)
                shutil.copy(f, job / f"rank_{r}")
            paths.append(str(job))
    if corrupt:
        paths.extend(make_corrupt(root, count))
    return paths


def make_corrupt(root: Path, first: int) -> list[str]:
    jobs = [root / "jobs" / f"job-{first + k:03d}" for k in range(5)]
    for j in jobs[:4]:
        j.mkdir(parents=True)
    empty = jobs[0] / "dedicated_log_torch_trace.log"
    empty.write_bytes(b"")
    binary = jobs[1] / "dedicated_log_torch_trace.log"
    binary.write_bytes(bytes(range(256)) * 16)
    truncated = jobs[2] / "dedicated_log_torch_trace.log.zst"
    truncated.write_bytes(_trace_files("example")[0].read_bytes()[:20])
    (jobs[3] / "facts.json").write_text("{}")  # a folder without traces
    missing = jobs[4] / "trace"  # never made
    return [str(empty), str(binary), str(truncated), str(jobs[3]), str(missing)]


class KillOnKey(distributed.WorkerPlugin):  # type: ignore[misc]
    """Kill the worker process as it starts a task whose key matches ``pattern``; with a
    ``marker`` file, only the first time (across restarts)."""

    def __init__(self, pattern: str, marker: str | None = None) -> None:
        self.pattern = pattern
        self.marker = marker

    def transition(self, key: Any, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        if finish != "executing" or not re.search(self.pattern, str(key)):
            return
        if self.marker is not None:
            if os.path.exists(self.marker):
                return
            Path(self.marker).write_text(str(key))
        os._exit(1)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # allowed-failures 0: a task on a dying worker errs at once (KilledWorker), so the scan's
    # own retries are what saves it; without it the scheduler would rerun it silently.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        c = fleet.local_client(2, host="127.0.0.1", dashboard_address=None)
    assert c.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")) == {
        w: None for w in c.scheduler_info()["workers"]
    }
    yield c
    c.close()


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return make_jobs(tmp_path_factory.mktemp("fleet"))


@pytest.fixture(scope="module")
def serial(jobs: list[str]) -> Fleet:
    return Fleet.from_results(summarize_one(p) for p in jobs)


def assert_same(a: Fleet, b: Fleet) -> None:
    assert_frame_equal(a.traces.drop(columns="load_s"), b.traces.drop(columns="load_s"))
    assert_frame_equal(a.findings, b.findings)
    assert_frame_equal(a.frames, b.frames)


# --- the map step ------------------------------------------------------------------------


def test_serial_rows(jobs: list[str], serial: Fleet) -> None:
    t = serial.traces
    assert list(t["path"]) == jobs
    assert list(t.columns) == list(fleet.TRACE_COLUMNS)
    assert list(serial.findings.columns) == list(fleet.FINDING_COLUMNS)
    assert list(serial.frames.columns) == list(fleet.FRAME_COLUMNS)
    assert list(t["job"]) == [f"job-{i:03d}" for i in range(len(jobs))]
    good = t[t["error"].isna()]
    assert len(good) == GOOD
    assert (good["torch_version"] == "2.13.0+cpu").all()
    assert (good["compiles"] > 0).all()
    # ranks: the rank_0 layout, the two-rank folder
    assert (t.loc[t["path"].str.contains("/rank_0/"), "rank"] == 0).all()
    gloo = t[t["ranks"] == 2]
    assert gloo["rank"].isna().all() and (gloo["compiles"] == 2).all()
    assert gloo["path"].str.endswith("/trace").any()  # the TORCH_TRACE folder
    assert gloo["path"].str.match(r".*/job-\d+$").any()  # the job folder of rank_N folders
    # the example: 6 compiles, 1 recompile, 1 graph break, 1 failure
    ex = good[good["top_rules"].str.startswith("failure,data-dependent")].iloc[0]
    assert (ex["compiles"], ex["recompiles"], ex["graph_breaks"], ex["failures"]) == (6, 1, 1, 1)
    assert ex["findings_error"] == 1 and ex["cache_misses"] == 2
    f = serial.findings
    # graph_break_print's print (graph_break_logger has a graph-break-io finding too)
    brk = f[(f["rule"] == "graph-break-io") & (f["file"] == "graph_break_print.py")].iloc[0]
    assert (brk["function"], brk["file"], brk["line"]) == ("step", "graph_break_print.py", 14)
    assert brk["frame_label"] == "step (graph_break_print.py:14)" and brk["user_line"] == 17
    # frames add up to the traces' totals
    per_path = serial.frames.groupby("path")[["compiles", "graph_breaks", "failures"]].sum()
    joined = good.set_index("path").join(per_path.add_suffix("_frames"))
    assert (joined["graph_breaks"] == joined["graph_breaks_frames"]).all()
    assert (joined["failures"] == joined["failures_frames"]).all()


def test_corrupt_inputs_are_error_rows(jobs: list[str], serial: Fleet) -> None:
    errors = serial.errors
    assert list(errors["path"]) == jobs[-5:]
    for path, message in zip(errors["path"], errors["error"]):
        assert path in message
    assert list(errors["error_type"]) == ["TraceError"] * 4 + ["FileNotFoundError"]
    bad = serial.traces[serial.traces["error"].notna()]
    assert bad["compiles"].isna().all() and bad["findings_note"].isna().all()
    assert not serial.findings["path"].isin(jobs[-5:]).any()


def test_too_large(jobs: list[str]) -> None:
    row = summarize_one(jobs[0], max_bytes=100)["trace"]
    assert row["error_type"] == "TraceTooLarge" and jobs[0] in row["error"]
    assert row["bytes"] > 100 and row["compiles"] is None


def test_fsspec_urls(tmp_path: Path) -> None:
    fsspec = pytest.importorskip("fsspec")
    local_file = _trace_files("example")[0]
    local_dir = RECORDED / "two_ranks_gloo"

    def same(url: str, local: str) -> None:
        a, b = summarize_one(url), summarize_one(local)
        for r in (a, b):
            r["trace"].pop("load_s")
            for table in r.values():
                for row in table if isinstance(table, list) else [table]:
                    row.pop("path")
        assert a == b

    same(local_file.as_uri(), str(local_file))
    same(local_dir.as_uri(), str(local_dir))
    mem = fsspec.filesystem("memory")
    mem.pipe(f"/fleet-test/example/{local_file.name}", local_file.read_bytes())
    for f in _trace_files("two_ranks_gloo"):
        mem.pipe(f"/fleet-test/{local_dir.name}/{f.name}", f.read_bytes())
    for r, f in enumerate(_trace_files("two_ranks_gloo")):
        mem.pipe(f"/fleet-test/ranked/{local_dir.name}/rank_{r}/{f.name}", f.read_bytes())
    mem.pipe("/fleet-test/empty/notes.txt", b"no trace here")
    try:
        same(f"memory://fleet-test/example/{local_file.name}", str(local_file))
        same(f"memory://fleet-test/{local_dir.name}", str(local_dir))
        same(f"memory://fleet-test/ranked/{local_dir.name}", str(local_dir))
        assert fleet.expand_paths("memory://fleet-test/ex*/*.zst") == [
            f"memory:///fleet-test/example/{local_file.name}"
        ]
        gone = summarize_one("memory://fleet-test/nothing")["trace"]
        assert gone["error_type"] == "FileNotFoundError"
        assert "memory://fleet-test/nothing" in gone["error"]
        empty = summarize_one("memory://fleet-test/empty")["trace"]
        assert empty["error_type"] == "TraceError" and "memory://fleet-test/empty" in empty["error"]
    finally:
        mem.rm("/fleet-test", recursive=True)


SHARED = REPO.parent / "shared" / "traces"


def test_shared_traces() -> None:
    """The torch 2.11 H200 traces (CUDA programs, the scenario suite) and the tlparse corpus:
    every trace folder or file reads, with compiles."""
    if not SHARED.is_dir():
        pytest.skip(f"no shared traces at {SHARED}")
    paths = fleet.expand_paths(str(SHARED / "torch-2.11-h200" / "*" / "*") + "/")  # folders
    paths += fleet.expand_paths(str(SHARED / "tlparse" / "tests" / "inputs" / "*"))
    result = Fleet.from_results(summarize_one(p) for p in paths)
    assert len(result) > 30
    assert result.errors.empty, result.errors.to_string()
    two = result.traces[result.traces["job"] == "distributed_two_ranks"]
    assert list(two["ranks"]) == [2] and two["rank"].isna().all()


# --- the scan ----------------------------------------------------------------------------


def test_auto_batch() -> None:
    """scan(batch=None): at least 8 tasks per worker thread, at most 20 traces a task."""
    auto = fleet._cluster._auto_batch
    assert [auto(n, 2) for n in (1, 15, 16, 31, 32, 100, 200, 300, 320, 1000)] == [
        1, 1, 1, 1, 2, 6, 12, 18, 20, 20
    ]  # fmt: skip
    assert auto(100_000, 128) == 20 and auto(1_000, 128) == 1 and auto(5_000, 0) == 20
    for n in range(1, 2000, 7):
        for threads in (1, 2, 8, 32):
            b = auto(n, threads)
            assert 1 <= b <= 20
            assert b == 1 or -(-n // b) >= 8 * threads  # tasks per thread


def test_scan_equals_serial(
    client: Any, jobs: list[str], serial: Fleet, capsys: pytest.CaptureFixture[str]
) -> None:
    result = scan(jobs, client)  # batch=None: 200 traces on 2 threads, 12 a task
    assert "200 traces in 17 tasks of up to 12" in capsys.readouterr().err
    assert_same(result, serial)
    assert len(result.errors) == 5
    assert "200 traces" in repr(result) and "(5 unreadable)" in repr(result)
    assert_same(scan(jobs, client, progress=False, batch=1), serial)  # one task per trace
    assert_same(scan(jobs, client, progress=False, batch=16), serial)


@pytest.mark.parametrize("batch", [1, None])
def test_scan_survives_a_killed_worker(
    client: Any, jobs: list[str], serial: Fleet, tmp_path: Path, batch: int | None
) -> None:
    # the first task to start of those whose first trace is 100-199, once
    marker = tmp_path / "killed"
    client.register_plugin(KillOnKey(r"-1\d\d$", str(marker)), name="kill-once")
    try:
        result = scan(jobs, client, progress=False, retries=2, batch=batch)
    finally:
        client.unregister_worker_plugin("kill-once")
    assert marker.exists(), "no worker was killed"
    assert ("summarize_batch-" in marker.read_text()) == (batch is None)
    assert_same(result, serial)


def test_map_functions_pickle_by_reference() -> None:
    """Dask, Spark and Ray ship the map step by name: dynascope.fleet.summarize_one."""
    import pickle

    for fn in (summarize_one, fleet.summarize_batch):
        for dumps in (pickle.dumps, cloudpickle.dumps):
            data = dumps(fn)
            assert b"dynascope.fleet" in data and fn.__name__.encode() in data
            assert b"_rows" not in data and len(data) < 200, data
            assert pickle.loads(data) is fn
    assert summarize_one.__module__ == "dynascope.fleet"


def test_scan_gives_up_on_a_task_that_always_kills(client: Any, jobs: list[str]) -> None:
    # One task, so that no other is on a dying worker by chance (it would be lost as well).
    client.register_plugin(KillOnKey(r"-0(-retry\d+)?$"), name="kill-always")
    try:
        result = scan(jobs[:1], client, progress=False, retries=1)
    finally:
        client.unregister_worker_plugin("kill-always")
    lost = result.traces.iloc[0]
    assert lost["path"] == jobs[0] and lost["job"] == "job-000"
    assert lost["error_type"] == "KilledWorker"
    assert jobs[0] in lost["error"] and "lost 2 time(s)" in lost["error"]
    assert result.findings.empty


def test_a_lost_batch_comes_back_one_trace_a_task(
    client: Any, jobs: list[str], serial: Fleet
) -> None:
    # One task of 4 traces that kills its worker every time it runs as a batch: with one retry,
    # all 4 are read, because the retry is one task per trace (a batch again would be lost).
    # One task, so that no other is on the dying worker by chance.
    client.register_plugin(KillOnKey(r"^summarize_batch-.*-0(-retry\d+)?$"), name="kill-batch")
    try:
        result = scan(jobs[:4], client, progress=False, retries=1, batch=4)
    finally:
        client.unregister_worker_plugin("kill-batch")
    assert result.errors.empty, result.errors.to_string()
    want = serial.traces.iloc[:4].drop(columns="load_s")
    assert_frame_equal(result.traces.drop(columns="load_s"), want)


# --- the tables --------------------------------------------------------------------------


def test_views_and_parquet(serial: Fleet, tmp_path: Path) -> None:
    worst = serial.worst(3)
    assert len(worst) == 3 and worst["failures"].iloc[0] >= 1
    assert list(worst["failures"]) == sorted(worst["failures"], reverse=True)
    common = serial.common_findings(5)
    assert len(common) == 5 and common["jobs"].iloc[0] >= common["jobs"].iloc[-1]
    assert "Fleet:" in serial._repr_html_()
    serial.to_parquet(tmp_path / "scan")
    assert sorted(os.listdir(tmp_path / "scan")) == [
        "findings.parquet",
        "frames.parquet",
        "traces.parquet",
    ]
    folder = tmp_path / "scan"
    for again in (Fleet.read_parquet(folder), Fleet.read_parquet(folder / "traces.parquet")):
        assert_frame_equal(again.traces, serial.traces)
        assert_frame_equal(again.findings, serial.findings)
        assert_frame_equal(again.frames, serial.frames)


def _pair(root: Path) -> tuple[list[str], list[str]]:
    """Six jobs, the same names twice: before, graph_break_print's program without its print
    (one graph) in two of them; after, with it (a graph break)."""
    before, after = [], []
    others = ["clean_mlp", "guard_dtype", "dynamic_false", "example"]
    for side, out in (("before", before), ("after", after)):
        for i in range(6):
            job = root / side / f"job-{i}"
            job.mkdir(parents=True)
            if i < 2:
                src = RECORDED / "graph_break_print" / ("without_print" if side == "before" else "")
            else:
                src = RECORDED / others[i - 2]
            shutil.copy(src / "dedicated_log_torch_trace.log.zst", job)
            out.append(str(job))
    return before, after


def test_compare_ranks_the_new_graph_break_first(tmp_path: Path) -> None:
    before, after = _pair(tmp_path)
    a = Fleet.from_results(summarize_one(p) for p in before)
    b = Fleet.from_results(summarize_one(p) for p in after)
    result = compare(a, b)
    first = result.iloc[0]
    assert (first["change"], first["function"]) == ("new graph breaks", "step")
    assert first["file"] == "graph_break_print.py"
    assert (first["before"], first["after"], first["delta"]) == (0, 2, 2)
    assert (first["jobs_before"], first["jobs_after"]) == (0, 2)
    assert "print" in first["sentence"] and "0 → 2 graph breaks" in first["sentence"]
    assert list(result.columns) == fleet.COMPARE_COLUMNS
    # the same scan against itself: nothing changed
    assert compare(b, b).empty
    # and backwards it is an improvement, ranked after any regression
    back = compare(b, a)
    assert "fewer graph breaks" in set(back["change"])
    assert "new graph breaks" not in set(back["change"])


# --- the command line --------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dynascope", *args],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_cli(tmp_path: Path) -> None:
    before, after = _pair(tmp_path)
    (tmp_path / "after" / "job-9").mkdir()  # matched by the glob, holds no trace
    out_a, out_b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    Fleet.from_results(summarize_one(p) for p in before).to_parquet(out_a)
    glob = str(tmp_path / "after" / "job-*")
    run = _cli("fleet", glob, "--local", "2", "-o", str(out_b), "--top", "3")
    assert run.returncode == 0, run.stderr
    assert "Scanned 7 traces of 7 jobs" in run.stdout and "1 unreadable" in run.stdout
    assert "Worst traces" in run.stdout and "Most common findings" in run.stdout
    assert "Unreadable (1):" in run.stdout and "job-9" in run.stdout
    assert (out_b / "frames.parquet").exists()
    assert len(Fleet.read_parquet(out_b)) == 7

    cmp = _cli("fleet-compare", str(out_a), str(out_b))
    assert cmp.returncode == 0, cmp.stderr
    lines = cmp.stdout.splitlines()
    assert "changes for the worse" in lines[0]
    assert lines[1].startswith("  [new unreadable traces] 0 → 1 traces could not be read")
    assert lines[2].startswith("  [new graph breaks] `step` (graph_break_print.py): 0 → 2")

    nothing = _cli("fleet", str(tmp_path / "no-such-*"), "--local", "1")
    assert nothing.returncode == 2 and "no input path matched" in nothing.stderr
    missing = _cli("fleet-compare", str(out_a), str(tmp_path / "nope"))
    assert missing.returncode == 2 and "nope" in missing.stderr
