#!/usr/bin/env bash
# Re-makes tests/probe/recorded/torch-VERSION: `dynascope-cli probe` of the three probe programs
# (tests/probe/programs) with a real PyTorch, traces zstd-compressed. tst_probereport's
# recordedProbeFolders reads them on every machine.
#
#   bash tests/probe/record.sh PYTHON        (PYTHON: an interpreter with torch; build first)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${1:?usage: record.sh PYTHON}
version=$("$py" -c 'import torch; print(torch.__version__.split("+")[0])' 2>/dev/null)
out=tests/probe/recorded/torch-$version
cli=build/bin/dynascope-cli
# One thread per program (as the scenario runner does): on a shared 2-core machine more threads
# make eager and compiled timings swing by 100x.
export OMP_NUM_THREADS=1 PYTHONHASHSEED=0
rm -rf "$out"
mkdir -p "$out"
p=tests/probe/programs
"$cli" probe --backends eager,aot_eager -o "$out/custom_op_backward" -- "$py" $p/custom_op_backward.py >/dev/null
"$cli" probe --check --backends eager,program -o "$out/perturbed_backend" -- "$py" $p/perturbed_backend.py >/dev/null
"$cli" probe --backends inductor --steps 5 -o "$out/mlp_steady" -- "$py" $p/mlp_steady.py >/dev/null
find "$out" -name 'dedicated_log_torch_trace*.log' -exec zstd -q -19 --rm {} \;
du -sh "$out"
