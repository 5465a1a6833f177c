"""Trace.guards(): the guard lab from Python, on the committed recordings.

What each program did is in its facts.json (recorded beside the trace): guard_dtype compiled
scale for float32 and recompiled for float64; guard_training_flag compiled forward in training
mode, then again in eval mode. The verdicts must say the same, and agree with dynascope-cli.
"""

from __future__ import annotations

import json

import pytest

import dynascope
from conftest import RECORDED, cli

SCENARIOS = RECORDED / "torch-2.13.0"


@pytest.fixture(scope="module")
def guard_dtype() -> dynascope.Trace:
    return dynascope.load(SCENARIOS / "guard_dtype")


def test_each_recorded_dtype_reuses_its_compile(guard_dtype: dynascope.Trace) -> None:
    facts = json.loads((SCENARIOS / "guard_dtype" / "facts.json").read_text())
    dtypes = [c["dtypes"][0] for c in facts["calls"]]
    assert dtypes == ["torch.float32", "torch.float64"]
    for i, short in enumerate(["f32", "f64"]):
        answer = guard_dtype.guards("scale", f"x: {short}[8, 4]")
        assert answer["format"] == "dynascope-guard-lab"
        assert answer["reused"] == f"[0/{i}]", answer
        assert answer["recompiles"] is False and answer["known"] is True


def test_a_new_dtype_recompiles_on_its_guard(guard_dtype: dynascope.Trace) -> None:
    answer = guard_dtype.guards("scale", ["x: f16[8, 4]"])
    assert answer["recompiles"] is True and answer["reused"] is None
    assert answer["verdict"].startswith("recompiles: no entry matches")
    assert [e["id"] for e in answer["entries"]] == ["[0/1]", "[0/0]"]  # newest first
    for entry, expected in zip(answer["entries"], ["torch.float64", "torch.float32"]):
        assert entry["outcome"] == "fail"
        assert entry["failed"]["kind"] == "TENSOR_MATCH"
        assert entry["failed"]["expected"] == expected
        assert entry["failed"]["actual"] == "torch.float16"
    assert answer["entries_left"] == answer["recompile_limit"] - 2
    # The wheel is built without libtorch (pyproject.toml): key sets are read, not computed.
    assert answer["tensor_model"] is None


def test_inference_mode_without_libtorch() -> None:
    """guard_lab_probes' neg: [3/0] compiled for an ordinary tensor under no_grad, [3/1] under
    inference_mode; an inference tensor outside inference mode has [3/1]'s key set, and PyTorch
    reused [3/1] for it (facts.json). The wheel decides it from the recorded key sets."""
    trace = dynascope.load(SCENARIOS / "guard_lab_probes")
    facts = json.loads((SCENARIOS / "guard_lab_probes" / "facts.json").read_text())
    probe = next(p for p in facts["probes"]
                 if p["function"] == "neg" and " inference " in p["input"]
                 and p["input"].endswith("inference_mode: off"))
    assert probe["recompiled"] is False and probe["ran_entry"] == 1
    answer = trace.guards("neg", probe["input"] + "; autocast: off")
    assert answer["reused"] == "[3/1]", answer["verdict"]


def test_training_flag() -> None:
    trace = dynascope.load(SCENARIOS / "guard_training_flag")
    assert trace.guards("forward", "training: True")["reused"] == "[0/0]"
    assert trace.guards("forward", "training: False")["reused"] == "[0/1]"


def test_agrees_with_the_cli(guard_dtype: dynascope.Trace) -> None:
    path = str(SCENARIOS / "guard_dtype")
    for desc in ["x: f16[8, 4]", "x: f64[8, 4]", "x.size(0) in 1..16"]:
        out = cli("guards", "--json", path, "--frame", "scale", "--input", desc)
        assert json.loads(out.stdout) == guard_dtype.guards("scale", desc)
        text = cli("guards", path, "--frame", "scale", "--input", desc).stdout.decode()
        assert text == guard_dtype.guards_text("scale", desc)


def test_bad_questions_raise(guard_dtype: dynascope.Trace) -> None:
    with pytest.raises(ValueError, match="no frame 'nope'"):
        guard_dtype.guards("nope", "x: f32[8, 4]")
    with pytest.raises(ValueError, match="'q32'.*not a dtype"):
        guard_dtype.guards("scale", "x: q32[8, 4]")
    with pytest.raises(ValueError, match="no input"):
        guard_dtype.guards("scale", [])
