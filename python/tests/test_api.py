"""The Python API on real traces: what a user reads from Trace, Compile, Finding and Diff.

The expected facts come from the scenario programs' own facts files (what PyTorch's counters
said when the trace was recorded), not from Dynascope's output.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import dynascope
from conftest import RECORDED, SHARED, recordings

SCENARIOS = RECORDED / "torch-2.13.0"


def facts(scenario: str) -> dict:
    return json.loads((SCENARIOS / scenario / "facts.json").read_text())


def test_example_compiles_as_its_program_did(example: dynascope.Trace) -> None:
    f = facts("example")
    assert example.totals["compiles"] == f["counters"]["frames"]["total"]
    names = {c.function for c in example.compiles}
    assert {fn["name"] for fn in f["functions"].values()} <= names
    scale = [c for c in example.compiles if c.function == "scale"]
    assert [c.id for c in scale] == ["[3/0]", "[3/1]"]
    assert scale[1].is_recompile and not scale[0].is_recompile
    assert scale[1].line == f["functions"]["scale"]["firstlineno"]


def test_recompile_names_its_failed_guard(example: dynascope.Trace) -> None:
    c = example.compile("[3/1]")
    r = c.primary_reason
    assert r is not None
    assert (r.mismatch, r.source, r.dim, r.expected, r.actual) == ("size", "L['x']", 0, "32", "64")
    assert r.guard_kind == "TENSOR_MATCH" and "size=[32, 128]" in (r.guard_expr or "")
    assert r.earlier_id == "[3/0]" and r.earlier_compile == example.compile("[3/0]").index
    assert r.fix == "torch._dynamo.mark_dynamic(x, 0)"
    assert example.compile("[3/0]").primary_reason is None


def test_graph_break_has_user_line_code_and_resume(example: dynascope.Trace) -> None:
    f = facts("example")
    (gb,) = example.compile("[1/0]").graph_breaks
    assert (gb.file, gb.line) == (f["lines"]["break"]["file"], f["lines"]["break"]["line"])
    assert gb.type == "Data-dependent branching" and gb.gb_code == "gb0170"
    assert any("torch.cond" in h for h in gb.hints)
    assert gb.resume_id == "[2/0]"
    resume = example.compiles[gb.resume_compile]
    assert resume.function.startswith("torch_dynamo_resume_in_step_at_31")
    assert gb.user_frames[-1].code == f["lines"]["break"]["code"]


def test_failure_names_its_layer(example: dynascope.Trace) -> None:
    c = example.compile("[4/0]")
    assert c.status == "error" and c.failure is not None
    assert (c.failure.type, c.failure.layer) == ("BackendCompilerFailed", "backend")
    assert "my_backend" in c.failure.reason


def test_phases_and_cache_events(example: dynascope.Trace) -> None:
    first = example.compile("[0/0]")
    assert first.phases and all(p.duration_us >= 0 for p in first.phases)
    assert any(p.name == "inductor_compile" for p in first.phases)
    assert first.duration == pytest.approx(first.duration_us / 1e6)
    kinds = {(e.cache, e.kind) for c in example.compiles for e in c.cache_events}
    assert any(kind == "miss" for _, kind in kinds)


def test_why_is_the_why_tab(example: dynascope.Trace) -> None:
    text = example.compile("[3/1]").why()
    assert text.startswith("[3/1]  scale (example.py:36)")
    assert "x.size(0) across the frame's compiles: 32 → 64" in text
    assert "failed guard: TENSOR_MATCH on L['x'] in the guards of [3/0]" in text
    md = example.compile("[1/0]").why("md")
    assert md.startswith("**") and "### ⚡ Graph break" in md
    # The CLI's `why` prints the same document.
    out = subprocess.run(
        [dynascope.cli_path(), "why", dynascope.example_path(), "[3/1]"],
        capture_output=True, check=True,
    ).stdout.decode()
    assert out == text
    with pytest.raises(ValueError):
        example.compile("[3/1]").why("html")


def test_findings_are_ranked_with_next_step(example: dynascope.Trace) -> None:
    found = example.findings()
    assert found[0].rule == "failure" and found[0].severity == "error"
    assert [f.severity for f in found] == sorted(
        (f.severity for f in found), key=["error", "warning", "note"].index
    )
    shape = next(f for f in found if f.rule == "recompile-shape")
    assert shape.code == "torch._dynamo.mark_dynamic(x, 0)"
    assert [c.id for c in shape.compiles] == ["[3/1]"]
    assert ("values", "32 → 64") in shape.evidence
    assert shape.next_step and shape.cost > 0
    assert "recompile-shape" in shape.markdown()
    warnings = example.findings(min_severity="warning")
    assert {f.severity for f in warnings} <= {"warning", "error"} and len(warnings) < len(found)
    assert example.compile("[3/1]").findings() == [shape]
    with pytest.raises(ValueError):
        example.findings(min_severity="loud")


def test_compile_lookup(example: dynascope.Trace) -> None:
    assert example.compile(4) is example.compile("[3/1]") is example.compile("#4")
    assert example.compile("3/1").id == "[3/1]"
    with pytest.raises(ValueError):
        example.compile("[9/9]")
    with pytest.raises(IndexError):
        example.compiles[99]
    assert len(example) == len(list(example)) == 6


def test_report_and_exports(example: dynascope.Trace, tmp_path: Path) -> None:
    md = example.report()
    assert md.startswith("#") and "[3/1]" in md
    assert example.report("html").lstrip().lower().startswith("<!doctype html")
    assert json.loads(example.report("json"))["format"] == "dynascope-report"
    chrome = json.loads(example.export_chrome())
    assert any(e.get("name") == "[3/1] scale" or "[3/1]" in str(e) for e in chrome["traceEvents"])
    subset = example.export_subset("[3/0],[3/1]")
    part = dynascope.loads(subset, name="subset.log")
    assert [c.id for c in part.compiles] == ["[3/0]", "[3/1]"]
    assert part.compile("[3/1]").primary_reason is not None
    assert example.export_subset([3, 4]) == subset
    with pytest.raises(ValueError):
        example.report("pdf")


def test_load_forms(tmp_path: Path) -> None:
    scenario = SCENARIOS / "example"
    zst = scenario / "dedicated_log_torch_trace.log.zst"
    by_folder = dynascope.load(scenario)
    by_file = dynascope.load(str(zst))
    plain = dynascope.example_path()
    gz = tmp_path / "example.log.gz"
    gz.write_bytes(gzip.compress(Path(plain).read_bytes()))
    by_gz = dynascope.load(gz)
    by_bytes = dynascope.load(Path(plain).read_bytes())
    by_text = dynascope.load(Path(plain).read_text())
    text_logs = dynascope.load(scenario / "torch_logs.txt.zst")
    for t in (by_folder, by_file, by_gz, by_bytes, by_text):
        assert t.totals["compiles"] == 6 and t.totals["recompiles"] == 1
    assert by_gz.files[0]["compression"] == "gzip"
    assert by_bytes.inputs == ["<bytes>"] and by_text.inputs == ["<text>"]
    assert text_logs.files[0]["format"] == "torch_logs"
    assert text_logs.totals["recompiles"] == 1 and text_logs.totals["graph_breaks"] == 1
    assert by_folder.torch_version == facts("example")["torch_version"]
    assert by_folder.torch_version_from == "torch_version artifact"
    assert text_logs.torch_version is None and text_logs.torch_version_from is None
    with pytest.raises(TypeError):
        dynascope.load(plain, Path(plain).read_bytes())
    with pytest.raises(TypeError):
        dynascope.load()


def test_runs_of_a_folder(tmp_path: Path) -> None:
    two = SCENARIOS / "two_ranks_gloo"
    t = dynascope.load(two)
    assert sorted(f["rank"] for f in t.files) == [0, 1]
    assert dynascope.load(two, run="all").totals["files"] == 2
    with pytest.raises(dynascope.TraceError, match="run"):
        dynascope.load(two, run="sometimes")


def test_diff_and_fails_on() -> None:
    a = dynascope.load(SCENARIOS / "clean_mlp")
    b = dynascope.load(SCENARIOS / "graph_break_print")
    d = dynascope.diff(a, b)
    doc = d.to_dict()
    assert doc["format"] == "dynascope-diff"
    assert d.fails_on("graph-breaks") and not dynascope.diff(a, a).fails_on("graph-breaks")
    assert "graph" in d.report("md").lower()
    assert d.changed_frames == doc["changed_frames"]
    with pytest.raises(ValueError):
        d.fails_on("everything")
    # Paths work too.
    assert dynascope.diff(SCENARIOS / "clean_mlp", SCENARIOS / "clean_mlp").changed_frames == 0


def test_tables_have_the_documented_columns(example: dynascope.Trace) -> None:
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    compiles = example.to_pandas("compiles")
    assert list(compiles.columns)[:8] == [
        "index", "id", "rank", "frame", "function", "filename", "line", "status",
    ]
    assert len(compiles) == 6 and str(compiles["rank"].dtype) == "Int64"
    breaks = example.to_pandas("graph_breaks")
    assert breaks.loc[0, "gb_code"] == "gb0170" and breaks.loc[0, "resume_id"] == "[2/0]"
    rec = example.to_pandas("recompiles")
    assert rec.loc[0, ["mismatch", "expected", "actual"]].tolist() == ["size", "32", "64"]
    findings = example.to_pandas("findings")
    assert findings["rule"].tolist() == [f.rule for f in example.findings()]
    phases = example.to_arrow("phases")
    assert phases.num_rows == sum(len(c.phases) for c in example.compiles)
    assert phases.schema.field("duration_us").type == pa.float64()
    assert phases.schema.metadata[b"dynascope_table"] == b"phases"
    for name in dynascope.TABLES:
        assert isinstance(example.to_pandas(name), pd.DataFrame)
    with pytest.raises(ValueError, match="no table"):
        example.table("frames!")


def test_notebook_reprs_escape_trace_text(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script>"
    header = (
        'V1204 10:00:00.000000 1 torch/_dynamo/convert_frame.py:1] {"dynamo_start": {"stack": '
        '[]}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n'
        'V1204 10:00:01.000000 1 torch/_dynamo/utils.py:1] {"compilation_metrics": '
        '{"co_name": "' + hostile + '", "co_filename": "/x/<b>y</b>.py", "co_firstlineno": 3, '
        '"fail_type": "' + hostile + '", "fail_reason": "<img src=x onerror=alert(1)>"}, '
        '"frame_id": 0, "frame_compile_id": 0, "attempt": 0}\n'
    )
    t = dynascope.loads(header, name="hostile.log")
    (c,) = t.compiles
    assert c.function == hostile
    for html in (t._repr_html_(), c._repr_html_(), t.findings()[0]._repr_html_()):
        assert "<script>" not in html and "<img" not in html
        assert "&lt;script&gt;" in html
        assert "<svg" in html


def test_repr_shows_totals_findings_and_timeline(example: dynascope.Trace) -> None:
    html = example._repr_html_()
    assert "<svg" in html and "Top findings" in html and "failure" in html
    assert "compiles" in repr(example) and "[3/1]" in repr(example.compile("[3/1]"))
    assert "[3/1]" in example.compile("[3/1]")._repr_html_()
    assert "Dynascope diff" in dynascope.diff(example, example)._repr_html_()


def test_open_app_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("DYNASCOPE_APP", raising=False)
    with pytest.raises(FileNotFoundError, match=r"\.deb"):
        dynascope.open_app(dynascope.example_path())


def test_open_app_starts_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "args"
    fake = tmp_path / "dynascope"
    fake.write_text(f"#!/bin/sh\necho \"$@\" > {marker}\n")
    fake.chmod(0o755)
    monkeypatch.setenv("DYNASCOPE_APP", str(fake))
    dynascope.open_app(dynascope.example_path()).wait(timeout=30)
    assert marker.read_text().strip() == dynascope.example_path()


def test_cli_on_the_path_and_python_m() -> None:
    version = subprocess.run(
        ["dynascope-cli", "--version"], capture_output=True, check=True
    ).stdout.decode()
    assert version.startswith("dynascope-cli ") and dynascope.__version__ in version
    out = subprocess.run(
        [sys.executable, "-m", "dynascope", "summary", dynascope.example_path()],
        capture_output=True, check=True,
    ).stdout.decode()
    assert "compiles 6, recompiles 1" in out


def test_load_releases_the_gil(tmp_path: Path) -> None:
    # The load blocks reading a FIFO that only another Python thread writes: it can finish only
    # if load() let that thread run. Run in a child so a held GIL shows as a timeout, not a hang.
    code = f"""
