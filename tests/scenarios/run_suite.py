#!/usr/bin/env python3
"""Records the scenario suite: runs every program of tests/scenarios/programs as its own process
with TORCH_TRACE and TORCHINDUCTOR_CACHE_DIR set to fresh folders, and lays out what it wrote:

    OUT/MANIFEST.json                      torch and Python versions, per scenario: seconds, files
    OUT/<name>/facts.json                  what the program knows (programs/scenario_facts.py)
    OUT/<name>/dedicated_log_torch_trace[_rank_N].log[.zst]   the trace (random suffix dropped)
    OUT/<name>/torch_logs.txt[.zst]        the same run's stdout and stderr, with TORCH_LOGS set
                                           (what people paste into bug reports; see text_logs())
    OUT/<name>/terminal_paste.txt          for some scenarios: that text cut and wrapped the way
                                           a terminal paste is (terminal_paste())
    OUT/<name>/run1/...                    earlier runs of a scenario run several times
    OUT/<name>/<variant>/...               a variant's run (its own trace, text and facts)
    OUT/_output/<name>.txt                 every run's stdout and stderr (not committed)

    python3 tests/scenarios/run_suite.py --out DIR [--python PY] [--jobs 2] [--only a,b]
                                         [--zstd] [--list]

The runner uses only the standard library; PY is the interpreter with torch (default: this
one). Scenarios are listed in SCENARIOS below: add a program there to add a scenario. A spec's
keys: program (file in programs/), runs (times to run it with one shared cache dir; the last
run's trace is the scenario's), env (extra environment), timeout (seconds), variants (each
variant is run once more with its env and its files go to OUT/<name>/<variant>/), paste (make
terminal_paste.txt from the text).

Every run writes its TORCH_TRACE and, in the same process, TORCH_LOGS text to stderr
(TORCH_LOGS_DEFAULT; a spec's or variant's env may set its own TORCH_LOGS), so the trace and
the text describe one run and must agree. Programs run from the programs folder by their bare
file name (launch_command()), so the paths PyTorch logs read `example.py`, not the recording
machine's folders.
"""

import argparse
import concurrent.futures
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")


def spec(program, runs=1, env=None, timeout=300, variants=None, paste=False):
    return {"program": program, "runs": runs, "env": env or {}, "timeout": timeout,
            "variants": variants or {}, "paste": paste}


# TORCH_LOGS of every run: what bug reports usually carry. A few scenarios also run once with
# +dynamo (DYNAMO_DEBUG, the `dynamo_debug` variant): Dynamo's own debug log on top.
TORCH_LOGS_DEFAULT = "graph_breaks,recompiles,guards,dynamic"
DYNAMO_DEBUG = {"dynamo_debug": {"TORCH_LOGS": "+dynamo," + TORCH_LOGS_DEFAULT}}
TEXT_NAME = "torch_logs.txt"


# name -> spec. One program per situation people debug (see README.md for what each shows).
SCENARIOS = {
    "clean_mlp": spec("clean_mlp.py"),
    "graph_break_item": spec("graph_break_item.py", variants=DYNAMO_DEBUG),
    "graph_break_data_dependent": spec("graph_break_data_dependent.py"),
    "graph_break_print": spec("graph_break_print.py", variants={
        "without_print": {"DYNASCOPE_SCENARIO_NO_PRINT": "1"}}),
    "graph_break_explicit": spec("graph_break_explicit.py"),
    "fullgraph_error": spec("fullgraph_error.py"),
    "graph_break_in_loop": spec("graph_break_in_loop.py"),
    "graph_break_in_loop_blocks": spec("graph_break_in_loop_blocks.py"),
    "graph_break_in_callee": spec("graph_break_in_callee.py"),
    "graph_break_in_library": spec("graph_break_in_library.py"),
    "graph_break_logger": spec("graph_break_logger.py"),
    "dynamic_automatic": spec("dynamic_automatic.py", variants=DYNAMO_DEBUG),
    "dynamic_false": spec("dynamic_false.py", variants={
        "recompiles_verbose": {"TORCH_LOGS": "recompiles_verbose,guards,graph_breaks"}}),
    "dynamic_true": spec("dynamic_true.py"),
    "mark_dynamic": spec("mark_dynamic.py"),
    "backends": spec("backends.py"),
    "backend_raises": spec("backend_raises.py"),
    "compiler_disable": spec("compiler_disable.py"),
    "training_backward": spec("training_backward.py"),
    "guard_constant": spec("guard_constant.py"),
    "guard_dtype": spec("guard_dtype.py", variants=DYNAMO_DEBUG),
    "guard_requires_grad": spec("guard_requires_grad.py"),
    "guard_training_flag": spec("guard_training_flag.py"),
    "guard_global": spec("guard_global.py"),
    "guard_lab_probes": spec("guard_lab_probes.py"),
    "recompile_limit": spec("recompile_limit.py"),
    "reset_ids": spec("reset_ids.py"),
    "transformer_block": spec("transformer_block.py"),
    "warm_cache": spec("warm_cache.py", runs=2),
    "two_ranks_gloo": spec("two_ranks_gloo.py"),
    "example": spec("example.py", paste=True),
}

