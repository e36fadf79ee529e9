#!/usr/bin/env python3
"""The cluster's queue and workers on this machine (docs/SCALE.md "Sizing").

1. Claim and commit: a queue of synthetic jobs drained by 4 workers that render nothing
   (`tessera worker --no-render`, batch 1), against pgbench running the same claim and the
   same fenced commit, from 4 clients at batch 1: jobs a second, and the ratio.
2. Renditions a second with 1, 2 and 4 real workers on copies of the corpus's camera JPEGs,
   and `tessera scan` of the same library on one machine (all cores, SQLite) for reference;
   then what that predicts for 64 cores, on paper.

Usage: bench/cluster.py [--jobs N] [--copies N]. Needs root (the server runs as the postgres
user) and the shared build (scripts/build.sh, made here).
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import PROJECT, require_tools
from cluster_services import ACCESS_KEY, BUCKET, REGION, S3_PORT, SECRET_KEY, Postgres, Store

CORPUS = PROJECT.parent / "shared" / "corpus"

CLAIM = """
WITH picked AS (
    SELECT ctid FROM jobs WHERE state = 'pending' AND not_before <= now()
    ORDER BY file_id LIMIT 1 FOR UPDATE SKIP LOCKED),
claimed AS (
    UPDATE jobs SET state = 'leased', lease_token = (SELECT nextval('lease_tokens')), worker = 'pgbench',
        lease_until = now() + make_interval(secs => 60), attempts = jobs.attempts + 1
    WHERE jobs.ctid = ANY(ARRAY(SELECT ctid FROM picked))
    RETURNING jobs.file_id, jobs.lease_token, jobs.generation, jobs.attempts)
SELECT c.file_id AS id, c.lease_token AS token, c.generation AS generation, f.path
FROM claimed c CROSS JOIN LATERAL (SELECT * FROM files WHERE files.id = c.file_id OFFSET 0) f
UNION ALL SELECT 0, 0, 0, NULL LIMIT 1 \\gset
"""

# The worker's commit (WorkQueue.commit), one statement, with a record of the no-op renderer's size.
COMMIT = """
WITH fenced AS (
    DELETE FROM jobs USING files
    WHERE jobs.file_id = :id AND jobs.lease_token = :token AND jobs.state = 'leased' AND jobs.lease_until > now()
        AND files.id = jobs.file_id AND files.generation = :generation
    RETURNING jobs.file_id),
recorded AS (
    UPDATE files SET status = 'unsupported', record = '{"device":1,"inode":1,"mtimeNanoseconds":1,"size":1000,"status":"unsupported","unsupported":"not read (--no-render)","warnings":[]}'::jsonb,
        read_at = now(), read_by = 'pgbench', read_generation = generation, device = 1, inode = :id, size = 1000,
        mtime_ns = :id
    WHERE id IN (SELECT file_id FROM fenced) RETURNING id),
made AS (SELECT spec, object_key FROM unnest('{}'::text[], '{}'::text[]) AS t(spec, object_key)),
dropped AS (DELETE FROM renditions WHERE file_id IN (SELECT id FROM recorded) AND spec <> ALL('{}'::text[])),
stored AS (
    INSERT INTO renditions (file_id, spec, object_key)
    SELECT recorded.id, made.spec, made.object_key FROM recorded, made
    ON CONFLICT (file_id, spec) DO UPDATE SET object_key = excluded.object_key),
counted AS (
    UPDATE workers SET done = done + 1, seen_at = now() WHERE name = 'pgbench' AND EXISTS (SELECT 1 FROM recorded))
