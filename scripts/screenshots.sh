#!/usr/bin/env bash
# The pictures of README.md and docs/, made again from real traces, headless (Qt's offscreen
# platform: no display, no GPU, no network), after a change to what they show:
#
#   bash scripts/screenshots.sh [--bin DIR] [--out DIR] [--shared DIR] [--notebook-python PY] [NAME.png...]
#
#   --bin DIR              where dynascope, dynascope-fixtures and dynascope-standin are (build/bin)
#   --out DIR              where the PNGs go (docs; ctest -L docs makes them into a scratch folder)
#   --shared DIR           the shared traces (../shared): the tlparse corpus's multi_rank_runtime;
#                          without it those two pictures are skipped, and said so
#   --notebook-python PY   a Python with dynascope, nbconvert, ipykernel and pandas installed, for
#                          docs/python.ipynb run and printed by headless Chromium; without it (or
#                          without chromium) that picture is skipped, and said so
#   NAME.png...            make only these
#
# Each picture is one line below: `shot NAME WxH ARGS...` runs `dynascope --size WxH
# --screenshot OUT/NAME ARGS...`; shot_live and shot_notebook are the two made otherwise. The
# sizes are declared here only: `check_docs.py images` (ctest -L docs) reads these lines and
# checks that every image README.md and docs/ name is made here, exists and has this size.
# Run from anywhere; paths are from the repository root. Prints what it made and what it skipped;
# exits 1 when a picture it tried could not be made.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin
out=docs
shared=../shared
notebook_python=${DYNASCOPE_NOTEBOOK_PYTHON:-}
only=()
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --shared) shared=$2; shift 2 ;;
    --notebook-python) notebook_python=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "screenshots.sh: unknown option $1" >&2; exit 1 ;;
    *) only+=("$1"); shift ;;
  esac
done
for program in dynascope dynascope-fixtures dynascope-standin; do
  [ -x "$bin/$program" ] || { echo "screenshots.sh: no $bin/$program (build first, or --bin DIR)" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin=$(cd "$bin" && pwd)
export QT_QPA_PLATFORM=offscreen
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dynascope-screenshots.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
recorded=tests/scenarios/recorded/torch-2.13.0
corpus=$shared/traces/tlparse/tests/inputs
made=0
skipped=0
failed=0

wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local n
  for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
  return 1
}
skip() { echo "skipped $1: $2"; skipped=$((skipped + 1)); }
done_or_failed() { # NAME STATUS LOG
  if [ "$2" -eq 0 ] && [ -s "$out/$1" ]; then
    echo "made $1"
    made=$((made + 1))
  else
    echo "FAILED $1 (exit status $2):" >&2
    tail -n 20 "$3" >&2
    failed=$((failed + 1))
  fi
}
# shot NAME WxH ARGS...: the window after loading ARGS, WxH pixels.
shot() {
  local name=$1 size=$2 status=0
  shift 2
  wanted "$name" || return 0
  "$bin/dynascope" --size "$size" --screenshot "$out/$name" "$@" >"$scratch/log" 2>&1 || status=$?
  done_or_failed "$name" "$status" "$scratch/log"
}
# shot_live NAME WxH TRACE: `dynascope --record` of a stand-in program that writes TRACE into
# TORCH_TRACE in 4 pieces, 2 s apart; the window is saved 5 s in (three pieces read, the fourth
# not yet: the compile being written is "missing" at the right edge, the live indicator on).
shot_live() {
  local name=$1 size=$2 trace=$3 status=0
  wanted "$name" || return 0
  (cd "$scratch" && "$bin/dynascope" --size "$size" --record --record-dir "$scratch/live" \
    --screenshot "$out/$name" --screenshot-after 5 -- \
    "$bin/dynascope-standin" --trace-from "$OLDPWD/$trace" --pieces 4 --every 2000) \
    >"$scratch/log" 2>&1 || status=$?
  done_or_failed "$name" "$status" "$scratch/log"
}
# shot_notebook NAME WxH NOTEBOOK: the notebook executed (nbconvert, in a kernel of
# --notebook-python) and printed by headless Chromium at WxH.
shot_notebook() {
  local name=$1 size=$2 notebook=$3 status=0 chromium
  wanted "$name" || return 0
  chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
  if [ -z "$notebook_python" ]; then
    skip "$name" "no --notebook-python (a Python with dynascope, nbconvert, ipykernel and pandas)"
    return 0
  fi
  if [ -z "$chromium" ]; then
    skip "$name" "no chromium to print the notebook with"
    return 0
  fi
  {
    "$notebook_python" -m jupyter nbconvert --to html --execute "$notebook" \
      --output-dir "$scratch/notebook" --output notebook \
      && "$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="${size/x/,}" --screenshot="$out/$name" "file://$scratch/notebook/notebook.html"
  } >"$scratch/log" 2>&1 || status=$?
  done_or_failed "$name" "$status" "$scratch/log"
}
# Rank folders written with divergence planted (core/synth/rank_folder.h), named as the window
# shows them.
rank_folder() {
  [ -d "$scratch/ranks-$1" ] || "$bin/dynascope-fixtures" --rank-folder "$scratch/ranks-$1" "$1" >/dev/null
  echo "$scratch/ranks-$1"
}

# README.md: the bundled example, the recompile [3/1] of scale selected (its Why tab), the
# timeline on the compiles after the first (the last quarter second).
shot screenshot.png 1600x1000 --select '[3/1]' --range 10.2:10.5 resources/examples/example.log
# docs/findings.md: the Findings panel and the Why tab's overview on the bundled example.
shot findings.png 1280x800 --range 10.15:10.5 resources/examples/example.log
# docs/cli.md (guards): the Guards tab's What if section asked for a range of sizes of scale's x.
shot guard-lab.png 1600x1000 --select '[3/1]' --range 10.2:10.5 --what-if 'x.size(0) in 1..600' resources/examples/example.log
# docs/compare.md: graph_break_print without its print (A) against the scenario itself (B).
shot compare.png 1280x800 "$recorded/graph_break_print/without_print" --compare "$recorded/graph_break_print"
# docs/recording.md: a recording followed live (the example scenario's trace, written in pieces).
shot_live live-recording.png 1400x850 "$recorded/example/dedicated_log_torch_trace.log.zst"
# docs/ranks.md: many ranks, runs and idle time folding.
if wanted ranks-256.png; then
  shot ranks-256.png 1280x800 --select '[0/1]' "$(rank_folder 256)"
fi
if wanted ranks-1024.png; then
  shot ranks-1024.png 1280x800 "$(rank_folder 1024)"
fi
if [ -d "$corpus/multi_rank_runtime" ]; then
  shot multi-rank-runtime.png 1280x800 "$corpus/multi_rank_runtime"
  shot multi-rank-runtime-all.png 1280x800 --run all "$corpus/multi_rank_runtime"
else
  for name in multi-rank-runtime.png multi-rank-runtime-all.png; do
    if wanted "$name"; then skip "$name" "no tlparse corpus in $corpus (--shared DIR)"; fi
  done
fi
# docs/python.md: docs/python.ipynb run in Jupyter.
shot_notebook python-notebook.png 1000x1000 docs/python.ipynb

echo "screenshots: $made made, $skipped skipped, $failed failed (in $out)"
[ "$failed" -eq 0 ]
