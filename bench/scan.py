#!/usr/bin/env python3
"""Scan benchmarks.

(a) Full scan of a folder of large photos (default ../shared/corpus/large, each listed
    --repeat times) against vipsthumbnail over the same files, as a ratio.
(b) Rescan of an unchanged generated library of --files small JPEGs (default 100,000) in
    100-file folders, against `find ROOT -printf '%i %s %T@\\n'` over the same tree, with the
    rescan's peak RSS at each library size in --steps, to show memory stays flat.

Usage: bench/scan.py [--photos FOLDER] [--repeat N] [--files N] [--steps a,b,c]
"""
import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_tools, tessera_binary

require_tools({"vipsthumbnail": "libvips-tools", "/usr/bin/time": "time"})


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


def library(root, count, tiny):
    """Creates `count` copies of a tiny JPEG in folders of 100, reusing what exists."""
    for i in range(count):
        folder = root / f"d{i // 100:05d}"
        if i % 100 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"IMG_{i:07d}.jpg"
        if not target.exists():
            target.write_bytes(tiny)


def rescans(tessera, files, steps, work):
    root = work / "library"
    sample = work / "sample"
    subprocess.run([tessera, "sample-library", str(sample)], check=True, stdout=subprocess.DEVNULL)
    tiny_source = work / "tiny.jpg"
    subprocess.run([tessera, "thumb", str(next(sample.rglob("IMG_1000.jpg"))), "--size", "16", "-o",
                    str(tiny_source)], check=True)
    tiny = tiny_source.read_bytes()
    print(f"(b) rescan of an unchanged library of small JPEGs ({len(tiny)} bytes each), 100 per folder")
    print(f"    {'files':>8} {'find s':>8} {'rescan s':>9} {'ratio':>6} {'rescan peak RSS MiB':>20}")
    index = str(work / "lib-store/index.sqlite")
    cache = str(work / "lib-store/cache")
    for count in steps:
        library(root, count, tiny)
        # The first scan of the new files, not measured.
        subprocess.run([tessera, "scan", str(root), "--index", index, "--cache", cache],
                       check=True, stdout=subprocess.DEVNULL)
        find, _ = measure(f"find '{root}' -printf '%i %s %T@\\n' >/dev/null", repeat=3, shell=True)
        rescan, rss = measure([tessera, "scan", str(root), "--index", index, "--cache", cache], repeat=3)
        print(f"    {count:>8} {find:>8.3f} {rescan:>9.3f} {rescan / find:>6.2f} {rss:>20.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", default=str(PROJECT / "../shared/corpus/large"))
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--steps", default="", help="library sizes for (b), e.g. 10000,50000,100000")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",") if s] or [args.files // 10, args.files]
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        full_scan(tessera, args.photos, args.repeat, work)
        print()
        rescans(tessera, sorted(steps)[-1], sorted(steps), work)


if __name__ == "__main__":
    main()
