#!/usr/bin/env python3
"""How often `tessera inspect` agrees with the shared corpus's MANIFEST.tsv files and with exiftool.

Usage: scripts/manifest-agreement.py TESSERA [--corpus DIR] [--minimum PERCENT]

Two comparisons, over every photo Tessera reads in the corpus:

1. With the manifests: stored size, orientation, EXIF DateTimeOriginal and camera. For HEIF and
   AVIF the manifest's EXIF orientation is not what displays them (their irot/imir
   transformations are), so their orientation is checked against the displayed size instead; a
   video's against its display matrix (the `rotation` column); and
   a size cut by a clean aperture (clap) against heif-dec's output. A RAW file's size may be the
   one LibRaw identifies (`libraw_identify`) or the one dcraw_emu outputs (the manifest's size).
2. With `exiftool -n` run in the same call, fact by fact: capture date (a video's QuickTime dates,
   EXIF, then XMP, then PNG, in the order docs/METADATA.md documents), 35 mm focal length, exposure time, f-number, ISO,
   lens, rating and keywords. A photo's sidecar (the one Tessera names) is read by exiftool too,
   and the precedence of docs/METADATA.md applied to both readings: what people edit from the
   sidecar first, what the camera measured from EXIF first. A fact counts where exiftool reads it
   or Tessera reports it. Of maker-note fields only Canon's LensModel is compared (Tessera reads
   it when the EXIF names no lens); the others Tessera does not read.

Prints each disagreement and a table of the share that agrees per fact. Exits 1 when a fact of
the second comparison agrees on fewer than --minimum percent (default 99), or exiftool is missing.
"""
import argparse
import csv
import datetime
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EXIFTOOL_BATCH = 200


def rows(corpus):
    for manifest in sorted(corpus.glob("*/MANIFEST.tsv")):
        with open(manifest, encoding="utf-8", errors="replace", newline="") as handle:
            yield from csv.DictReader(handle, delimiter="\t")


def value(row, column):
    text = row.get(column) or "-"
    return None if text == "-" else text


def inspect(tessera, paths):
    run = subprocess.run([tessera, "inspect", "--json", *map(str, paths)], capture_output=True, text=True)
    facts = json.loads(run.stdout) if run.stdout.strip() else []
    return facts if isinstance(facts, list) else [facts]


def exiftool(paths):
    """exiftool -n's reading of each file, keyed by path, tags named group:tag."""
    readings = {}
    for start in range(0, len(paths), EXIFTOOL_BATCH):
        batch = [str(path) for path in paths[start:start + EXIFTOOL_BATCH]]
        run = subprocess.run(["exiftool", "-n", "-j", "-G1", "-a", "-q", "-q", *batch], capture_output=True, text=True)
        for entry in json.loads(run.stdout or "[]"):
            readings[entry["SourceFile"]] = entry
    return readings


def first(reading, *tags):
    for tag in tags:
        found = reading.get(tag)
        if found not in (None, "", "-"):
            return found
    return None


def wall_clock(text):
    """'2013:09:23 10:00:00.5+02:00' → '2013-09-23T10:00:00'; None for zero or unreadable dates."""
    text = str(text).strip()
    if len(text) < 16 or text.startswith("0000") or not text[:4].isdigit():
        return None
    date = text[:10].replace(":", "-")
    clock = text[11:19] if len(text) >= 19 and text[17:19].isdigit() else text[11:16] + ":00"
    return f"{date}T{clock}"


def as_list(found):
    if found is None:
        return []
    return [str(item) for item in (found if isinstance(found, list) else [found])]


def keywords(reading):
    if reading is None:
        return None
    words = as_list(reading.get("XMP-dc:Subject")) + as_list(reading.get("XMP-digiKam:TagsList"))
    words += [word.replace("|", "/") for word in as_list(reading.get("XMP-lr:HierarchicalSubject"))]
    return sorted(set(words)) or None


def local_wall_clock(utc_text):
    """A UTC date as exiftool prints QuickTime's CreateDate → the wall clock of this machine's
    time zone at that instant, as Tessera shows a video's UTC date; None for zero or before 1971."""
    clock = wall_clock(utc_text)
    if not clock or clock < "1971":
        return None
    instant = datetime.datetime.fromisoformat(clock).replace(tzinfo=datetime.timezone.utc)
    return instant.astimezone().strftime("%Y-%m-%dT%H:%M:%S")


