#!/usr/bin/env python3
"""The window as a screen reader sees it, through the real AT-SPI stack (issue 33).

Starts Xvfb and a private D-Bus session (dbus-run-session), in which the accessibility bus
(at-spi-bus-launcher, D-Bus activated) runs, starts the real `dynascope` on the bundled example
with `--select [3/1]` on the xcb platform with Qt's AT-SPI bridge on
(QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1), reads the application's accessible tree with pyatspi
(Debian's python3-pyatspi, so the system python3) and checks that it holds the named docks, the
inspector's tabs, the Findings table and the timeline's lanes and compile spans with their names
(ui/timeline/timelineaccessible.cpp) and [3/1] selected. Then it presses Ctrl+1 and Ctrl+Left
through the AT-SPI registry (XTest), listening on the bus as a screen reader does: the timeline
takes the focus, and the compile before [3/1], [3/0], is announced focused and ends focused and
selected.

    atspi_tree.py --app build/bin/dynascope --trace resources/examples/example.log [--timeout S]
                  [--dump FILE]

Exit status 0 when the tree holds all of it, 1 naming what is missing (and the tree, in
--dump FILE or on stdout), 77 with "SKIP: why" when Xvfb, dbus-run-session, the AT-SPI bus or
pyatspi is missing (CTest's SKIP_RETURN_CODE). Every process it starts runs in its own process
group and is ended before it returns; it fails if one is left.
"""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
SYSTEM_PYTHON = "/usr/bin/python3"

# The bundled example (resources/examples/example.log): one lane per frame, one span per compile,
# named as TimelineItem::text() names them.
EXPECTED_LANES = [
    "forward example.py:24, 1 compile",
    "step example.py:29, 1 compile",
    "torch_dynamo_resume_in_step_at_31 example.py:31, 1 compile",
    "scale example.py:36, 2 compiles",
    "export_step example.py:44, 1 compile",
]
EXPECTED_SPANS = [
    "[0/0] forward ✓ ok",
    "[1/0] step ⚡ graph break",
    "[2/0] torch_dynamo_resume_in_step_at_31 ✓ ok",
    "[3/0] scale ✓ ok",
    "[3/1] scale ↻ recompile ok",
    "[4/0] export_step ✕ error",
]
SELECTED_SPAN = "[3/1] scale ↻ recompile ok"
DOCKS = ["Compiles", "Findings", "Diagnostics", "Stack trie"]
TABS = ["Summary", "Why", "Guards", "Source", "Artifacts", "Kernels", "Raw"]


def skip(reason):
    print(f"SKIP: {reason}", flush=True)
    sys.exit(SKIP)


def log(message):
    print(f"atspi_tree: {message}", flush=True)


# ---------------------------------------------------------------------------------------------
# Outside the D-Bus session: prerequisites, Xvfb, dbus-run-session, and the clean-up.


def ensure_pyatspi():
    """pyatspi is a Debian package of the system python3: run under it when this one lacks it."""
    try:
        import pyatspi  # noqa: F401

        return
    except Exception as e:  # ImportError, or gi's ValueError for a missing typelib
        why = f"{type(e).__name__}: {e}"
    here = os.path.realpath(sys.executable)
    if os.path.exists(SYSTEM_PYTHON) and os.path.realpath(SYSTEM_PYTHON) != here:
        probe = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True)
        if probe.returncode == 0:
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    skip(f"pyatspi cannot be imported ({why}); install python3-pyatspi gir1.2-atspi-2.0 "
         "(scripts/setup-deps.sh)")


def a11y_bus_service():
    """The D-Bus service file that starts at-spi-bus-launcher on request (at-spi2-core)."""
    dirs = os.environ.get("XDG_DATA_DIRS", "/usr/local/share:/usr/share").split(":")
    for d in dirs + ["/usr/share"]:
        path = os.path.join(d, "dbus-1", "services", "org.a11y.Bus.service")
        if os.path.exists(path):
            return path
    return None


def check_prerequisites(args):
    for tool, package in (("Xvfb", "xvfb"), ("dbus-run-session", "dbus")):
        if not shutil.which(tool):
            skip(f"{tool} not found; install {package} (scripts/setup-deps.sh)")
    if not a11y_bus_service():
        skip("the AT-SPI bus (org.a11y.Bus.service) is not installed; install at-spi2-core "
             "(scripts/setup-deps.sh)")
    ensure_pyatspi()
    if not os.access(args.app, os.X_OK):
        print(f"FAIL: no program {args.app}", flush=True)
        sys.exit(1)
    if not os.path.exists(args.trace):
        print(f"FAIL: no trace {args.trace}", flush=True)
        sys.exit(1)


