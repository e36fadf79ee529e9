#!/usr/bin/env python3
"""Metadata-only throughput: `tessera inspect --json` against `exiftool -fast -j` and `exiv2 -pa`.

Usage: bench/metadata.py [FOLDER] [--repeat N]
Default folder: ../shared/corpus. Every JPEG and PNG below FOLDER is listed --repeat times
(as symlinks) and each tool reads all of them in one process; files per second and ratios.
Tessera is measured three times: given the list with --files-from (as for a library), given the
files as arguments (its argument parser's cost grows with the square of their number), and with
an index that holds every one of them (inspect then adds each file's row: album, renditions).
"""
import argparse
import subprocess
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_tools, tessera_binary

require_tools({"exiftool": "libimage-exiftool-perl", "exiv2": "exiv2", "/usr/bin/time": "time"})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(PROJECT / "../shared/corpus"))
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    sources = sorted(p for p in Path(args.folder).rglob("*")
                     if p.is_file() and p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        inputs = []
        for k in range(args.repeat):
            for i, source in enumerate(sources):
                link = Path(work) / f"f{i:04d}_{k}{source.suffix.lower()}"
                link.symlink_to(source.resolve())
                inputs.append(str(link))
        names = " ".join(f"'{p}'" for p in inputs)
        listing = Path(work) / "list"
        listing.write_bytes(b"\0".join(p.encode() for p in inputs))
        # An index of the very files (the links followed), for inspect to consult.
        index = Path(work) / "index" / "index.sqlite"
        config = Path(work) / "index" / "config.yaml"
        config.parent.mkdir()
        config.write_text("follow_symlinks: true\n")
        subprocess.run([tessera, "scan", work, "--config", str(config), "--index", str(index), "--cache",
                        str(config.parent / "cache")], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Bad files make each tool exit non-zero; the shell wrapper keeps that from aborting the run.
        runs = {
            "tessera inspect --json": f"'{tessera}' inspect --json --files-from '{listing}' >/dev/null; true",
            "  (files as arguments)": f"'{tessera}' inspect --json {names} >/dev/null; true",
            "  (all in an index)": f"'{tessera}' inspect --json --files-from '{listing}' --index '{index}' >/dev/null; true",
            "exiv2 -pa": f"exiv2 -pa {names} >/dev/null 2>&1; true",
            "exiftool -fast -j": f"exiftool -fast -j {names} >/dev/null 2>&1; true",
        }
        results = {label: measure(command, repeat=3, shell=True) for label, command in runs.items()}
    count = len(inputs)
    print(f"{count} files ({len(sources)} × {args.repeat}) from {args.folder}\n")
    print(f"{'tool':<26}{'files/s':>10}{'µs/file':>10}{'peak RSS MiB':>14}")
    for label, (seconds, rss) in results.items():
        print(f"{label:<26}{count / seconds:>10.0f}{1e6 * seconds / count:>10.0f}{rss:>14.1f}")
    ours = results["tessera inspect --json"][0]
    print(f"\nthroughput vs exiv2: {results['exiv2 -pa'][0] / ours:.1f}×;"
          f" vs exiftool: {results['exiftool -fast -j'][0] / ours:.1f}×")


if __name__ == "__main__":
    main()
