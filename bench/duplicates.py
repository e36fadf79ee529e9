#!/usr/bin/env python3
"""Copies: what finding them costs, how fast a new photo is compared, and how right they are.

1. Precision and recall on real photos: every JPEG of ../shared/corpus at least 400 × 300 (not
   the broken ones), and seven copies of each, made as other programs make them (ffmpeg,
   heif-enc, exiftool; without the original's metadata): the same bytes, quality 70, half size,
   WebP, HEIC, 3 % cut from each side, turned a quarter with the orientation tag set to turn it
   back. Look-alikes: five consecutive frames of each of three real videos written as bursts
   (one camera, one second, stepping fractions), and the same frames without any metadata.
   `tessera scan`, then `tessera list --duplicates --json`: recall (copies grouped with their
   original), precision (pairs in a group that are copies of one photo), and the closest pairs
   of distinct photos with their hash distance and the margin to the threshold.
2. Hashing cost: the scan above under `perf record`; the share of its CPU samples spent in
   `PerceptualHash.compute` (target: under 3 %), and in deciding and recording the groups at
   its end (`refreshGroups`, over the whole library on a first scan).
3. Lookup: 1,000,000 random hashes in an SQLite table with the index's four band indexes; the
   time to find the hashes within 14 bits of a new one with the SQL a front end would use
   (four queries, each an IN list of the 697 values within 3 bits of one band).
4. Deciding over the whole library, as a first scan does: an index of N random hashes (photos
   no scan can see), `tessera scan` of an empty folder after the recorded rules are forgotten;
   its time and peak memory (`--whole`, default 100,000 and 1,000,000); the same for N copies of
   one picture (one hash, distinct bytes: `--copies`, default 100,000), and then one photo added
   to the library and decided around (an incremental pass).
5. Copies that never end a scan (`--cliff N`, default 35,000; 0 skips it): a real scan of
   6/7 N copies of one small picture (distinct bytes) and N/7 frames of a timelapse of one still
   scene (one picture, a second apart), against a scan of N distinct small photos: the ratio of
   their times (target at most 3), and the groups made (the copies one group, no two frames).

No peer is run: none of the named peers (Immich, PhotoPrism, libvips, exiftool, sigal,
thumbsup) has a duplicate finder that runs here without its server and models.

Usage: bench/duplicates.py [--originals N]
"""
import argparse
import csv
import json
import random
import re
import shutil
import sqlite3
import struct
import subprocess
import tempfile
import time
import zlib
from pathlib import Path

from common import PROJECT, require_tools, tessera_binary, timed

require_tools({"ffmpeg": "ffmpeg", "heif-enc": "libheif-examples", "exiftool": "libimage-exiftool-perl",
               "perf": "linux-perf", "/usr/bin/time": "time"})

CORPUS = PROJECT.parent / "shared" / "corpus"
THRESHOLD = 14
DETAIL_THRESHOLD = 90
COPIES = ["exact.jpg", "quality-70.jpg", "half.jpg", "converted.webp", "converted.heic", "cropped.jpg", "turned.jpg"]
VIDEOS = ["media/videos/quicktime-hvc1.mov", "media/videos/avi.avi", "media/videos/sample_mpeg4.mp4"]


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def originals(limit):
    names = set()
    for manifest in CORPUS.glob("*/MANIFEST.tsv"):
        for row in csv.reader(open(manifest, encoding="utf-8"), delimiter="\t"):
            if (len(row) > 6 and row[3] == "JPEG" and row[4].isdigit() and row[5].isdigit()
                    and int(row[4]) >= 400 and int(row[5]) >= 300 and "broken" not in row[0]):
                names.add(row[0])
    return sorted(names)[:limit]


