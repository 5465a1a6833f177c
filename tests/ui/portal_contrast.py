#!/usr/bin/env python3
"""High contrast asked for by the desktop through the XDG desktop portal (issue 33).

Runs in a private D-Bus session (dbus-run-session) a stand-in for the portal's
org.freedesktop.portal.Settings (what GNOME's and KDE's portals serve; Read answers a variant in
a variant, as they do), and the real `dynascope` on xcb under Xvfb as a GNOME session would
start it (XDG_CURRENT_DESKTOP=GNOME) with QT_LOGGING_RULES=dynascope.contrast.info=true, which
makes it say why it turned high contrast on. Each case sets what the portal answers and checks
what the app says:

- org.freedesktop.appearance contrast 1                 -> on, "the desktop portal's contrast"
- org.gnome.desktop.a11y.interface high-contrast true   -> on, "...a11y.interface high-contrast"
- org.gnome.desktop.interface gtk-theme HighContrastInverse -> on, dark
- contrast 0, high-contrast false, gtk-theme Adwaita    -> off
- no portal on the bus                                  -> off, and no wait past its timeout

    portal_contrast.py --app build/bin/dynascope --trace resources/examples/example.log

Exit 0 when every case holds, 1 naming the first that does not, 77 with "SKIP: why" when
Xvfb, dbus-run-session or python3-gi (Gio) is missing. Uses the system python3 (python3-gi).
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
PORTAL = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
XML = """<node><interface name='org.freedesktop.portal.Settings'>
<method name='Read'><arg type='s' direction='in'/><arg type='s' direction='in'/>
<arg type='v' direction='out'/></method></interface></node>"""

CASES = [
    ("portal contrast 1", {("org.freedesktop.appearance", "contrast"): ("u", 1)},
     "high contrast (light): the desktop portal's contrast setting"),
    ("GNOME high-contrast switch",
     {("org.freedesktop.appearance", "contrast"): ("u", 0),
      ("org.gnome.desktop.a11y.interface", "high-contrast"): ("b", True)},
     "high contrast (light): org.gnome.desktop.a11y.interface high-contrast"),
    ("GNOME HighContrastInverse theme",
     {("org.gnome.desktop.interface", "gtk-theme"): ("s", "HighContrastInverse")},
     "high contrast (dark): gtk-theme HighContrastInverse"),
    ("nothing asks",
     {("org.freedesktop.appearance", "contrast"): ("u", 0),
      ("org.gnome.desktop.a11y.interface", "high-contrast"): ("b", False),
      ("org.gnome.desktop.interface", "gtk-theme"): ("s", "Adwaita")},
     None),
    ("no portal", None, None),
]


def skip(reason):
    print(f"SKIP: {reason}", flush=True)
    sys.exit(SKIP)


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def outer(args):
    for tool, package in (("Xvfb", "xvfb"), ("dbus-run-session", "dbus")):
        if not shutil.which(tool):
            skip(f"{tool} not found (Debian package {package}; scripts/setup-deps.sh installs it)")
    try:
        import gi  # noqa: F401
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio  # noqa: F401
    except Exception as e:
        skip(f"python3-gi with Gio is needed ({type(e).__name__}: {e})")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DBUS_", "XDG_RUNTIME", "GTK_THEME", "DYNASCOPE_HIGH"))}
    cmd = ["dbus-run-session", "--", sys.executable, os.path.abspath(__file__), "--inner",
           "--app", args.app, "--trace", args.trace]
    proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    try:
        return proc.wait(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        fail(f"did not finish within {args.timeout} s")


class Portal:
    """The stand-in portal: owns org.freedesktop.portal.Desktop and answers Settings.Read from
    `values`, NotFound for the rest, on its own GLib main loop thread."""

    def __init__(self):
        from gi.repository import Gio, GLib
        self.Gio, self.GLib = Gio, GLib
        self.values = {}
        self.node = Gio.DBusNodeInfo.new_for_xml(XML)
        self.loop = GLib.MainLoop()
        self.conn = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.registration = None
        threading.Thread(target=self.loop.run, daemon=True).start()

    def handle(self, conn, sender, path, iface, method, params, invocation):
        space, key = params.unpack()
        value = self.values.get((space, key))
        if value is None:
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound",
                                         f"{space} {key} not found")
            return
        inner = self.GLib.Variant(value[0], value[1])
        invocation.return_value(self.GLib.Variant("(v)", (self.GLib.Variant("v", inner),)))

    def serve(self, values):
        self.values = values
        if self.registration is None:
            self.registration = self.conn.register_object(
                PATH, self.node.interfaces[0], self.handle, None, None)
            reply = self.conn.call_sync(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "RequestName", self.GLib.Variant("(su)", (PORTAL, 4)), None,
                self.Gio.DBusCallFlags.NONE, 5000, None)
            if reply.unpack()[0] != 1:
                fail(f"could not own {PORTAL}")

    def stop(self):
        if self.registration is not None:
            self.conn.unregister_object(self.registration)
            self.conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                "org.freedesktop.DBus", "ReleaseName",
                                self.GLib.Variant("(s)", (PORTAL,)), None,
                                self.Gio.DBusCallFlags.NONE, 5000, None)
            self.registration = None


def start_xvfb():
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "800x600x24",
                             "-nolisten", "tcp"], pass_fds=(w,), stderr=subprocess.DEVNULL,
                            start_new_session=True)
    os.close(w)
    number = b""
    deadline = time.monotonic() + 20
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        chunk = os.read(r, 16)
        if not chunk:
            break
        number += chunk
    os.close(r)
    if not number.strip():
        xvfb.kill()
        fail("Xvfb did not start")
    return xvfb, ":" + number.decode().strip()


def inner(args):
    portal = Portal()
    xvfb, display = start_xvfb()
    shot = os.path.join(tempfile.mkdtemp(prefix="portal-contrast-"), "shot.png")
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", DISPLAY=display, XDG_CURRENT_DESKTOP="GNOME",
               QT_LOGGING_RULES="dynascope.contrast.info=true")
    try:
        for name, values, expected in CASES:
            if values is None:
                portal.stop()
            else:
                portal.serve(values)
            start = time.monotonic()
            run = subprocess.run([args.app, "--size", "400x300", "--screenshot", shot, args.trace],
                                 env=env, capture_output=True, text=True, timeout=60)
            took = time.monotonic() - start
            said = [line for line in run.stderr.splitlines() if "high contrast" in line]
            print(f"portal_contrast: {name}: {said or 'normal colours'} ({took:.1f} s)",
                  flush=True)
            if run.returncode != 0:
                fail(f"{name}: dynascope exited {run.returncode}: {run.stderr[-500:]}")
            if expected is None and said:
                fail(f"{name}: high contrast came on: {said}")
            if expected is not None and not any(expected in line for line in said):
                fail(f"{name}: expected '{expected}', the app said {said or 'nothing'}")
    finally:
        portal.stop()
        os.killpg(xvfb.pid, signal.SIGTERM)
        xvfb.wait()
    print("portal_contrast: every case holds", flush=True)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--trace", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--inner", action="store_true")
    args = parser.parse_args()
    sys.exit(inner(args) if args.inner else outer(args))


if __name__ == "__main__":
    main()
