"""Bad input raises TraceError (a ValueError) that names the file and the line, and never
crashes the interpreter; problems inside a trace keep what parsed and are diagnostics.

Each case runs in the test process: a crash would take pytest down with it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import dynascope
from conftest import RECORDED

EXAMPLE_ZST = RECORDED / "torch-2.13.0" / "example" / "dedicated_log_torch_trace.log.zst"


def raises_naming(path: str, *inputs: object, **kw: object) -> dynascope.TraceError:
    with pytest.raises(dynascope.TraceError) as caught:
        dynascope.load(*inputs, **kw)  # type: ignore[arg-type]
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.path == path and path in str(e)
    assert e.problems and all({"file", "line", "message"} <= set(p) for p in e.problems)
    return e


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.log"
    p.write_bytes(b"")
    assert "empty" in str(raises_naming(str(p), p))


def test_binary_file(tmp_path: Path) -> None:
    p = tmp_path / "model.bin"
    p.write_bytes(os.urandom(1 << 16))
    raises_naming(str(p), p)
    elf = raises_naming("/bin/ls", "/bin/ls")
    assert "not a trace" in str(elf)


def test_truncated_zst(tmp_path: Path) -> None:
    data = EXAMPLE_ZST.read_bytes()
    head = tmp_path / "head.log.zst"
    head.write_bytes(data[:40])  # cut inside the first block: nothing decodes
    e = raises_naming(str(head), head)
    assert "cut short" in str(e)
    # Cut later: what decoded is kept, and the cut is a diagnostic naming the file.
    part = tmp_path / "part.log.zst"
    part.write_bytes(data[: len(data) * 3 // 4])
    t = dynascope.load(part)
    assert t.totals["compiles"] > 0
    assert any(d["file"] == str(part) and "cut short" in d["message"] for d in t.diagnostics)


def test_folder_with_no_traces(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a trace\n")
    e = raises_naming(str(tmp_path), tmp_path)
    assert "no dedicated_log_torch_trace" in str(e)


def test_missing_path(tmp_path: Path) -> None:
    p = tmp_path / "gone"
    assert "no such file" in str(raises_naming(str(p), p))


def test_fifty_megabyte_line(tmp_path: Path) -> None:
    p = tmp_path / "one_line.log"
    with open(p, "wb") as f:
        f.write(b"x" * (50 << 20))
        f.write(b"\n")
    raises_naming(str(p), p)
    # The same line inside a real trace: the records around it are kept, the line is named.
    mixed = tmp_path / "mixed.log"
    example = Path(dynascope.example_path()).read_bytes()
    cut = example.index(b"\nV", len(example) // 2) + 1
    with open(mixed, "wb") as f:
        f.write(example[:cut])
        f.write(b"y" * (50 << 20) + b"\n")
        f.write(example[cut:])
    t = dynascope.load(mixed)
    assert t.totals["compiles"] == 6
    line = example[:cut].count(b"\n") + 1
    assert any(d["file"] == str(mixed) and d["line"] == line for d in t.diagnostics)


def test_bad_bytes_in_memory() -> None:
    e = raises_naming("<bytes>", b"")
    assert "empty" in str(e)
    raises_naming("<bytes>", os.urandom(4096))
    raises_naming("<bytes>", b"\x28\xb5\x2f\xfd" + b"\0" * 16)  # a zstd frame that is cut
    with pytest.raises(dynascope.TraceError, match="dump.log"):
        dynascope.loads(b"garbage\n" * 10, name="dump.log")


def test_corrupt_lines_are_diagnostics_with_file_and_line(tmp_path: Path) -> None:
    lines = Path(dynascope.example_path()).read_bytes().split(b"\n")
    lines.insert(40, b'V1201 23:57:03.519000 25401 torch/x.py:1] {"artifact": {broken')
    lines.insert(80, b"\xff\xfe not utf-8 \x00 at all")
    p = tmp_path / "corrupt.log"
    p.write_bytes(b"\n".join(lines))
    t = dynascope.load(p)
    assert t.totals["compiles"] == 6
    where = {(d["file"], d["line"]) for d in t.diagnostics}
    assert (str(p), 41) in where
    # Every string crosses into Python even when the trace's bytes are not UTF-8.
    for c in t.compiles:
        c.why()
    t.summary()
    t.report("md")


def test_decompression_limit(tmp_path: Path) -> None:
    with pytest.raises(dynascope.TraceError, match="expands past|limit"):
        dynascope.load(EXAMPLE_ZST, max_decompressed=1000)


def test_errors_of_several_inputs_keep_the_readable_ones(tmp_path: Path) -> None:
    # A folder whose rank 1 is not a trace: rank 0 loads; rank 1 is a diagnostic.
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / "dedicated_log_torch_trace_rank_0.log").write_bytes(
        Path(dynascope.example_path()).read_bytes()
    )
    (folder / "dedicated_log_torch_trace_rank_1.log").write_bytes(os.urandom(1 << 12))
    t = dynascope.load(folder)
    assert t.totals["compiles"] == 6
    assert any("rank_1" in d["file"] for d in t.diagnostics)


def test_a_named_path_that_cannot_be_read_is_an_error(tmp_path: Path) -> None:
    # Named one by one, a missing or unreadable file fails the load (a typo must not pass as a
    # smaller trace); inside a named folder, a bad rank file is a diagnostic.
    raises_naming(str(tmp_path / "typo.log"), dynascope.example_path(), tmp_path / "typo.log")
    bad = tmp_path / "bad.bin"
    bad.write_bytes(os.urandom(4096))
    raises_naming(str(bad), dynascope.example_path(), bad)
