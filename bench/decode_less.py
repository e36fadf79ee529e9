#!/usr/bin/env python3
"""Decode-less benchmark: 256 px squares from baseline, progressive and preview-carrying JPEGs.

Usage: bench/decode_less.py [FOLDER] [--repeat N] [--size S]
Default folder: ../shared/corpus/large. Three kinds of file are made from each photo there:
the photo itself (baseline), a progressive re-encode of it (`jpegtran -progressive`, the same
coefficients), and the photo with an MPF large thumbnail (1616 px on its long side, as Sony
cameras write) appended. For each kind, one Tessera worker makes S×S squares of every file,
against vipsthumbnail (centre crop, its best path) and the floor `djpeg -scale 1/8`. SSIM (luma)
is measured against a full-resolution reference: the exact centred square, upright, sRGB,
Lanczos to S. Also: peak RSS of one worker on a 24 MP progressive JPEG, and of a `tessera scan`
of the three kinds together (the mixed set) at the default settings.
"""
import argparse
import io
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_python, require_tools, ssim, tessera_binary, timed, upright_srgb

require_tools({"vipsthumbnail": "libvips-tools", "djpeg": "libjpeg-turbo-progs", "jpegtran": "libjpeg-turbo-progs",
               "/usr/bin/time": "time"})
require_python({"numpy": "numpy", "scipy": "scipy", "PIL": "Pillow"})
import numpy as np  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402




def reference_square(path, size):
    """The exact centred square of the upright sRGB photo, Lanczos to size, as luma."""
    image = upright_srgb(path)
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    square = image.crop((left, top, left + side, top + side)).resize((size, size), Image.LANCZOS)
    return np.asarray(square.convert("L"), dtype=np.float64)