def expected(photo, sidecar, video):
    """Each fact as exiftool reads it, under Tessera's documented precedence."""
    edited = [reading for reading in (sidecar, photo) if reading]
    xmp_dates = [first(reading, "XMP-exif:DateTimeOriginal", "XMP-xmp:CreateDate", "XMP-photoshop:DateCreated")
                 for reading in edited]
    # A video's own dates first: QuickTime's Keys date (local, with its offset), then the
    # container's UTC date, shown in the local zone.
    video_date = (first(photo, "Keys:CreationDate") or local_wall_clock(first(photo, "QuickTime:CreateDate") or "")) \
        if video else None
    date = video_date or first(photo, "ExifIFD:DateTimeOriginal", "CanonRaw:DateTimeOriginal", "ExifIFD:CreateDate") \
        or next((d for d in xmp_dates if d), None) \
        or first(photo, "PNG:CreationTime", "PNG-tIME:ModifyDate", "PNG:ModifyDate", "IFD0:ModifyDate")
    camera = [photo] + ([sidecar] if sidecar else [])

    def measured(*tags):
        for reading in camera:
            found = first(reading, *tags)
            if found is not None:
                return found
        return None

    # 0 is "unknown" in EXIF. exiftool's computed value counts where it rests on EXIF's
    # FocalPlaneResolution (not on a maker note's sensor size), without a maker note's digital zoom.
    focal35 = first(photo, "ExifIFD:FocalLengthIn35mmFormat") or None
    if focal35 is None and "ExifIFD:FocalPlaneXResolution" in photo and "Composite:FocalLength35efl" in photo:
        focal35 = float(photo["Composite:FocalLength35efl"]) / float(photo.get("Composite:DigitalZoom") or 1)
    if focal35 is None:
        focal35 = measured("XMP-exif:FocalLengthIn35mmFormat")
    rating = next((r for r in (first(reading, "XMP-xmp:Rating") for reading in edited) if r is not None), None)
    words = next((k for k in (keywords(reading) for reading in edited) if k), None)
    return {
        "date": wall_clock(date) if date else None,
        "35 mm focal length": focal35,
        "exposure time": measured("ExifIFD:ExposureTime", "XMP-exif:ExposureTime"),
        "f-number": measured("ExifIFD:FNumber", "XMP-exif:FNumber"),
        "ISO": measured("ExifIFD:ISO", "XMP-exif:ISO"),
        "lens": measured("ExifIFD:LensModel", "Canon:LensModel", "XMP-exifEX:LensModel", "XMP-aux:Lens"),
        "rating": rating,
        "keywords": words,
    }


def ours(facts):
    captured = facts.get("capturedAt")
    return {
        "date": captured[:19] if captured else None,
        "35 mm focal length": facts.get("focalLength35mm"),
        "exposure time": facts.get("exposureTime"),
        "f-number": facts.get("fNumber"),
        "ISO": facts.get("iso"),
        "lens": facts.get("lensModel"),
        "rating": facts.get("rating"),
        "keywords": sorted(set(facts.get("keywords") or [])) or None,
    }


def agrees(fact, mine, theirs):
    if mine is None or theirs is None:
        return mine is None and theirs is None
    if fact == "35 mm focal length":
        return abs(float(mine) - float(theirs)) <= max(0.6, 0.01 * float(theirs))
    if fact in ("exposure time", "f-number"):
        return abs(float(mine) - float(theirs)) <= 0.005 * float(theirs) + 1e-9
    if fact in ("ISO", "rating"):
        return int(float(mine)) == int(float(theirs))
    if fact == "lens":
        return str(mine).strip() == str(theirs).strip()
    if fact == "date":
        return mine.startswith(theirs[:len(mine)]) or theirs.startswith(mine)
    return mine == theirs


def heif_dec_size(path):
    """The size heif-dec decodes `path` to, its transformations applied, or None."""
    if not shutil.which("heif-dec"):
        return None
    with tempfile.TemporaryDirectory() as directory:
        output = Path(directory) / "decoded.png"
        if subprocess.run(["heif-dec", str(path), str(output)], capture_output=True).returncode != 0:
            return None
        # PNG IHDR: width and height right after the signature and the chunk header.
        head = output.read_bytes()[16:24]
        return int.from_bytes(head[:4], "big"), int.from_bytes(head[4:], "big")


