#!/usr/bin/env python3
"""Thumbnail benchmark: Tessera against vipsthumbnail, ImageMagick, GraphicsMagick and djpeg.

Usage: bench/thumbnails.py [FOLDER] [--repeat N] [--size S]
Default folder: ../shared/corpus/large. Every tool renders the same files (each listed
--repeat times) to a centred, upright S×S square at JPEG quality 85 in one process, and the
floor is `djpeg -scale 1/8` of the same files. Quality: SSIM (luma) of each tool's output
against a reference made from a full-size decode: ImageMagick cuts the exact centred square
at full resolution, then resizes it with its Lanczos filter. (Cropping after resizing, at a
whole output pixel, would put the reference itself up to half a pixel off centre.)
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_python, require_tools, ssim, tessera_binary

require_tools({"vipsthumbnail": "libvips-tools", "convert": "imagemagick", "mogrify": "imagemagick",
               "gm": "graphicsmagick",
               "djpeg": "libjpeg-turbo-progs", "/usr/bin/time": "time"})
require_python({"numpy": "numpy", "scipy": "scipy"})
import numpy as np  # noqa: E402


def load_luma(path):
    """Luma of an image as float64, through ImageMagick's PGM output."""
    data = subprocess.run(["convert", str(path), "-colorspace", "sRGB", "-depth", "8", "pgm:-"],
                          capture_output=True, check=True).stdout
    parts = data.split(maxsplit=4)
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height], dtype=np.uint8).reshape(height, width).astype(np.float64)




def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(PROJECT / "../shared/corpus/large"))
    parser.add_argument("--repeat", type=int, default=4, help="times each file is listed (default 4)")
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args()
    sources = sorted(p for p in Path(args.folder).iterdir() if p.suffix.lower() in (".jpg", ".jpeg"))
    if not sources:
        sys.exit(f"no JPEG files in {args.folder}")
    tessera = tessera_binary()
    cores = os.cpu_count() or 1
    size = args.size

    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        inputs = []
        (work / "in").mkdir()
        for k in range(args.repeat):
            for i, source in enumerate(sources):
                link = work / "in" / f"f{i:03d}_{k}.jpg"
                link.symlink_to(source.resolve())
                inputs.append(str(link))
        names = " ".join(f"'{p}'" for p in inputs)
        out = {tool: work / tool for tool in ("tessera1", "tesseraN", "vips", "magick", "gm")}
        for folder in out.values():
            folder.mkdir()
        hint = f"{2 * size}x{2 * size}"
        crop = [f"-thumbnail", f"{size}x{size}^", "-gravity", "center", "-extent", f"{size}x{size}", "-quality", "85"]
        runs = {
            "tessera (1 worker)": [tessera, "thumb", *inputs, "--size", str(size), "--out-dir", str(out["tessera1"]),
                                   "--workers", "1"],
            f"tessera ({cores} workers)": [tessera, "thumb", *inputs, "--size", str(size), "--out-dir",
                                           str(out["tesseraN"]), "--workers", str(cores)],
            "vipsthumbnail": ["vipsthumbnail", *inputs, "-s", str(size), "--smartcrop", "centre",
                              "-o", f"{out['vips']}/%s.jpg[Q=85]"],
            "ImageMagick": ["mogrify", "-path", str(out["magick"]), "-define", f"jpeg:size={hint}", "-auto-orient",
                            *crop, *inputs],
            # gm mogrify appends each input's path to -output-directory: run it on relative names.
            "GraphicsMagick": f"cd '{work / 'in'}' && gm mogrify -output-directory '{out['gm']}' -size {hint}"
                              f" -auto-orient {' '.join(repr(c) for c in crop)} "
                              + " ".join(f"'{Path(p).name}'" for p in inputs),
            "djpeg -scale 1/8 (floor)": f"for f in {names}; do djpeg -scale 1/8 \"$f\" >/dev/null; done",
        }
        results = {}
        for label, command in runs.items():
            seconds, rss = measure(command, shell=isinstance(command, str))
            results[label] = (seconds, rss)

        # Quality against a full-size Lanczos reference, on the first listing of each file.
        references = {}
        for i, source in enumerate(sources):
            reference = work / f"ref{i}.png"
            width, height = map(int, subprocess.run(
                ["convert", str(source), "-auto-orient", "-format", "%w %h", "info:"],
                capture_output=True, text=True, check=True).stdout.split())
            side = min(width, height)
            subprocess.run(["convert", str(source), "-auto-orient", "-gravity", "center", "-crop",
                            f"{side}x{side}+0+0", "+repage", "-filter", "Lanczos", "-resize", f"{size}x{size}",
                            str(reference)], check=True)
            references[i] = load_luma(reference)
        quality = {}
        for label, folder in [("tessera (1 worker)", out["tessera1"]), ("vipsthumbnail", out["vips"]),
                              ("ImageMagick", out["magick"]), ("GraphicsMagick", out["gm"])]:
            scores = [ssim(load_luma(folder / f"f{i:03d}_0.jpg"), references[i]) for i in references]
            quality[label] = sum(scores) / len(scores)
        quality[f"tessera ({cores} workers)"] = quality["tessera (1 worker)"]

    count = len(inputs)
    print(f"{count} thumbnails ({len(sources)} files × {args.repeat}) at {size} px from {args.folder}\n")
    print(f"{'tool':<28}{'ms/image':>10}{'images/s':>10}{'peak RSS MiB':>14}{'SSIM':>8}")
    for label, (seconds, rss) in results.items():
        score = quality.get(label)
        print(f"{label:<28}{1000 * seconds / count:>10.1f}{count / seconds:>10.1f}{rss:>14.1f}"
              f"{'' if score is None else f'{score:>8.4f}':>8}")
    one = results["tessera (1 worker)"][0]
    many = results[f"tessera ({cores} workers)"][0]
    vips = results["vipsthumbnail"][0]
    floor = results["djpeg -scale 1/8 (floor)"][0]
    print()
    print(f"throughput vs vipsthumbnail: 1 worker {vips / one:.2f}×, {cores} workers {vips / many:.2f}×")
    print(f"throughput vs ImageMagick:   1 worker {results['ImageMagick'][0] / one:.2f}×;"
          f" vs GraphicsMagick {results['GraphicsMagick'][0] / one:.2f}×")
    print(f"time vs djpeg -scale 1/8 floor: 1 worker {one / floor:.2f}×")


if __name__ == "__main__":
    main()