def start_xvfb():
    """Xvfb on a free display (it writes the number it took to -displayfd)."""
    r, w = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24", "-nolisten", "tcp",
         "-noreset"],
        pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True)
    os.close(w)
    display = b""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not display.endswith(b"\n"):
        ready, _, _ = select.select([r], [], [], 0.5)
        if ready:
            chunk = os.read(r, 64)
            if not chunk:
                break
            display += chunk
    os.close(r)
    if not display.strip().isdigit():
        stop_group(xvfb)
        err = xvfb.stderr.read().decode(errors="replace")[-2000:] if xvfb.stderr else ""
        print(f"FAIL: Xvfb did not start: {err}", flush=True)
        sys.exit(1)
    return xvfb, ":" + display.decode().strip()


def stop_group(proc, grace=3.0):
    """Ends the process group `proc` leads (started with start_new_session): TERM, then KILL."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and group_members(proc.pid):
        time.sleep(0.1)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def group_members(pgid):
    """The live (not zombie) processes of process group `pgid`, as 'pid name'."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after the last ')'.
        name = stat[stat.find("(") + 1 : stat.rfind(")")]
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            out.append(f"{entry} {name}")
    return out


def outer(args):
    check_prerequisites(args)
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="dynascope-atspi-")
    os.chmod(work, 0o700)
    xvfb, display = start_xvfb()
    session = None
    rc = 1
    try:
        env = dict(os.environ)
        for k in ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY",
                  "QT_QPA_PLATFORM", "QT_SCALE_FACTOR"):
            env.pop(k, None)
        env.update({"DISPLAY": display, "XDG_RUNTIME_DIR": work, "HOME": work,
                    "XDG_CONFIG_HOME": os.path.join(work, "config"),
                    "XDG_CACHE_HOME": os.path.join(work, "cache"), "NO_AT_BRIDGE": "0"})
        inner_argv = [sys.executable, os.path.abspath(__file__), "--inner", "--app", args.app,
                      "--trace", args.trace, "--timeout", str(args.timeout)]
        if args.dump:
            inner_argv += ["--dump", args.dump]
        session = subprocess.Popen(["dbus-run-session", "--"] + inner_argv, env=env,
                                   start_new_session=True)
        try:
            rc = session.wait(timeout=args.timeout + 30)
        except subprocess.TimeoutExpired:
            print(f"FAIL: timed out after {args.timeout + 30} s", flush=True)
            rc = 1
    finally:
        left = []
        for proc in (session, xvfb):
            if proc is None:
                continue
            before = group_members(proc.pid)
            stop_group(proc)
            after = group_members(proc.pid)
            if before:
                log(f"stopped: {', '.join(before)}")
            left += after
        shutil.rmtree(work, ignore_errors=True)
    if left:
        print(f"FAIL: processes left behind: {', '.join(left)}", flush=True)
        rc = 1
    log(f"{'passed' if rc == 0 else 'failed'} in {time.monotonic() - started:.1f} s")
    return rc


# ---------------------------------------------------------------------------------------------
# Inside the D-Bus session: the app and its tree.


class Node:
    __slots__ = ("role", "name", "description", "states", "children", "depth")

    def __init__(self, role, name, description, states, depth):
        self.role, self.name, self.description = role, name, description
        self.states, self.children, self.depth = states, [], depth

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


def read_tree(pyatspi, acc, depth=0, budget=None):
    """A snapshot of the accessible `acc` and its children (at most 30 deep, 20000 nodes)."""
    budget = budget if budget is not None else [20000]
    budget[0] -= 1
    try:
        states = acc.getState()
        node = Node(acc.getRoleName(), acc.name or "", acc.description or "",
                    {pyatspi.stateToString(s) for s in states.getStates()}, depth)
        count = acc.childCount
    except Exception as e:  # an object gone while being read: the next snapshot reads it again
        return Node("gone", f"{type(e).__name__}", "", set(), depth)
    if depth < 30:
        for i in range(count):
            if budget[0] <= 0:
                break
            try:
                child = acc.getChildAtIndex(i)
            except Exception:
                child = None
            if child is not None:
                node.children.append(read_tree(pyatspi, child, depth + 1, budget))
    return node


def dump(root):
    lines = []
    for n in root.walk():
        states = ",".join(sorted(s for s in n.states if s in ("selected", "focused", "showing")))
        desc = f"  «{n.description}»" if n.description else ""
        lines.append(f"{'  ' * n.depth}{n.role}: {n.name!r}{desc} [{states}]")
    return "\n".join(lines)


