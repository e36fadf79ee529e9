#!/usr/bin/env bash
# The one build the scripts share (run.sh, test.sh, package.sh, fuzz.sh, cluster-tools.sh), so
# that none compiles what another has: release, with testable imports (the tests run optimised:
# the pixel loops they exercise are some fifty times slower without), every product at once
# (SwiftPM plans a build of one product apart, and would compile every module again for it).
#
#   scripts/build.sh [OPTIONS…]   builds (OPTIONS go to swift build: --build-tests); fails on a
#                                 compiler warning in the project's own code, which keeps none
#   scripts/build.sh --bin        prints the folder of the built binaries
#   scripts/build.sh --manual     generates the manual page from the commands; prints its path
#   scripts/build.sh --test [OPTIONS…]  runs the built tests (swift test; OPTIONS go to it)
#
# The compiler's output goes to stderr; stdout carries only what is asked for.
# With TESSERA_BUILT set (to the folder of the binaries, by test.sh once it has built), a build
# without options is already done and --bin prints that folder, without waiting for SwiftPM's
# lock, which `swift test` holds while it runs beside the other checks.
set -euo pipefail
cd "$(dirname "$0")/.."
# No debug information: the package would strip it (scripts/package.sh); without it a build
# from nothing took 639 s against 662.
flags=(-c release -Xswiftc -enable-testing -debug-info-format none)
case "${1:-}" in
  --bin)
    [ -n "${TESSERA_BUILT:-}" ] && echo "$TESSERA_BUILT" || swift build "${flags[@]}" --show-bin-path
    ;;
  --test)
    shift
    swift test "${flags[@]}" --skip-build "$@"
    ;;
  --manual)
    if [ -n "${TESSERA_BUILT:-}" ] && [ -f .build/plugins/GenerateManual/outputs/tessera/tessera.1 ]; then
      echo "$PWD/.build/plugins/GenerateManual/outputs/tessera/tessera.1"
      exit 0
    fi
    swift package "${flags[@]}" --allow-writing-to-package-directory generate-manual --configuration release > /dev/null
    echo "$PWD/.build/plugins/GenerateManual/outputs/tessera/tessera.1"
    ;;
  *)
    [ -n "${TESSERA_BUILT:-}" ] && [ $# -eq 0 ] && exit 0
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    swift build "${flags[@]}" "$@" 2>&1 | tee "$log" >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
    if grep -E "^$PWD/(Sources|Tests|bench)/[^ ]+: warning:" "$log" >&2; then
      echo "error: the build has compiler warnings (above); the project keeps none" >&2
      exit 1
    fi
    ;;
esac
