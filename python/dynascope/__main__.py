"""python -m dynascope: the fleet commands, and every dynascope-cli command.

    python -m dynascope fleet 'jobs/*/trace' [--scheduler tcp://HOST:8786 | --local N] -o fleet.parquet
    python -m dynascope fleet-compare A.parquet B.parquet
    python -m dynascope summary|diagnose|report|diff|export|record|probe ...   (dynascope-cli)
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("fleet", "fleet-compare"):
        from dynascope.fleet import cli_main

        return cli_main(argv)
    from dynascope._cli import main as cli

    sys.argv = ["dynascope-cli", *argv]
    cli()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