import os, threading, dynascope
fifo = {str(tmp_path / 'fifo')!r}
os.mkfifo(fifo)
data = open({dynascope.example_path()!r}, 'rb').read()
def feed():
    with open(fifo, 'wb') as f:
        f.write(data)
threading.Timer(0.5, feed).start()
print(dynascope.load(fifo).totals['compiles'])
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, check=True
    ).stdout.decode()
    assert out.strip() == "6"


def test_two_threads_load_at_once() -> None:
    paths = [p for p in recordings() if (p / "dedicated_log_torch_trace.log.zst").exists()]
    results: dict[str, int] = {}

    def work(chunk: list[Path]) -> None:
        for p in chunk:
            results[str(p)] = dynascope.load(p).totals["compiles"]

    threads = [threading.Thread(target=work, args=(paths[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {str(p): dynascope.load(p).totals["compiles"] for p in paths}


def test_fresh_interpreter_import_is_light() -> None:
    # pandas, pyarrow and dask are optional: importing dynascope does not import them.
    code = "import sys, dynascope; print(sorted(m for m in ('pandas','pyarrow','dask') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert out.stdout.decode().strip() == "[]"


def test_torch_version_of_2_11_comes_from_the_metrics() -> None:
    """torch 2.11 writes no torch_version artifact: the release is read from a compile's
    compilation_metrics, with its +cu130 suffix, and the trace says where it came from."""
    suite = SHARED / "torch-2.11-h200" / "scenario-suite" / "clean_mlp"
    if not suite.exists():
        pytest.skip(f"{suite} not found (the shared traces are not on this machine)")
    trace = dynascope.load(suite)
    assert trace.torch_version == "2.11.0+cu130"
    assert trace.torch_version_from == "compilation_metrics"
    summary = trace.summary()
    assert summary["pytorch_version"] == "2.11.0+cu130"
    assert summary["pytorch_version_from"] == "compilation_metrics"


def test_a_place_the_text_does_not_give_reads_without_a_line() -> None:
    """TORCH_LOGS text without +dynamo names `forward` and its file but not its first line:
    the compile's place and repr say the file alone, never ":0"; a resume function's line is
    in its name."""
    t = dynascope.load(RECORDED / "torch-2.13.0" / "graph_break_in_callee" / "torch_logs.txt.zst")
    by_id = {c.id: c for c in t.compiles}
    forward = by_id["[0/0]"]
    assert (forward.function, forward.line) == ("forward", 0)
    assert forward.place == "graph_break_in_callee.py"
    assert ":0" not in repr(forward) and ":0" not in forward._repr_html_()
    resume = by_id["[3/0]"]
    assert resume.function.startswith("torch_dynamo_resume_in_forward_at_")
    assert resume.place == f"graph_break_in_callee.py:{resume.line}" and resume.line > 0
