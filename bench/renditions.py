#!/usr/bin/env python3
"""Rendition benchmark: Tessera's default set from one decode against vipsthumbnail.

Usage: bench/renditions.py [FOLDER] [--repeat N]
Default folder: ../shared/corpus/large. The set is Tessera's default: squares of 256 and 512,
fits of 1024 and 2048, JPEG quality 85. Tessera makes the whole set in one call with one
worker; vipsthumbnail makes it with one call per rendition (its best path: shrink-on-load
for each). Reported: throughput, peak RSS, SSIM (luma) of every rendition against a reference
made from a full-resolution decode (colour-managed to sRGB with ImageCms, upright, the exact
centred square or the whole frame, Lanczos to the rendition's own size), the cost of the set
against a single 256 px square, peak RSS on a 24 MP baseline JPEG, and the median bytes a
photo's set costs over the shared corpus.
"""
import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_python, require_tools, ssim, tessera_binary, upright_srgb

require_tools({"vipsthumbnail": "libvips-tools", "/usr/bin/time": "time"})
require_python({"numpy": "numpy", "scipy": "scipy", "PIL": "Pillow"})
import numpy as np  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402

SQUARES, FITS = (256, 512), (1024, 2048)
TESSERA_SET = [a for s in SQUARES for a in ("--size", str(s))] + [a for f in FITS for a in ("--fit", str(f))]
SUFFIXES = [f"-{s}" for s in SQUARES] + [f"-fit-{f}" for f in FITS]






def luma(image):
    return np.asarray(image.convert("L"), dtype=np.float64)


