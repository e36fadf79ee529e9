#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build in release
# mode, scan a photo folder into ./tessera-data/ and say where everything is.
# Usage: scripts/run.sh [PHOTO_DIR]   (default: ~/Pictures, else a generated sample library)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product tessera
bin=$(swift build -c release --show-bin-path)/tessera
"$bin" --version
echo "Built $bin. Scanning is not implemented yet; nothing was scanned." >&2
exit 1
