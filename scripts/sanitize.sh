#!/usr/bin/env bash
# The C-facing test suites (libjpeg, libpng, LittleCMS, libwebp, libheif, libjxl, Brotli, LibRaw, libexif, Exempi, FFmpeg, zlib, SQLite settings, dlib) under AddressSanitizer
# and LeakSanitizer: any memory error or leak outside the XCTest runner's own objects fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The face models, beside the sanitized tests as beside the others.
scripts/install-faces.sh "$(swift build --scratch-path .build-asan --show-bin-path)"
suppressions=$(mktemp)
trap 'rm -f "$suppressions"' EXIT
# The test runner keeps two small objects alive until exit, and Foundation's Process.run (the
# tests run ffmpeg, heif-enc and cjxl) a weak reference; they are not ours.
printf 'leak:libXCTest.so\nleak:Foundation7ProcessC3run\n' > "$suppressions"
LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0" \
  swift test --sanitize=address --scratch-path .build-asan \
  --filter 'TesseraImageTests|TesseraMetadataTests|TesseraLayoutTests|TesseraSystemTests|TesseraFacesTests'
