#!/usr/bin/env python3
"""The costs that had cliffs, side by side in one run, each beside its peer.

1. Metadata: `tessera inspect` against exiv2 and exiftool (metadata.py; target ≥ 1.5× exiv2).
2. Small photos: a first scan of 10,000 small JPEGs, each its own picture, then of 40 pictures
   250 times each: photos a second and CPU a photo (scan.py; targets 1,000 a second, ≤ 2 ms).
3. Large JPEGs: one worker against vipsthumbnail on baseline, progressive and MPF files, with
   SSIM, and the mixed set's peak RSS at the defaults (decode_less.py; targets 2×, < 128 MB).
4. Copies: deciding copies over 100,000 copies of one picture and over 1,000,000 random hashes,
   one photo added to each, and a scan of 30,000 copies and 5,000 timelapse frames against one
   of 35,000 distinct photos (duplicates.py; target at most 3× the time).

Usage: bench/cliffs.py [--quick]   (--quick: smaller libraries, for a look in minutes)
"""
import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(title, script, *arguments):
    print(f"\n== {title}: bench/{script} {' '.join(arguments)}", flush=True)
    result = subprocess.run([sys.executable, str(HERE / script), *arguments])
    if result.returncode != 0:
        print(f"   (bench/{script} failed with status {result.returncode})", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    small = "2000" if quick else "10000"
    run("metadata", "metadata.py", "--repeat", "3" if quick else "10")
    run("small photos, each its own picture", "scan.py", "--skip-large", "--steps", small)
    run("small photos, 40 pictures repeated", "scan.py", "--skip-large", "--steps", small, "--pictures", "40")
    run("large JPEGs, one worker", "decode_less.py", "--repeat", "1" if quick else "3")
    run("copies", "duplicates.py", "--skip-corpus", "--whole", *([] if quick else ["1000000"]),
        "--copies", "20000" if quick else "100000", "--cliff", "7000" if quick else "35000")


if __name__ == "__main__":
    main()
