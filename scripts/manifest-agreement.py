#!/usr/bin/env python3
"""How often `tessera inspect` agrees with the shared corpus's MANIFEST.tsv files.

Usage: scripts/manifest-agreement.py TESSERA [--corpus DIR]
For every row with a decodable photo (width and height recorded, not under broken/), compares
the stored size, the orientation, the DateTimeOriginal and the camera (make and model) with
what exiftool recorded. For HEIF and AVIF the manifest's EXIF orientation is not what displays
them (their irot/imir transformations are), so their orientation is checked against the
displayed size the manifest records instead. Prints each disagreement and the share of rows
that agree on all four.
"""
import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path


def rows(corpus):
    for manifest in sorted(corpus.glob("*/MANIFEST.tsv")):
        with open(manifest, encoding="utf-8", errors="replace", newline="") as handle:
            yield from csv.DictReader(handle, delimiter="\t")


def value(row, column):
    text = row.get(column) or "-"
    return None if text == "-" else text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tessera")
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parent.parent / "../shared/corpus"))
    arguments = parser.parse_args()
    corpus = Path(arguments.corpus).resolve()
    if not corpus.is_dir():
        print(f"manifest-agreement: no corpus at {corpus}")
        return 0
    total = agreeing = 0
    for row in rows(corpus):
        if not value(row, "width") or "broken/" in row["file"] or row.get("decode_check", "").startswith("error"):
            continue
        total += 1
        run = subprocess.run([arguments.tessera, "inspect", "--json", str(corpus / row["file"])], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{row['file']}: not read: {run.stderr.strip()}")
            continue
        facts = json.loads(run.stdout)
        problems = []
        if (str(facts.get("width")), str(facts.get("height"))) != (row["width"], row["height"]):
            problems.append(f"size {facts.get('width')}×{facts.get('height')}, manifest {row['width']}×{row['height']}")
        display = value(row, "heif_display_size")
        if row["format"] in ("HEIF", "AVIF") and display:
            if f"{facts.get('displayWidth')}x{facts.get('displayHeight')}" != display:
                problems.append(f"displayed {facts.get('displayWidth')}×{facts.get('displayHeight')}, manifest {display}")
        else:
            raw = value(row, "exif_orientation")
            number = int("".join(c for c in raw if c.isdigit()) or 1) if raw else 1
            expected = number if 1 <= number <= 8 else 1
            if facts.get("orientation") != expected:
                problems.append(f"orientation {facts.get('orientation')}, manifest {expected}")
        date = value(row, "exif_datetime_original")
        if date and not date.startswith("["):
            wanted = date.strip('"').strip().replace(":", "-", 2).replace(" ", "T")
            if not (facts.get("capturedAt") or "").startswith(wanted):
                problems.append(f"date {facts.get('capturedAt')}, manifest {date}")
        camera = value(row, "camera")
        ours = " ".join(part for part in (facts.get("make"), facts.get("model")) if part)
        if camera and ours != camera:
            problems.append(f"camera {ours!r}, manifest {camera!r}")
        if problems:
            print(f"{row['file']}: {'; '.join(problems)}")
        else:
            agreeing += 1
    share = 100 * agreeing / max(1, total)
    print(f"manifest-agreement: {agreeing} of {total} photos agree on size, orientation, date and camera ({share:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
