#!/usr/bin/env python3
"""Faces (docs/PEOPLE.md): what finding and describing them costs, what grouping a new face
costs as the library grows, and how well the grouping tells people apart.

- CPU a photo: `tessera scan --workers 1` of real photos with faces on and off, the difference
  over the photos: the corpus's camera photos (searched at 1,024 px; target: at most 80 ms), and
  the small photos of ../shared/faces/people (upsampled); the peak memory of each.
- Grouping a new face: an index of N faces already grouped (N = 100,000 and 1,000,000 by default,
  of N / 20 people, each person's faces a cloud of the spread dlib's descriptors show, 0.35 apart
  on average) is made directly in SQLite, without its index over the descriptors; a `tessera scan`
  makes that index (its log line: the time) and groups 1,000 new faces of those people (its log
  line: the time a face), and how many joined their own person is counted.
- Accuracy on the labelled faces: the pairs of one person's photos in one person, of two people's
  apart; purity and completeness of the people.

Usage: bench/faces.py [--faces 100000 1000000]
"""
import argparse
import os
import random
import re
import sqlite3
import struct
import subprocess
import tempfile
from pathlib import Path

from common import tessera_binary

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"



def mean():
    """The descriptors' mean, as Sources/TesseraIndex/FaceBuckets.swift has it."""
    text = (PROJECT / "Sources/TesseraIndex/FaceBuckets.swift").read_text()
    start = "static let mean: [Float] = ["
    body = text[text.index(start) + len(start):]
    return [float(v) for v in re.findall(r"-?\d+\.\d+", body[:body.index("]")])]


def scan(tessera, root, store, *extra):
    run = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", tessera, "scan", "-v", str(root), *store, *extra],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(run.stderr[-2000:])
    user, system, peak = run.stderr.strip().splitlines()[-1].split()
    return float(user) + float(system), int(peak) / 1024, run.stderr


def cost(tessera, work):
    """CPU a photo with faces on less with them off, for camera-sized photos (the corpus's: the
    target's) and for small ones (`people/`, under 1,000 px: upsampled, so four times the search)."""
    folders = {"camera-sized": SHARED / "corpus/camera", "small": SHARED / "faces/people"}
    peaks = {True: 0.0, False: 0.0}
    for name, folder in folders.items():
        photos = sum(1 for path in folder.rglob("*") if path.suffix.lower() in (".jpg", ".jpeg"))
        cpu = {}
        for faces in (True, False):
            config = work / f"faces-{faces}.yaml"
            config.write_text(f"faces: {'true' if faces else 'false'}\nworkers: 1\n")
            store = ["--config", str(config), "--index", str(work / f"cost-{faces}-{name}.sqlite"),
                     "--cache", str(work / f"cost-{faces}-{name}")]
            cpu[faces], megabytes, _ = scan(tessera, folder, store)
            peaks[faces] = max(peaks[faces], megabytes)
        target = " (target ≤ 80)" if name == "camera-sized" else ""
        print(f"faces a photo, {name}: {1000 * (cpu[True] - cpu[False]) / photos:.0f} ms of CPU{target},"
              f" over {photos} real photos with one worker")
    print(f"peak {peaks[True]:.0f} MB with faces, {peaks[False]:.0f} MB without")


def duration(text):
    """Seconds in a duration as the log writes it: "820 ms", "4.0 s", "1 min 15 s"."""
    units = {"min": 60, "s": 1, "ms": 0.001}
    return sum(float(value) * units[unit] for value, unit in re.findall(r"([0-9.]+) (min|ms|s)\b", text))


