#!/usr/bin/env bash
# The main job: install what is missing, build, and open the app on the bundled example trace.
# Without a display it says so and writes a screenshot of the example to build/example.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
bash scripts/build.sh
example=resources/examples/example.log
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/dynascope "$example" "$@"
fi
echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): writing a screenshot instead."
QT_QPA_PLATFORM=offscreen build/bin/dynascope --screenshot build/example.png "$example"
echo "Screenshot of the example trace: $(pwd)/build/example.png"