def make_library(root, names):
    for number, name in enumerate(names):
        folder = root / f"{number:03d}"
        copies = folder / "copies"
        copies.mkdir(parents=True)
        original = folder / "original.jpg"
        shutil.copyfile(CORPUS / name, original)
        shutil.copyfile(original, copies / "exact.jpg")
        ffmpeg = ["ffmpeg", "-v", "error", "-y", "-i", str(original)]
        run(*ffmpeg, "-q:v", "9", str(copies / "quality-70.jpg"))
        run(*ffmpeg, "-vf", "scale=iw/2:-2", "-q:v", "3", str(copies / "half.jpg"))
        run(*ffmpeg, "-c:v", "libwebp", "-quality", "80", str(copies / "converted.webp"))
        run(*ffmpeg, str(copies / "lossless.png"))
        run("heif-enc", "-q", "60", "-o", str(copies / "converted.heic"), str(copies / "lossless.png"))
        (copies / "lossless.png").unlink()
        run(*ffmpeg, "-vf", "crop=iw*0.94:ih*0.94", "-q:v", "3", str(copies / "cropped.jpg"))
        run(*ffmpeg, "-vf", "transpose=2", "-q:v", "3", str(copies / "turned.jpg"))
        run("exiftool", "-q", "-overwrite_original", "-Orientation#=6", str(copies / "turned.jpg"))
    for number, video in enumerate(VIDEOS):
        for kind in ("burst", "bare"):
            folder = root / f"{kind}-{number}"
            folder.mkdir()
            for frame in range(5):
                path = folder / f"frame{frame}.jpg"
                run("ffmpeg", "-v", "error", "-y", "-ss", f"{0.2 + frame / 10:.1f}", "-i", str(CORPUS / video),
                    "-frames:v", "1", "-q:v", "2", str(path))
                if kind == "burst":
                    run("exiftool", "-q", "-overwrite_original", "-Make=Bench", "-Model=Burst",
                        "-DateTimeOriginal=2024:05:01 10:00:00", f"-SubSecTimeOriginal={frame + 1}0", str(path))


# The corpus's own sets of one picture: an orientation test turned eight ways (two of them),
# and an Ultra HDR sample with its base image. Their originals count as copies of one another.
SAME = [re.compile(r"orientation/Landscape_"), re.compile(r"orientation/Portrait_"),
        re.compile(r"Ultra_HDR_Samples_(Originals|Emulated)_01")]


def source(path, names):
    """What a file is a copy of: its original (or the corpus set it is one picture of), or its
    own path for a burst frame."""
    frame = re.search(r"/(?:burst|bare)-(\d+)/frame(\d+)", path)
    if frame:
        return f"video {frame.group(1)}, frame {frame.group(2)}"
    match = re.search(r"/(\d{3})/", path)
    if not match:
        return path
    name = names[int(match.group(1))]
    return next((pattern.pattern for pattern in SAME if pattern.search(name)), name)


def accuracy(groups, root, names):
    grouped = {}
    for number, group in enumerate(groups):
        for member in group["files"]:
            grouped[member["path"]] = number
    copies = [str(p) for p in root.glob("*/copies/*")]
    found = sum(1 for c in copies if c in grouped and grouped[c] == grouped.get(str(Path(c).parent.parent / "original.jpg")))
    pairs = right = 0
    for group in groups:
        paths = [m["path"] for m in group["files"]]
        for i, a in enumerate(paths):
            for b in paths[i + 1:]:
                pairs += 1
                right += source(a, names) == source(b, names)
    # Frames of one burst grouped together (look-alikes taken for copies), with their metadata
    # and without it.
    bursts = {}
    for kind in ("burst", "bare"):
        bursts[kind] = len({video for g in groups
                            for video in {re.search(r"-(\d+)/", m["path"]).group(1) for m in g["files"] if f"/{kind}-" in m["path"]}
                            if sum(1 for m in g["files"] if f"/{kind}-{video}/" in m["path"]) > 1})
    return found, len(copies), right, pairs, bursts


def hashes(index):
    """Each photo's perceptual hash and detail hash (an int of 256 bits), by path."""
    with sqlite3.connect(index) as db:
        return {path: (phash & (2 ** 64 - 1), int.from_bytes(detail, "little"))
                for path, phash, detail in db.execute(
                    "SELECT path_text, phash, phash_detail FROM photos WHERE phash_detail IS NOT NULL")}


def bits(value):
    return bin(value).count("1")


def closest_distinct(known, names):
    """The originals of different pictures whose hashes are nearest, with their details' distance."""
    rows = [(path, *known[path]) for path in known if path.endswith("/original.jpg")]
    pairs = sorted((bits(a ^ b), bits(da ^ db), names[int(Path(p).parent.name)], names[int(Path(q).parent.name)], p, q)
                   for i, (p, a, da) in enumerate(rows) for q, b, db in rows[i + 1:]
                   if source(p, names) != source(q, names))
    return pairs[:5], sorted(pair[1] for pair in pairs)