def grouping(tessera, work, count, centre):
    rng = random.Random(count)
    people = max(1, count // 20)
    centres = [[c + rng.gauss(0, 0.07) for c in centre] for _ in range(people)]

    def face(person):
        return [v + rng.gauss(0, 0.022) for v in centres[person]]
    folder = work / f"group-{count}"
    (folder / "empty").mkdir(parents=True)
    store = ["--index", str(folder / "index.sqlite"), "--cache", str(folder / "cache")]
    scan(tessera, folder / "empty", store, "--config", str(work / "faces-True.yaml"))
    with sqlite3.connect(folder / "index.sqlite") as db:
        db.execute("INSERT INTO albums (id, path, root, name) VALUES (1, x'2f6c6962', x'2f6c6962', 'lib')")
        db.executemany(
            "INSERT INTO photos (id, path, path_text, album_id, device, inode, size, mtime_ns, status, format, width,"
            " height, display_width, display_height, date_source, content_hash) VALUES (?, ?, ?, 1, 1, ?, 1000, 0,"
            " 'ok', 'jpeg', 100, 100, 100, 100, 'undated', ?)",
            ((n + 1, f"/lib/{n}.jpg".encode(), f"/lib/{n}.jpg", n, f"{n:016x}") for n in range(count + 1000)))
        db.executemany("INSERT INTO people (id) VALUES (?)", ((p + 1,) for p in range(people)))
        new_people = []
        for start in range(0, count + 1000, 10_000):
            numbers = range(start, min(count + 1000, start + 10_000))
            owners = [rng.randrange(people) for _ in numbers]
            descriptors = [face(person) for person in owners]
            db.executemany(
                "INSERT INTO faces (id, photo_id, x, y, width, height, confidence, descriptor, person_id, assigned_by)"
                " VALUES (?, ?, 0.4, 0.4, 0.2, 0.2, 1, ?, ?, ?)",
                ((n + 1, n + 1, struct.pack("<128f", *d), p + 1 if n < count else None, "auto" if n < count else None)
                 for n, p, d in zip(numbers, owners, descriptors)))
            new_people += [(n + 1, p + 1) for n, p in zip(numbers, owners) if n >= count]
        # (no index over the descriptors: the scan makes it, as it does for an index from before it)
        db.execute("DELETE FROM state WHERE key = 'face_bucket_bits'")
    _, peak, log = scan(tessera, folder / "empty", store, "--config", str(work / "faces-True.yaml"))
    took = re.search(r"(\d+) faces? given a person in ((?:[0-9.]+ (?:min|ms|s) ?)+)", log)
    made = re.search(r"the descriptors of \d+ faces? made again in ((?:[0-9.]+ (?:min|ms|s) ?)+)", log)
    if not took or not made:
        raise SystemExit(log[-2000:])
    seconds, index_seconds = duration(took.group(2)), duration(made.group(1))
    with sqlite3.connect(folder / "index.sqlite") as db:
        joined = sum(1 for face, person in new_people
                     if db.execute("SELECT person_id FROM faces WHERE id = ?", (face,)).fetchone()[0] == person)
    print(f"{count:>9,} faces of {people:,} people: a new face grouped in {1000 * seconds / 1000:.2f} ms;"
          f" {joined} of 1,000 joined their own person; the index over them made in {index_seconds:.1f} s;"
          f" scan peak {peak:.0f} MB")


def accuracy(tessera, work):
    for folder in ("johns", "people"):
        store = ["--index", str(work / f"acc-{folder}.sqlite"), "--cache", str(work / f"acc-{folder}")]
        scan(tessera, SHARED / "faces" / folder, store, "--config", str(work / "faces-True.yaml"))
        with sqlite3.connect(work / f"acc-{folder}.sqlite") as db:
            rows = db.execute("SELECT p.path_text, f.person_id FROM faces f JOIN photos p ON p.id = f.photo_id").fetchall()
        # One person's photos: the folder they lie in (people/test holds photos of several: left out).
        labelled = [(Path(path).parent.name, person) for path, person in rows if Path(path).parent.name != "test"]
        together = apart = same_pairs = other_pairs = 0
        for i, (a, pa) in enumerate(labelled):
            for b, pb in labelled[i + 1:]:
                if a == b:
                    same_pairs += 1
                    together += pa == pb
                else:
                    other_pairs += 1
                    apart += pa != pb
        groups = {}
        for identity, person in labelled:
            groups.setdefault(person, []).append(identity)
        purity = sum(max(g.count(i) for i in set(g)) for g in groups.values()) / max(1, len(labelled))
        identities = {i for i, _ in labelled}
        completeness = sum(max(sum(1 for j, p in labelled if j == i and p == q) for q in groups)
                           for i in identities) / max(1, len(labelled))
        print(f"{folder}: {len(identities)} people, {len(groups)} found; pairs of one person together"
              f" {together}/{same_pairs} ({100 * together / max(1, same_pairs):.0f} %, target ≥ 80), of two apart"
              f" {apart}/{other_pairs} ({100 * apart / max(1, other_pairs):.0f} %, target ≥ 95);"
              f" purity {purity:.2f}, completeness {completeness:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faces", type=int, nargs="*", default=[100_000, 1_000_000])
    args = parser.parse_args()
    if not (SHARED / "faces").is_dir():
        raise SystemExit(f"bench/faces.py: no {SHARED / 'faces'}: it needs the labelled faces")
    tessera = Path(tessera_binary())
    subprocess.run([PROJECT / "scripts/install-faces.sh"], check=True)
    # (the models where the test build's binary has them, whichever binary is measured)
    os.environ.setdefault("TESSERA_FACE_MODELS", subprocess.run(
        [PROJECT / "scripts/build.sh", "--bin"], capture_output=True, text=True, check=True).stdout.strip() + "/faces")
    with tempfile.TemporaryDirectory(prefix="tessera-faces-") as work:
        work = Path(work)
        cost(tessera, work)
        accuracy(tessera, work)
        centre = mean()
        for count in args.faces:
            grouping(tessera, work, count, centre)


if __name__ == "__main__":
    main()
