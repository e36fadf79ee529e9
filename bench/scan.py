#!/usr/bin/env python3
"""Scan benchmarks.

(a) Full scan of a folder of large photos (default ../shared/corpus/large, each listed
    --repeat times) against vipsthumbnail over the same files, as a ratio.
(b) Libraries of small (96-pixel) JPEGs in 100-file folders, each its own picture (or, with
    --pictures N, N pictures each repeated, every file with its own bytes and capture time: a
    library of copies and still scenes), at each size in --steps
    (default --files/10 and --files; the million-photo run is `--steps 100000,1000000`), each
    scanned into a fresh index and cache: the first scan's time, CPU time a photo (user and
    system, all threads) and peak RSS, an unchanged rescan
    against `find ROOT -printf '%i %s %T@\\n'` over the same tree (best of 5 rescans, of 3 finds), `list --limit 50`
    and a layout of the newest 1,000 photos on that index, how long the library took to
    generate, disk use, and the most entries in one cache directory.

Usage: bench/scan.py [--photos FOLDER] [--repeat N] [--files N] [--steps a,b,c] [--pictures N] [--skip-large]
"""
import argparse
import io
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import PROJECT, measure, require_python, require_tools, tessera_binary, timed

require_tools({"vipsthumbnail": "libvips-tools", "/usr/bin/time": "time"})
require_python({"PIL": "pillow"})
from PIL import Image  # noqa: E402


def full_scan(tessera, photos, repeat, work):
    sources = sorted(p for p in Path(photos).iterdir() if p.suffix.lower() in (".jpg", ".jpeg"))
    root = work / "large"
    root.mkdir()
    # Copies, not links (a scan does not follow symbolic links unless configured to), each made
    # distinct by a byte after the JPEG's end: identical content would share its thumbnails.
    for k in range(repeat):
        for i, source in enumerate(sources):
            (root / f"f{i:03d}_{k}.jpg").write_bytes(source.read_bytes() + bytes([k]))
    files = sorted(str(p) for p in root.iterdir())
    out = work / "vips-out"
    out.mkdir()

    def fresh():
        shutil.rmtree(work / "store", ignore_errors=True)

    best = float("inf")
    for _ in range(3):
        fresh()
        seconds, rss = measure([tessera, "scan", str(root), "--index", str(work / "store/index.sqlite"),
                                "--cache", str(work / "store/cache")], repeat=1)
        best = min(best, seconds)
    vips, vips_rss = measure(["vipsthumbnail", *files, "-s", "256", "--smartcrop", "centre",
                              "-o", f"{out}/%s.jpg[Q=85]"])
    print(f"(a) full scan of {len(files)} large photos ({len(sources)} × {repeat}), thumbnails at 256 px")
    print(f"    tessera scan (all cores): {best:.2f} s, {len(files) / best:.1f} photos/s, peak RSS {rss:.0f} MiB")
    print(f"    vipsthumbnail:            {vips:.2f} s, {len(files) / vips:.1f} photos/s, peak RSS {vips_rss:.0f} MiB")
    print(f"    tessera throughput vs vipsthumbnail: {vips / best:.2f}× (tessera also reads metadata and writes the index)")


def small_jpeg(picture, number, side=96):
    """A small JPEG of picture `picture` (coloured cells, smoothed), taken at its own second."""
    rng = random.Random(picture)
    cells = Image.new("RGB", (6, 6))
    cells.putdata([tuple(rng.randrange(256) for _ in range(3)) for _ in range(36)])
    exif = Image.Exif()
    taken = 1_500_000_000 + number * 7
    stamp = time.strftime("%Y:%m:%d %H:%M:%S", time.gmtime(taken))
    exif.get_ifd(0x8769)[0x9003] = stamp
    out = io.BytesIO()
    cells.resize((side, side), Image.BILINEAR).save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def library(root, count, pictures):
    """Creates `count` small JPEGs in folders of 100, file i a copy of picture i mod `pictures`
    (each its own picture when None), reusing what exists."""
    marker = root / f"pictures-{pictures}"
    if root.exists() and not marker.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    marker.touch()
    for i in range(count):
        folder = root / f"d{i // 100:05d}"
        if i % 100 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"IMG_{i:07d}.jpg"
        if not target.exists():
            target.write_bytes(small_jpeg(i if pictures is None else i % pictures, i))


def disk_use(path):
    return int(subprocess.run(["du", "-sb", str(path)], capture_output=True, text=True).stdout.split()[0]) / 2**20


def largest_directory(root):
    return max((len(os.listdir(folder)) for folder, _, _ in os.walk(root)), default=0)


def libraries(tessera, steps, work, pictures):
    root = work / "library"
    kind = "each its own picture" if pictures is None else f"{pictures} pictures repeated"
    print(f"(b) libraries of small JPEGs (96 px, {kind}, each file its own bytes and capture time), 100 per folder;"
          f" a fresh index and cache per size")
    header = (f"    {'files':>9} {'gen s':>7} {'scan s':>8} {'files/s':>8} {'CPU ms':>7} {'scan MiB':>9} {'find s':>7} "
              f"{'rescan s':>9} {'ratio':>6} {'rescan MiB':>11} {'list ms':>8} {'layout ms':>10} "
              f"{'library MiB':>12} {'cache MiB':>10} {'index MiB':>10} {'max dir':>8}")
    print(header)
    for count in steps:
        start = time.perf_counter()
        library(root, count, pictures)
        generated = time.perf_counter() - start
        store = work / f"store-{count}"
        shutil.rmtree(store, ignore_errors=True)
        index, cache = str(store / "index.sqlite"), str(store / "cache")
        scan, cpu, scan_rss = timed([tessera, "scan", str(root), "--index", index, "--cache", cache])
        find, _ = measure(f"find '{root}' -printf '%i %s %T@\\n' >/dev/null", repeat=3, shell=True)
        # Best of 5: the first rescans after a first scan also list the cache folders it wrote (as
        # much of them as the walk leaves time for), and stamp them; later ones only stat them.
        rescan, rescan_rss = measure([tessera, "scan", str(root), "--index", index, "--cache", cache], repeat=5)
        listed, _ = measure([tessera, "list", "--index", index, "--limit", "50"], repeat=3)
        laid, _ = measure([tessera, "layout", "--index", index, "--limit", "1000", "--width", "1280"], repeat=3)
        print(f"    {count:>9} {generated:>7.1f} {scan:>8.1f} {count / scan:>8.0f} {cpu / count * 1000:>7.2f} {scan_rss:>9.1f} {find:>7.3f} "
              f"{rescan:>9.3f} {rescan / find:>6.2f} {rescan_rss:>11.1f} {listed * 1000:>8.0f} {laid * 1000:>10.0f} "
              f"{disk_use(root):>12.0f} {disk_use(cache):>10.0f} {disk_use(index):>10.0f} {largest_directory(cache):>8}",
              flush=True)
        shutil.rmtree(store, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", default=str(PROJECT / "../shared/corpus/large"))
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--steps", default="", help="library sizes for (b), e.g. 100000,1000000")
    parser.add_argument("--pictures", type=int, help="the library's files are copies of this many pictures")
    parser.add_argument("--skip-large", action="store_true", help="only (b)")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",") if s] or [args.files // 10, args.files]
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        if not args.skip_large:
            full_scan(tessera, args.photos, args.repeat, work)
            print()
        libraries(tessera, sorted(steps), work, args.pictures)


if __name__ == "__main__":
    main()
