"""Shared helpers for Tessera's benchmarks: tools, timing, peak memory, the built binary."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT / "scripts"))
from srgb_reference import upright_srgb  # noqa: E402  (the one reference, shared with the colour check)


def require_tools(tools):
    """Installs the Debian packages for missing tools when root; otherwise says what is missing."""
    missing = {tool: package for tool, package in tools.items() if shutil.which(tool) is None}
    if not missing:
        return
    packages = sorted(set(missing.values()))
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"installing {' '.join(packages)} …", file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    else:
        sys.exit(f"missing tools: {', '.join(missing)}; install: apt-get install {' '.join(packages)}")


def require_python(modules):
    """Imports modules, installing them with pip when missing."""
    for module, package in modules.items():
        try:
            __import__(module)
        except ImportError:
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", package], check=True)


def tessera_binary():
    """Builds Tessera as it ships (release, without the test build's testable imports) and returns
    the executable's path. In a build folder of its own: the run and test commands share .build/.
    TESSERA_BINARY names one already built instead."""
    if os.environ.get("TESSERA_BINARY"):
        return os.environ["TESSERA_BINARY"]
    build = ["swift", "build", "-c", "release", "--scratch-path", ".build-bench"]
    subprocess.run(build + ["--product", "tessera"], cwd=PROJECT, check=True, stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(build + ["--show-bin-path"], cwd=PROJECT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return str(Path(bin_dir) / "tessera")


def timed(command):
    """Wall seconds, CPU seconds (user + system, every thread) and peak RSS in MiB of one run."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{command!r} failed: {result.stderr[-2000:]}")
    rss, user, system = result.stderr.strip().splitlines()[-1].split()
    return elapsed, float(user) + float(system), int(rss) / 1024


def measure(command, repeat=3, shell=False):
    """Best wall time in seconds over `repeat` runs, and peak RSS in MiB (GNU time)."""
    best = float("inf")
    peak = 0.0
    for _ in range(repeat):
        wrapped = ["/usr/bin/time", "-f", "%M"] + (["bash", "-c", command] if shell else command)
        start = time.perf_counter()
        result = subprocess.run(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            raise RuntimeError(f"{command!r} failed: {result.stderr[-2000:]}")
        best = min(best, elapsed)
        peak = max(peak, int(result.stderr.strip().splitlines()[-1]) / 1024)
    return best, peak


def ssim(a, b):
    """Mean SSIM (Wang et al. 2004), Gaussian window σ = 1.5, of two 8-bit luma arrays; NaN when
    their shapes differ. Needs numpy and scipy (`require_python` them first)."""
    from scipy.ndimage import gaussian_filter

    if a.shape != b.shape:
        return float("nan")
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mu_a, mu_b = gaussian_filter(a, 1.5), gaussian_filter(b, 1.5)
    var_a = gaussian_filter(a * a, 1.5) - mu_a ** 2
    var_b = gaussian_filter(b * b, 1.5) - mu_b ** 2
    cov = gaussian_filter(a * b, 1.5) - mu_a * mu_b
    index = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a ** 2 + mu_b ** 2 + c1) * (var_a + var_b + c2))
    return float(index.mean())


def rendition_ssim(full, rendition_path, square):
    """SSIM (luma) of a rendition file against `full` (a Pillow image of the whole photo, upright):
    its exact centred square or whole frame, Lanczos to the rendition's own size."""
    import numpy as np
    from PIL import Image

    with Image.open(rendition_path) as image:
        size, ours = image.size, np.asarray(image.convert("L"), dtype=np.float64)
    region = full
    if square:
        side = min(full.size)
        left, top = (full.width - side) // 2, (full.height - side) // 2
        region = full.crop((left, top, left + side, top + side))
    return ssim(ours, np.asarray(region.resize(size, Image.LANCZOS).convert("L"), dtype=np.float64))
