#!/usr/bin/env python3
"""JPEG XL benchmark: the 256 px square and the 1024 fit against vipsthumbnail, same files, same run.

Usage: bench/jxl.py [--repeat N]
The JPEG XL files are made here with cjxl (libjxl-tools) from the camera JPEGs of
../shared/corpus/large, four ways: recompressed JPEGs (cjxl's default for a JPEG: lossless,
with a `jbrd` box), lossy (-d 1), lossy progressive (--progressive_dc=1 --progressive_ac) and
lossless from a half-size PNG (-d 0). Both tools link the same libjxl. Tessera runs one worker;
vipsthumbnail runs once with one thread (VIPS_CONCURRENCY=1: the same one core) and once with
its default threads. SSIM (luma) of every rendition against the photo it was made from
(colour-managed to sRGB, upright, the exact centred square or the whole frame, Lanczos to the
rendition's size).
"""
import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

from common import PROJECT, measure, rendition_ssim, require_python, require_tools, tessera_binary, upright_srgb

require_tools({"vipsthumbnail": "libvips-tools", "cjxl": "libjxl-tools", "/usr/bin/time": "time"})
require_python({"numpy": "numpy", "scipy": "scipy", "PIL": "Pillow"})
from PIL import Image  # noqa: E402

KINDS = {
    "recompressed JPEG": [],
    "lossy": ["-j", "0", "-d", "1", "-e", "4"],
    "lossy progressive": ["-j", "0", "-d", "1", "-e", "4", "--progressive_dc=1", "--progressive_ac"],
    "lossless": ["-d", "0", "-e", "2"],
}
RENDITIONS = [("256", True, ["--size", "256"], ["-s", "256", "--smartcrop", "centre"]),
              ("fit 1024", False, ["--fit", "1024"], ["-s", "1024"])]


def make(kind, sources, work):
    """The kind's JPEG XL files, each with the upright sRGB photo it was made from."""
    folder = work / kind.replace(" ", "-")
    folder.mkdir()
    made = []
    for source in sources:
        reference = upright_srgb(source)
        origin = source
        if kind == "lossless":
            # Lossless files are large to make and to read: half-size photos keep the run short.
            reference = reference.resize((reference.width // 2, reference.height // 2), Image.LANCZOS)
            origin = folder / (source.stem + ".png")
            reference.save(origin)
        target = folder / (source.stem.replace(" ", "_") + ".jxl")
        subprocess.run(["cjxl", *KINDS[kind], str(origin), str(target), "--quiet"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        made.append((target, reference))
    return made


def compare(kind, made, tessera, repeat, work):
    # Each file under a name of its own per repeat: vips caches what it opened by name.
    listing = work / f"{kind}-in".replace(" ", "-")
    listing.mkdir()
    inputs = []
    for k in range(repeat):
        for path, _ in made:
            link = listing / f"{path.stem}_{k}{path.suffix}"
            link.symlink_to(path)
            inputs.append(str(link))
    for label, square, ours_args, vips_args in RENDITIONS:
        ours, theirs = work / f"{kind}-{label}-tessera", work / f"{kind}-{label}-vips"
        ours.mkdir()
        theirs.mkdir()
        t, t_rss = measure([tessera, "thumb", *inputs, *ours_args, "--out-dir", str(ours), "--workers", "1"], repeat=2)
        vips = ["vipsthumbnail", *inputs, *vips_args, "-o", f"{theirs}/%s.jpg[Q=85]"]
        v1, v_rss = measure(["env", "VIPS_CONCURRENCY=1", *vips], repeat=2)
        vn, _ = measure(vips, repeat=2)
        scores = {"tessera": [], "vips": []}
        for path, reference in made:
            scores["tessera"].append(rendition_ssim(reference, ours / f"{path.stem}_0.jpg", square))
            scores["vips"].append(rendition_ssim(reference, theirs / f"{path.stem}_0.jpg", square))
        count = len(inputs)
        print(f"{kind:<18} {label:<8} {count:>2} files: tessera {1000 * t / count:6.1f} ms ({t_rss:.0f} MiB), "
              f"vips 1 thread {1000 * v1 / count:6.1f} ms ({v_rss:.0f} MiB) → {v1 / t:.2f}×, "
              f"vips threaded {1000 * vn / count:6.1f} ms → {vn / t:.2f}×; "
              f"SSIM tessera {statistics.mean(scores['tessera']):.4f}, vips {statistics.mean(scores['vips']):.4f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    tessera = tessera_binary()
    sources = sorted((PROJECT / "../shared/corpus/large").glob("*.jpg"))
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        print("JPEG XL, one Tessera worker against vipsthumbnail, same files, same run\n")
        for kind in KINDS:
            compare(kind, make(kind, sources, work), tessera, args.repeat, work)


if __name__ == "__main__":
    main()
