#!/usr/bin/env bash
# Installs what the test suite needs, then runs all of it: the Swift tests, the checks of the
# manual page, references and architecture, metadata against exiftool, colour and HDR renditions,
# the headless-Chromium check of the album pages, a newcomer's first run in tmux, and the systemd
# check (a booted container; needs root). Fails when any test fails or none ran.
# Everything is built once (scripts/build.sh: release, testable, every product): the build the
# run command shares, which the cluster check runs and the systemd check packages and installs.
# 16 to 28 minutes from a fresh clone on two cores, as fast as the machine is; 9 to 13 after an earlier run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time, printed at the end (and when a step fails): where the run's minutes go.
times=()
started=$SECONDS
timed() {
  local name=$1 from=$SECONDS
  shift
  "$@"
  times+=("$(printf '%5d s  %s' $((SECONDS - from)) "$name")")
}
summary() {
  printf 'test.sh: %s\n' "${times[@]}" "$(printf '%5d s  in all' $((SECONDS - started)))" >&2
}
trap summary EXIT
# sqlite3: tests read the index as a front end would; util-linux: unshare for a real full disk;
# Pillow and NumPy (Debian's, for /usr/bin/python3): the colour-managed reference renditions.
# time: GNU time measures the peak memory of tessera processes the tests start.
# python3-venv and chromium: the album check runs Playwright (from PyPI, in .build-venv) against
# Debian's chromium. ffmpeg and heif-dec (libheif-examples, at libheif's version): references for
# HEIF/AVIF renditions, tone-mapped HDR among them; heif-enc (with the x265 plugin) makes HEIFs
# the corpus lacks. exiftool (libimage-exiftool-perl): the reference for metadata agreement.
# python3-gi and gir1.2-gnomedesktop-3.0: GNOME's thumbnail factory, which reads the desktop thumbnails.
# libjxl-tools: cjxl makes the JPEG XL files the tests decode.
timed "install" scripts/install-deps.sh python3 python3-venv sqlite3 util-linux python3-pil python3-numpy time tmux chromium ffmpeg \
  libimage-exiftool-perl python3-gi gir1.2-gnomedesktop-3.0 libjxl-tools
timed "install libheif" scripts/install-libheif.sh libheif-examples libheif-plugin-x265
# The one build every script shares (scripts/build.sh: release, with testable imports).
bin="$(scripts/build.sh --bin)"
# Lint first (it takes seconds): the rules of .swift-format (no force unwraps, no `try!`, no
# implicitly unwrapped optionals, ordered imports, one-line doc summaries, 120 columns) and its
# formatting; `swift format format -i -r Sources Tests Package.swift` fixes what it can.
timed "lint" swift format lint --strict -r Sources Tests Package.swift
# Build next: a compiler warning in the project's own code fails the run.
timed "build" scripts/build.sh --build-tests
# The place names' lookup file, beside the binaries (and the tests'), as the run command installs it.
timed "places" scripts/install-places.sh
# The face models, beside them too (docs/PEOPLE.md).
timed "faces" scripts/install-faces.sh
# The manual page, generated now: the checks below package it while the Swift tests hold SwiftPM's
# lock, so from here on the scripts they call use this build as it is (scripts/build.sh).
timed "manual" scripts/build.sh --manual > /dev/null
export TESSERA_BUILT="$bin"

# The Swift tests and the checks run in two lanes at once (on two cores, one is mostly waiting
# while the other computes): each check's output is held until it ends, then shown whole under
# its name; a lane stops at its first failure, the other finishes, and the run fails.
lanes=$(mktemp -d)
trap 'summary; rm -rf "$lanes"' EXIT
in_lane() { # NAME COMMAND…: runs a check of a lane
  local name=$1 from=$SECONDS status=0
  shift
  "$@" > "$lanes/$name.out" 2>&1 || status=$?
  {
    flock 9
    echo "── $name ($((SECONDS - from)) s)"
    cat "$lanes/$name.out"
    printf '%5d s  %s\n' $((SECONDS - from)) "$name" >> "$lanes/times"
    [ "$status" -eq 0 ] || echo "test.sh: $name failed (exit $status)" >&2
  } 9> "$lanes/lock"
  return "$status"
}

