"""Shared fixtures: where the real traces are, and the bundled CLI.

The package is imported as installed (the wheel in a fresh venv: scripts/run-python-tests.sh);
the traces are the repository's committed recordings and bundled example, and, when the folder
is there, ../shared/traces (the tlparse corpus and the torch 2.11 traces). Tests that need
shared/ skip with a message when it is absent.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import dynascope

REPO = Path(__file__).resolve().parents[2]
RECORDED = REPO / "tests" / "scenarios" / "recorded"
SHARED = REPO.parent / "shared" / "traces"


def recordings() -> list[Path]:
    """Every committed recording's scenario folders (each holds a trace and its TORCH_LOGS text)."""
    return sorted(p for p in RECORDED.glob("torch-*/*") if p.is_dir())


def tlparse_inputs() -> list[Path]:
    """The tlparse corpus: every log file and every multi-rank folder."""
    root = SHARED / "tlparse" / "tests" / "inputs"
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() or p.suffix in (".log", ".txt"))


def shared_211() -> list[Path]:
    """The torch 2.11 H200 traces: the scenario suite and the CUDA programs, folder by folder."""
    root = SHARED / "torch-2.11-h200"
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob("*/*") if p.is_dir())


def need_shared(paths: list[Path], what: str) -> list[Path]:
    if not paths:
        pytest.skip(f"{what} not found under {SHARED} (the shared traces are not on this machine)")
    return paths


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    """Runs the dynascope-cli that came with the package."""
    return subprocess.run(
        [dynascope.cli_path(), *args], capture_output=True, check=check, timeout=300
    )


@pytest.fixture(scope="session")
def example() -> dynascope.Trace:
    return dynascope.load(dynascope.example_path())