TRACE_NAME = re.compile(r"^(dedicated_log_torch_trace(?:_rank_\d+)?)_[a-z0-9_]{8}\.log$")


def trace_name(name):
    """dedicated_log_torch_trace_rank_0_ab12cd34.log -> dedicated_log_torch_trace_rank_0.log"""
    m = TRACE_NAME.match(name)
    return m.group(1) + ".log" if m else name


# Compiles programs/NAME.py, for the interpreter that runs it, into a .pyc whose code is named by
# the bare `NAME.py`; `python NAME.pyc` then runs it as __main__ with no launcher frame below it.
# Python makes a script given on the command line absolute, which put the recording machine's
# folders into every committed log; `python -c` with exec() left a `<string>:1` frame at the
# bottom of every stack, and runpy would add three. Python runs a .pyc's code as it is, so the
# stacks PyTorch logs end in the program's own frames, `example.py:12`, and __main__ still has a
# __file__ (the .pyc), which torch.multiprocessing's spawned children run again. One statement
# goes first (after a docstring and __future__ imports, on line 1, so no line moves): the resolved
# form of each sys.path entry goes to its end. PyTorch names a module in its log prefix relative
# to a sys.path entry after resolving the module's links, so a venv reached through a link would
# print absolute paths (spawned children inherit sys.path).
COMPILER = r"""
import ast, importlib.util, marshal, os, sys
src, dst = sys.argv[1:3]
name = os.path.basename(src)
with open(src, encoding="utf-8") as f:
    tree = ast.parse(f.read(), name)
prelude = ast.parse("__import__('sys').path.extend([r for r in map(__import__('os').path.realpath, "
                    "__import__('sys').path) if r not in __import__('sys').path])").body
at = 0
if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) \
        and isinstance(tree.body[0].value.value, str):
    at = 1
while at < len(tree.body) and isinstance(tree.body[at], ast.ImportFrom) \
        and tree.body[at].module == "__future__":
    at += 1
tree.body[at:at] = prelude
code = compile(tree, name, "exec", dont_inherit=True)
part = f"{dst}.{os.getpid()}"
with open(part, "wb") as f:
    f.write(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))
os.replace(part, dst)  # two scenarios may run one program at once
"""

# Where the compiled programs go (main() sets it): beside the programs when they run from the
# neutral copy (its folder is then sys.path[0], as it always was), else a folder of this run's;
# the programs folder also comes through PYTHONPATH, for their `import scenario_facts`.
LAUNCH_DIR = None


def launch_command(python, program):
    """The command that runs programs/<program> as __main__ under its bare name, so the file
    names in traces and logs read `example.py` and no launcher frame sits below the program's."""
    name = os.path.splitext(os.path.basename(program))[0]
    compiled = os.path.join(LAUNCH_DIR, name + ".pyc")
    subprocess.run([python, "-c", COMPILER, program, compiled], check=True)
    return [python, compiled]


NEUTRAL_PROGRAMS = "/tmp/dynascope-scenarios"


def neutral_programs():
    """For a recording to commit: the programs run from a copy in a fixed folder, so what
    PyTorch logs about the working folder (Inductor's config holds paths made from it) does not
    name the recording machine's checkout. scripts/run-pytorch-suite.sh --record-into also puts
    the venv at the fixed /tmp/torch-VERSION, for the paths of PyTorch's own files."""
    global PROGRAMS
    tmp = f"{NEUTRAL_PROGRAMS}.{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(PROGRAMS, tmp, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(NEUTRAL_PROGRAMS, ignore_errors=True)
    os.replace(tmp, NEUTRAL_PROGRAMS)
    PROGRAMS = NEUTRAL_PROGRAMS