def manifest_problems(row, facts, path):
    problems = []
    size = (str(facts.get("width")), str(facts.get("height")))
    if row["format"] in ("HEIF", "AVIF") and size != (row["width"], row["height"]):
        # The manifest has the stored size; a clean aperture (clap) crops it, as heif-dec shows.
        decoded = heif_dec_size(path)
        if decoded and (facts.get("displayWidth"), facts.get("displayHeight")) == decoded:
            size = (row["width"], row["height"])
    identified = (value(row, "libraw_identify") or "").split("image ")[-1].split(";")[0].split("x")
    if size != (row["width"], row["height"]) and list(size) != identified:
        problems.append(f"size {facts.get('width')}×{facts.get('height')}, manifest {row['width']}×{row['height']}")
    display = value(row, "heif_display_size")
    if row["format"] in ("HEIF", "AVIF"):
        # What displays them is irot/imir, never their EXIF orientation.
        if display and f"{facts.get('displayWidth')}x{facts.get('displayHeight')}" != display:
            problems.append(f"displayed {facts.get('displayWidth')}×{facts.get('displayHeight')}, manifest {display}")
    elif facts.get("kind") == "video":
        # The display matrix, as ffprobe gives it (anticlockwise degrees), as an orientation.
        turn = value(row, "rotation")
        wanted = {"0": 1, "-90": 6, "270": 6, "90": 8, "-270": 8, "180": 3, "-180": 3}.get(turn or "0", 1)
        if facts.get("orientation") != wanted:
            problems.append(f"orientation {facts.get('orientation')}, manifest rotation {turn}")
    else:
        raw = value(row, "exif_orientation")
        number = int("".join(c for c in raw if c.isdigit()) or 1) if raw else 1
        wanted = number if 1 <= number <= 8 else 1
        if facts.get("orientation") != wanted:
            problems.append(f"orientation {facts.get('orientation')}, manifest {wanted}")
    date = value(row, "exif_datetime_original")
    if date and not date.startswith("[") and not date.strip('"').startswith("0000"):
        wanted = date.strip('"').strip().replace(":", "-", 2).replace(" ", "T")
        if not (facts.get("capturedAt") or "").startswith(wanted):
            problems.append(f"date {facts.get('capturedAt')}, manifest {date}")
    camera = value(row, "camera")
    mine = " ".join(part for part in (facts.get("make"), facts.get("model")) if part)
    if camera and mine != camera:
        problems.append(f"camera {mine!r}, manifest {camera!r}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tessera")
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parent.parent / "../shared/corpus"))
    parser.add_argument("--minimum", type=float, default=99.0)
    arguments = parser.parse_args()
    corpus = Path(arguments.corpus).resolve()
    if not corpus.is_dir():
        print(f"manifest-agreement: no corpus at {corpus}: nothing compared")
        return 0
    if not shutil.which("exiftool"):
        print("manifest-agreement: exiftool is missing (Debian's libimage-exiftool-perl)")
        return 1

    # Every file Tessera reads; the manifest's facts only where its decode tool read the file.
    photos = [row for row in rows(corpus) if "broken/" not in row["file"] and not row["file"].lower().endswith(".xmp")]
    decoded = [row for row in photos if value(row, "width") and not row.get("decode_check", "").startswith("error")]
    read = [facts for facts in inspect(arguments.tessera, [corpus / row["file"] for row in photos])]
    by_path = {str(Path(facts["path"]).resolve()): facts for facts in read if not facts.get("error")}

    # 1. The manifests.
    manifest_total = manifest_agreeing = 0
    for row in decoded:
        facts = by_path.get(str(corpus / row["file"]))
        if facts is None:
            continue
        manifest_total += 1
        problems = manifest_problems(row, facts, corpus / row["file"])
        if problems:
            print(f"{row['file']}: {'; '.join(problems)}")
        else:
            manifest_agreeing += 1
    share = 100 * manifest_agreeing / max(1, manifest_total)
    print(f"manifest: {manifest_agreeing} of {manifest_total} photos agree on size, orientation, date and camera "
          f"({share:.1f} %)")

    # 2. exiftool, fact by fact.
    sidecars = {path: str(Path(path).parent / facts["sidecar"]) for path, facts in by_path.items() if facts.get("sidecar")}
    readings = exiftool(list(by_path) + list(sidecars.values()))
    counts = {}
    for path, facts in sorted(by_path.items()):
        photo = readings.get(path)
        if photo is None:
            continue
        theirs = expected(photo, readings.get(sidecars.get(path, "")), facts.get("kind") == "video")
        for fact, mine in ours(facts).items():
            # A date from the file's name is not exiftool's to read.
            if (mine is None and theirs[fact] is None) or (fact == "date" and facts.get("dateSource") == "filename"):
                continue
            total, agreeing = counts.get(fact, (0, 0))
            ok = agrees(fact, mine, theirs[fact])
            counts[fact] = (total + 1, agreeing + ok)
            if not ok:
                print(f"{Path(path).relative_to(corpus)}: {fact} {mine!r}, exiftool {theirs[fact]!r}")
    print(f"\n| fact | photos compared | agree | share |\n| --- | ---: | ---: | ---: |")
    failing = []
    for fact, (total, agreeing) in counts.items():
        share = 100 * agreeing / total
        print(f"| {fact} | {total} | {agreeing} | {share:.1f} % |")
        if share < arguments.minimum:
            failing.append(fact)
    if failing:
        print(f"manifest-agreement: below {arguments.minimum:g} % on {', '.join(failing)}")
        return 1
    print(f"manifest-agreement: every fact agrees with exiftool on at least {arguments.minimum:g} % of photos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
