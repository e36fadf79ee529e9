#!/usr/bin/python3
"""HDR and SDR HEIF/AVIF renditions against references made outside Tessera.

Every HEIF and AVIF of the shared corpus that `tessera inspect --json` calls HDR (PQ or HLG):
its 256 square (`tessera thumb --size 256`) against the same square tone-mapped by FFmpeg,
from libheif's own decode (`heif-dec`, 16-bit PNG): zscale to linear light with 203 nits as
1.0 (BT.2408's reference white, as Tessera), the primaries to BT.709, `tonemap=mobius` (linear
below its knee, like BT.2390's EETF), sRGB's curve. The mean luma must be within 35 % (or 3
levels, for a near-black photo). And against the same chain with `tonemap=clip` (the exact
conversion of everything up to reference white, where the EETF changes nothing) the means of
16x16 blocks must differ by at most 10 levels on average: narrowing PQ to 8 bits, as Tessera did
before, differs by 40 and more. Every SDR one: its square against heif-dec's decode converted
to sRGB through its ICC profile by LittleCMS (Pillow's ImageCms; heif-dec turns it upright): mean absolute
difference at most 4 levels, so tone mapping never touches an SDR photo.

Usage: scripts/check-hdr.py TESSERA [--corpus DIR]
Needs heif-dec (libheif-examples 1.19), ffmpeg, and Debian's python3-pil and python3-numpy.
"""
import argparse
import concurrent.futures
import io
import os
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

# zscale's names for ITU-T H.273 colour primaries and transfer code points.
PRIMARIES = {1: "bt709", 9: "bt2020", 11: "smpte431", 12: "smpte432"}
TRANSFERS = {"pq": "smpte2084", "hlg": "arib-std-b67"}
SIZE = 256


def luma(rgb):
    return float(blocks(rgb, 1).mean())


def blocks(image, side=16):
    """Means of the luma of side x side blocks."""
    y = np.asarray(image, dtype=np.float64)[..., :3] @ [0.2126, 0.7152, 0.0722]
    h, w = y.shape[0] // side * side, y.shape[1] // side * side
    return y[:h, :w].reshape(h // side, side, w // side, side).mean(axis=(1, 3))


def square(image):
    """The centred square at SIZE, or at its own size when smaller (never enlarged, as Tessera)."""
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    out = min(SIZE, side)
    return image.crop((left, top, left + side, top + side)).resize((out, out), Image.LANCZOS)


def ours(tessera, path, work, memory):
    out = work / "ours.png"
    subprocess.run([tessera, "thumb", str(path), "--size", str(SIZE), "--memory-limit", memory, "-o", str(out)],
                   check=True, capture_output=True)
    return Image.open(out).convert("RGB")


def decoded(path, work, facts):
    """libheif's decode of the primary image, as heif-dec writes it (16-bit PNG for deeper
    images), upright. A file of several images gives theirs-1.png, theirs-2.png...: the
    primary is the one of the photo's displayed size, when only one has it."""
    for old in work.glob("theirs*.png"):
        old.unlink()
    subprocess.run(["heif-dec", "--quiet", str(path), str(work / "theirs.png")], check=True, capture_output=True)
    size = (facts["displayWidth"], facts["displayHeight"])
    # heif-dec exits 0 having written an empty file when libpng refuses the photo's ICC profile.
    candidates = [png for png in sorted(work.glob("theirs*.png")) if png.stat().st_size > 0 and Image.open(png).size == size]
    if len(candidates) != 1:
        raise LookupError(f"{len(candidates)} images of {size[0]}x{size[1]}")
    return candidates[0]


def tone_mapped(png, facts, work, operator):
    nclx = facts["nclx"]
    primaries = PRIMARIES.get(nclx["primaries"], "bt2020")
    raw = work / "mapped.rgb"
    chain = (f"zscale=tin={TRANSFERS[facts['hdr']]}:min=gbr:pin={primaries}:rin=full:t=linear:m=gbr:p={primaries}:r=full:npl=203,"
             f"format=gbrpf32le,zscale=p=bt709,tonemap={operator}:desat=0,zscale=t=iec61966-2-1:m=gbr:r=full:p=bt709,format=rgb24")
    probe = Image.open(png)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(png), "-vf", chain, "-f", "rawvideo", str(raw)], check=True)
    pixels = np.fromfile(raw, dtype=np.uint8).reshape(probe.height, probe.width, 3)
    return square(Image.fromarray(pixels))


def srgb(png):
    image = Image.open(png)
    profile = image.info.get("icc_profile")
    image = image.convert("RGB")
    if profile:
        image = ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(io.BytesIO(profile)), ImageCms.createProfile("sRGB"),
                                          renderingIntent=ImageCms.Intent.PERCEPTUAL)
    return square(image)


def check_file(tessera, corpus, path):
    """(name, "HDR" or "SDR" or None when skipped, whether it passed, the line to print)."""
    name = str(path.relative_to(corpus))
    facts = json.loads(subprocess.run([tessera, "inspect", "--json", str(path)],
                                      check=True, capture_output=True, text=True).stdout)
    if facts.get("error") or facts["width"] * facts["height"] > 100_000_000:
        return name, None, True, None
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        try:
            png = decoded(path, work, facts)
        except (subprocess.CalledProcessError, LookupError) as error:
            return name, None, True, f"skip {name}: heif-dec gives no single primary image ({error})"
        if facts.get("hdr"):
            square = ours(tessera, path, work, "1024")
            mine, reference = luma(square), luma(tone_mapped(png, facts, work, "mobius"))
            exact = float(np.abs(blocks(square) - blocks(tone_mapped(png, facts, work, "clip"))).mean())
            ok = abs(mine - reference) <= max(3, 0.35 * reference) and exact <= 10
            return name, "HDR", ok, (f"{'ok  ' if ok else 'FAIL'} HDR {facts['hdr']} {name}: mean luma {mine:.1f}, "
                                     f"reference {reference:.1f}; blocks {exact:.1f} from the exact conversion below white")
        reference = np.asarray(srgb(png), dtype=np.float64)
        mine = np.asarray(ours(tessera, path, work, "1024"), dtype=np.float64)
        difference = float(np.abs(mine - reference).mean()) if mine.shape == reference.shape else 255
        ok = difference <= 4
        return name, "SDR", ok, f"{'ok  ' if ok else 'FAIL'} SDR {name}: mean difference {difference:.2f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tessera")
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"))
    arguments = parser.parse_args()
    corpus = Path(arguments.corpus)
    if not corpus.is_dir():
        print(f"check-hdr: no corpus at {corpus}; nothing checked")
        return
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in {".heic", ".heif", ".hif", ".avif"}
                   and "broken" not in p.parts and "animated" not in p.parts)
    # One file per core at a time: heif-dec, FFmpeg and Tessera each decode a whole photo.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outcomes = list(pool.map(lambda path: check_file(arguments.tessera, corpus, path), files))
    failures = [name for name, kind, ok, line in outcomes if kind and not ok]
    hdr = sum(1 for _, kind, _, _ in outcomes if kind == "HDR")
    sdr = sum(1 for _, kind, _, _ in outcomes if kind == "SDR")
    for _, _, _, line in outcomes:
        if line:
            print(line)
    print(f"check-hdr: {hdr} HDR and {sdr} SDR files, {len(failures)} failed")
    if failures or hdr == 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