# The album site in a real browser (Playwright from PyPI in .build-venv, Debian's chromium);
# screenshots go to ./tessera-data/album-check/.
venv=.build-venv
playwright() {
  { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check playwright pillow cryptography
}
timed "playwright" playwright

# The Swift tests; a run in which none ran fails.
swift_tests() {
  scripts/build.sh --test || return
  if ! grep -qE 'Test run with [1-9][0-9]* tests? .*passed' "$lanes/swift test.out"; then
    echo "error: no test ran" >&2
    return 1
  fi
}

# What computes: the Swift tests, the browser, a newcomer's terminal.
lane_pixels() {
  in_lane "swift test" swift_tests &&
  in_lane "album" "$venv/bin/python" scripts/check-album.py "$bin/tessera" &&
  # A newcomer's first minutes in tmux at 80 columns: scripts/run.sh on the sample library,
  # every command it prints pasted as is, then list --errors, inspect on a JPEG, a HEIC and a
  # RAW, status.
  in_lane "first run" python3 scripts/check-first-run.py
}

# What waits: the code's own checks, then services that boot, restart and fail on purpose; then pixels.
lane_services() {
  # Every fuzz target once over its seeds and the findings kept in Tests/ (a target that traps
  # or hangs on them fails; scripts/fuzz.sh TARGET SECONDS fuzzes one for real).
  in_lane "fuzz smoke" scripts/fuzz.sh --smoke &&
  # Every reference resolves: documents named in sources and docs, layout sections, unit pages.
  in_lane "references" python3 scripts/check-references.py &&
  # docs/ARCHITECTURE.md's import table is what the code imports; files are written through
  # TesseraSystem only; no production module uses the test support or the sample builders.
  in_lane "architecture" python3 scripts/check-architecture.py &&
  # The shape of the code: no function over 100 lines, file over 400 (migrations aside) or line
  # over 120 columns; the executable thin; formats named in their table; meanings of SQL named once.
  in_lane "shape" python3 scripts/check-shape.py &&
  # The site's script type-checked (TypeScript's checker, JSDoc types) and linted (eslint).
  in_lane "site script" scripts/check-site-script.sh &&
  # Metadata: every corpus photo against its manifest and against exiftool -n, fact by fact
  # (dates, 35 mm focal length, exposure, f-number, ISO, lens, rating, keywords: at least 99 %).
  in_lane "metadata agreement" python3 scripts/manifest-agreement.py "$bin/tessera" &&
  # Beyond one machine (docs/SCALE.md): the same build, a throwaway PostgreSQL, SeaweedFS
  # serving S3, four workers (two in network namespaces), SIGKILL, SIGSTOP, restarts.
  in_lane "cluster" scripts/check-cluster.sh &&
  # The service under a real systemd: package (its manual page has a section for every command),
  # install with install.sh into a booted Debian 12 (systemd-nspawn), and check it live
  # (docs/INSTALL.md). Needs root; fails, never skips.
  in_lane "systemd" scripts/systemd-check.sh &&
  # The layout pages get at a wider window (the site's script) against the engine's, frame by frame.
  in_lane "layout script" "$venv/bin/python" scripts/check-layout-js.py "$bin/tessera" &&
  # Pixels against references, here to even the lanes (the Swift tests are the longer step):
  # colour, every ICC-tagged corpus photo's renditions against ImageCms references (mean
  # CIEDE2000 of 16x16 block means at most 1.0); HEIF and AVIF, HDR squares against FFmpeg's tone
  # mapping of libheif's decode, SDR ones against libheif's decode through LittleCMS.
  in_lane "colour" /usr/bin/python3 scripts/check-colour.py "$bin/tessera" &&
  in_lane "HDR" /usr/bin/python3 scripts/check-hdr.py "$bin/tessera"
}

from=$SECONDS
lane_pixels &
pixels=$!
lane_services &
services=$!
failed=0
wait "$pixels" || failed=1
wait "$services" || failed=1
[ ! -f "$lanes/times" ] || while IFS= read -r line; do times+=("$line"); done < "$lanes/times"
times+=("$(printf '%5d s  %s' $((SECONDS - from)) "the two lanes")")
exit "$failed"
