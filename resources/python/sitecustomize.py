"""Dynascope's probe hook: `dynascope-cli probe` puts this folder first on PYTHONPATH, so every
Python process the probed command starts imports this module at start-up (Python's `site`
imports the first `sitecustomize` on the path). With DYNASCOPE_PROBE_CONFIG set it installs
dynascope_probe, which waits for `import torch` and then wraps torch.compile; without it, it
does nothing. Either way it then runs the `sitecustomize` it shadows (the next one on the path,
if any), so a distribution's or a virtual environment's own start-up code still runs.

Only the standard library is used here; nothing is imported from the program or its trace.
"""

import os
import sys


def _install_probe():
    if not os.environ.get("DYNASCOPE_PROBE_CONFIG"):
        return
    try:
        import dynascope_probe

        dynascope_probe.install()
    except Exception as e:  # never break the program because of the probe
        sys.stderr.write(f"dynascope probe: not installed: {type(e).__name__}: {e}\n")


def _chain_shadowed():
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util

    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None or not spec.origin:
        return
    if os.path.dirname(os.path.abspath(spec.origin)) == here:
        return
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        sys.stderr.write(f"dynascope probe: {spec.origin}: {type(e).__name__}: {e}\n")


_install_probe()
_chain_shadowed()
