#!/usr/bin/env python3
"""Daemon memory over repeated rescans of a library that changes between scans.

Usage: bench/daemon_memory.py [--rescans 50] [--photos 300]
Starts `tessera serve` on a generated library, then --rescans times: adds, modifies and
deletes a few photos and runs `tessera rescan --wait`; prints the daemon's RSS after each
rescan, and the growth from the 5th to the last.
"""
import argparse
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import tessera_binary


def rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rescans", type=int, default=50)
    parser.add_argument("--photos", type=int, default=300)
    args = parser.parse_args()
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        sample = work / "sample"
        subprocess.run([tessera, "sample-library", str(sample)], check=True, stdout=subprocess.DEVNULL)
        sources = sorted(sample.rglob("IMG_*.jpg"))
        photos = work / "photos"
        for i in range(args.photos):
            folder = photos / f"album{i % 10}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"p{i}.jpg").write_bytes(sources[i % len(sources)].read_bytes() + bytes([i % 251]))
        socket = work / "run/control.sock"
        daemon = subprocess.Popen([tessera, "serve", str(photos), "--socket", str(socket), "--index",
                                   str(work / "index.sqlite"), "--cache", str(work / "cache")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not socket.exists():
                time.sleep(0.1)
            subprocess.run([tessera, "rescan", "--wait", "--socket", str(socket)], check=True, stdout=subprocess.DEVNULL)
            rng = random.Random(7)
            samples = []
            for n in range(1, args.rescans + 1):
                existing = sorted(photos.rglob("*.jpg"))
                for path in rng.sample(existing, 3):
                    path.unlink()
                for path in rng.sample(sorted(photos.rglob("*.jpg")), 3):
                    path.write_bytes(path.read_bytes() + b"\0")
                for k in range(3):
                    source = sources[rng.randrange(len(sources))]
                    (photos / f"album{k}" / f"new{n}_{k}.jpg").write_bytes(source.read_bytes() + bytes([n % 251, k]))
                subprocess.run([tessera, "rescan", "--wait", "--socket", str(socket)], check=True,
                               stdout=subprocess.DEVNULL)
                samples.append(rss_kib(daemon.pid))
            print(f"daemon RSS after each of {args.rescans} rescans (MiB), {args.photos} photos, "
                  f"3 added + 3 modified + 3 deleted per rescan:")
            print(" ".join(f"{s / 1024:.1f}" for s in samples))
            base = samples[min(4, len(samples) - 1)]
            print(f"growth from rescan 5 to {args.rescans}: {(samples[-1] - base) / 1024:+.1f} MiB "
                  f"(min {min(samples) / 1024:.1f}, max {max(samples) / 1024:.1f})")
        finally:
            daemon.terminate()
            daemon.wait(timeout=15)


if __name__ == "__main__":
    main()
