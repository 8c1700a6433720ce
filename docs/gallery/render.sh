#!/bin/sh
# Renders the README's gallery thumbnails with the project's CLI (run from the repository root
# after `npm install`): one bbox per example style, default params, CPU backend.
set -e
TG=${TILEGRAPH:-npx tilegraph}
OUT=docs/gallery
$TG bbox --style examples/watercolor/style.json --bbox=-24,33,44,63 --zoom 3 --backend cpu --out $OUT/watercolor.png
$TG bbox --style examples/toner/style.json --bbox=-87.66,41.862,-87.605,41.9 --zoom 13 --backend cpu --out $OUT/toner.png
$TG bbox --style examples/handdrawn/style.json --bbox=-87.638,41.872,-87.604,41.895 --zoom 14 --backend cpu --out $OUT/handdrawn.png
$TG bbox --style examples/heatmap/style.json --bbox=-122.458,37.759,-122.442,37.772 --zoom 15 --backend cpu --out $OUT/heatmap.png
$TG bbox --style examples/world/style.json --bbox=-12,34,42,62 --zoom 4 --backend cpu --out $OUT/world-names.png
$TG bbox --style examples/toner/style.json --bbox=-87.66,41.872,-87.62,41.895 --zoom 15 --backend cpu --out $OUT/toner-names.png
