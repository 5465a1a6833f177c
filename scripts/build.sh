#!/usr/bin/env bash
# Configures and builds Dynascope into build/ (preset "dev", or "ci" when CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=dev
[ "${CI:-}" = "true" ] && preset=ci
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
