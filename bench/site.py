#!/usr/bin/env python3
"""The album site at scale: bytes, files, memory, build and rebuild times, and what Chromium loads.

For each library size in --steps (default 10,000 and 100,000; --million adds 1,000,000): a
generated library of small JPEGs, each with its own EXIF DateTimeOriginal, over 12 years in event
folders of 20–200 photos, is scanned into a fresh index, then:

- `tessera album build` into a fresh folder: wall time, photos/s, peak RSS;
- what the site holds: HTML/JS/CSS bytes a photo, files a photo (renditions, originals, pages);
- the same build again with nothing changed: wall time, and how many files it wrote;
- 100 new photos in one event folder, a scan, and the build again: wall time, files written;
- one year's folders made a private album: the build that encrypts it, the share of the build
  that encryption is, the sealed bytes and files a private photo, and an unchanged rebuild;
- Chromium (Debian's, through Playwright) opens the timeline, the largest album page and the map
  (two events in three have a position: until its clusters are drawn): load
  time (for the timeline, until its stream shows its first photos), JS heap, and how many <img>
  the page holds; then goes through the timeline's stream a month at a time (the time a month
  takes to show, and the most JS heap and <img> held meanwhile); then the timeline's Find by
  one month's dates and by format: time until it answers, and the JS heap after.

The scan itself is bench/scan.py's business; here it is only the way to an index.

With --keep DIR, the libraries and their indexes and caches are made in DIR and kept there: a
later run with the same DIR rescans them instead of making them again (the sites are removed).

Usage: bench/site.py [--steps 10000,100000] [--million] [--keep DIR]
"""
import argparse
import calendar
import os
import random
import re
import shutil
import struct
import subprocess
import tempfile
import time
from pathlib import Path

from common import require_python, require_tools, tessera_binary, timed

require_tools({"/usr/bin/time": "time", "chromium": "chromium"})
require_python({"playwright": "playwright"})

YEARS = 12
FIRST_YEAR = 2014


def exif_segment(date, gps=None):
    """An APP1 segment holding DateTimeOriginal (`date` as 'YYYY:MM:DD HH:MM:SS') and, with `gps`
    (latitude, longitude), a position."""
    value = date.encode() + b"\0"
    tiff = b"II*\0" + struct.pack("<I", 8)
    if gps is None:
        # IFD0: one entry, the Exif IFD's offset (26); then the Exif IFD: DateTimeOriginal at 44.
        tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x8769, 4, 1, 26) + struct.pack("<I", 0)
        tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x9003, 2, len(value), 44) + struct.pack("<I", 0)
        tiff += value
    else:
        # IFD0 (8): the Exif IFD's offset (38) and the GPS IFD's (76); the Exif IFD: DateTimeOriginal
        # at 56; the GPS IFD: the references inline, latitude at 130 and longitude at 154.
        tiff += struct.pack("<H", 2) + struct.pack("<HHII", 0x8769, 4, 1, 38) + struct.pack("<HHII", 0x8825, 4, 1, 76)
        tiff += struct.pack("<I", 0)
        tiff += struct.pack("<H", 1) + struct.pack("<HHII", 0x9003, 2, len(value), 56) + struct.pack("<I", 0)
        tiff += value
        latitude, longitude = gps
        tiff += struct.pack("<H", 4)
        tiff += struct.pack("<HHI", 1, 2, 2) + (b"N" if latitude >= 0 else b"S") + b"\0\0\0"
        tiff += struct.pack("<HHII", 2, 5, 3, 130)
        tiff += struct.pack("<HHI", 3, 2, 2) + (b"E" if longitude >= 0 else b"W") + b"\0\0\0"
        tiff += struct.pack("<HHII", 4, 5, 3, 154) + struct.pack("<I", 0)
        for degrees in (abs(latitude), abs(longitude)):
            whole, minutes = int(degrees), (degrees - int(degrees)) * 60
            tiff += struct.pack("<6I", whole, 1, int(minutes), 1, round((minutes - int(minutes)) * 60_000), 1000)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def photo_bytes(base, date, number, gps=None):
    """`base` (a JPEG) with its own date (and position), and bytes after its end that make its
    content its own."""
    return base[:2] + exif_segment(date, gps) + base[2:] + number.to_bytes(4, "big")


