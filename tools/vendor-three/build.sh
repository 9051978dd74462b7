#!/usr/bin/env bash
# Rebuild src/eslabon/viz/vendor/three-eslabon.min.js from the npm registry: three.js and
# its OrbitControls, only the names the viewer uses (entry.js), bundled and minified by
# esbuild into one classic script that defines the global THREE (a classic script runs
# from a file:// page and inside a notebook's iframe, where ES-module imports do not).
# Versions are pinned in package.json / package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
out=../../src/eslabon/viz/vendor
npx esbuild entry.js --bundle --minify --format=iife --global-name=THREE \
  --legal-comments=none --outfile="$out/three-eslabon.min.js"
cp node_modules/three/LICENSE "$out/THREE-LICENSE.txt"
echo "three $(node -p 'JSON.parse(require("fs").readFileSync("node_modules/three/package.json")).version') -> $out/three-eslabon.min.js"
