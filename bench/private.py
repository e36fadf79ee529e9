#!/usr/bin/env python3
"""A private album against sigal's encrypt plugin, on the same camera JPEGs (the corpus's).

The one peer that encrypts a static album is sigal's `encrypt` plugin (AES-128-GCM, PBKDF2-SHA1 at
its default rounds; titles and EXIF stay in its HTML). Each tool makes its gallery of the same
photos from nothing twice, in the clear and encrypted, in this run:

- sigal 2.x (PyPI, in a venv of its own, with Pillow and cryptography): `sigal build`, without and
  with the plugin;
- Tessera: `scan` (its renditions), then `album build` without and with the folder private.

Printed: each build's wall time, the time encryption adds and its share of the encrypted build,
the bytes each writes, how many bytes a second each encrypts, and Tessera's encrypted gallery
against sigal's (time ratio, measured here). sigal makes two small images a photo (640 and 200
px, its defaults), Tessera four up to 2048 px and reads every fact: the ratio of whole galleries
compares unequal work; the encryption figures compare like with like.

Each build is made three times from nothing; the fastest counts.

Usage: bench/private.py
"""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import PROJECT, tessera_binary

CORPUS = PROJECT.parent / "shared" / "corpus"


VENV = PROJECT / ".build-bench" / "sigal-venv"


def sigal():
    """sigal's executable, installed once in a venv of its own beside the bench's build."""
    executable = VENV / "bin" / "sigal"
    if not executable.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", "sigal", "pillow", "cryptography"],
                       check=True)
    return str(executable)


def photos(folder):
    """The corpus's JPEGs that sigal's Pillow decodes (its encrypt plugin gives up on a gallery with
    one file it cannot read), in `folder`; their number. (Copies would not do: Tessera shows one
    photo of each set of copies.)"""
    candidates = sorted(str(path) for path in CORPUS.rglob("*") if path.suffix.lower() in (".jpg", ".jpeg")
                        and "broken" not in path.parts)
    readable = subprocess.run(
        [str(VENV / "bin" / "python"), "-c",
         "import sys\nfrom PIL import Image\nfor p in sys.argv[1:]:\n"
         "    try:\n        Image.open(p).load(); print(p)\n    except Exception:\n        pass",
         *candidates], check=True, capture_output=True, text=True).stdout.splitlines()
    for number, path in enumerate(readable):
        shutil.copyfile(path, folder / f"{number:03d}.jpg")
    return len(readable)


def fastest(command, out):
    """The fastest of three runs of `command`, each writing `out` from nothing; and its output."""
    times = []
    for _ in range(3):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        said = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        times.append((time.perf_counter() - start, said))
    return min(times)


def size(folder):
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS}: this bench uses its camera JPEGs")
    tessera = tessera_binary()
    with tempfile.TemporaryDirectory(prefix="tessera-private-bench-") as scratch:
        work = Path(scratch)
        album = work / "photos" / "Trip"
        album.mkdir(parents=True)
        peer = sigal()
        count = photos(album)
        print(f"private album: {count} camera JPEGs (the corpus's), one album; the fastest of three builds each")

        # sigal: its thumbnails and 1024-px images (its defaults), then the same encrypted.
        sigal_times = {}
        for encrypted in (False, True):
            config = work / ("sigal-encrypted.py" if encrypted else "sigal-clear.py")
            config.write_text(
                f"source = {str(work / 'photos')!r}\n"
                + ("plugins = ['sigal.plugins.encrypt']\n"
                   "encrypt_options = {'password': 'a bench passphrase', 'ask_password': True}\n" if encrypted else ""))
            out = work / ("sigal-encrypted" if encrypted else "sigal-clear")
            seconds, _ = fastest([peer, "build", "-c", str(config), str(work / "photos"), str(out)], out)
            sigal_times[encrypted] = (seconds, size(out))

        # Tessera: its renditions, then the site in the clear and with the album private.
        store = ["--index", str(work / "index.sqlite"), "--cache", str(work / "cache")]
        (work / "pass").write_text("a bench passphrase\n")
        (work / "clear.yaml").write_text("faces: false\n")
        (work / "private.yaml").write_text(
            f"faces: false\nprivate_albums:\n  - folder: Trip\n    passphrase_file: {work / 'pass'}\n")
        start = time.perf_counter()
        subprocess.run([tessera, "scan", str(work / "photos"), *store, "--config", str(work / "clear.yaml")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        scan = time.perf_counter() - start
        tessera_times = {}
        for encrypted in (False, True):
            out = work / ("site-encrypted" if encrypted else "site-clear")
            config = work / ("private.yaml" if encrypted else "clear.yaml")
            seconds, said = fastest([tessera, "album", "build", "--out", str(out), *store, "--config", str(config)], out)
            sealing = re.search(r"encrypted now in ([0-9.]+) s", said)
            tessera_times[encrypted] = (seconds, size(out), float(sealing.group(1)) if sealing else 0.0)

        for name, (clear, clear_bytes), (crypt, crypt_bytes) in (
                ("sigal", sigal_times[False], sigal_times[True]),
                ("tessera", (scan + tessera_times[False][0], tessera_times[False][1]),
                 (scan + tessera_times[True][0], tessera_times[True][1]))):
            added = crypt - clear
            print(f"    {name:8} in the clear {clear:7.2f} s {clear_bytes / 2**20:7.1f} MiB;  encrypted {crypt:7.2f} s "
                  f"{crypt_bytes / 2**20:7.1f} MiB;  encryption adds {added:6.2f} s ({added / crypt:.1%} of the "
                  "encrypted build)")
        sealing = tessera_times[True][2]
        sealed = size(work / "site-encrypted" / "private")
        print(f"    tessera's own count of its encryption: {sealing:.2f} s, "
              f"{sealing / (scan + tessera_times[True][0]):.1%} of scan and build, "
              f"{sealing / tessera_times[True][0]:.1%} of the album build (scan {scan:.2f} s)")
        sigal_rate = sigal_times[True][1] / max(sigal_times[True][0] - sigal_times[False][0], 1e-6) / 2**20
        tessera_rate = sealed / max(sealing, 1e-6) / 2**20
        print(f"    encrypted a second: tessera {tessera_rate:.0f} MiB (its sealed files over its count), sigal "
              f"{sigal_rate:.0f} MiB (its gallery over the time encryption adds): {tessera_rate / sigal_rate:.1f}×")
        print(f"    encrypted gallery from nothing: tessera {scan + tessera_times[True][0]:.2f} s, sigal "
              f"{sigal_times[True][0]:.2f} s: {sigal_times[True][0] / (scan + tessera_times[True][0]):.2f}× sigal's speed")


if __name__ == "__main__":
    main()
