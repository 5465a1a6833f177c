#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/build.sh
preset=dev
[ "${CI:-}" = "true" ] && preset=ci
ctest --preset "$preset" -j "$(nproc)" "$@"
