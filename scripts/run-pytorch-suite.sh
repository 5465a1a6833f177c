#!/usr/bin/env bash
# The live PyTorch stage: records the scenario suite (tests/scenarios) with a real PyTorch and
# runs the same assertions as the committed logs get, plus the side-by-side comparison with
# tlparse and the TORCH_LOGS text of each run against its trace, on the fresh logs; then
# dynascope-cli record and probe of real programs.
#
#   bash scripts/run-pytorch-suite.sh [--torch VERSION] [--keep DIR] [--record-into DIR]
#
#   --torch VERSION    PyTorch release to record with (default 2.13.0)
#   --keep DIR         record into DIR and keep it (default: a temporary folder, removed after)
#   --record-into DIR  only record (zstd-compressed, the committed layout) into DIR: how
#                      tests/scenarios/recorded/torch-VERSION is made; no tests
#
# The venv is build/pytorch-venv-VERSION (/tmp/torch-VERSION for --record-into), made once and
# reused (DYNASCOPE_TORCH_VENV overrides the path) by scripts/torch-venv.sh: torch only from a
# wheel already on this machine, never a multi-GB download. Without a local wheel the stage says
# "skipped: ..." and exits 0; the committed logs are still tested by the normal suite. The test
# suite (scripts/run-tests.sh) makes the same venv first, for the c10 of its tensor model, and
# this stage reuses it. Needs python3-venv, python3-dev and g++ (for Inductor):
# scripts/setup-deps.sh --pytorch installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
version=2.13.0
keep=""
record_only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --torch) version=${2:?--torch needs a version}; shift 2 ;;
    --keep) keep=${2:?--keep needs a folder}; shift 2 ;;
    --record-into) record_only=${2:?--record-into needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run-pytorch-suite: unknown argument $1" >&2; exit 1 ;;
  esac
done
start=$SECONDS
bash scripts/setup-deps.sh --pytorch
skip() { echo "run-pytorch-suite: skipped: $*"; exit 0; }

command -v python3 >/dev/null || skip "no python3 (scripts/setup-deps.sh --pytorch installs it)"
python3 -c 'import venv, ensurepip' 2>/dev/null \
  || skip "python3 has no venv/ensurepip (scripts/setup-deps.sh --pytorch installs python3-venv)"

# A recording to commit uses a venv at a fixed place, so the paths of PyTorch's files in its
# logs (stacks, Inductor's config) do not name this checkout; the programs run from a copy in a
# fixed folder for the same reason (run_suite.py --neutral-paths).
default_venv=build/pytorch-venv-$version
[ -n "$record_only" ] && default_venv=/tmp/torch-$version
venv=$(realpath -m "${DYNASCOPE_TORCH_VENV:-$default_venv}")
py=$venv/bin/python
venv_rc=0
venv_out=$(bash scripts/torch-venv.sh "$version" "$venv") || venv_rc=$?
[ $venv_rc = 3 ] && skip "${venv_out##*$'\n'}"
[ -n "$venv_out" ] && echo "$venv_out"
[ $venv_rc = 0 ] || exit $venv_rc
echo "run-pytorch-suite: $("$py" -c 'import torch; print("torch", torch.__version__)'), $("$venv/bin/tlparse" --version) ($((SECONDS - start)) s)"
[ "$(uname -s)" = Linux ] && ! command -v g++ >/dev/null \
  && echo "run-pytorch-suite: warning: no g++, Inductor scenarios will fail (setup-deps.sh --pytorch)"

if [ -n "$record_only" ]; then
  python3 tests/scenarios/run_suite.py --python "$py" --out "$record_only" --zstd --jobs 2 --neutral-paths
  exit $?
fi

out=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/dynascope-suite-XXXXXX")}
# Inductor writes its precompiled headers (about 150 MB each) under tempfile.gettempdir(), not
# under TORCHINDUCTOR_CACHE_DIR: a scratch TMPDIR keeps them off /tmp once the stage is over.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dynascope-suite-tmp-XXXXXX")
trap 'rm -rf "$scratch"; [ -n "$keep" ] || rm -rf "$out"' EXIT
export TMPDIR=$scratch
rec_start=$SECONDS
rc=0
python3 tests/scenarios/run_suite.py --python "$py" --out "$out" --jobs 2 || rc=$?
echo "run-pytorch-suite: recorded in $((SECONDS - rec_start)) s"

# The same assertions as on the committed logs, and tlparse on the same files.
if [ ! -x build/bin/tst_scenarios ] || [ ! -x build/bin/tst_tlparse ] \
  || [ ! -x build/bin/tst_scenario_logs ] || [ ! -x build/bin/tst_findings ] \
  || [ ! -x build/bin/tst_guardprobes ]; then
  bash scripts/build.sh
fi
export DYNASCOPE_SCENARIOS_DIR=$out DYNASCOPE_TLPARSE=$venv/bin/tlparse
build/bin/tst_scenarios || rc=1
build/bin/tst_tlparse || rc=1
build/bin/tst_scenario_logs || rc=1
# The findings of each fresh run name what its program was written to show, and nothing else.
build/bin/tst_findings || rc=1
# The guard lab's verdict on each probe of guard_lab_probes against what this PyTorch did.
build/bin/tst_guardprobes || rc=1
# record and probe of real programs (tests/run/tst_probe_live: about two minutes).
[ -x build/bin/tst_probe_live ] || bash scripts/build.sh
DYNASCOPE_TORCH_PYTHON=$py DYNASCOPE_TORCH_VERSION=$version build/bin/tst_probe_live || rc=1
echo "run-pytorch-suite: $([ $rc = 0 ] && echo passed || echo FAILED) with torch $version in $((SECONDS - start)) s"
exit $rc
