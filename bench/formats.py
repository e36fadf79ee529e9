#!/usr/bin/env python3
"""Formats benchmark: HEIC and WebP with the default rendition set, RAW previews.

Usage: bench/formats.py [--repeat N]
Current iPhones (every HEIC of ../shared/corpus whose brands include iOS 17's `tmap`), HEIC
(every photo-sized .heic of ../shared/corpus/formats/heic) and WebP (its photo-sized
.webp files): one Tessera worker makes the default set (squares 256 and 512, fits 1024 and
2048) against vipsthumbnail making the same set with one call per rendition. SSIM (luma) of
every rendition against a reference from a full decode (vips for HEIC, Pillow for WebP),
upright, the exact centred square or whole frame, Lanczos to the rendition's size.
RAW (the corpus RAW files whose embedded preview LibRaw reads): `tessera thumb --size 256`
per file against `exiftool -b -PreviewImage FILE` (JpgFromRaw where that is empty) then
`vipsthumbnail -s 256`.
A 48 MP (8064x6048) grid HEIC, made here with heif-enc (libheif 1.19, x265) from 512x512 tiles
of a corpus photo enlarged: peak RSS of one Tessera worker making the default set, against
vipsthumbnail making its 2048 fit (both linked to the same libheif).
"""
import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import PROJECT, measure, rendition_ssim, require_python, require_tools, tessera_binary

require_tools({"vipsthumbnail": "libvips-tools", "vips": "libvips-tools", "exiftool": "libimage-exiftool-perl",
               "/usr/bin/time": "time", "heif-enc": "libheif-examples (1.19, scripts/install-libheif.sh)"})
require_python({"numpy": "numpy", "scipy": "scipy", "PIL": "Pillow"})
from PIL import Image, ImageOps  # noqa: E402

CORPUS = PROJECT / "../shared/corpus/formats"
SET = ["--size", "256", "--size", "512", "--fit", "1024", "--fit", "2048"]
RENDITIONS = [("-256", True, 256), ("-512", True, 512), ("-fit-1024", False, 1024), ("-fit-2048", False, 2048)]




def full_decode(path, work):
    """The photo upright at full size, as Pillow image."""
    if path.suffix.lower() == ".heic":
        png = work / (path.stem + "-full.png")
        subprocess.run(["vips", "autorot", str(path), str(png)], check=True)
        return Image.open(png).convert("RGB")
    return ImageOps.exif_transpose(Image.open(path)).convert("RGB")


def compare(kind, files, tessera, repeat, work):
    listing = work / f"{kind}-in"
    listing.mkdir()
    inputs = []
    for k in range(repeat):
        for f in files:
            link = listing / f"{f.stem}_{k}{f.suffix}"
            link.symlink_to(f.resolve())
            inputs.append(str(link))
    ours, theirs = work / f"{kind}-tessera", work / f"{kind}-vips"
    ours.mkdir()
    theirs.mkdir()
    t, _ = measure([tessera, "thumb", *inputs, *SET, "--out-dir", str(ours), "--workers", "1"], repeat=2)
    v = 0.0
    for suffix, square, size in RENDITIONS:
        command = ["vipsthumbnail", *inputs, "-s", str(size), "-o", f"{theirs}/%s{suffix}.jpg[Q=85]"]
        if square:
            command[3:3] = ["--smartcrop", "centre"]
        v += measure(command, repeat=2)[0]
    scores = {"tessera": [], "vips": []}
    for f in files:
        full = full_decode(f, work)
        for suffix, square, _ in RENDITIONS:
            scores["tessera"].append(rendition_ssim(full, ours / f"{f.stem}_0{suffix}.jpg", square))
            scores["vips"].append(rendition_ssim(full, theirs / f"{f.stem}_0{suffix}.jpg", square))
    count = len(inputs)
    print(f"{kind:<6} {count:>3} photos: tessera {1000 * t / count:7.1f} ms/photo, vips {1000 * v / count:7.1f} ms/photo "
          f"→ {v / t:.2f}× vips; SSIM tessera {statistics.mean(scores['tessera']):.4f}, "
          f"vips {statistics.mean(scores['vips']):.4f}")


