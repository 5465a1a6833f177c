#!/usr/bin/env bash
# Makes (or reuses) a virtual environment with a real PyTorch, from a wheel already on this
# machine: `pip install --no-index --no-deps torch==VERSION` (pip's find-links, /opt/wheels here),
# then its small dependencies and tlparse 0.4.3 from the package index. It never downloads a
# multi-GB build. Used by the live PyTorch stage (scripts/run-pytorch-suite.sh) and by
# scripts/libtorch.sh, whose tensor model links the c10 of the same wheel.
#
#   bash scripts/torch-venv.sh VERSION VENV
#
# Exit 0: VENV has torch VERSION. Exit 3: no local wheel of torch VERSION (the reason on stdout).
# Needs python3-venv (scripts/setup-deps.sh --pytorch).
set -euo pipefail
version=${1:?usage: torch-venv.sh VERSION VENV}
venv=${2:?usage: torch-venv.sh VERSION VENV}
py=$venv/bin/python
if ! "$py" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$version')" 2>/dev/null; then
  echo "torch-venv: making $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$py" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  # torch itself only from a local file: --no-index never reaches a package index.
  log=$(mktemp)
  if ! "$py" -m pip install -q --no-index --no-deps "torch==$version" 2>"$log"; then
    tail -n 3 "$log" | sed 's/^/  pip: /'
    rm -f "$log"
    rm -rf "$venv"
    echo "no local wheel of torch==$version on this machine (pip's find-links has none), and this does not download a multi-GB build"
    exit 3
  fi
  rm -f "$log"
  "$py" -m pip install -q "torch==$version"  # its dependencies (sympy, networkx, ...): small
fi
if ! "$venv/bin/tlparse" --version 2>/dev/null | grep -q '0\.4\.3'; then
  "$py" -m pip install -q tlparse==0.4.3
fi
