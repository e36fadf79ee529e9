#!/usr/bin/env python3
"""Places (docs/PLACES.md): what naming a photo's place costs, and what the lookup file weighs.

An index of N photos with positions (by default 100,000 and 1,000,000: nine in ten within 20 km
of a random GeoNames town, one in ten anywhere, mostly at sea) is made directly in SQLite; a
`tessera scan` then names every place (the index's place data is new to it). Printed: the time a
photo (the scan's own log line: the lookup and the row written), the lookup file's size, and
the scan's peak memory, beside the budgets (under 20 µs a photo). The site's places (the map's
data, the Places pages, the map's load in Chromium) are measured with the rest of the site by
bench/site.py, whose libraries have positions.

Usage: bench/places.py [--photos 100000 1000000]
"""
import argparse
import math
import random
import re
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from common import tessera_binary

PROJECT = Path(__file__).resolve().parent.parent


def towns(places_file):
    """(latitude, longitude) of the towns in the lookup file (scripts/build-places.py's layout)."""
    import struct
    data = places_file.read_bytes()
    countries, regions, count, _, columns, rows = struct.unpack("<6I", data[8:32])
    start = 32 + 8 * countries + 8 * regions + 4 * (columns * rows + 1)
    return [(lat / 1e6, lon / 1e6) for lat, lon, *_ in struct.iter_unpack("<iiIIIHHI", data[start:start + 28 * count])]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, nargs="*", default=[100_000, 1_000_000])
    args = parser.parse_args()
    tessera = Path(tessera_binary())
    subprocess.run([PROJECT / "scripts/install-places.sh"], check=True)
    places_file = Path(subprocess.run([PROJECT / "scripts/build.sh", "--bin"], capture_output=True, text=True,
                                      check=True).stdout.strip()) / "places.bin"
    known = towns(places_file)
    print(f"lookup file: {places_file.stat().st_size / 1e6:.1f} MB, {len(known):,} places (mapped: a scan touches"
          f" the pages of the cells it looks up)")
    for count in args.photos:
        rng = random.Random(count)
        with tempfile.TemporaryDirectory(prefix="tessera-places-") as work:
            work = Path(work)
            (work / "empty").mkdir()
            store = ["--index", str(work / "index.sqlite"), "--cache", str(work / "cache")]
            subprocess.run([tessera, "scan", str(work / "empty"), *store], check=True, capture_output=True)

            def position():
                if rng.random() < 0.1:
                    return math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)
                lat, lon = rng.choice(known)
                return max(-90, min(90, lat + rng.uniform(-0.18, 0.18))), (lon + rng.uniform(-0.25, 0.25) + 540) % 360 - 180

            with sqlite3.connect(work / "index.sqlite") as db:
                db.execute("INSERT INTO albums (id, path, root, name) VALUES (1, x'2f6c6962', x'2f6c6962', 'lib')")
                db.executemany(
                    "INSERT INTO photos (path, path_text, album_id, device, inode, size, mtime_ns, status, format,"
                    " width, height, display_width, display_height, date_source, content_hash, gps_latitude,"
                    " gps_longitude) VALUES (?, ?, 1, 1, ?, 1000, 0, 'ok', 'jpeg', 100, 100, 100, 100, 'undated',"
                    " ?, ?, ?)",
                    ((f"/lib/{n}.jpg".encode(), f"/lib/{n}.jpg", n, f"{n:016x}", *position()) for n in range(count)))
            timed = subprocess.run(["/usr/bin/time", "-f", "%M", tessera, "scan", "-v", str(work / "empty"), *store],
                                   capture_output=True, text=True)
            named = re.search(r"places named for (\d+) of (\d+) new or changed photos in ([0-9.]+) (ms|s)",
                              timed.stderr)
            if not named:
                raise SystemExit(timed.stderr[-2000:])
            seconds = float(named.group(3)) / (1000 if named.group(4) == "ms" else 1)
            peak = int(timed.stderr.strip().splitlines()[-1]) / 1024
            print(f"{count:>9,} photos: {int(named.group(1)):,} named, {1e6 * seconds / count:.1f} µs a photo"
                  f" (target < 20 µs) including its row, {seconds:.1f} s in all; scan peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
