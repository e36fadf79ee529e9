#!/usr/bin/env python3
"""Places (docs/PLACES.md): what naming a photo's place costs, and what the lookup file weighs.

An index of N photos with positions (by default 100,000 and 1,000,000: nine in ten within 20 km
of a random GeoNames town, one in ten anywhere, mostly at sea) is made directly in SQLite; a
`tessera scan` then names every place (the index's place data is new to it). Printed: the time a
photo (the scan's own log line: the lookup and the row written), the lookup file's size, and
the scan's peak memory, beside the budgets (under 20 µs a photo). For the counts given to --site
(by default 100,000), the album site is built too: the map's data (bytes and files), the Places
pages', the basemap's (a fixed cost per site), the whole site's HTML/JS/CSS bytes and files a
photo beside the site's budgets (1.5 KB and 5 files), an unchanged rebuild (budget 1 s at
100,000), and how long map.html takes in Chromium to draw its clusters (budget 1 s).

Usage: bench/places.py [--photos 100000 1000000] [--site 100000 1000000]
"""
import argparse
import math
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
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
    parser.add_argument("--site", type=int, nargs="*", default=[100_000])
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
            if count in args.site:
                site(tessera, store, work / "site", count)


def contents(folder):
    """Bytes of HTML/JS/CSS, bytes of anything, and files under `folder`."""
    text, total, files = 0, 0, 0
    for parent, _, names in os.walk(folder):
        for name in names:
            size = os.lstat(os.path.join(parent, name)).st_size
            files += 1
            total += size
            text += size if name.endswith((".html", ".js", ".css")) else 0
    return text, total, files


def site(tessera, store, out, count):
    """The album site of the index: what its map and Places pages weigh, and how fast the map opens."""
    started = time.monotonic()
    subprocess.run([tessera, "album", "build", "--out", str(out), "--originals", "none", *store], check=True,
                   capture_output=True)
    built = time.monotonic() - started
    started = time.monotonic()
    subprocess.run([tessera, "album", "build", "--out", str(out), "--originals", "none", *store], check=True,
                   capture_output=True)
    again = time.monotonic() - started
    map_text, _, map_files = contents(out / "map")
    places_text, _, places_files = contents(out / "places")
    _, basemap_bytes, basemap_files = contents(out / "assets" / "basemap")
    text, _, files = contents(out)
    print(f"{count:>9,} photos, site: built in {built:.1f} s, unchanged rebuild {again:.2f} s (budget 1 s at 100k);"
          f" map data {map_text / 1e6:.1f} MB in {map_files:,} files ({map_text / count:.0f} B a photo),"
          f" Places pages {places_text / 1e6:.1f} MB in {places_files:,} files; basemap {basemap_bytes / 1e6:.1f} MB"
          f" in {basemap_files:,} files (fixed, per site); whole site {text / count:.0f} B of HTML/JS/CSS and"
          f" {files / count:.2f} files a photo (budgets 1,500 B and 5)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("  map load: playwright is not installed (pip install playwright): not measured")
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
        started = time.monotonic()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((out / "map.html").as_uri(), wait_until="load")
        page.wait_for_selector(".map-cluster span", timeout=60_000, state="attached")
        shown = time.monotonic() - started
        clusters = page.locator(".map-cluster").count()
        browser.close()
    print(f"  map.html: {clusters} clusters drawn {shown * 1000:.0f} ms after it was asked for (budget 1 s)"
          f"{'; script errors: ' + '; '.join(errors) if errors else ''}")


if __name__ == "__main__":
    main()
