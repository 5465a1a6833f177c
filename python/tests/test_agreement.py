"""Python and dynascope-cli agree: the same summary, findings, report and diff documents, on every
committed recording (trace and TORCH_LOGS text), the bundled example, the tlparse corpus and the
torch 2.11 traces (the last two when ../shared is on the machine).

The summary is compared byte for byte (Trace._handle.summary_json is what Trace.summary()
parses) and field by field; the findings, report and diff documents field by field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import dynascope
from conftest import cli, need_shared, recordings, shared_211, tlparse_inputs


def committed_inputs() -> list[Path]:
    out = [Path(dynascope.example_path())]
    for scenario in recordings():
        out.append(scenario)
        if (scenario / "torch_logs.txt.zst").exists():
            out.append(scenario / "torch_logs.txt.zst")
    return out


def _id(p: Path) -> str:
    return "/".join(p.parts[-2:])


def check_agreement(path: Path) -> None:
    summary = cli("summary", "--json", str(path), check=False)
    try:
        trace = dynascope.load(path)
    except dynascope.TraceError as e:
        # The CLI could not read it either (exit 2), or read nothing from it (no records).
        assert summary.returncode == 2 or json.loads(summary.stdout)["totals"]["records"] == 0
        assert e.path
        return
    if summary.returncode == 2:
        # An input of several could not be read: the CLI stops; Python keeps the others, with
        # what the CLI said among the trace's diagnostics.
        said = {d["message"] for d in trace.diagnostics}
        for line in summary.stderr.decode().splitlines():
            assert any(m in line for m in said), line
        return
    assert summary.returncode == 0, summary.stderr.decode()
    assert trace._handle.summary_json() == summary.stdout.decode()
    assert trace.summary() == json.loads(summary.stdout)
    diagnose = cli("diagnose", "--json", str(path))
    assert trace.diagnose() == json.loads(diagnose.stdout)
    warnings = cli("diagnose", "--json", "--min-severity", "warning", str(path))
    assert trace.diagnose("warning") == json.loads(warnings.stdout)
    assert [f.rule for f in trace.findings()] == [
        f["rule"] for f in json.loads(diagnose.stdout)["findings"]
    ]
    report = cli("report", "--format", "json", str(path))
    assert json.loads(trace.report("json")) == json.loads(report.stdout)
    assert trace.report("md") == cli("report", str(path)).stdout.decode()


@pytest.mark.parametrize("path", committed_inputs(), ids=_id)
def test_committed(path: Path) -> None:
    check_agreement(path)


@pytest.mark.parametrize("path", tlparse_inputs() or [None], ids=lambda p: _id(p) if p else "absent")
def test_tlparse_corpus(path: Path | None) -> None:
    need_shared([path] if path else [], "the tlparse corpus")
    assert path is not None
    check_agreement(path)


@pytest.mark.parametrize("path", shared_211() or [None], ids=lambda p: _id(p) if p else "absent")
def test_torch_211(path: Path | None) -> None:
    need_shared([path] if path else [], "the torch 2.11 H200 traces")
    assert path is not None
    check_agreement(path)


def diff_pairs() -> list[tuple[Path, Path]]:
    scenarios = recordings()
    return list(zip(scenarios, scenarios[1:] + scenarios[:1]))


@pytest.mark.parametrize("pair", diff_pairs(), ids=lambda p: f"{p[0].name}-{p[1].name}")
def test_diff(pair: tuple[Path, Path]) -> None:
    a, b = pair
    out = cli("diff", "--json", str(a), str(b))
    d = dynascope.diff(a, b)
    assert d.to_dict() == json.loads(out.stdout)
    assert d.report("md") == cli("diff", str(a), str(b)).stdout.decode()
    for check in ("graph-breaks", "recompiles", "failures", "compile-time=20%"):
        rc = cli("diff", "--fail-on", check, str(a), str(b), check=False).returncode
        assert rc in (0, 3)
        assert bool(d.fails_on(check)) == (rc == 3)
