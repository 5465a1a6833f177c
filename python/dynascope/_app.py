"""The bundled dynascope-cli, the bundled example, and the desktop app when it is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Union

_HERE = Path(__file__).parent

APP_HELP = (
    "The Dynascope desktop app is not installed (it is not part of the Python package). "
    "Install its .deb (Debian 12: sudo apt install ./dynascope_*.deb), or build it from source "
    "(README: 'Two commands'); then dynascope.open_app() finds `dynascope` on the PATH, or "
    "set DYNASCOPE_APP to its path."
)


def cli_path() -> str:
    """The path of the dynascope-cli binary that came with this package."""
    return str(_HERE / "bin" / "dynascope-cli")


def example_path() -> str:
    """The bundled example trace (a small program with a recompile and a graph break)."""
    return str(_HERE / "examples" / "example.log")


def app_path() -> Union[str, None]:
    """The desktop app's path ($DYNASCOPE_APP, else `dynascope` on the PATH), or None."""
    given = os.environ.get("DYNASCOPE_APP")
    if given:
        return given if os.access(given, os.X_OK) else None
    return shutil.which("dynascope")


def open_app(*paths: Union[str, "os.PathLike[str]"]) -> "subprocess.Popen[bytes]":
    """Start the Dynascope desktop app on the given traces and return its process.

    Raises FileNotFoundError, saying how to get the app, when it is not installed.
    """
    app = app_path()
    if app is None:
        raise FileNotFoundError(APP_HELP)
    return subprocess.Popen([app, *[os.fspath(p) for p in paths]])