def check(root):
    """What the tree lacks, as sentences; empty when it holds all of it."""
    missing = []
    nodes = list(root.walk())
    if not any(n.role == "frame" and n.name.endswith("— Dynascope") for n in nodes):
        missing.append("the main window (a frame named '… — Dynascope')")

    # Docks: a dock widget is a frame named by its title (Findings adds its counts).
    for dock in DOCKS:
        if not any(n.role == "frame" and (n.name == dock or n.name.startswith(dock + " ("))
                   for n in nodes):
            missing.append(f"the dock '{dock}'")

    for tab in TABS:
        if not any(n.role == "page tab" and n.name == tab for n in nodes):
            missing.append(f"the inspector tab '{tab}'")
    if not any(n.name == "Why this compile recompiled" for n in nodes):
        missing.append("the Why text 'Why this compile recompiled'")

    findings = [n for n in nodes if n.role in ("table", "tree", "tree table")
                and n.name.startswith("Findings")]
    if not findings:
        missing.append("the Findings table (a table or tree named 'Findings…')")
    elif not any(c.role == "table cell" and "export_step" in c.name
                 for f in findings for c in f.walk()):
        missing.append("the Findings table's cells (none names export_step)")

    timelines = [n for n in nodes if n.name == "Timeline" and n.role != "page tab"]
    if not timelines:
        missing.append("the timeline (an object named 'Timeline')")
        return missing
    tl = max(timelines, key=lambda n: len(list(n.walk())))
    lanes = [c for c in tl.children if c.role == "list"]
    lane_names = [lane.name for lane in lanes]
    for want in EXPECTED_LANES:
        if want not in lane_names:
            missing.append(f"the timeline lane '{want}' (lanes: {lane_names})")
    spans = {s.name: s for lane in lanes for s in lane.children if s.role == "list item"}
    for want in EXPECTED_SPANS:
        if want not in spans:
            missing.append(f"the compile span '{want}' (spans: {sorted(spans)})")
        elif not spans[want].description.startswith("took "):
            missing.append(f"the description of '{want}' ('took …', got "
                           f"'{spans[want].description}')")
    if SELECTED_SPAN in spans and "selected" not in spans[SELECTED_SPAN].states:
        missing.append(f"'{SELECTED_SPAN}' selected (states: {sorted(spans[SELECTED_SPAN].states)})")
    return missing


def find_live(pyatspi, acc, predicate, depth=0):
    """The first live accessible under `acc` (depth first, at most 30 deep) that `predicate`
    takes."""
    try:
        if predicate(acc):
            return acc
        count = acc.childCount
    except Exception:
        return None
    if depth >= 30:
        return None
    for i in range(count):
        try:
            child = acc.getChildAtIndex(i)
        except Exception:
            continue
        if child is not None:
            found = find_live(pyatspi, child, predicate, depth + 1)
            if found is not None:
                return found
    return None


