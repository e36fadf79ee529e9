#!/usr/bin/env python3
"""Video renditions: Tessera's poster frame plus the default rendition set, against
`ffmpegthumbnailer -s 1024` (one rendition) and `ffmpeg -ss … -frames:v 1` piped into
`vipsthumbnail` (the same set), one worker each, in the same run.

Usage: bench/videos.py [--seconds S]
Inputs: the shared corpus's videos that decode, and 1080p and 4K H.264 and HEVC phone-like
clips (S seconds, default 6, a moving test pattern) made here with ffmpeg. Prints videos per
second, the ratios, and the peak RSS of one Tessera worker on the 4K HEVC clip.

Then the unchanged rescan of a library of --library files (default 5,000, 100 per folder) that
is 20 % video, against the same number of files all photos (best of 5 each): an unchanged
video must cost a rescan no more than an unchanged photo.
"""
import argparse
import tempfile
from pathlib import Path

from common import PROJECT, measure, require_tools, tessera_binary

require_tools({"ffmpeg": "ffmpeg", "ffmpegthumbnailer": "ffmpegthumbnailer", "vipsthumbnail": "libvips-tools",
               "/usr/bin/time": "time"})

SQUARES = (256, 512)
FITS = (1024, 2048)
CORPUS_VIDEOS = ["isom-avc1.mp4", "with-gps.mp4", "sample_mpeg4.mp4", "small_video.mp4", "video_rotate.mp4",
                 "quicktime-hvc1.mov", "with-gps.mov", "mkv.mkv", "webm.webm", "avi.avi", "sample.3gp",
                 "sample_iPod.m4v", "Sony ILCE-7M3 (A7M3).mts"]


def make_clips(folder, seconds):
    """Phone-like clips: 1080p and 4K, H.264 and HEVC, portrait by their display matrix."""
    import subprocess
    clips = []
    for size, label in (("1920x1080", "1080p"), ("3840x2160", "4k")):
        for encoder, codec in (("libx264", "h264"), ("libx265", "hevc")):
            path = Path(folder) / f"{label}-{codec}.mp4"
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=s={size}:r=30:d={seconds}",
                            "-c:v", encoder, "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p",
                            *(["-x265-params", "log-level=error"] if codec == "hevc" else []), str(path)], check=True)
            clips.append(str(path))
    return clips


def rescan_cost(tessera, work, files):
    """Seconds for an unchanged rescan of `files` photos, and of as many files a fifth of them videos."""
    import subprocess
    work = Path(work)
    tiny, clip = work / "tiny.jpg", work / "clip.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1", "-frames:v", "1", str(tiny)],
                   check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1", "-c:v", "libx264",
                    "-g", "5", str(clip)], check=True)
    photo, video = tiny.read_bytes(), clip.read_bytes()
    times = {}
    for label, every in (("photos only", 0), ("20 % video", 5)):
        root = work / f"library-{every}"
        for i in range(files):
            folder = root / f"d{i // 100:04d}"
            folder.mkdir(parents=True, exist_ok=True)
            # A byte after each file's end makes its content, and so its renditions, its own.
            if every and i % every == 0:
                (folder / f"VID_{i:06d}.mp4").write_bytes(video + i.to_bytes(4, "big"))
            else:
                (folder / f"IMG_{i:06d}.jpg").write_bytes(photo + i.to_bytes(4, "big"))
        store = ["--index", str(work / f"index-{every}.sqlite"), "--cache", str(work / f"cache-{every}")]
        subprocess.run([tessera, "scan", str(root), *store], check=True, stdout=subprocess.DEVNULL)
        times[label], _ = measure([tessera, "scan", str(root), *store], repeat=5)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--library", type=int, default=5000)
    args = parser.parse_args()
    tessera = tessera_binary()
    corpus = PROJECT / "../shared/corpus/media/videos"
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as work:
        videos = [str(corpus / name) for name in CORPUS_VIDEOS if (corpus / name).exists()]
        if not videos:
            print("(no ../shared/corpus beside the project: generated clips only)")
        videos += make_clips(work, args.seconds)
        names = " ".join(f"'{v}'" for v in videos)
        out = Path(work) / "out"
        out.mkdir()
        sizes = " ".join(f"--size {s}" for s in SQUARES) + " " + " ".join(f"--fit {f}" for f in FITS)
        # The peers seek to one second in (a quarter of shorter videos), as Tessera starts looking.
        peer_set = "; ".join(
            [f"vipsthumbnail \"$frame\" --size {s}x{s} --smartcrop centre -o \"{out}/v%s-{s}.jpg[Q=85]\"" for s in SQUARES]
            + [f"vipsthumbnail \"$frame\" --size {f} -o \"{out}/v%s-fit{f}.jpg[Q=85]\"" for f in FITS])
        loop = (f"for v in {names}; do d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 \"$v\"); "
                "t=$(python3 -c \"import sys; d=float(sys.argv[1] or 0); print(min(1, d / 4))\" \"$d\"); ")
        runs = {
            "tessera thumb (poster + 4 renditions)": f"'{tessera}' thumb {names} {sizes} --workers 1 --out-dir '{out}'",
            "ffmpegthumbnailer -s 1024 (1 rendition)":
                f"for v in {names}; do ffmpegthumbnailer -s 1024 -i \"$v\" -o '{out}/f.jpg' 2>/dev/null; done; true",
            "ffmpeg -ss + vipsthumbnail (4 renditions)":
                loop + f"frame='{out}/frame.png'; ffmpeg -v error -y -ss \"$t\" -i \"$v\" -frames:v 1 \"$frame\"; {peer_set}; done",
        }
        results = {label: measure(command, repeat=3, shell=True) for label, command in runs.items()}
        hevc4k = next(v for v in videos if v.endswith("4k-hevc.mp4"))
        _, peak = measure([tessera, "thumb", hevc4k, *sizes.split(), "--workers", "1", "--out-dir", str(out)], repeat=1)
        rescans = rescan_cost(tessera, work, args.library)
    print(f"{len(videos)} videos ({len(videos) - 4} from the corpus, 4 generated at 1080p and 4K, {args.seconds} s)\n")
    print(f"{'tool':<44}{'videos/s':>10}{'peak RSS MiB':>14}")
    for label, (seconds, rss) in results.items():
        print(f"{label:<44}{len(videos) / seconds:>10.1f}{rss:>14.1f}")
    ours = results["tessera thumb (poster + 4 renditions)"][0]
    print(f"\nvs ffmpegthumbnailer: {results['ffmpegthumbnailer -s 1024 (1 rendition)'][0] / ours:.1f}×;"
          f" vs ffmpeg + vipsthumbnail: {results['ffmpeg -ss + vipsthumbnail (4 renditions)'][0] / ours:.1f}×")
    print(f"peak RSS of one worker on the 4K HEVC clip: {peak:.1f} MiB")
    print(f"\nunchanged rescan of {args.library} files: " + ", ".join(f"{k} {v:.3f} s" for k, v in rescans.items())
          + f"; ratio {rescans['20 % video'] / rescans['photos only']:.2f}×")


if __name__ == "__main__":
    main()
