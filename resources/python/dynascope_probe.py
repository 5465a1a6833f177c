"""dynascope_probe: the helper `dynascope-cli probe` runs inside the probed program.

The probe runs a program once per configuration (eager without torch.compile, then each backend
of the ladder: eager, aot_eager, inductor; optionally dynamic=True, or the program's own
settings). In each run this module, installed at start-up by the sitecustomize next to it,
waits for `import torch` and replaces torch.compile with a wrapper that

- compiles with that run's backend (or not at all in the eager run: the callable runs as written);
- measures every call of each compiled callable: the first call's time, the times of the next
  N calls (the steady state; CUDA is synchronised around them when CUDA is in use), the number
  of calls and their total time, which calls compiled (and the compile ids PyTorch gave them),
  and peak memory (CUDA's allocator peak when CUDA is in use, and the process's peak RSS);
- with check on, runs each of those N + 1 calls' inputs eagerly as well and compares the outputs
  with torch.testing.assert_close, so a wrong result is told apart from a crash;
- records an exception that escapes a compiled call, and one that ends the program.

It writes what it measured into the trace itself, as an artifact named "dynascope_probe" (JSON
payload, format "dynascope-probe", version 1; documented in Dynascope's docs/recording.md,
"The probe artifact"), through torch._logging.trace_structured: once when the first callable finishes its
N + 1 measured calls (a "snapshot"), and once at exit ("end"). Nothing is written in a process
that never calls torch.compile.

Configuration comes from DYNASCOPE_PROBE_CONFIG, a JSON object: name (the run's label), backend
("none" = no compile, "program" = as the program asked, else a backend name), dynamic (true:
pass dynamic=True), check (bool), steps (N). Only the standard library and torch are used.
"""

import atexit
import functools
import importlib.util
import inspect
import json
import os
import sys
import threading
import time

FORMAT = "dynascope-probe"
VERSION = 1
ARTIFACT = "dynascope_probe"
MAX_COMPILING_CALLS = 256  # compiling calls kept per callable (later ones are only counted)
MAX_TEXT = 2000  # characters kept of an exception's or a mismatch's message

_config = {}
_lock = threading.RLock()
_callables = {}  # key -> _Record
_compile_ids = []  # compile ids in start order, from Dynamo's compile-start callback
_state = {"started": False, "snapshot": False, "exception": None, "torch": None}


def _now_us():
    return time.time_ns() / 1000.0


def install():
    """Reads the configuration and patches torch once it is imported (now if it already is)."""
    global _config
    _config = json.loads(os.environ["DYNASCOPE_PROBE_CONFIG"])
    _config.setdefault("name", _config.get("backend", "?"))
    _config["steps"] = max(0, int(_config.get("steps", 10)))
    if "torch" in sys.modules:
        _patch(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _TorchFinder())
    previous_hook = sys.excepthook

    def excepthook(kind, value, tb):
        _state["exception"] = {"type": kind.__name__, "message": _text(value)}
        previous_hook(kind, value, tb)

    sys.excepthook = excepthook


