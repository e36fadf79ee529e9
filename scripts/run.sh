#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build in release
# mode, scan a photo folder into ./tessera-data/ and say where everything is.
# Usage: scripts/run.sh [PHOTO_DIR]   (default: ~/Pictures, else a generated sample library)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tessera
bin="$(swift build -c release --show-bin-path)/tessera"
data="$PWD/tessera-data"
mkdir -p "$data"

photos="${1:-$HOME/Pictures}"
if [ $# -eq 0 ] && [ ! -d "$photos" ]; then
  photos="$data/sample-photos"
  [ -d "$photos" ] || "$bin" sample-library "$photos"
  echo "No ~/Pictures here: using a generated sample library in $photos"
fi

"$bin" scan "$photos" --index "$data/index.sqlite" --cache "$data/thumbnails"
echo
echo "Newest photos:"
"$bin" list --index "$data/index.sqlite" --limit 5
echo
"$bin" album build --index "$data/index.sqlite" --cache "$data/thumbnails" --out "$data/albums"