def detail_distances(known):
    """Each kind of copy's detail distances to its original, where its perceptual hash is near."""
    kinds = {}
    for path, (phash, detail) in known.items():
        original = known.get(str(Path(path).parent.parent / "original.jpg"))
        if "/copies/" in path and original and bits(phash ^ original[0]) <= THRESHOLD:
            kinds.setdefault(Path(path).stem, []).append(bits(detail ^ original[1]))
    return {kind: sorted(values) for kind, values in sorted(kinds.items())}


def percentile(values, share):
    return values[min(len(values) - 1, int(share * len(values)))]


def hashing_share(tessera, root, work):
    data = work / "perf.data"
    run("perf", "record", "-F", "999", "-g", "-o", str(data), "--", tessera, "scan", str(root),
        "--index", str(work / "perf.sqlite"), "--cache", str(work / "perf-cache"))
    report = subprocess.run(["perf", "report", "-i", str(data), "--children", "--sort", "symbol", "--stdio",
                             "-g", "none"], capture_output=True, text=True).stdout
    def share(symbol):
        return max([float(line.split("%")[0]) for line in report.splitlines() if symbol in line] or [0])
    return share("PerceptualHashO7compute"), share("refreshGroups")


def lookups(work, count=1_000_000, queries=200):
    rng = random.Random(5)
    path = work / "hashes.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, phash INTEGER)")
        db.executemany("INSERT INTO photos (phash) VALUES (?)",
                       ((rng.getrandbits(64) - 2 ** 63,) for _ in range(count)))
        for band in range(4):
            db.execute(f"CREATE INDEX photos_phash_{band} ON photos((phash >> {16 * band}) & 65535)"
                       " WHERE phash IS NOT NULL")
    # Some band of two hashes within the threshold is within its tolerance (docs/DUPLICATES.md).
    tolerances = [(THRESHOLD - 3 + band) // 4 for band in range(4)]
    db = sqlite3.connect(path)
    start = time.perf_counter()
    near = 0
    for _ in range(queries):
        query = rng.getrandbits(64)
        found = set()
        for band in range(4):
            value = (query >> (16 * band)) & 65535
            values = ",".join(str(value ^ m) for m in range(65536) if bin(m).count("1") <= tolerances[band])
            for row_id, phash in db.execute(
                    f"SELECT id, phash FROM photos WHERE phash IS NOT NULL"
                    f" AND ((phash >> {16 * band}) & 65535) IN ({values})"):
                if bin((phash & (2 ** 64 - 1)) ^ query).count("1") <= THRESHOLD:
                    found.add(row_id)
        near += len(found)
    per_query = (time.perf_counter() - start) / queries
    plan = " ".join(row[3] for row in db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM photos WHERE phash IS NOT NULL AND ((phash >> 16) & 65535) IN (1, 2)"))
    values = sum(sum(1 for m in range(65536) if bin(m).count("1") <= tolerance) for tolerance in tolerances)
    return per_query, near / queries, values, plan


def whole_library(tessera, work, count, copies=False):
    """Seconds and peak MB of deciding copies over `count` random hashes (or copies of one
    picture), the groups made, and how one photo added is decided around."""
    rng = random.Random(count)
    folder = work / f"whole-{count}"
    (folder / "empty").mkdir(parents=True)
    store = ["--index", str(folder / "index.sqlite"), "--cache", str(folder / "cache")]
    subprocess.run([tessera, "scan", str(folder / "empty"), *store], check=True, capture_output=True)
    one_hash, one_detail = rng.getrandbits(64) - 2 ** 63, (rng.getrandbits(256) & ~1).to_bytes(32, "little")

    def rows(numbers):
        for n in numbers:
            yield (f"/lib/{n // 1000}/{n}.jpg".encode(), f"/lib/{n // 1000}/{n}.jpg", 1 + n // 1000, n,
                   f"{rng.getrandbits(64):016x}", one_hash if copies else rng.getrandbits(64) - 2 ** 63,
                   one_detail if copies else (rng.getrandbits(256) & ~1).to_bytes(32, "little"))

    insert = ("INSERT INTO photos (path, path_text, album_id, device, inode, size, mtime_ns, status, format, width,"
              " height, display_width, display_height, date_source, content_hash, phash, phash_detail)"
              " VALUES (?, ?, ?, 1, ?, 1000, 0, 'ok', 'jpeg', 100, 100, 100, 100, 'undated', ?, ?, ?)")
    with sqlite3.connect(folder / "index.sqlite") as db:
        # In folders of 1,000, as a library is.
        db.executemany("INSERT INTO albums (id, path, root, name) VALUES (?, ?, x'2f6c6962', ?)",
                       ((1 + a, f"/lib/{a}".encode(), str(a)) for a in range(count // 1000 + 2)))
        db.executemany(insert, rows(range(count)))
        db.execute("DELETE FROM state WHERE key = 'group_rules'")

    def scan():
        timed = subprocess.run(["/usr/bin/time", "-f", "%e %M", tessera, "scan", "-v", str(folder / "empty"), *store],
                               capture_output=True, text=True)
        wall, rss = timed.stderr.strip().splitlines()[-1].split()
        decided = re.search(r"decided again (?:over the whole library|around [^\n]*?) in ([^\n]+)", timed.stderr)
        if not decided:
            print(timed.stderr[-2000:])
        return float(wall), int(rss) / 1024, decided.group(0) if decided else "?"

    whole = scan()
    with sqlite3.connect(folder / "index.sqlite") as db:
        grouped = db.execute("SELECT COUNT(DISTINCT group_id), COUNT(*) FROM copy_members").fetchone()
        db.executemany(insert, rows([count]))
    added = scan()
    shutil.rmtree(folder)
    return whole, grouped, added


def png(pixels, side, chunks=()):
    """A greyscale PNG of `side` × `side` from `pixels` (row-major bytes), with extra chunks."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + pixels[y * side:(y + 1) * side] for y in range(side))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + b"".join(chunk(kind, data) for kind, data in chunks) + chunk(b"IDAT", zlib.compress(rows, 6))
            + chunk(b"IEND", b""))


def picture(rng, side=96, cells=8):
    """A picture of its own: random grey cells, smoothed a little by a gradient."""
    grid = [rng.randrange(256) for _ in range(cells * cells)]
    step = side // cells
    return bytes((grid[(y // step) * cells + x // step] + x + y) % 256 for y in range(side) for x in range(side))


def cliff(tessera, work, count):
    """A scan of copies of one picture and a timelapse of one still scene against one of
    distinct photos, `count` files each."""
    rng = random.Random(7)
    libraries = {"copies": work / "cliff-copies", "distinct": work / "cliff-distinct"}
    one = picture(rng)
    frames = count // 7
    for i in range(count):
        folder = f"d{i // 1000:03d}"
        for library in libraries.values():
            (library / folder).mkdir(parents=True, exist_ok=True)
        if i < count - frames:
            copy = png(one, 96, [(b"tEXt", b"Comment\0copy %d" % i)])
        else:
            second = i - (count - frames)
            stamp = "2024:05:01 %02d:%02d:%02d" % (10 + second // 3600, second // 60 % 60, second % 60)
            copy = png(one, 96, [(b"tEXt", b"Creation Time\0" + stamp.encode())])
        (libraries["copies"] / folder / f"{i:06d}.png").write_bytes(copy)
        (libraries["distinct"] / folder / f"{i:06d}.png").write_bytes(png(picture(rng), 96))
    times = {}
    for name, library in libraries.items():
        store = ["--index", str(work / f"{name}.sqlite"), "--cache", str(work / f"{name}-cache")]
        times[name] = timed([tessera, "scan", str(library), *store])
        listed = json.loads(subprocess.run([tessera, "list", "--duplicates", "--json", *store], check=True,
                                           capture_output=True, text=True).stdout)
        sizes = sorted((len(g["files"]) for g in listed), reverse=True)
        frames_grouped = max((sum(1 for m in g["files"] if int(Path(m["path"]).stem) >= count - frames)
                              for g in listed), default=0)
        print(f"{name}: {count:,} files scanned in {times[name][0]:.1f} s ({times[name][1]:.1f} s CPU),"
              f" peak {times[name][2]:.0f} MB; {len(listed):,} groups, the largest {sizes[:3]};"
              f" the most timelapse frames in one group: {frames_grouped}")
    ratio = times["copies"][0] / times["distinct"][0]
    print(f"copies ({count - frames:,} of one picture, {frames:,} timelapse frames) against distinct photos:"
          f" {ratio:.2f}× the time (target at most 3×)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--originals", type=int, default=1000, help="at most this many corpus photos")
    parser.add_argument("--whole", type=int, nargs="*", default=[100_000, 1_000_000],
                        help="library sizes to decide copies over the whole of")
    parser.add_argument("--copies", type=int, nargs="*", default=[100_000],
                        help="libraries of this many copies of one picture to decide copies over")
    parser.add_argument("--cliff", type=int, default=35_000, help="files in the copies-against-distinct scan")
    parser.add_argument("--skip-corpus", action="store_true", help="only 4 and 5 (no corpus photos)")
    args = parser.parse_args()
    if not CORPUS.exists() and not args.skip_corpus:
        raise SystemExit(f"needs {CORPUS}")
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-duplicates-") as work:
        work = Path(work)
        if not args.skip_corpus:
            root = work / "photos"
            names = originals(args.originals)
            print(f"making {len(names)} originals × {len(COPIES)} copies and {len(VIDEOS)} bursts of 5 frames …")
            make_library(root, names)
            store = ["--index", str(work / "index.sqlite"), "--cache", str(work / "cache")]
            wall, cpu, rss = timed([tessera, "scan", str(root), *store])
            start = time.perf_counter()
            listed = subprocess.run([tessera, "list", "--duplicates", "--json", *store], check=True,
                                    capture_output=True, text=True).stdout
            listing = time.perf_counter() - start
            groups = json.loads(listed)
            found, copies, right, pairs, bursts = accuracy(groups, root, names)
            print(f"scan: {wall:.1f} s wall, {cpu:.1f} s CPU; list --duplicates: {listing:.2f} s, {len(groups)} groups")
            print(f"recall:    {found} of {copies} copies grouped with their original ({found / copies:.1%})")
            print(f"precision: {right} of {pairs} grouped pairs are copies of one photo ({right / max(pairs, 1):.1%})")
            print(f"bursts of 5 frames taken for copies (two or more frames in one group): with their metadata"
                  f" {bursts['burst']} of {len(VIDEOS)}; without any {bursts['bare']} of {len(VIDEOS)}")
            grouped = {m["path"]: number for number, g in enumerate(groups) for m in g["files"]}
            known = hashes(work / "index.sqlite")
            closest, distinct_details = closest_distinct(known, names)
            for distance, detail, a, b, pa, pb in closest:
                together = pa in grouped and grouped.get(pa) == grouped.get(pb)
                print(f"closest distinct originals: {a} and {b}, {distance} bits apart (threshold {THRESHOLD},"
                      f" margin {distance - THRESHOLD}), details {detail} apart (threshold {DETAIL_THRESHOLD}):"
                      f" {'GROUPED' if together else 'not grouped'}")
            for kind, values in detail_distances(known).items():
                print(f"details of {kind} copies within {THRESHOLD} bits of their original: median"
                      f" {percentile(values, 0.5)}, 95th percentile {percentile(values, 0.95)}, largest {values[-1]}"
                      f" (threshold {DETAIL_THRESHOLD})")
            print(f"details of the {len(distinct_details):,} distinct pairs of originals: smallest {distinct_details[:5]},"
                  f" 1st percentile {percentile(distinct_details, 0.01)}")
            neighbours = sorted((bits(a[0] ^ b[0]), bits(a[1] ^ b[1]))
                                for number in range(len(VIDEOS)) for frame in range(4)
                                for a, b in [(known.get(str(root / f"bare-{number}" / f"frame{frame}.jpg")),
                                              known.get(str(root / f"bare-{number}" / f"frame{frame + 1}.jpg")))]
                                if a and b)
            print(f"consecutive frames a tenth of a second apart, without metadata (hash, details apart): {neighbours}")
            hashing, grouping = hashing_share(tessera, root, work)
            print(f"hashing: {hashing:.2f} % of the scan's CPU samples in PerceptualHash.compute (target < 3 %);"
                  f" deciding the groups at its end: {grouping:.2f} %")
            per_query, near, values, plan = lookups(work)
            print(f"lookup in 1,000,000 hashes: {per_query * 1000:.1f} ms a new photo"
                  f" ({values} band values; {near:.1f} hashes within {THRESHOLD} bits on average; plan: {plan})")
        for count, copies in [(n, False) for n in args.whole] + [(n, True) for n in args.copies]:
            (wall, peak, decided), (groups, members), added = whole_library(tessera, work, count, copies)
            kind = "copies of one picture" if copies else "random hashes"
            print(f"deciding copies over the whole library of {count:,} {kind} (a first scan): {decided},"
                  f" scan {wall:.1f} s, peak {peak:.0f} MB; {members:,} of them in {groups:,} groups"
                  + ("" if copies else " (random hashes without metadata or placeholders: chance look-alikes)"))
            print(f"    one photo added to it: {added[2]}, scan {added[0]:.2f} s, peak {added[1]:.0f} MB")
        if args.cliff:
            cliff(tessera, work, args.cliff)


if __name__ == "__main__":
    main()