class _TorchFinder:
    """A meta-path finder that lets the normal machinery import torch, then patches it."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None:
            return spec
        inner = spec.loader.exec_module

        def exec_module(module):
            inner(module)
            _patch(module)

        spec.loader.exec_module = exec_module
        return spec


def _patch(torch):
    if _state["torch"] is not None:
        return
    _state["torch"] = torch
    # Registered after torch (and logging) were imported, so it runs before logging's own
    # shutdown closes the trace file (atexit runs last-registered first).
    atexit.register(_at_exit)
    original = torch.compile

    @functools.wraps(original)
    def compile(model=None, *args, **kwargs):
        if model is None:  # @torch.compile(backend=...) used as a decorator factory
            return lambda m: compile(m, *args, **kwargs)
        if _is_compiling(torch):
            return original(model, *args, **kwargs)
        return _compile(torch, original, model, args, kwargs)

    compile.__dynascope_probe__ = True
    torch.compile = compile
    try:
        handler = torch._dynamo.callback_handler

        def on_start(*a):
            _compile_ids.append(str(getattr(a[0], "compile_id", "")) if a else "")

        handler.register_start_callback(on_start)
        _state["callback"] = True
    except Exception:
        _state["callback"] = False


def _is_compiling(torch):
    try:
        return torch.compiler.is_compiling()
    except Exception:
        return False


def _backend_name(backend):
    if backend is None:
        return "inductor"
    if isinstance(backend, str):
        return backend
    return getattr(backend, "__name__", None) or type(backend).__name__


def _compile(torch, original, model, args, kwargs):
    backend = _config.get("backend", "program")
    requested = _backend_name(kwargs.get("backend"))
    kw = dict(kwargs)
    dropped = []
    if backend not in ("none", "program"):
        kw["backend"] = backend
        if backend != "inductor":  # mode= and options= are Inductor's
            for k in ("mode", "options"):
                if kw.pop(k, None) is not None:
                    dropped.append(k)
    if _config.get("dynamic"):
        kw["dynamic"] = True
    used = "none" if backend == "none" else _backend_name(kw.get("backend"))
    rec = _record_for(torch, model, requested, used, kw.get("dynamic"), dropped)
    _start()
    if backend == "none":
        return _eager_callable(torch, model, rec)
    compiled = original(model, *args, **kw)
    return _instrument(torch, compiled, model, rec)


def _where(torch, model):
    """(kind, name, qualname, file, line) of the code a compiled callable runs."""
    kind = "function"
    fn = model
    if isinstance(model, torch.nn.Module):
        kind, fn = "module", type(model).forward
    elif isinstance(getattr(model, "__self__", None), torch.nn.Module) and getattr(
        model, "__name__", ""
    ) in ("_call_impl", "_wrapped_call_impl", "__call__"):
        kind, fn = "module", type(model.__self__).forward  # nn.Module.compile()
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        name = getattr(model, "__name__", type(model).__name__)
        return kind, name, name, "", 0
    qualname = getattr(fn, "__qualname__", code.co_name)
    return kind, code.co_name, qualname, os.path.abspath(code.co_filename), code.co_firstlineno


class _Record:
    def __init__(self, ident, kind, name, qualname, file, line, requested, used, dynamic, dropped):
        self.data = {
            "id": ident,
            "kind": kind,
            "name": name,
            "qualname": qualname,
            "file": file,
            "line": line,
            "requested_backend": requested,
            "backend": used,
            "dynamic": dynamic,
            "dropped_options": dropped,
            "compiled_callables": 0,
            "calls": 0,
            "total_us": 0.0,
            "first_call_us": None,
            "first_call_start_us": None,
            "steady_us": [],
            "steady_compiled": [],
            "compiling_calls": [],
            "compiling_calls_dropped": 0,
            "eager_us": [],
            "check": None,
            "error": None,
            "peak_rss_mib": None,
            "cuda_peak_mib": None,
        }


def _record_for(torch, model, requested, used, dynamic, dropped):
    kind, name, qualname, file, line = _where(torch, model)
    key = (qualname, file, line, used, dynamic)
    with _lock:
        rec = _callables.get(key)
        if rec is None:
            rec = _Record(len(_callables) + 1, kind, name, qualname, file, line, requested, used,
                          dynamic, dropped)
            _callables[key] = rec
        rec.data["compiled_callables"] += 1
        return rec


def _instrument(torch, compiled, model, rec):
    if isinstance(compiled, torch.nn.Module) and compiled is not model:
        # An OptimizedModule: keep it one (state_dict, .train(), attributes) and measure its
        # calls through a subclass made for it.
        eager = getattr(compiled, "_orig_mod", model)
        base = type(compiled)

        def __call__(self, *args, **kwargs):
            return _call(torch, rec, functools.partial(base.__call__, self), eager, args, kwargs)

        compiled.__class__ = type(base.__name__, (base,), {"__call__": __call__})
        return compiled
    if isinstance(compiled, torch.nn.Module):  # compile(disable=True) returned the module
        return _eager_callable(torch, model, rec)
    eager = model

    @functools.wraps(compiled)
    def wrapper(*args, **kwargs):
        if _is_compiling(torch):
            return compiled(*args, **kwargs)
        return _call(torch, rec, compiled, eager, args, kwargs)

    return wrapper


def _eager_callable(torch, model, rec):
    """The eager run: the callable itself, measured the same way."""
    if isinstance(model, torch.nn.Module):
        class _EagerModule(torch.nn.Module):
            # Holds the module under _orig_mod, as torch.compile's OptimizedModule does, so
            # state_dict keys and attribute access stay as they are with torch.compile.
            def __init__(self, mod):
                super().__init__()
                self._orig_mod = mod

            def __getattr__(self, name):
                try:
                    return super().__getattr__(name)
                except AttributeError:
                    return getattr(self._orig_mod, name)

            def forward(self, *args, **kwargs):
                return self._orig_mod(*args, **kwargs)

            def __call__(self, *args, **kwargs):
                return _call(torch, rec, self._orig_mod, None, args, kwargs)

        _EagerModule.__name__ = "OptimizedModule"
        return _EagerModule(model)

    @functools.wraps(model)
    def wrapper(*args, **kwargs):
        return _call(torch, rec, model, None, args, kwargs)

    return wrapper


def _cuda_active(torch):
    try:
        return torch.cuda.is_available() and torch.cuda.is_initialized()
    except Exception:
        return False


def _frames_total(torch):
    try:
        return int(torch._dynamo.utils.counters["frames"]["total"])
    except Exception:
        return 0


def _call(torch, rec, fn, eager, args, kwargs):
    data = rec.data
    steps = _config["steps"]
    with _lock:
        n = data["calls"]
        data["calls"] += 1
    measured = n <= steps
    check = bool(_config.get("check")) and measured and eager is not None
    sync = measured and _cuda_active(torch)
    if check:
        reference = _clone(torch, (args, kwargs))
        rng = _rng_state(torch)
    ids_before = len(_compile_ids)
    frames_before = _frames_total(torch)
    if sync:
        torch.cuda.synchronize()
    start_us = _now_us()
    t0 = time.perf_counter_ns()
    try:
        out = fn(*args, **kwargs)
        if sync:
            torch.cuda.synchronize()
    except BaseException as e:
        us = (time.perf_counter_ns() - t0) / 1000.0
        _account(torch, rec, n, start_us, us, ids_before, frames_before, measured)
        with _lock:
            if data["error"] is None:
                data["error"] = {"call": n, "type": type(e).__name__, "message": _text(e),
                                 "compiles": list(_compile_ids[ids_before:])}
        raise
    us = (time.perf_counter_ns() - t0) / 1000.0
    _account(torch, rec, n, start_us, us, ids_before, frames_before, measured)
    if check:
        _check(torch, rec, n, out, eager, reference, rng)
    return out


def _account(torch, rec, n, start_us, us, ids_before, frames_before, measured):
    data = rec.data
    ids = list(_compile_ids[ids_before:])
    compiled_now = bool(ids) or _frames_total(torch) != frames_before
    snapshot = False
    with _lock:
        data["total_us"] += us
        if n == 0:
            data["first_call_us"] = us
            data["first_call_start_us"] = start_us
        elif measured:
            data["steady_us"].append(us)
            if compiled_now:
                data["steady_compiled"].append(n)
        if compiled_now:
            if len(data["compiling_calls"]) < MAX_COMPILING_CALLS:
                data["compiling_calls"].append(
                    {"call": n, "start_us": start_us, "us": us, "compiles": ids})
            else:
                data["compiling_calls_dropped"] += 1
        if measured:
            _update_peaks(torch, data)
        if n == _config["steps"] and not _state["snapshot"]:
            _state["snapshot"] = snapshot = True
    if snapshot:
        _emit("snapshot")


def _update_peaks(torch, data):
    rss = _peak_rss_mib()
    if rss is not None:
        data["peak_rss_mib"] = max(data["peak_rss_mib"] or 0.0, rss)
    if _cuda_active(torch):
        try:
            cuda = torch.cuda.max_memory_allocated() / 2**20
            data["cuda_peak_mib"] = max(data["cuda_peak_mib"] or 0.0, cuda)
        except Exception:
            pass


def _peak_rss_mib():
    try:
        import resource

        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return kib / 1024.0 if sys.platform != "darwin" else kib / 2**20
    except Exception:
        return None


def _clone(torch, tree):
    def copy(x):
        if isinstance(x, torch.Tensor):
            c = x.detach().clone()
            return c.requires_grad_(x.requires_grad) if x.requires_grad else c
        return x

    try:
        from torch.utils._pytree import tree_map

        return tree_map(copy, tree)
    except Exception:
        return tree


def _rng_state(torch):
    state = {"cpu": torch.get_rng_state()}
    if _cuda_active(torch):
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def _set_rng_state(torch, state):
    torch.set_rng_state(state["cpu"])
    if "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])


def _check(torch, rec, n, out, eager, reference, rng):
    """Runs the call's inputs (copied before the compiled call) eagerly from the same RNG state,
    and compares the outputs. The program's RNG stream goes on as if no check had run."""
    data = rec.data
    with _lock:
        if data["check"] is None:
            data["check"] = {"checked": 0, "mismatches": 0, "first_mismatch": None,
                             "errors": 0, "first_error": None, "uncomparable": 0}
        result = data["check"]
    after = _rng_state(torch)
    ref_args, ref_kwargs = reference
    try:
        _set_rng_state(torch, rng)
        t0 = time.perf_counter_ns()
        expected = eager(*ref_args, **ref_kwargs)
        if _cuda_active(torch):
            torch.cuda.synchronize()
        eager_us = (time.perf_counter_ns() - t0) / 1000.0
    except Exception as e:
        with _lock:
            result["errors"] += 1
            if result["first_error"] is None:
                result["first_error"] = {"call": n, "type": type(e).__name__, "message": _text(e)}
        return
    finally:
        _set_rng_state(torch, after)
    with _lock:
        data["eager_us"].append(eager_us)
    try:
        torch.testing.assert_close(out, expected, equal_nan=True)
        with _lock:
            result["checked"] += 1
    except AssertionError as e:
        with _lock:
            result["checked"] += 1
            result["mismatches"] += 1
            if result["first_mismatch"] is None:
                result["first_mismatch"] = {"call": n, "message": _text(e)}
    except Exception as e:  # outputs assert_close cannot compare (custom objects)
        with _lock:
            result["uncomparable"] += 1
            if result["first_error"] is None:
                result["first_error"] = {"call": n, "type": type(e).__name__,
                                         "message": "not comparable: " + _text(e)}