def keyboard_announces(pyatspi, app_acc, timeout):
    """Press Ctrl+1 (the timeline takes the focus) and Ctrl+Left as a keyboard would (the
    registry's generateKeyboardEvent, XTest under Xvfb) and listen on the bus as a screen
    reader does: the compile before [3/1] in its lane, [3/0], must be announced focused, and
    be focused and selected. Returns what is missing, as sentences."""
    from gi.repository import GLib

    timeline = find_live(pyatspi, app_acc, lambda a: a.name == "Timeline"
                         and a.getRoleName() != "page tab" and a.childCount > 0)
    if timeline is None:
        return ["the live timeline object, to focus"]
    heard = []

    def on_event(event):
        try:
            heard.append((event.type, event.source.name or "", event.detail1))
        except Exception:
            pass

    kinds = ("object:state-changed:focused", "object:state-changed:selected",
             "object:selection-changed", "object:active-descendant-changed", "focus:")
    pyatspi.Registry.registerEventListener(on_event, *kinds)
    context = GLib.MainContext.default()

    def pump(seconds, until=lambda: False):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until():
            while context.iteration(False):
                pass
            time.sleep(0.02)

    try:
        # X keycodes of Xvfb's default (evdev, us) keymap.
        control, one, left = 37, 10, 113

        def press(*keys):
            for k in keys[:-1]:
                pyatspi.Registry.generateKeyboardEvent(k, None, pyatspi.KEY_PRESS)
            pyatspi.Registry.generateKeyboardEvent(keys[-1], None, pyatspi.KEY_PRESSRELEASE)
            for k in reversed(keys[:-1]):
                pyatspi.Registry.generateKeyboardEvent(k, None, pyatspi.KEY_RELEASE)

        # The app activates its window itself (no window manager runs under Xvfb).
        window = find_live(pyatspi, app_acc, lambda a: a.getRoleName() == "frame"
                           and (a.name or "").endswith("— Dynascope"))
        pump(timeout, lambda: window is not None and "active" in {
            pyatspi.stateToString(x) for x in window.getState().getStates()})
        heard.clear()
        press(control, one)  # Ctrl+1: the timeline takes the focus
        pump(timeout, lambda: any(t.startswith("object:state-changed:focused") and d == 1
                                  and n in ("Timeline", SELECTED_SPAN) for t, n, d in heard))
        log("heard after Ctrl+1: " + "; ".join(f"{t} {n!r} {d}" for t, n, d in heard[:8]))
        heard.clear()
        press(control, left)  # Ctrl+Left: the compile before [3/1] in its lane
        want = "[3/0] scale ✓ ok"

        def announced():
            return any(t.startswith("object:state-changed:focused") and n == want and d == 1
                       for t, n, d in heard)

        pump(timeout, announced)
    finally:
        pyatspi.Registry.deregisterEventListener(on_event, *kinds)
    log("heard after Ctrl+Left: " + "; ".join(f"{t} {n!r} {d}" for t, n, d in heard[:12]))
    missing = []
    if not announced():
        missing.append(f"'{want}' announced as focused after Ctrl+Left on the timeline")
    span = find_live(pyatspi, timeline, lambda a: a.name == want)
    try:
        states = {pyatspi.stateToString(s) for s in span.getState().getStates()} if span else set()
    except Exception:
        states = set()
    for state in ("focused", "selected"):
        if state not in states:
            missing.append(f"'{want}' {state} after Ctrl+Left (states: {sorted(states)})")
    return missing


def inner(args):
    import pyatspi

    desktop = pyatspi.Registry.getDesktop(0)
    # Asking for the desktop activates the accessibility bus (org.a11y.Bus) before the app
    # starts, so Qt's bridge finds it at once.
    log(f"accessibility bus up, {desktop.childCount} application(s) on it")
    env = dict(os.environ)
    env.update({"QT_QPA_PLATFORM": "xcb", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
                "QT_ACCESSIBILITY": "1"})
    app = subprocess.Popen([args.app, "--size", "1400x900", "--select", "[3/1]", args.trace],
                           env=env)
    started = time.monotonic()
    deadline = started + args.timeout
    missing = ["the application 'Dynascope' on the accessibility bus"]
    root = None
    try:
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if app.poll() is not None:
                print(f"FAIL: dynascope exited with status {app.returncode}", flush=True)
                return 1
            acc = None
            for i in range(desktop.childCount):
                try:
                    a = desktop.getChildAtIndex(i)
                    if a is not None and a.get_process_id() == app.pid:
                        acc = a
                except Exception:
                    continue
            if acc is None:
                continue
            root = read_tree(pyatspi, acc)
            missing = check(root)
            if not missing:
                missing = keyboard_announces(pyatspi, acc, 10)
                break
    finally:
        app.terminate()
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
    text = dump(root) if root is not None else "(no tree)"
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    took = time.monotonic() - started
    if missing:
        print("FAIL: the accessible tree lacks:", flush=True)
        for m in missing:
            print(f"  - {m}", flush=True)
        if args.dump:
            print(f"the tree as read: {args.dump}", flush=True)
        else:
            print(text, flush=True)
        return 1
    nodes = list(root.walk())
    log(f"tree read after {took:.1f} s: {len(nodes)} objects; {len(DOCKS)} docks, "
        f"{len(TABS)} inspector tabs, the Findings table, {len(EXPECTED_LANES)} lanes and "
        f"{len(EXPECTED_SPANS)} compile spans named, {SELECTED_SPAN} selected")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--app", required=True)
    p.add_argument("--trace", required=True)
    p.add_argument("--timeout", type=float, default=60, help="seconds to wait for the tree")
    p.add_argument("--dump", help="write the accessible tree read to this file")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    args.app = os.path.abspath(args.app)
    args.trace = os.path.abspath(args.trace)
    if args.dump:
        args.dump = os.path.abspath(args.dump)
    sys.exit(inner(args) if args.inner else outer(args))


if __name__ == "__main__":
    main()
