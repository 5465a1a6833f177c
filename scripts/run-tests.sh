#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite through ctest.
#
#   bash scripts/run-tests.sh [--preset dev|ci|asan|fuzz] [CTEST ARGS...]
#
# Without --preset: preset dev (ci when CI=true), built by scripts/build.sh into build/ with a
# libtorch for the guard lab's tensor model (scripts/libtorch.sh --setup); then the
# Python package's tests (scripts/run-python-tests.sh: pip install ., the repaired wheel, pytest;
# DYNASCOPE_SKIP_PYTHON=1 leaves them out), run whether or not ctest passed.
# --preset asan: the whole suite built with AddressSanitizer + UndefinedBehaviorSanitizer (g++,
#   build-asan/), run with the options and suppressions of tests/sanitizers/.
# --preset fuzz: the libFuzzer target (clang, build-fuzz/) and its bounded CTest run (label fuzz);
#   builds only what that run needs.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=""
if [ "${1:-}" = "--preset" ]; then
  preset=${2:?--preset needs a name}
  shift 2
fi
if [ "$preset" = fuzz ]; then
  bash scripts/setup-deps.sh --fuzz
else
  bash scripts/setup-deps.sh
fi
jobs=$(nproc)

case "$preset" in
  "")
    # The guard lab's tensor model links libtorch's c10: the torch wheel the live stage uses
    # (its venv, made here from a local wheel), else Debian's libtorch-dev.
    bash scripts/libtorch.sh --setup >/dev/null
    bash scripts/build.sh
    preset=dev
    [ "${CI:-}" = "true" ] && preset=ci
    rc=0
    ctest --preset "$preset" -j "$jobs" "$@" || rc=$?
    if [ "${DYNASCOPE_SKIP_PYTHON:-}" != 1 ]; then
      bash scripts/run-python-tests.sh || rc=1
    fi
    exit $rc
    ;;
  asan)
    cmake --preset asan >/dev/null
    cmake --build --preset asan -j "$jobs"
    # shellcheck source=../tests/sanitizers/env.sh
    source tests/sanitizers/env.sh build-asan
    ctest --preset asan -j "$jobs" "$@"
    ;;
  fuzz)
    cmake --preset fuzz >/dev/null
    cmake --build --preset fuzz -j "$jobs" --target fuzz_loader fuzz_guards fuzz_replay dynascope-fixtures
    ctest --preset fuzz -L fuzz "$@"
    ;;
  *)
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    ctest --preset "$preset" -j "$jobs" "$@"
    ;;
esac