def current_iphones():
    """HEICs whose ftyp lists `tmap` (iOS 17 and later: a tone-map item beside the SDR grid)."""
    found = []
    for path in sorted((PROJECT / "../shared/corpus").rglob("*")):
        if path.suffix.lower() == ".heic" and "broken" not in path.parts:
            with open(path, "rb") as f:
                head = f.read(64)
            if head[4:8] == b"ftyp" and b"tmap" in head[8:int.from_bytes(head[:4], "big")]:
                found.append(path)
    return found


def grid_memory(tessera, work):
    """Peak RSS of one worker on a 48 MP grid HEIC made here."""
    source = max((PROJECT / "../shared/corpus/large").glob("*.jpg"), key=lambda p: p.stat().st_size)
    tiles = work / "tiles"
    tiles.mkdir()
    with Image.open(source) as image:
        big = ImageOps.exif_transpose(image).convert("RGB").resize((8064, 6048), Image.LANCZOS)
    for row in range(0, 6048, 512):
        for column in range(0, 8064, 512):
            tile = Image.new("RGB", (512, 512))
            tile.paste(big.crop((column, row, min(column + 512, 8064), min(row + 512, 6048))))
            tile.save(tiles / f"tile-{row // 512:02}-{column // 512:02}.png")
    heic = work / "grid-48mp.heic"
    subprocess.run(["heif-enc", "-q", "80", "-T", str(tiles / "tile-00-00.png"), "--tiled-image-width", "8064",
                    "--tiled-image-height", "6048", "-o", str(heic)], check=True, stdout=subprocess.DEVNULL)
    out = work / "grid-out"
    out.mkdir()
    t, ours = measure([tessera, "thumb", str(heic), *SET, "--out-dir", str(out), "--workers", "1"], repeat=2)
    v, theirs = measure(["vipsthumbnail", str(heic), "-s", "2048", "-o", f"{out}/%s-vips.jpg"], repeat=2)
    print(f"\n48 MP grid HEIC ({source.name} enlarged, {heic.stat().st_size >> 20} MiB): tessera default set "
          f"{ours:.0f} MiB peak RSS, {t:.2f} s; vipsthumbnail 2048 fit {theirs:.0f} MiB, {v:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    tessera = tessera_binary()
    heic = [p for p in sorted((CORPUS / "heic").glob("*.heic")) if p.stat().st_size > 500_000 and "200MP" not in p.name]
    webp = [p for p in sorted((CORPUS / "webp").glob("*.webp")) if p.stat().st_size > 50_000 and "Anim" not in p.name]
    raws = [CORPUS / "raw" / name for name in ("Nikon D7100 (head).nef", "canon_eos_6d.dng", "Canon EOS D30.crw")]
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        work = Path(work)
        print("default rendition set, one worker, same run\n")
        compare("iPhone", current_iphones(), tessera, args.repeat * 3, work)
        compare("HEIC", heic, tessera, args.repeat, work)
        compare("WebP", webp, tessera, args.repeat, work)
        print("\nRAW, 256 px square per file (best of 3):")
        for raw in raws:
            out = work / "raw.jpg"
            ours = min(timed([tessera, "thumb", str(raw), "--size", "256", "-o", str(out)]) for _ in range(3))
            # exiftool's PreviewImage, else (CRW and others keep it under that name) JpgFromRaw.
            preview = work / "preview.jpg"
            peer = (f"exiftool -b -PreviewImage '{raw}' > {preview}; [ -s {preview} ] || exiftool -b -JpgFromRaw '{raw}'"
                    f" > {preview}; vipsthumbnail {preview} -s 256 --smartcrop centre -o {work}/peer.jpg")
            theirs = min(timed(peer, shell=True) for _ in range(3))
            print(f"  {raw.name:<26} tessera {1000 * ours:6.1f} ms, exiftool | vipsthumbnail {1000 * theirs:6.1f} ms"
                  f" → {theirs / ours:.2f}×")
        grid_memory(tessera, work)


def timed(command, shell=False):
    start = time.perf_counter()
    subprocess.run(command, shell=shell, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