def events(count, rng):
    """Event folders of 20–200 photos over 12 years, each on one day: (folder, date, photos)."""
    made, number = [], 0
    while made_total(made) < count:
        size = min(rng.randint(20, 200), count - made_total(made))
        year = FIRST_YEAR + rng.randrange(YEARS)
        month, day = rng.randint(1, 12), rng.randint(1, 28)
        # Two events in three somewhere in the world (photos within a few kilometres), as a phone's.
        where = (rng.uniform(-50, 65), rng.uniform(-180, 180)) if rng.random() < 2 / 3 else None
        made.append((f"{year}/{year}-{month:02d}-{day:02d} event {number}", (year, month, day), size, where))
        number += 1
    return made


def made_total(made):
    return sum(event[2] for event in made)


def library(root, count, base, seed=1):
    """Writes the library (reusing what exists) and returns its events."""
    rng = random.Random(seed)
    number = 0
    planned = events(count, rng)
    for folder, (year, month, day), size, where in planned:
        directory = root / folder
        directory.mkdir(parents=True, exist_ok=True)
        for k in range(size):
            target = directory / f"IMG_{number:07d}.jpg"
            if not target.exists():
                seconds = 9 * 3600 + k * 37
                date = f"{year}:{month:02d}:{day:02d} {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
                gps = where and (where[0] + k % 7 / 1000, where[1] + k % 11 / 1000)
                target.write_bytes(photo_bytes(base, date, number, gps))
            number += 1
    return planned


def site_contents(site):
    """Bytes of HTML/JS/CSS, files of any kind (links included), and the newest change of each file."""
    text_bytes, files, changed = 0, 0, {}
    for folder, _, names in os.walk(site):
        for name in names:
            path = os.path.join(folder, name)
            status = os.lstat(path)
            if name.startswith(".tessera"):
                continue
            files += 1
            changed[path] = status.st_mtime_ns
            if name.endswith((".html", ".js", ".css")):
                text_bytes += status.st_size
    return text_bytes, files, changed


def written_since(site, before):
    _, _, after = site_contents(site)
    return sum(1 for path, stamp in after.items() if before.get(path) != stamp)


