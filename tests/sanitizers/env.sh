# Sanitizer options for the `asan` build's test run (scripts/run-tests.sh --preset asan sources
# this; by hand: `source tests/sanitizers/env.sh build-asan` before `ctest --preset asan`).
#   ASan: stop at the first error; LeakSanitizer on, with lsan.supp for leaks in system
#   libraries that are not ours (see there).
#   UBSan: stack traces; the build already makes every UB check fatal (-fno-sanitize-recover).
# LeakSanitizer stops the process's threads through ptrace. Where a sandbox forbids that (some
# containers and CI runners), every test would end with "LeakSanitizer has encountered a fatal
# error"; the probe below runs one test binary and turns leak checking off there, saying so.
sanitizers_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$sanitizers_dir/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
probe="${1:-build-asan}/bin/tst_compileid"
if [ -x "$probe" ]; then
  if ! probe_out=$("$probe" 2>&1) && grep -q "LeakSanitizer has encountered a fatal error" <<<"$probe_out"; then
    echo "sanitizers: LeakSanitizer cannot run here (ptrace is not allowed); leak checks are off," \
         "ASan and UBSan stay on" >&2
    export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
  fi
fi
