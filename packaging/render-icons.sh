#!/usr/bin/env bash
# Renders the app icon's PNG sizes into resources/icons/hicolor/<N>x<N>/apps/dynascope.png.
# The PNGs are committed, so building and packaging need no SVG renderer; run this after changing
# resources/icons/dynascope.svg or dynascope-small.svg (needs rsvg-convert: apt-get install
# librsvg2-bin) and look at the 16, 32 and 256 px results before committing.
# 16, 22 and 24 px come from dynascope-small.svg, drawn on the 16 px grid; the rest from dynascope.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
icons=resources/icons
for size in 16 22 24 32 48 64 128 256; do
  src=$icons/dynascope.svg
  [ "$size" -le 24 ] && src=$icons/dynascope-small.svg
  out=$icons/hicolor/${size}x${size}/apps/dynascope.png
  mkdir -p "$(dirname "$out")"
  rsvg-convert --width "$size" --height "$size" "$src" --output "$out"
  echo "$out"
done
