#!/usr/bin/env python3
"""The cluster's queue and workers on this machine (docs/SCALE.md "Sizing").

1. Claim and commit: a queue of synthetic jobs drained by 4 workers that render nothing
   (`tessera worker --no-render`, batch 1), against pgbench running the same claim and the
   same fenced commit, from 4 clients at batch 1: jobs a second, and the ratio.
2. Renditions a second with 1, 2 and 4 real workers on copies of the corpus's camera JPEGs,
   and `tessera scan` of the same library on one machine (all cores, SQLite) for reference;
   then what that predicts for 64 cores, on paper.

Usage: bench/cluster.py [--jobs N] [--copies N]. Needs root (the server runs as the postgres
user) and a Cluster build (made here, in .build-cluster).
"""
import argparse
import os
import re
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
    SELECT file_id FROM jobs WHERE state = 'pending' AND not_before <= now()
    ORDER BY file_id LIMIT 1 FOR UPDATE SKIP LOCKED),
token AS (SELECT nextval('lease_tokens') AS value),
claimed AS (
    UPDATE jobs SET state = 'leased', lease_token = token.value, worker = 'pgbench',
        lease_until = now() + make_interval(secs => 60), attempts = jobs.attempts + 1
    FROM picked, token WHERE jobs.file_id = picked.file_id
    RETURNING jobs.file_id, jobs.lease_token, jobs.generation)
SELECT c.file_id AS id, c.lease_token AS token, c.generation AS generation, f.path
FROM claimed c JOIN files f ON f.id = c.file_id
UNION ALL SELECT 0, 0, 0, NULL LIMIT 1 \\gset
"""

COMMIT = """
BEGIN;
DELETE FROM jobs USING files
WHERE jobs.file_id = :id AND jobs.lease_token = :token AND jobs.state = 'leased' AND jobs.lease_until > now()
    AND files.id = jobs.file_id AND files.generation = :generation;
UPDATE files SET status = 'unsupported', record = '{"status":"unsupported"}'::jsonb, read_at = now(),
    read_by = 'pgbench', read_generation = generation WHERE id = :id;
DELETE FROM renditions WHERE file_id = :id;
UPDATE workers SET done = done + 1, seen_at = now() WHERE name = 'pgbench';
COMMIT;
"""


def build():
    subprocess.run(["swift", "build", "-c", "release", "--traits", "Cluster", "--scratch-path", ".build-cluster",
                    "--product", "tessera"], cwd=PROJECT, check=True)
    return str(PROJECT / ".build-cluster" / "release" / "tessera")


def fill_queue(postgres, jobs):
    """`jobs` synthetic files, each queued."""
    postgres.sql("TRUNCATE jobs, renditions, files, workers RESTART IDENTITY")
    postgres.sql(
        "INSERT INTO files (path, album, root, device, inode, size, mtime_ns, seen_scan) "
        f"SELECT convert_to('/synthetic/' || n || '.jpg', 'UTF8'), '\\x2f'::bytea, '\\x2f'::bytea, 1, n, 1000, n, 1 "
        f"FROM generate_series(1, {jobs}) n")
    postgres.sql("INSERT INTO jobs (file_id, generation) SELECT id, generation FROM files")
    postgres.sql("INSERT INTO workers (name, host, pid) VALUES ('pgbench', 'localhost', 0)")
    postgres.sql("VACUUM ANALYZE")


def pgbench_rate(postgres, jobs, work):
    script = work / "claim-commit.sql"
    script.write_text("BEGIN;\n" + CLAIM.strip() + "\nCOMMIT;\n" + COMMIT.strip() + "\n")
    started = time.monotonic()
    result = subprocess.run(
        ["runuser", "-u", "postgres", "--", str(postgres.bin / "pgbench"), "-h", str(postgres.socket), "-U",
         "postgres", "-n", "-c", "4", "-j", "2", "-t", str(jobs // 4), "-f", str(script), "postgres"],
        capture_output=True, text=True, check=True)
    elapsed = time.monotonic() - started
    done = int(postgres.value("SELECT count(*) FROM files WHERE read_by = 'pgbench'"))
    tps = re.search(r"tps = ([\d.]+)", result.stdout)
    return done / elapsed, float(tps.group(1)) if tps else None


def workers_rate(tessera, config, environment, count, batch, extra=()):
    started = time.monotonic()
    processes = [subprocess.Popen([tessera, "worker", "--config", str(config), "--until-idle", "--batch", str(batch),
                                   "--name", f"bench-{number}", *extra], env=environment,
                                  stderr=subprocess.DEVNULL) for number in range(count)]
    statuses = [process.wait() for process in processes]
    if any(statuses):
        sys.exit(f"a worker failed: {statuses}")
    return time.monotonic() - started


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
        fill_queue(postgres, arguments.jobs)
        reference, tps = pgbench_rate(postgres, arguments.jobs, work)
        print(f"  pgbench, the same transactions:   {reference:8.0f} jobs/s ({tps:.0f} scripts/s as pgbench counts)")
        fill_queue(postgres, arguments.jobs)
        elapsed = workers_rate(tessera, config, environment, 4, 1, ["--no-render"])
        ours = arguments.jobs / elapsed
        print(f"  4 tessera workers --no-render:    {ours:8.0f} jobs/s ({elapsed:.1f} s, start and exit included)")
        print(f"  ratio: {ours / reference:.2f} of pgbench's rate (target at least 0.5)")

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
        rates = {}
        for count in (1, 2, 4):
            postgres.sql("TRUNCATE jobs, renditions, files, workers RESTART IDENTITY")
            subprocess.run([tessera, "scan", "--config", str(config)], env=environment, check=True, capture_output=True)
            elapsed = workers_rate(tessera, config, environment, count, 2)
            renditions = int(postgres.value("SELECT count(*) FROM renditions"))
            rates[count] = files / elapsed
            print(f"  {count} worker{'s' if count > 1 else ' '}: {files / elapsed:6.1f} photos/s, "
                  f"{renditions / elapsed:6.1f} renditions/s ({elapsed:.1f} s)")
        print(f"  4 workers against one machine's scan: {rates[4] * one_machine / files:.2f}")
        per_core = rates[min(2, os.cpu_count() or 1)] / min(2, os.cpu_count() or 1)
        print(f"\non paper, 64 cores: {per_core * 64:.0f} photos/s if rendering stays CPU-bound "
              f"({per_core:.1f} a core here), which needs {per_core * 64 * 2:.0f} queue transactions/s "
              f"(claim and commit) of the {reference:.0f} jobs/s this machine's PostgreSQL gives at batch 1")
    finally:
        store.kill() if store.process else None
        subprocess.run(["runuser", "-u", "postgres", "--", str(postgres.bin / "pg_ctl"), "-D", str(postgres.data),
                        "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