def run_program(python, program, work, trace_dir, cache_dir, facts_path, env_extra, timeout,
                log, run=1, capture=None):
    """One run; its stdout and stderr go to `capture` (the TORCH_LOGS text) and to `log`."""
    env = dict(os.environ)
    env.update({
        "TORCH_TRACE": trace_dir,
        "TORCHINDUCTOR_CACHE_DIR": cache_dir,
        "TORCH_LOGS": TORCH_LOGS_DEFAULT,
        "DYNASCOPE_FACTS": facts_path,
        "DYNASCOPE_RUN": str(run),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join(filter(None, [PROGRAMS, os.environ.get("PYTHONPATH")])),
        # Two programs run at a time on two cores: one thread each keeps runs comparable.
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    })
    env.update(env_extra)
    capture = capture or os.path.join(work, f"output-{run}.txt")
    start = time.monotonic()
    with open(capture, "w") as out:
        try:
            rc = subprocess.run(launch_command(python, program), cwd=PROGRAMS, env=env,
                                stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write(f"\n(timed out after {timeout} s)\n")
            rc = "timeout"
    with open(log, "a") as out, open(capture) as text:
        out.write(f"$ TORCH_TRACE={trace_dir} TORCH_LOGS={env['TORCH_LOGS']} {python} "
                  f"{os.path.basename(program)}  (run {run})\n")
        shutil.copyfileobj(text, out)
    return rc, time.monotonic() - start


def collect(trace_dir, dest, compress):
    """Moves the trace files of one run into dest, renamed without their random suffix."""
    os.makedirs(dest, exist_ok=True)
    files = []
    for name in sorted(os.listdir(trace_dir)):
        src = os.path.join(trace_dir, name)
        if not os.path.isfile(src):
            continue
        target = os.path.join(dest, trace_name(name))
        if os.path.exists(target):
            raise RuntimeError(f"two trace files map to {target}")
        shutil.move(src, target)
        if compress:
            subprocess.run(["zstd", "-q", "-19", "--rm", target], check=True)
            target += ".zst"
        files.append(os.path.relpath(target, os.path.dirname(dest.rstrip("/"))))
    return files


def text_logs(capture, dest, compress):
    """Puts a run's TORCH_LOGS text (its merged stdout and stderr) beside its trace."""
    target = os.path.join(dest, TEXT_NAME)
    shutil.copyfile(capture, target)
    if compress:
        subprocess.run(["zstd", "-q", "-19", "--rm", "-f", target], check=True)
        target += ".zst"
    return os.path.relpath(target, os.path.dirname(dest.rstrip("/")))


PASTE_NAME = "terminal_paste.txt"
PASTE_COLUMNS = 120


def terminal_paste(text, columns=PASTE_COLUMNS):
    """A capture the way it arrives pasted from a terminal into a bug report, made from a real
    one by a fixed transformation (the parser's tests rely on each step):
      - the copy starts in the middle: everything before the second compile's first line
        (`[1/0]`) is gone, and so are the first 3 lines from there (a statement cut at its top);
      - the program's own lines (warnings, prints) stay;
      - every line longer than `columns` characters is hard-wrapped at `columns` (what copying
        from tmux, screen or a fixed-width CI log view does), and trailing spaces are trimmed;
      - the copy ends in the middle of the last statement: its last 2 lines are gone.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    start = next((i for i, l in enumerate(lines) if "] [1/0]" in l), 0) + 3
    lines = lines[start:len(lines) - 2]
    out = []
    for line in lines:
        line = line.rstrip(" ")
        while len(line) > columns:
            out.append(line[:columns])
            line = line[columns:]
        out.append(line)
    return "\n".join(out) + "\n"


def write_terminal_paste(capture, dest):
    with open(capture, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    target = os.path.join(dest, PASTE_NAME)
    with open(target, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(terminal_paste(text))
    return os.path.relpath(target, os.path.dirname(dest.rstrip("/")))


def record(name, s, args):
    program = os.path.join(PROGRAMS, s["program"])
    dest = os.path.join(args.out, name)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    log = os.path.join(args.out, "_output", name + ".txt")
    result = {"program": "programs/" + s["program"], "runs": []}
    with tempfile.TemporaryDirectory(prefix=f"dynascope-{name}-") as tmp:
        cache = os.path.join(tmp, "inductor-cache")  # shared by the runs of one scenario
        for run in range(1, s["runs"] + 1):
            trace = os.path.join(tmp, f"trace{run}")
            os.makedirs(trace)
            last = run == s["runs"]
            rdest = dest if last else os.path.join(dest, f"run{run}")
            facts = os.path.join(rdest, "facts.json")
            os.makedirs(os.path.dirname(facts), exist_ok=True)
            capture = os.path.join(tmp, f"output-{run}.txt")
            rc, secs = run_program(args.python, program, tmp, trace, cache, facts, s["env"],
                                   s["timeout"], log, run, capture)
            files = collect(trace, rdest, args.zstd)
            files.append(text_logs(capture, rdest, args.zstd))
            if last and s["paste"]:
                files.append(write_terminal_paste(capture, rdest))
            result["runs"].append({"run": run, "exit": rc, "seconds": round(secs, 1),
                                   "files": files})
            if rc != 0:
                break
        for variant, venv in s["variants"].items():
            vdest = os.path.join(dest, variant)
            trace = os.path.join(tmp, f"trace-{variant}")
            os.makedirs(trace)
            os.makedirs(vdest, exist_ok=True)
            capture = os.path.join(tmp, f"output-{variant}.txt")
            rc, secs = run_program(args.python, program, tmp, trace,
                                   os.path.join(tmp, f"cache-{variant}"),
                                   os.path.join(vdest, "facts.json"), {**s["env"], **venv},
                                   s["timeout"], log, capture=capture)
            files = collect(trace, vdest, args.zstd)
            files.append(text_logs(capture, vdest, args.zstd))
            result["runs"].append({"variant": variant, "exit": rc, "seconds": round(secs, 1),
                                   "files": files})
    result["ok"] = all(r["exit"] == 0 for r in result["runs"]) and len(
        [r for r in result["runs"] if "run" in r]) == s["runs"]
    return name, result


def torch_version(python):
    out = subprocess.run([python, "-c", "import torch, platform; print(torch.__version__); "
                          "print(platform.python_version())"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"run_suite: {python} cannot import torch:\n{out.stderr[-2000:]}")
    lines = out.stdout.split()
    return lines[0], lines[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="folder to record into (its scenario folders are replaced)")
    ap.add_argument("--python", default=sys.executable, help="interpreter with torch")
    ap.add_argument("--jobs", type=int, default=2, help="programs run at a time (default 2)")
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    ap.add_argument("--zstd", action="store_true", help="compress the traces with zstd -19")
    ap.add_argument("--list", action="store_true", help="print the scenario names and exit")
    ap.add_argument("--device", default="cpu",
                    help="device the programs run on (DYNASCOPE_SCENARIO_DEVICE; default cpu): "
                    "a cuda recording goes to recorded/torch-VERSION-cuda")
    ap.add_argument("--neutral-paths", action="store_true",
                    help=f"run the programs from a copy in {NEUTRAL_PROGRAMS} (neutral_programs)")
    args = ap.parse_args()
    if args.list:
        print("\n".join(SCENARIOS))
        return 0
    if not args.out:
        ap.error("--out is required")
    names = [n for n in args.only.split(",") if n] or list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        ap.error(f"unknown scenarios: {', '.join(unknown)} (see --list)")
    args.out = os.path.abspath(args.out)
    if args.device != "cpu":
        os.environ["DYNASCOPE_SCENARIO_DEVICE"] = args.device
    if os.sep in args.python:
        args.python = os.path.abspath(args.python)  # programs run in their own folders
    os.makedirs(os.path.join(args.out, "_output"), exist_ok=True)
    version, py = torch_version(args.python)
    if args.neutral_paths:
        neutral_programs()
    global LAUNCH_DIR
    with tempfile.TemporaryDirectory(prefix="dynascope-launch-") as launch:
        LAUNCH_DIR = PROGRAMS if args.neutral_paths else launch
        return record_all(args, names, version, py)


def record_all(args, names, version, py):
    start = time.monotonic()
    results = {}
    # Longest first keeps both job slots busy to the end.
    order = sorted(names, key=lambda n: -SCENARIOS[n]["runs"])
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, res in pool.map(lambda n: record(n, SCENARIOS[n], args), order):
            status = "ok" if res["ok"] else "FAILED"
            secs = sum(r["seconds"] for r in res["runs"])
            print(f"run_suite: {name}: {status} ({secs:.1f} s)", flush=True)
            results[name] = res
    manifest_path = os.path.join(args.out, "MANIFEST.json")
    manifest = {}
    if os.path.exists(manifest_path) and len(names) < len(SCENARIOS):
        with open(manifest_path) as f:
            manifest = json.load(f)
    manifest.update({
        "format": "dynascope-scenario-recording",
        "version": 1,
        "torch_version": version,
        "python": py,
        "platform": platform.platform(),
        "compressed": args.zstd,
        "torch_logs": TORCH_LOGS_DEFAULT,
    })
    if args.device != "cpu":
        manifest["device"] = args.device
    manifest.setdefault("scenarios", {}).update(results)
    manifest["scenarios"] = dict(sorted(manifest["scenarios"].items()))
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    failed = [n for n, r in results.items() if not r["ok"]]
    print(f"run_suite: {len(names) - len(failed)} of {len(names)} scenarios recorded with torch "
          f"{version} in {time.monotonic() - start:.0f} s into {args.out}")
    if failed:
        print(f"run_suite: failed: {', '.join(failed)} (output in {args.out}/_output/)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
