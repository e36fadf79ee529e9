#!/usr/bin/python3
"""Colour accuracy of Tessera's renditions on every ICC-tagged photo of the shared corpus.

For each JPEG or PNG with an embedded ICC profile, `tessera thumb --fit SIZE` makes the
rendition a page would show; the reference is the same photo converted to sRGB by
LittleCMS through Pillow's ImageCms (perceptual intent), turned upright and resized to
the rendition's size with Lanczos. Both are compared on the means of 16x16 blocks, in
CIELAB, with CIEDE2000. Fails when any photo's mean exceeds the limit (1.0 by default).

Usage: scripts/check-colour.py TESSERA [--corpus DIR] [--fit SIZE] [--limit DE]
Needs Debian's python3-pil and python3-numpy (run it with /usr/bin/python3).
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from srgb_reference import upright_srgb

BLOCK = 16


def srgb_to_lab(rgb):
    """sRGB (0-255, ..., 3) to CIELAB (D65)."""
    c = rgb / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def ciede2000(lab1, lab2):
    """CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation), elementwise."""
    L1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    L2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cbar = (C1 + C2) / 2
    G = 0.5 * (1 - np.sqrt(Cbar ** 7 / (Cbar ** 7 + 25.0 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dh = h2p - h1p
    dh = np.where(C1p * C2p == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lbarp, Cbarp = (L1 + L2) / 2, (C1p + C2p) / 2
    hsum = h1p + h2p
    hbarp = np.where(C1p * C2p == 0, hsum,
                     np.where(np.abs(h1p - h2p) <= 180, hsum / 2,
                              np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2)))
    T = (1 - 0.17 * np.cos(np.radians(hbarp - 30)) + 0.24 * np.cos(np.radians(2 * hbarp))
         + 0.32 * np.cos(np.radians(3 * hbarp + 6)) - 0.20 * np.cos(np.radians(4 * hbarp - 63)))
    dtheta = 30 * np.exp(-(((hbarp - 275) / 25) ** 2))
    Rc = 2 * np.sqrt(Cbarp ** 7 / (Cbarp ** 7 + 25.0 ** 7))
    Sl = 1 + 0.015 * (Lbarp - 50) ** 2 / np.sqrt(20 + (Lbarp - 50) ** 2)
    Sc, Sh = 1 + 0.045 * Cbarp, 1 + 0.015 * Cbarp * T
    Rt = -np.sin(np.radians(2 * dtheta)) * Rc
    return np.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh))


def block_means(rgb):
    # A photo smaller than a block is one block: before, it gave no blocks, a NaN, and no verdict.
    block = min(BLOCK, rgb.shape[0], rgb.shape[1])
    h, w = rgb.shape[0] // block * block, rgb.shape[1] // block * block
    blocks = rgb[:h, :w].reshape(h // block, block, w // block, block, 3)
    return blocks.mean(axis=(1, 3))


def reference(path, size):
    """The photo in sRGB, upright, at `size` (transparent pixels over white, the renditions'
    default background)."""
    return upright_srgb(path).resize(size, Image.LANCZOS)


def tagged_photos(corpus):
    for path in sorted(corpus.rglob("*")):
        if path.suffix.lower() not in (".jpg", ".jpeg", ".png") or "broken" in path.parts:
            continue
        try:
            with Image.open(path) as image:
                # 12-bit JPEGs are not decoded by Tessera (nor by Pillow).
                if image.info.get("icc_profile") and image.mode in ("RGB", "L", "CMYK", "RGBA", "LA", "P"):
                    yield path
        except Exception:
            continue


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tessera")
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parent.parent / "../shared/corpus"))
    parser.add_argument("--fit", type=int, default=1024)
    parser.add_argument("--limit", type=float, default=1.0)
    arguments = parser.parse_args()
    corpus = Path(arguments.corpus).resolve()
    if not corpus.is_dir():
        print(f"check-colour: no corpus at {corpus}; skipped (needs ../shared/corpus beside the project)")
        return 0
    worst, failures, count = 0.0, [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for number, path in enumerate(tagged_photos(corpus)):
            output = Path(scratch) / f"{number}.jpg"
            run = subprocess.run([arguments.tessera, "thumb", str(path), "--fit", str(arguments.fit), "-o", str(output)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                failures.append(f"{path.relative_to(corpus)}: tessera thumb failed: {run.stderr.strip()}")
                continue
            with Image.open(output) as rendition:
                ours = np.asarray(rendition.convert("RGB"), dtype=np.float64)
            theirs = np.asarray(reference(path, (ours.shape[1], ours.shape[0])), dtype=np.float64)
            delta = ciede2000(srgb_to_lab(block_means(ours)), srgb_to_lab(block_means(theirs))).mean()
            count += 1
            worst = max(worst, delta)
            verdict = "ok" if delta <= arguments.limit else "TOO FAR"  # a NaN is too far too
            print(f"{delta:6.2f}  {verdict:7}  {path.relative_to(corpus)}")
            if not delta <= arguments.limit:
                failures.append(f"{path.relative_to(corpus)}: mean ΔE2000 {delta:.2f} > {arguments.limit}")
    print(f"check-colour: {count} ICC-tagged photos, worst mean ΔE2000 {worst:.2f} (limit {arguments.limit})")
    if count == 0:
        failures.append("no ICC-tagged photo found in the corpus")
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