def with_mpf_preview(photo, output):
    """`photo` with a 1616 px MPF large thumbnail of itself (stored frame, like a camera's)."""
    main = photo.read_bytes()
    with Image.open(photo) as image:
        scale = 1616 / max(image.size)
        small = image.convert("RGB").resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
        buffer = io.BytesIO()
        small.save(buffer, "JPEG", quality=90)
        preview = buffer.getvalue()
    be = lambda value: struct.pack(">I", value)  # noqa: E731
    entries_offset = 8 + 2 + 12 * 3 + 4
    tiff = b"MM\0*" + be(8) + b"\0\3" + b"\xb0\x00\0\7" + be(4) + b"0100" + b"\xb0\x01\0\4" + be(1) + be(2)
    tiff += b"\xb0\x02\0\7" + be(32) + be(entries_offset) + be(0)
    length = 2 + 4 + len(tiff) + 32
    main_length = len(main) + 2 + length
    tiff += be(0x20030000) + be(main_length) + be(0) + bytes(4)
    tiff += be(0x010001) + be(len(preview)) + be(main_length - 10) + bytes(4)
    segment = b"\xff\xe2" + struct.pack(">H", length) + b"MPF\0" + tiff
    output.write_bytes(main[:2] + segment + main[2:] + preview)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(PROJECT / "../shared/corpus/large"))
    parser.add_argument("--repeat", type=int, default=3, help="times each file is listed (default 3)")
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args()
    photos = sorted(p for p in Path(args.folder).iterdir() if p.suffix.lower() in (".jpg", ".jpeg"))
    if not photos:
        sys.exit(f"no JPEG files in {args.folder}")
    tessera = tessera_binary()
    size = args.size
    results = {}

    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        kinds = {}
        for kind in ("baseline", "progressive", "mpf"):
            folder = work / kind
            folder.mkdir()
            files = []
            for i, photo in enumerate(photos):
                made = folder / f"f{i:03d}.jpg"
                if kind == "baseline":
                    made.symlink_to(photo.resolve())
                elif kind == "progressive":
                    subprocess.run(["jpegtran", "-copy", "all", "-progressive", "-outfile", str(made), str(photo)],
                                   check=True)
                else:
                    with_mpf_preview(photo, made)
                files.append(made)
            kinds[kind] = files

        mixed = work / "mixed"
        for kind, files in kinds.items():
            (mixed / kind).mkdir(parents=True)
            for made in files:
                (mixed / kind / made.name).write_bytes(made.read_bytes())
        _, _, mixed_rss = timed([tessera, "scan", str(mixed), "--index", str(work / "mixed.sqlite"),
                                 "--cache", str(work / "mixed-cache")])

        for kind, files in kinds.items():
            # Each repetition under a name of its own, so outputs do not overwrite each other.
            listing = work / f"{kind}-in"
            listing.mkdir()
            inputs = []
            for k in range(args.repeat):
                for made in files:
                    link = listing / f"{made.stem}_{k}.jpg"
                    link.symlink_to(made)
                    inputs.append(str(link))
            out = {tool: work / f"{kind}-{tool}" for tool in ("tessera", "vips")}
            for folder in out.values():
                folder.mkdir()
            names = " ".join(f"'{p}'" for p in inputs)
            tessera_time, tessera_rss = measure([tessera, "thumb", *inputs, "--size", str(size), "--out-dir",
                                                 str(out["tessera"]), "--workers", "1"])
            vips_time, _ = measure(["vipsthumbnail", *inputs, "-s", str(size), "--smartcrop", "centre",
                                    "-o", f"{out['vips']}/%s.jpg[Q=85]"])
            floor_time, _ = measure(f"for f in {names}; do djpeg -scale 1/8 \"$f\" >/dev/null; done", shell=True)
            scores = {"tessera": [], "vips": []}
            for photo, made in zip(photos, files):
                reference = reference_square(photo, size)
                for tool in scores:
                    with Image.open(out[tool] / f"{made.stem}_0.jpg") as rendition:
                        scores[tool].append(ssim(np.asarray(rendition.convert("L"), dtype=np.float64), reference))
            results[kind] = (len(inputs), tessera_time, vips_time, floor_time, tessera_rss,
                             statistics.mean(scores["tessera"]), statistics.mean(scores["vips"]))

        big = work / "24mp-progressive.jpg"
        with Image.open(photos[0]) as image:
            ImageOps.exif_transpose(image).convert("RGB").resize((6000, 4000), Image.LANCZOS).save(
                big, quality=92, progressive=True)
        (work / "big").mkdir()
        _, big_rss = measure([tessera, "thumb", str(big), "--size", str(size), "--out-dir", str(work / "big"),
                              "--workers", "1"], repeat=1)
        _, big_full_rss = measure([tessera, "thumb", str(big), "--size", "256", "--size", "512", "--fit", "1024",
                                   "--fit", "2048", "--out-dir", str(work / "big"), "--workers", "1"], repeat=1)

    print(f"{size} px squares, one Tessera worker, {len(photos)} photos × {args.repeat} per kind from {args.folder}\n")
    print(f"{'kind':<13}{'tessera ms':>11}{'vips ms':>9}{'djpeg 1/8':>11}{'× vips':>8}{'÷ floor':>9}"
          f"{'SSIM tessera':>14}{'SSIM vips':>11}")
    totals = [0.0, 0.0]
    for kind, (count, t, v, f, rss, st, sv) in results.items():
        totals[0] += t
        totals[1] += v
        print(f"{kind:<13}{1000 * t / count:>11.1f}{1000 * v / count:>9.1f}{1000 * f / count:>11.1f}"
              f"{v / t:>8.2f}{t / f:>9.2f}{st:>14.4f}{sv:>11.4f}")
    print()
    print(f"mixed set: {totals[1] / totals[0]:.2f}× vipsthumbnail's throughput (target ≥ 2×)")
    print(f"progressive: {results['progressive'][1] / results['progressive'][3]:.2f}× the time of djpeg -scale 1/8"
          f" (target ≤ 0.6×)")
    print(f"peak RSS, one worker, 24 MP progressive JPEG: {big_rss:.1f} MiB for a {size} square, "
          f"{big_full_rss:.1f} MiB for the default set (target < 128 MB)")
    print(f"peak RSS, tessera scan of the mixed set ({3 * len(photos)} files) at the defaults: {mixed_rss:.1f} MiB"
          f" (target < 128 MB)")


if __name__ == "__main__":
    main()