def score(full, rendition_path, square):
    """SSIM of a rendition file against the reference at the rendition's own size."""
    with Image.open(rendition_path) as rendition:
        size = rendition.size
        ours = luma(rendition)
    region = full
    if square:
        side = min(full.size)
        left, top = (full.width - side) / 2, (full.height - side) / 2
        region = full.crop((round(left), round(top), round(left) + side, round(top) + side))
    return ssim(ours, luma(region.resize(size, Image.LANCZOS)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(PROJECT / "../shared/corpus/large"))
    parser.add_argument("--repeat", type=int, default=3, help="times each file is listed (default 3)")
    args = parser.parse_args()
    sources = sorted(p for p in Path(args.folder).iterdir() if p.suffix.lower() in (".jpg", ".jpeg"))
    if not sources:
        sys.exit(f"no JPEG files in {args.folder}")
    tessera = tessera_binary()

    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        (work / "in").mkdir()
        inputs = []
        for k in range(args.repeat):
            for i, source in enumerate(sources):
                link = work / "in" / f"f{i:03d}_{k}.jpg"
                link.symlink_to(source.resolve())
                inputs.append(str(link))
        out = {name: work / name for name in ("tessera", "single", "vips")}
        for folder in out.values():
            folder.mkdir()

        tessera_time, tessera_rss = measure(
            [tessera, "thumb", *inputs, *TESSERA_SET, "--out-dir", str(out["tessera"]), "--workers", "1"])
        single_time, _ = measure(
            [tessera, "thumb", *inputs, "--size", "256", "--out-dir", str(out["single"]), "--workers", "1"])
        vips_time, vips_rss = 0.0, 0.0
        for size in SQUARES:
            seconds, rss = measure(["vipsthumbnail", *inputs, "-s", str(size), "--smartcrop", "centre",
                                    "-o", f"{out['vips']}/%s-{size}.jpg[Q=85]"])
            vips_time, vips_rss = vips_time + seconds, max(vips_rss, rss)
        for size in FITS:
            seconds, rss = measure(["vipsthumbnail", *inputs, "-s", str(size), "-o",
                                    f"{out['vips']}/%s-fit-{size}.jpg[Q=85]"])
            vips_time, vips_rss = vips_time + seconds, max(vips_rss, rss)

        # Quality on the first listing of each file, rendition by rendition.
        quality = {tool: {suffix: [] for suffix in SUFFIXES} for tool in ("tessera", "vips")}
        for i, source in enumerate(sources):
            full = upright_srgb(source)
            for suffix in SUFFIXES:
                for tool in quality:
                    quality[tool][suffix].append(score(full, out[tool] / f"f{i:03d}_0{suffix}.jpg", "fit" not in suffix))

        # Peak memory on a 24 MP baseline JPEG.
        big = work / "24mp.jpg"
        with Image.open(sources[0]) as image:
            ImageOps.exif_transpose(image).convert("RGB").resize((6000, 4000), Image.LANCZOS).save(
                big, quality=92, progressive=False)
        (work / "big").mkdir()
        _, big_rss = measure([tessera, "thumb", str(big), *TESSERA_SET, "--out-dir", str(work / "big"),
                              "--workers", "1"], repeat=1)

        # Bytes per photo over the whole shared corpus.
        corpus = PROJECT / "../shared/corpus"
        median_bytes = median_photo_bytes = None
        if corpus.is_dir():
            (work / "corpus-in").mkdir()
            (work / "corpus-out").mkdir()
            photos = [p for p in corpus.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                      and "broken" not in p.parts]
            for n, photo in enumerate(photos):
                (work / "corpus-in" / f"c{n:04d}{photo.suffix.lower()}").symlink_to(photo.resolve())
            subprocess.run([tessera, "thumb", *map(str, sorted((work / "corpus-in").iterdir())), *TESSERA_SET,
                            "--out-dir", str(work / "corpus-out")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            per_photo = {}
            for rendition in (work / "corpus-out").iterdir():
                stem = rendition.name.split("-")[0]
                per_photo[stem] = per_photo.get(stem, 0) + rendition.stat().st_size
            median_bytes = statistics.median(per_photo.values()) if per_photo else None
            # The corpus is mostly small test images (PNG suite, orientation sets): the
            # median over camera-sized photos (2 MP and up) is what a library costs.
            megapixels = {}
            for n, photo in enumerate(photos):
                try:
                    with Image.open(photo) as image:
                        megapixels[f"c{n:04d}"] = image.width * image.height / 1e6
                except Exception:
                    continue
            large = [size for stem, size in per_photo.items() if megapixels.get(stem, 0) >= 2]
            median_photo_bytes = statistics.median(large) if large else None

    count = len(inputs)
    print(f"{count} photos ({len(sources)} files × {args.repeat}) from {args.folder}; "
          f"set: squares {', '.join(map(str, SQUARES))}, fits {', '.join(map(str, FITS))}\n")
    print(f"{'tool':<40}{'ms/photo':>10}{'photos/s':>10}{'peak RSS MiB':>14}")
    print(f"{'tessera, whole set, 1 worker':<40}{1000 * tessera_time / count:>10.1f}{count / tessera_time:>10.2f}"
          f"{tessera_rss:>14.1f}")
    print(f"{'vipsthumbnail, one call per rendition':<40}{1000 * vips_time / count:>10.1f}{count / vips_time:>10.2f}"
          f"{vips_rss:>14.1f}")
    print(f"{'tessera, one 256 square, 1 worker':<40}{1000 * single_time / count:>10.1f}{count / single_time:>10.2f}")
    print(f"\n{'SSIM (luma) by rendition':<28}{'tessera':>10}{'vips':>10}")
    for suffix in SUFFIXES:
        name = ("fit " + suffix[5:]) if "fit" in suffix else ("square " + suffix[1:])
        t, v = (statistics.mean(quality[tool][suffix]) for tool in ("tessera", "vips"))
        print(f"{name:<28}{t:>10.4f}{v:>10.4f}")
    print()
    print(f"throughput vs vipsthumbnail (1 worker): {vips_time / tessera_time:.2f}×  (target ≥ 1.5×)")
    print(f"cost of the set vs one 256 square: {tessera_time / single_time:.2f}×  (target ≤ 1.3×)")
    print(f"peak RSS, whole set of a 24 MP baseline JPEG, 1 worker: {big_rss:.1f} MiB  (target < 96 MB)")
    if median_bytes is not None:
        print(f"median bytes per photo for the set over the shared corpus: {median_bytes / 1024:.0f} KiB"
              f" (every file); {median_photo_bytes / 1024:.0f} KiB (photos of 2 MP and up)")


if __name__ == "__main__":
    main()
