#!/usr/bin/env bash
# The libtorch whose c10 computes the guard lab's tensor model (docs/architecture.md, "The guard
# lab's tensor model"). Prints the CMake prefix path to build with, or nothing where CMake's own
# search finds one (Debian's libtorch-dev) or there is none; what it chose goes to stderr.
#
#   bash scripts/libtorch.sh            looks only
#   bash scripts/libtorch.sh --setup    makes sure there is one: the torch wheel the live stage
#                                       installs (build/pytorch-venv-VERSION, made from a local
#                                       wheel), else Debian's libtorch-dev
#
# In order: DYNASCOPE_LIBTORCH=OFF (none); DYNASCOPE_LIBTORCH_PREFIX (that path); the wheel in
# build/pytorch-venv-$DYNASCOPE_LIBTORCH_TORCH (2.13.0 by default), the PyTorch users run; Debian's
# libtorch-dev (1.13.1 on Debian 12), the fallback.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=""
[ "${1:-}" = "--setup" ] && setup=1
say() { echo "libtorch: $*" >&2; }
if [ "${DYNASCOPE_LIBTORCH:-}" = OFF ]; then
  say "none (DYNASCOPE_LIBTORCH=OFF): the guard lab compares device types only"
  exit 0
fi
if [ -n "${DYNASCOPE_LIBTORCH_PREFIX:-}" ]; then
  say "$DYNASCOPE_LIBTORCH_PREFIX (DYNASCOPE_LIBTORCH_PREFIX)"
  echo "$DYNASCOPE_LIBTORCH_PREFIX"
  exit 0
fi
version=${DYNASCOPE_LIBTORCH_TORCH:-2.13.0}
venv=build/pytorch-venv-$version
wheel_prefix() {
  local c
  for c in "$venv"/lib/python3*/site-packages/torch/share/cmake; do
    [ -f "$c/Torch/TorchConfig.cmake" ] && { realpath "$c"; return 0; }
  done
  return 1
}
debian() { compgen -G "/usr/lib/*/cmake/Torch/TorchConfig.cmake" >/dev/null; }

if prefix=$(wheel_prefix); then
  say "the torch $version wheel in $venv"
  echo "$prefix"
  exit 0
fi
if debian; then
  say "Debian's libtorch-dev ($(dpkg-query -W -f='${Version}' libtorch-dev 2>/dev/null || echo '?'))"
  exit 0
fi
if [ -z "$setup" ]; then
  say "none found (scripts/libtorch.sh --setup makes one): the guard lab compares device types only"
  exit 0
fi
bash scripts/setup-deps.sh --pytorch >&2
if bash scripts/torch-venv.sh "$version" "$venv" >&2 && prefix=$(wheel_prefix); then
  say "the torch $version wheel in $venv"
  echo "$prefix"
  exit 0
fi
say "no local torch wheel: installing Debian's libtorch-dev"
bash scripts/setup-deps.sh --libtorch >&2
debian && say "Debian's libtorch-dev" || say "none: the guard lab compares device types only"
