"""The notebook representation renders: docs/python.ipynb executed with nbclient in a kernel of
this interpreter, and its outputs hold the totals, the top findings, the timeline picture and the
Why text. Skipped, with a message, where nbclient or ipykernel is not installed."""

from __future__ import annotations

import pytest

from conftest import REPO

NOTEBOOK = REPO / "docs" / "python.ipynb"


def test_notebook_executes_and_renders() -> None:
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (no kernel to run in)")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel "python3" is ipykernel's own spec: the interpreter it is installed in, which is
    # the one the package is installed in.
    client = nbclient.NotebookClient(nb, timeout=120, startup_timeout=120, kernel_name="python3")
    client.execute(cwd=str(REPO))
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    trace_html, finding_html, compile_html = html[0], html[1], html[2]
    assert "<svg" in trace_html and "Top findings" in trace_html and "recompiles" in trace_html
    assert "failure" in finding_html and "<svg" in finding_html
    assert "[3/1]" in compile_html and "Why it recompiled" in compile_html
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "recompile-shape" in text and "x.size(0) across the frame's compiles: 32 → 64" in text
