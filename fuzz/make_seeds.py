#!/usr/bin/env python3
"""Writes the small hand-made fuzz seeds into fuzz/seeds/ (each a few KB, one idea each).

The fixtures from dynascope-fixtures are the larger half of the seed corpus; these seeds are
small so that libFuzzer mutates every part of the format often: kinds, ids, chromium phases,
guard trees, recompile reasons, graph breaks with resume frames, 2024 forms, compressed copies.
Run again after editing: python3 fuzz/make_seeds.py
"""
import gzip, hashlib, json, os, subprocess

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
PREFIX = "V0314 10:41:02.{ms:03d}000 4242 torch/_dynamo/x.py:1] "


class Log:
    def __init__(self):
        self.lines = []
        self.ms = 0

    def rec(self, kind, meta, payload=None, **ids):
        env = {kind: meta}
        env.update(ids)
        if payload is not None:
            env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
        self.ms += 1
        self.lines.append(PREFIX.format(ms=self.ms % 1000) + json.dumps(env))
        if payload is not None:
            self.lines.extend("\t" + l for l in payload.split("\n"))

    def chrom(self, name, ph, ts, cid=None, **ids):
        ev = {"name": name, "ts": ts, "ph": ph, "cat": "dynamo_timed", "tid": 0, "pid": 0}
        if cid is not None:
            ev["args"] = {"compile_id": cid}
        if ph == "X":
            ev["dur"] = 5.0
        self.rec("chromium_event", {}, json.dumps(ev), **ids)

    def text(self):
        return "\n".join(self.lines) + "\n"


GUARDS = """TREE_GUARD_MANAGER:
+- RootGuardManager
| +- GLOBAL_STATE: ___check_global_state()
| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, requires_grad=False, size=[2, 2], stride=[2, 1])  # a.py:3 in f

Guard latency = 1.5 us"""

T0 = 1773484862000000.0


def basic():
    log = Log()
    ids = dict(frame_id=0, frame_compile_id=0, attempt=0)
    log.chrom("dynamo", "B", T0, "0/0", **ids)
    log.rec("str", ["/a.py", 0])
    log.rec("dynamo_start", {"stack": [{"line": 3, "name": "f", "filename": 0, "loc": "y = f(x)"}]}, **ids)
    log.chrom("backend_compile", "B", T0 + 10, "0/0", **ids)
    log.chrom("backend_compile", "E", T0 + 20, "0/0", **ids)
    log.rec("artifact", {"name": "dynamo_graph_break_reason", "encoding": "string"},
            "Graph break in user code at /a.py:3\nGraph Break Reason: data-dependent\n"
            "User code traceback:\n  File \"/a.py\", line 3, in f\n    if x.sum():", **ids)
    log.rec("dynamo_cpp_guards_str", {}, GUARDS, frame_id=0, frame_compile_id=0, attempt=1)
    log.rec("compilation_metrics", {"co_name": "f", "co_filename": "/a.py", "co_firstlineno": 1,
            "graph_op_count": 2, "guard_count": 2, "start_time_us": T0, "end_time_us": T0 + 50},
            frame_id=0, frame_compile_id=0, attempt=1)
    log.chrom("dynamo", "E", T0 + 50, "0/0", **ids)
    r = dict(frame_id=1, frame_compile_id=0, attempt=0)
    log.rec("dynamo_start", {"stack": [{"line": 3, "name": "torch_dynamo_resume_in_f_at_3", "filename": 0}]}, **r)
    log.rec("compilation_metrics", {"co_name": "torch_dynamo_resume_in_f_at_3", "graph_op_count": 1}, **r)
    rc = dict(frame_id=0, frame_compile_id=1, attempt=0)
    log.rec("artifact", {"name": "recompile_reasons", "encoding": "json"},
            json.dumps(["0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"]), **rc)
    log.rec("dynamo_start", {"stack": [{"line": 3, "name": "f", "filename": 0}]}, **rc)
    log.rec("compilation_metrics", {"co_name": "f", "graph_op_count": 2, "fail_type": "BackendCompilerFailed",
            "fail_reason": "boom", "fail_user_frame_filename": "/a.py", "fail_user_frame_lineno": 3}, **rc)
    log.rec("artifact", {"name": "dynamo_error", "encoding": "string"}, "Traceback (most recent call last):\n  boom", **rc)
    return log.text()


def legacy():
    log = Log()
    log.chrom("entire_frame_compile", "B", T0)
    log.rec("str", ["/b.py", 0])
    log.rec("dynamo_start", {"stack": [{"line": 7, "name": "g", "filename": 0}]}, frame_id=0, frame_compile_id=0)
    log.rec("dynamo_guards", {}, json.dumps([{"code": "___check_obj_id(L['m'], 1)", "stack": None, "user_stack": None}]),
            frame_id=0, frame_compile_id=0)
    log.chrom("entire_frame_compile", "E", T0 + 30)
    log.rec("compilation_metrics", {"co_name": "g", "co_filename": "/b.py", "start_time": T0 / 1e6,
            "entire_frame_compile_time_s": 0.5, "restart_reasons": ["graph break"], "graph_op_count": 1,
            "fail_type": "<class 'torch._dynamo.exc.Unsupported'>"}, frame_id=0, frame_compile_id=0)
    log.rec("dynamo_start", {"stack": [{"line": 9, "name": "torch_dynamo_resume_in_g_at_9", "filename": 5}]},
            frame_id=1, frame_compile_id=0)
    log.rec("compilation_metrics", {"co_name": "torch_dynamo_resume_in_g_at_9", "graph_op_count": 0},
            frame_id=1, frame_compile_id=0)
    return log.text()


def shapes():
    log = Log()
    ids = dict(compiled_autograd_id=0, frame_id=2, frame_compile_id=0, attempt=0)
    log.rec("str", ["/c.py", 0])
    log.rec("dynamo_start", {"stack": [{"line": 1, "name": "h", "filename": 0}]}, **ids)
    log.rec("guard_added_fast", {"expr": "Eq(s0, 3)", "user_stack": [{"line": 4, "name": "h", "filename": 0}],
            "stack": [{"line": 1, "name": "x", "filename": 99}]}, **ids)
    log.rec("symbolic_shape_specialization", {"symbol": "s0", "sources": ["L['x'].size()[0]"], "value": "3",
            "reason": "guard", "user_stack": []}, **ids)
    log.rec("artifact", {"name": "fx_graph_cache_hit", "encoding": "json"}, "{}", **ids)
    log.chrom("inductor_compile", "X", T0, "!0/2/0", **ids)
    log.chrom("fx_graph_cache_hit", "i", T0 + 1, "!0/2/0", **ids)
    log.chrom("dynamo", "B", T0 + 2, "!0/2/0", **ids)
    log.rec("compilation_metrics", {"co_name": "h", "graph_op_count": 4, "recompile_reason": "size"}, **ids)
    log.rec("some_new_kind", {"x": 1})
    log.rec("link", {"name": "doc", "url": "file:///etc/passwd"})
    return log.text()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    b = basic()
    write("basic.log", b.encode())
    write("legacy.log", legacy().encode())
    write("shapes.log", shapes().encode())
    write("crlf_cut.log", b.replace("\n", "\r\n")[: len(b) * 2 // 3].encode())
    write("basic.log.gz", gzip.compress(b.encode(), mtime=0))
    write("basic.log.zst", subprocess.run(["zstd", "-q", "-c", "-3"], input=b.encode(),
                                          capture_output=True, check=True).stdout)
