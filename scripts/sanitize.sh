#!/usr/bin/env bash
# The C-facing test suites (libjpeg, libpng, LittleCMS, libwebp, libheif, LibRaw, libexif, zlib, SQLite settings) under AddressSanitizer
# and LeakSanitizer: any memory error or leak outside the XCTest runner's own objects fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
suppressions=$(mktemp)
trap 'rm -f "$suppressions"' EXIT
# The test runner keeps two small objects alive until exit; they are not ours.
echo "leak:libXCTest.so" > "$suppressions"
LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0" \
  swift test --sanitize=address --scratch-path .build-asan \
  --filter 'TesseraImageTests|TesseraMetadataTests|TesseraLayoutTests|TesseraSystemTests'
