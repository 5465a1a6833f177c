#!/usr/bin/env bash
# Configures and builds Dynascope into build/ (preset "dev", or "ci" when CI=true), with the
# libtorch scripts/libtorch.sh finds (DYNASCOPE_LIBTORCH=OFF: none).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=dev
[ "${CI:-}" = "true" ] && preset=ci
# The guard lab's tensor model uses libtorch's c10 where scripts/libtorch.sh finds one.
args=()
if [ "${DYNASCOPE_LIBTORCH:-}" = OFF ]; then
  args+=(-DDYNASCOPE_LIBTORCH=OFF)
else
  prefix=$(bash scripts/libtorch.sh)
  [ -n "$prefix" ] && args+=("-DCMAKE_PREFIX_PATH=$prefix")
fi
cmake --preset "$preset" "${args[@]}" | { grep -E '^-- Guard lab tensor model' || true; }
cmake --build --preset "$preset" -j "$(nproc)"