def browse(site, largest_album_page):
    """Load time, JS heap and <img> count of the timeline and of the largest album's first page;
    then the timeline's Find: how long until a month's date range, and a format, answer."""
    from playwright.sync_api import sync_playwright

    results, finds = {}, {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for label, page_path in (("timeline", site / "timeline.html"), ("largest album", largest_album_page),
                                 ("map", site / "map.html")):
            page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
            session = page.context.new_cdp_session(page)
            session.send("Performance.enable")
            # When the timeline's stream first shows photos (after find.js and the newest month
            # are read), as the page itself sees it.
            if label == "timeline":
                page.add_init_script("""new MutationObserver((changes, observer) => {
                    if (document.querySelector('.stream a.photo')) { window.streamShown = performance.now(); observer.disconnect(); }
                  }).observe(document, {subtree: true, childList: true});""")
            page.goto(page_path.as_uri(), wait_until="load", timeout=600_000)
            timing = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
            if label == "map":
                # (until its clusters are drawn)
                page.add_init_script("""new MutationObserver((changes, observer) => {
                    if (document.querySelector('.map-cluster')) { window.clustersShown = performance.now(); observer.disconnect(); }
                  }).observe(document, {subtree: true, childList: true});""")
                page.reload(wait_until="load")
                page.wait_for_selector(".map-cluster", timeout=600_000, state="attached")
                timing = page.evaluate("() => window.clustersShown")
            if label == "timeline":
                page.wait_for_selector(".stream a.photo", timeout=600_000)
                timing = max(timing, page.evaluate("() => window.streamShown"))
            metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
            images = page.evaluate("() => document.images.length")
            results[label] = (timing, metrics.get("JSHeapUsedSize", 0) / 2**20, images)
            if label == "timeline":
                # Through the whole stream, a month at a time: its photos shown each time, and
                # what the page holds at most meanwhile.
                months = page.evaluate("document.querySelectorAll('.stream section.month').length")
                start, most_images, most_heap = time.perf_counter(), 0, 0.0
                for number in range(months):
                    page.evaluate(f"document.querySelectorAll('.stream section.month')[{number}].scrollIntoView()")
                    page.wait_for_function(f"document.querySelectorAll('.stream section.month')[{number}]"
                                           ".querySelector('a.photo')", timeout=600_000)
                    most_images = max(most_images, page.evaluate("document.images.length"))
                    # (what the page holds, not garbage it has not collected yet)
                    session.send("HeapProfiler.collectGarbage")
                    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
                    most_heap = max(most_heap, metrics.get("JSHeapUsedSize", 0) / 2**20)
                results["timeline, every month"] = (1000 * (time.perf_counter() - start) / max(1, months), most_heap, most_images)
                page.evaluate("window.scrollTo(0, 0)")
                dated = sorted(p.name for p in (site / "months").iterdir() if p.name != "undated")
                month = dated[len(dated) // 2]
                page.click("form.find button.filters")
                page.wait_for_function("document.querySelector('form.find select[name=format]').options.length > 1")
                answered = "document.querySelector('form.find output').textContent.includes(' of ')"
                # Each query set at once (one input event), so only its answer is waited for.
                ask = """([from, to, format]) => { const form = document.querySelector('form.find');
                    form.elements.from.value = from; form.elements.to.value = to;
                    form.elements.format.value = format; form.dispatchEvent(new Event('input')); }"""
                last = calendar.monthrange(int(month[:4]), int(month[5:7]))[1]
                for what, query in ((f"date range {month}", [f"{month}-01", f"{month}-{last}", ""]),
                                    ("format JPEG", ["", "", "JPEG"])):
                    page.evaluate("document.querySelector('form.find output').textContent = ''")
                    start = time.perf_counter()
                    page.evaluate(ask, query)
                    page.wait_for_function(answered, timeout=600_000)
                    page.wait_for_function("document.querySelectorAll('section.found a.photo').length > 0")
                    seconds = time.perf_counter() - start
                    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
                    finds[what] = (seconds, metrics.get("JSHeapUsedSize", 0) / 2**20, page.inner_text("form.find output"))
            page.close()
        browser.close()
    return results, finds


def largest_album(site):
    """The first page of the album folder holding the most bytes of pages: the biggest album."""
    albums = site / "albums"
    best = max((folder for folder in albums.iterdir() if folder.is_dir()),
               key=lambda folder: sum(p.stat().st_size for p in folder.glob("*.html")))
    return best / "index.html"


def run(tessera, count, base, work, keep):
    # (a kept library is kept at its size: the next run's smaller step does not scan a larger one)
    root = work / (f"library-{count}" if keep else "library")
    start = time.perf_counter()
    planned = library(root, count, base)
    generated = time.perf_counter() - start
    store = work / f"store-{count}"
    if not keep:
        shutil.rmtree(store, ignore_errors=True)
    options = ["--index", str(store / "index.sqlite"), "--cache", str(store / "cache")]
    subprocess.run([tessera, "scan", str(root), *options], check=True, stdout=subprocess.DEVNULL)
    site = work / f"site-{count}"
    shutil.rmtree(site, ignore_errors=True)
    build = [tessera, "album", "build", "--out", str(site), *options]

    full, _, full_rss = timed(build)
    text_bytes, files, before = site_contents(site)
    # What places add: the map's data and the Places pages a photo; Leaflet and the basemap are
    # a fixed cost a site.
    (map_text, map_files, _), (places_text, places_files, _) = (site_contents(site / "map"),
                                                                site_contents(site / "places"))
    fixed = sum(os.lstat(os.path.join(folder, name)).st_size for part in ("assets/basemap", "assets/leaflet")
                for folder, _, names in os.walk(site / part) for name in names)
    unchanged, _, _ = timed(build)
    unchanged_written = written_since(site, before)

    # 100 new photos land in the largest event folder.
    folder, (year, month, day), _, _ = max(planned, key=lambda event: event[2])
    for k in range(100):
        date = f"{year}:{month:02d}:{day:02d} 20:{k // 60:02d}:{k % 60:02d}"
        (root / folder / f"NEW_{k:03d}.jpg").write_bytes(photo_bytes(base, date, 10_000_000 + k))
    subprocess.run([tessera, "scan", str(root), *options], check=True, stdout=subprocess.DEVNULL)
    _, _, before = site_contents(site)
    added, _, added_rss = timed(build)
    added_written = written_since(site, before)
    for k in range(100):
        (root / folder / f"NEW_{k:03d}.jpg").unlink()

    browsed, finds = browse(site, largest_album(site))
    print(f"  {count:,} photos (library generated in {generated:.0f} s)")
    print(f"    full build          {full:8.1f} s  {count / full:8.0f} photos/s  peak RSS {full_rss:6.0f} MiB")
    print(f"    site                {text_bytes / count:8.0f} bytes of HTML/JS/CSS a photo, "
          f"{files / count:.2f} files a photo ({files:,} files)")
    print(f"      of which places   map data {map_text / count:.0f} B and {map_files / count:.3f} files a photo, "
          f"Places pages {places_text / count:.0f} B and {places_files / count:.3f} files a photo; "
          f"Leaflet and the basemap {fixed / 1e6:.1f} MB a site")
    print(f"    unchanged rebuild   {unchanged:8.2f} s  {unchanged_written:,} files written")
    print(f"    after 100 new       {added:8.2f} s  {added_written:,} files written, peak RSS {added_rss:.0f} MiB")
    for label, (load, heap, images) in browsed.items():
        if label == "timeline, every month":
            print(f"    Chromium timeline, scrolled month by month: {load:5.0f} ms a month, at most JS heap {heap:.1f} MiB, "
                  f"{images:,} <img>")
            continue
        print(f"    Chromium {label:<14} load {load:7.0f} ms  JS heap {heap:6.1f} MiB  {images:,} <img>")
    for what, (seconds, heap, said) in finds.items():
        print(f"    timeline Find {what:<18} {seconds * 1000:7.0f} ms  JS heap {heap:6.1f} MiB  ({said})")
    private(tessera, build, site, work, count, planned)
    if not keep:
        shutil.rmtree(store, ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)


def private(tessera, build, site, work, count, planned):
    """One year's event folders made a private album (docs/PRIVATE.md): the build that seals it,
    what of it is encryption, what it adds to the site, and an unchanged rebuild."""
    year = FIRST_YEAR + YEARS // 2
    held = sum(size for folder, _, size, _ in planned if folder.startswith(f"{year}/"))
    (work / "bench.pass").write_text("a bench passphrase\n")
    config = work / "private.yaml"
    config.write_text(f"private_albums:\n  - folder: '{year}'\n    passphrase_file: {work / 'bench.pass'}\n")
    command = [*build, "--config", str(config)]
    start = time.perf_counter()
    said = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    sealing = float(re.search(r"encrypted now in ([0-9.]+) s", said).group(1))
    _, files, before = site_contents(site / "private")
    sealed = sum(os.lstat(path).st_size for path in before)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    unchanged = time.perf_counter() - start
    print(f"    private album       {held:,} photos ({held / count:.0%}) of {year} made private: build {seconds:.1f} s, "
          f"of which encryption {sealing:.2f} s ({sealing / seconds:.1%}); {sealed / held / 1024:.0f} KiB and "
          f"{files / held:.2f} sealed files a private photo, sealed at {sealed / max(sealing, 1e-6) / 2**20:.0f} MiB/s "
          "(the generated photos' renditions are small: a camera photo's seal some 440 KiB)")
    print(f"    private unchanged   {unchanged:8.2f} s  {written_since(site / 'private', before)} private files written")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="10000,100000", help="library sizes, e.g. 10000,100000")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 photos")
    parser.add_argument("--keep", metavar="DIR", help="make the libraries and indexes in DIR and keep them")
    args = parser.parse_args()
    steps = sorted({int(s) for s in args.steps.split(",") if s} | ({1_000_000} if args.million else set()))
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-site-") as scratch:
        work = Path(args.keep) if args.keep else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        sample = Path(scratch) / "sample"
        subprocess.run([tessera, "sample-library", str(sample)], check=True, stdout=subprocess.DEVNULL)
        base_path = Path(scratch) / "base.jpg"
        subprocess.run([tessera, "thumb", str(next(sample.rglob("IMG_1000.jpg"))), "--fit", "96", "-o",
                        str(base_path)], check=True)
        base = base_path.read_bytes()
        print("album site: generated libraries (event folders of 20–200 photos over 12 years), "
              "`tessera album build` (justified, the default)")
        for count in steps:
            run(tessera, count, base, work, keep=bool(args.keep))


if __name__ == "__main__":
    main()