def _text(e):
    s = str(e)
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "…"


def _start():
    with _lock:
        if _state["started"]:
            return
        _state["started"] = True
    _emit("start")


def _document(event):
    torch = _state["torch"]
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "event": event,
        "time_us": _now_us(),
        "config": {k: _config.get(k) for k in ("name", "backend", "dynamic", "check", "steps")},
        "pid": os.getpid(),
    }
    if event == "start":
        doc["argv"] = list(sys.argv)
        doc["python"] = sys.version.split()[0]
        doc["torch_version"] = getattr(torch, "__version__", None)
        doc["cuda"] = _cuda_active(torch) or bool(
            getattr(torch, "cuda", None) and torch.cuda.is_available())
        doc["compile_id_callback"] = _state.get("callback", False)
        return doc
    with _lock:
        doc["callables"] = [json.loads(json.dumps(r.data)) for r in _callables.values()]
    rss = _peak_rss_mib()
    doc["peak_rss_mib"] = rss
    doc["cuda_peak_mib"] = None
    if _cuda_active(torch):
        try:
            doc["cuda_peak_mib"] = torch.cuda.max_memory_allocated() / 2**20
        except Exception:
            pass
    doc["exception"] = _state["exception"]
    return doc


def _emit(event):
    torch = _state["torch"]
    if torch is None:
        return
    try:
        payload = json.dumps(_document(event), indent=1, allow_nan=False, default=str)
        torch._logging.trace_structured(
            "artifact",
            metadata_fn=lambda: {"name": ARTIFACT, "encoding": "json"},
            payload_fn=lambda: payload,
            expect_trace_id=False,
        )
    except Exception as e:
        sys.stderr.write(f"dynascope probe: could not write the measurements: {e}\n")


def _at_exit():
    if _state["started"]:
        _emit("end")