SELECT count(*) FROM recorded;
"""


def build():
    subprocess.run(["scripts/build.sh"], cwd=PROJECT, check=True)
    folder = subprocess.run(["scripts/build.sh", "--bin"], cwd=PROJECT, check=True, capture_output=True, text=True)
    return str(Path(folder.stdout.strip()) / "tessera")


def fill_queue(postgres, jobs):
    """`jobs` synthetic files, each queued."""
    postgres.sql("TRUNCATE jobs, renditions, files, workers RESTART IDENTITY")
    postgres.sql(
        "INSERT INTO files (path, album, root, device, inode, size, mtime_ns) "
        f"SELECT convert_to('/synthetic/' || n || '.jpg', 'UTF8'), '\\x2f'::bytea, '\\x2f'::bytea, 1, n, 1000, n "
        f"FROM generate_series(1, {jobs}) n")
    postgres.sql("INSERT INTO jobs (file_id, generation) SELECT id, generation FROM files")
    postgres.sql("INSERT INTO workers (name, host, pid) VALUES ('pgbench', 'localhost', 0)")
    postgres.sql("VACUUM ANALYZE")


def pgbench_rate(postgres, jobs, work, mode):
    script = work / "claim-commit.sql"
    # Each the worker's own statement, in a transaction of its own.
    script.write_text(CLAIM.strip() + "\n" + COMMIT.strip() + "\n")
    started = time.monotonic()
    result = subprocess.run(
        ["runuser", "-u", "postgres", "--", str(postgres.bin / "pgbench"), "-h", str(postgres.socket), "-U",
         "postgres", "-n", "-M", mode, "-c", "4", "-j", "2", "-t", str(jobs // 4), "-f", str(script), "postgres"],
        capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - started
    done = int(postgres.value("SELECT count(*) FROM files WHERE read_by = 'pgbench'"))
    tps = re.search(r"tps = ([\d.]+)", result.stdout)
    return done / elapsed, float(tps.group(1)) if tps else None


def workers_rate(tessera, config, environment, count, batch, extra=()):
    """Runs `count` workers until the queue is empty: the wall time, and the CPU time they used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    processes = [subprocess.Popen([tessera, "worker", "--config", str(config), "--until-idle", "--batch", str(batch),
                                   "--name", f"bench-{number}", *extra], env=environment,
                                  stderr=subprocess.DEVNULL) for number in range(count)]
    statuses = [process.wait() for process in processes]
    if any(statuses):
        sys.exit(f"a worker failed: {statuses}")
    elapsed = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--copies", type=int, default=4, help="copies of each camera JPEG in the library")
    arguments = parser.parse_args()
    require_tools({"pgbench": "postgresql-contrib", "psql": "postgresql-client"})
    if os.geteuid() != 0:
        sys.exit("bench/cluster.py: needs root (PostgreSQL runs as its own user)")
    tessera = build()
    work = Path(tempfile.mkdtemp(prefix="tessera-bench-cluster-"))
    os.chmod(work, 0o755)
    postgres, store = Postgres(work), Store(work)
    try:
        postgres.control("start")
        store.start()
        store.create_bucket()
        library = work / "library"
        library.mkdir()
        config = work / "cluster.yaml"
        config.write_text(f"roots: [{library}]\nindex_url: {postgres.url}\nrenditions_url: s3://{BUCKET}/bench/\n"
                          f"cache: {work / 'worker-cache'}\n")
        environment = dict(os.environ, AWS_ENDPOINT_URL=f"http://127.0.0.1:{S3_PORT}", AWS_ACCESS_KEY_ID=ACCESS_KEY,
                           AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION=REGION)
        # The schema, made by the first command that opens the index.
        subprocess.run([tessera, "status", "--config", str(config)], env=environment, check=True,
                       capture_output=True)

        print(f"claim and commit, batch 1, 4 clients, {arguments.jobs} jobs (a no-op renderer):")
        references = {}
        for mode in ("simple", "prepared"):
            fill_queue(postgres, arguments.jobs)
            references[mode], tps = pgbench_rate(postgres, arguments.jobs, work, mode)
            print(f"  pgbench -M {mode:8}, the same statements: {references[mode]:8.0f} jobs/s "
                  f"({tps:.0f} scripts/s as pgbench counts)")
        reference = max(references.values())
        fill_queue(postgres, arguments.jobs)
        elapsed, _ = workers_rate(tessera, config, environment, 4, 1, ["--no-render"])
        ours = arguments.jobs / elapsed
        print(f"  4 tessera workers --no-render:             {ours:8.0f} jobs/s ({elapsed:.1f} s, start and exit "
              f"included)")
        print(f"  ratio: {ours / references['simple']:.2f} of pgbench's rate, {ours / references['prepared']:.2f} of "
              f"its rate with prepared statements (target at least 0.5)")

        postgres.sql("TRUNCATE jobs, renditions, files, workers RESTART IDENTITY")
        photos = sorted(CORPUS.glob("camera/*.jpg"))
        for copy in range(arguments.copies):
            folder = library / f"copy-{copy}"
            folder.mkdir()
            for photo in photos:
                shutil.copyfile(photo, folder / photo.name)
                # Each copy its own content, so its renditions are made and stored anew.
                with open(folder / photo.name, "ab") as file:
                    file.write(bytes([copy]))
        files = len(photos) * arguments.copies
        print(f"\nrenditions, {files} camera JPEGs ({arguments.copies} copies of {len(photos)}), 4 renditions each:")
        local = work / "local.yaml"
        local.write_text(f"roots: [{library}]\nindex: {work / 'local.sqlite'}\ncache: {work / 'local-cache'}\n")
        started = time.monotonic()
        subprocess.run([tessera, "scan", "--config", str(local), "--json"], check=True, capture_output=True)
        one_machine = time.monotonic() - started
        print(f"  tessera scan, SQLite, all {os.cpu_count()} cores: {files / one_machine:6.1f} photos/s ({one_machine:.1f} s)")
        rates, cpu = {}, {}
        for count in (1, 2, 4):
            postgres.sql("TRUNCATE jobs, renditions, files, workers RESTART IDENTITY")
            subprocess.run([tessera, "scan", "--config", str(config)], env=environment, check=True, capture_output=True)
            elapsed, cpu[count] = workers_rate(tessera, config, environment, count, 2)
            renditions = int(postgres.value("SELECT count(*) FROM renditions"))
            rates[count] = files / elapsed
            print(f"  {count} worker{'s' if count > 1 else ' '}: {files / elapsed:6.1f} photos/s, "
                  f"{renditions / elapsed:6.1f} renditions/s ({elapsed:.1f} s; the workers' CPU "
                  f"{cpu[count] / files * 1000:.0f} ms a photo)")
        print(f"  4 workers against one machine's scan: {rates[4] * one_machine / files:.2f}")

        # The reading side: the SQLite file made whole with every rendition fetched, then a
        # reading command's update of it when nothing changed.
        stored = int(postgres.value("SELECT count(DISTINCT object_key) FROM renditions"))
        started = time.monotonic()
        subprocess.run([tessera, "export-index", "--config", str(config), "--out", str(work / "export.sqlite"),
                        "--renditions", str(work / "export-cache")], env=environment, check=True, capture_output=True)
        exported = time.monotonic() - started
        mirror = work / "mirror.yaml"
        mirror.write_text(config.read_text() + f"index: {work / 'export.sqlite'}\n")
        started = time.monotonic()
        subprocess.run([tessera, "list", "--config", str(mirror), "--limit", "1"], env=environment, check=True,
                       capture_output=True)
        listed = time.monotonic() - started
        print(f"\nexport-index, made whole: {files} photos, {stored} renditions fetched in {exported:.2f} s "
              f"({stored / exported:.0f} objects/s); list --limit 1 of it unchanged since: {listed * 1000:.0f} ms")
        # Here the database and the store share the two cores with the workers; on 64 cores of
        # workers alone, each core renders a photo per the workers' own CPU time a photo.
        per_core = files / cpu[1]
        print(f"\non paper, 64 cores of workers: {per_core * 64:.0f} photos/s ({per_core:.1f} a core: the workers' "
              f"CPU time a photo), {per_core * 64 * 4:.0f} renditions/s; that is {per_core * 64:.0f} claims and "
              f"commits a second at batch 1, of the {reference:.0f} this 2-core PostgreSQL ran for pgbench, or "
              f"{per_core * 64 / 4:.0f} claims at batch 4")
    finally:
        store.kill() if store.process else None
        subprocess.run(["runuser", "-u", "postgres", "--", str(postgres.bin / "pg_ctl"), "-D", str(postgres.data),
                        "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
