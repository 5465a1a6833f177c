"""The `dynascope-cli` command the package installs: runs the bundled binary."""

from __future__ import annotations

import os
import sys

from dynascope._app import cli_path


def main() -> None:
    path = cli_path()
    try:
        os.execv(path, [path, *sys.argv[1:]])
    except OSError as e:
        sys.exit(f"dynascope-cli: cannot run {path}: {e}")


if __name__ == "__main__":
    main()
