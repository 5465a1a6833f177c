"""Compile.kernels, Compile.kernel_counts and the kernel columns, on real traces.

The 2.11 H200 CUDA traces (../shared, skipped when absent) have Triton kernels with what
triton_kernel_info logged of them; the committed 2.13 CPU recording has a C++ kernel and extern
calls, and nothing logged of their compile time. The expected kernels are those each scenario
program's ops give (scenario.py beside each trace).
"""

from __future__ import annotations

import pytest

import dynascope
from conftest import RECORDED, SHARED, need_shared

CUDA = SHARED / "torch-2.11-h200" / "cuda-scenarios"


def cuda(name: str) -> dynascope.Trace:
    (folder,) = need_shared([p for p in [CUDA / name] if p.is_dir()], f"the 2.11 CUDA {name}")
    return dynascope.load(folder)


def agrees_with_summary(trace: dynascope.Trace) -> None:
    summary = trace.summary()
    for c, s in zip(trace.compiles, summary["compiles"]):
        assert c.kernel_counts == dynascope.KernelCounts(**s["kernels"]), c
    assert trace.kernel_counts == dynascope.KernelCounts(**summary["totals"]["kernels"])
    table = trace.table("compiles")
    assert table["kernels"] == [c.kernel_counts.generated for c in trace.compiles]
    assert table["kernel_compile_time_us"] == [c.kernel_counts.compile_time_us for c in trace]
    assert table["autotune_misses"] == [c.kernel_counts.autotune_misses for c in trace]


def test_cuda_clean_mlp_kernels() -> None:
    trace = cuda("clean_mlp")
    (c,) = trace.compiles
    poi, *externs = c.kernels
    assert isinstance(poi, dynascope.Kernel)
    assert poi.name == "triton_poi_fused_addmm_gelu_0" and poi.kind == "pointwise"
    assert "aten.gelu" in poi.fused_ops and not poi.ops_from_name
    assert poi.graph == "inference"
    assert (poi.compile_time_us, poi.autotune_state, poi.num_configs) == (551300, "miss", 2)
    assert poi.has_info and poi.code_line > 0 and not poi.is_extern
    assert {k.name for k in externs} == {"extern_kernels.mm", "extern_kernels.addmm"}
    assert all(k.kind == "extern" and k.calls == 1 and k.compile_time_us is None for k in externs)
    n = c.kernel_counts
    assert (n.generated, n.compile_time_us, n.autotune_misses) == (1, 551300, 1)
    assert n.by_kind["pointwise"] == 1 and n.by_kind["extern"] == 2 and n.by_kind["cpp"] == 0
    assert not c.fx_graph_cache_hit
    assert c.kernels is c.kernels  # read once
    agrees_with_summary(trace)


def test_cuda_graph_break_item_kernels_on_both_sides_of_the_break() -> None:
    trace = cuda("graph_break_item")
    fn = trace.compile("[0/0]")
    (gb,) = fn.graph_breaks
    assert gb.line == 9 and gb.resume_compile is not None
    (red,) = fn.kernels
    assert red.kind == "reduction" and {"aten.sin", "aten.sum"} <= set(red.fused_ops)
    assert red.autotune_state == "only 1 config" and red.num_configs is None
    assert red.config == "R0_BLOCK=2048, XBLOCK=1, num_warps=16, num_stages=1"
    resumes = [c for c in trace if c.function.startswith("torch_dynamo_resume_in_fn")]
    assert trace.compiles[gb.resume_compile] is resumes[0] and len(resumes) == 3
    for c in resumes:
        (k,) = c.kernels
        assert k.kind == "pointwise" and "aten.cos" in k.fused_ops
    # [1/1] was loaded from the FX graph cache: nothing compiled, no compile time.
    cached = trace.compile("[1/1]")
    assert cached.fx_graph_cache_hit and cached.kernels[0].compile_time_us is None
    assert cached.kernel_counts.compile_time_us == 0
    assert trace.kernel_counts.generated == 4 and trace.kernel_counts.by_kind["extern"] == 0
    agrees_with_summary(trace)


def test_cpu_recording_kernels() -> None:
    trace = dynascope.load(RECORDED / "torch-2.13.0" / "clean_mlp")
    (c,) = trace.compiles
    gelu = next(k for k in c.kernels if k.kind == "cpp")
    assert gelu.fused_ops == ("gelu",) and gelu.ops_from_name
    assert not gelu.has_info and gelu.compile_time_us is None and gelu.autotune_state is None
    (addmm,) = [k for k in c.kernels if k.is_extern]
    assert addmm.name == "extern_kernels.addmm" and addmm.calls == 2
    assert c.kernel_counts.generated == 1 and c.kernel_counts.compile_time_us == 0
    agrees_with_summary(trace)


def test_no_kernels_without_inductor_code(example: dynascope.Trace) -> None:
    failed = example.compile("[4/0]")
    assert failed.kernels == () and failed.kernel_counts.generated == 0
    logs = RECORDED / "torch-2.13.0" / "clean_mlp" / "torch_logs.txt.zst"
    text = dynascope.loads(logs.read_bytes())
    assert all(c.kernels == () for c in text)


def test_kernel_columns_in_pandas(example: dynascope.Trace) -> None:
    pd = pytest.importorskip("pandas")
    frame = example.to_pandas("compiles")
    assert frame["kernels"].sum() == example.kernel_counts.generated
    assert str(frame["kernels"].dtype) == "int64" and pd is not None
