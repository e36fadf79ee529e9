#!/usr/bin/env python3
"""The album site as a person meets it, in headless Chromium (Debian's, through Playwright).

Builds a library (the generated sample library, a folder named like an HTML injection, a
"Large" album of big photos of every shape with EXIF dates and a GPS position, a messenger
photo dated only by its file name, and a 2,000-photo album), scans it, builds the site in
every style, and checks:

- every page parses with balanced tags and never shows the injected folder name unescaped;
- each style at 375 and 1280 px and device scale 1 and 2: every image loads, sits within
  1 px of its layout frame, shows the photo uncropped where the style promises it (justified,
  masonry, strip: displayed aspect within 1 % of the photo's), and at scale 2 has at least
  1.9 device pixels per CSS pixel where the photo has them; masonry columns follow the width,
  the strip starts at its first photo;
- the viewer: opened from a tile, -> and <- move through the album in order, Esc returns to the
  same scroll position, the panel says where the date came from (and that a file-name date is
  a guess); a photo's address (album page#photo-ID) opens the viewer on it;
- without JavaScript every photo is on an album page and opens its largest rendition;
- the site copied elsewhere and served by `python3 -m http.server`: every src, srcset and
  href answers 200;
- the 2,000-photo album: the load event within 1 s, and only the current page's images in
  the DOM;
- places: the map (map.html) opened from disk and over HTTP at 1280 and 390 px, 1x and 2x, its
  background tiles and clusters drawn, every photo with a position counted once, a click on a
  cluster zooming into it and one on a single photo opening it in the viewer, which names its
  place and links its position to the map; the Places page's countries, regions and towns; an
  album's own map under its photos (its photos with a position, a photo opening in its viewer);
- people (from the shared labelled faces, scanned with faces found): the People page at 1280 px
  1x and 390 px 2x with a round face on each named person's card and no unnamed one, a person's
  page of their photos, one opening in a viewer that names them, and Find's person filter on
  the timeline and an album finding exactly their photos.

Screenshots of every style (1x and 2x) and of the viewer go to OUT (default
./tessera-data/album-check). Usage: check-album.py [TESSERA_BINARY] [--out DIR]
Prints "N passed, M failed" and exits non-zero on any failure.
"""
import argparse
import base64
import contextlib
import html.parser
import json
import math
import re
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from PIL import Image, ImageDraw
from playwright.sync_api import TimeoutError as PlaywrightTimeout, sync_playwright

PROJECT = Path(__file__).resolve().parent.parent
# A Samsung motion photo (an HEIC carrying an HEVC MP4), from the shared corpus when it is there.
MOTION_PHOTO = PROJECT.parent / "shared/corpus/media/motion/samsung-one-ui-6.heic"
# Labelled photos of five people, for the People pages.
JOHNS = PROJECT.parent / "shared/faces/johns"
VOID = {"meta", "img", "br", "hr", "input", "link", "source", "area", "base", "col", "embed", "wbr"}
STYLES = ("justified", "masonry", "grid", "strip", "tiles")
WHOLE = {"justified", "masonry", "strip"}  # styles that promise the whole photo
BIG = 2000
results = {"passed": 0, "failed": 0}


def check(condition, message):
    if condition:
        results["passed"] += 1
    else:
        results["failed"] += 1
        print(f"FAIL: {message}", file=sys.stderr)
    return condition


class Structure(html.parser.HTMLParser):
    """Balanced tags and every reference of one page."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.references = [], [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.references.append(value)
            if name == "srcset" and value:
                self.references += [part.strip().split(" ")[0] for part in value.split(",") if part.strip()]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()


def chromium():
    binary = shutil.which("chromium")
    if binary is None and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env, stdout=subprocess.DEVNULL)
        binary = shutil.which("chromium")
    if binary is None:
        sys.exit("chromium is missing: apt-get install chromium")
    return binary


def exif(date, gps=None):
    data = Image.Exif()
    data.get_ifd(0x8769)[0x9003] = date  # DateTimeOriginal
    if gps:
        ifd = data.get_ifd(0x8825)
        ifd[1], ifd[2], ifd[3], ifd[4] = "N", gps[0], "E", gps[1]
    return data


def photo(path, width, height, seed, date=None, gps=None):
    """A photo-like image: a colour gradient with shapes, so every rendition differs."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(0, height, max(1, height // 64)):
        shade = y * 255 // max(1, height)
        draw.rectangle([0, y, width, y + height // 64 + 1], fill=((seed * 53 + shade) % 256, (seed * 97) % 256, 255 - shade))
    for k in range(6):
        x, y = (seed * 31 + k * 97) % width, (seed * 17 + k * 61) % height
        radius = max(4, min(width, height) // (4 + k))
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=((k * 40) % 256, (seed * 7) % 256, 128))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, "JPEG", quality=85, exif=exif(date, gps) if date else Image.Exif())


UNDATED = 3
LONG_NAME = ("The longest name anyone gave a folder of holiday photos, with every place " * 2)[:120].strip()


def library(tessera, root):
    subprocess.run([tessera, "sample-library", str(root)], check=True, stdout=subprocess.DEVNULL)
    hostile = root / "<script>alert(1)</script>"
    hostile.mkdir(parents=True)  # "/" nests it: the album name is exactly this string
    # (pictures of their own: copies of the Garden's would be left out of the site as copies)
    for n in range(8):
        photo(hostile / f"it's \"IMG_{1010 + n}.jpg\"", 1200, 900, 1010 + n, date=f"2022:02:0{n + 1} 12:00:00")
    shapes = [(3000, 2000), (2000, 3000), (4000, 1000), (1000, 3000), (2400, 2400), (640, 480), (3200, 1800), (1800, 2400)]
    for n in range(16):
        width, height = shapes[n % len(shapes)]
        photo(root / "Large" / f"DSC_{n:04d}.jpg", width, height, n,
              date=f"2024:05:{1 + n // 6:02d} {8 + n % 12:02d}:{n:02d}:00",
              gps=(48.8584 + n / 1000, 2.2945) if n == 3 else None)
    photo(root / "Messages" / "IMG-20190812-WA0001.jpg", 1600, 1200, 99)
    # A curated folder: 20 photos taken on 19 days across a year, some tiny (scans), and an album inside it.
    for n in range(20):
        width, height = [(75, 100), (120, 80)][n % 2] if n % 5 == 0 else shapes[n % len(shapes)]
        day = min(n, 18)
        photo(root / "Sparse" / f"P{n:03d}.jpg", width, height, 300 + n,
              date=f"2023:{1 + day * 11 // 19:02d}:{1 + day % 27:02d} {9 + n % 10:02d}:00:00")
    for n in range(3):
        photo(root / "Sparse" / "Trip" / f"T{n}.jpg", 1600, 1200, 400 + n, date=f"2023:07:0{n + 1} 12:00:00")
    # A name of 120 characters, which its card shows in three lines at most.
    photo(root / LONG_NAME / "L0.jpg", 900, 600, 700, date="2021:09:09 09:00:00")
    # Scans nothing dates: the timeline ends with them.
    for n in range(UNDATED):
        photo(root / "Scans" / f"S{n}.jpg", 1200, 900 + 100 * n, 900 + n)
    # A folder tree: Trips holds only folders, Trips/2023 only folders, and albums below them.
    for folder, count, month in (("Trips/2023/Rome", 3, 4), ("Trips/2023/Florence", 2, 5), ("Trips/2024 Summer", 2, 7)):
        for n in range(count):
            photo(root / folder / f"R{n}.jpg", 800, 600, 500 + month * 10 + n,
                  date=f"{folder[6:10]}:{month:02d}:{n + 1:02d} 10:00:00")
    # Photos a photographer annotated (an XMP sidecar, as digiKam writes): title, caption, stars, keywords.
    for n, (title, caption, rating, words) in enumerate((("Harbour at dawn", "Fishing boats, first light", 4, ("boats", "harbour")),
                                                          ("Market", "", 2, ("people",)))):
        photo(root / "Tagged" / f"H{n}.jpg", 1600, 1200, 600 + n, date=f"2022:06:0{n + 1} 07:00:00")
        (root / "Tagged" / f"H{n}.jpg.xmp").write_text(
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" '
            f'xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="{rating}">'
            f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>'
            + (f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{caption}</rdf:li></rdf:Alt></dc:description>' if caption else "")
            + "<dc:subject><rdf:Bag>" + "".join(f"<rdf:li>{w}</rdf:li>" for w in words) + "</rdf:Bag></dc:subject>"
            "</rdf:Description></rdf:RDF></x:xmpmeta>", encoding="utf-8")
    clips(root / "Clips")
    stacks_and_copies(root)
    if MOTION_PHOTO.exists():
        (root / "Motion").mkdir()
        shutil.copyfile(MOTION_PHOTO, root / "Motion" / "motion.heic")
    else:
        print(f"no {MOTION_PHOTO}: a motion photo's video is not checked")
    for n in range(BIG):
        width, height = shapes[n % len(shapes)]
        # One photo in ten taken in one of five cities, a few metres to a few kilometres apart.
        city = CITIES[n // 10 % len(CITIES)]
        photo(root / "Big" / f"IMG_{n:05d}.jpg", width // 8, height // 8, n,
              date=f"2021:{1 + n // 252 % 12:02d}:{1 + n // 9 % 28:02d} {n % 24:02d}:{n % 60:02d}:00",
              gps=(city[1] + n % 37 / 1000, city[2] + n % 23 / 1000) if n % 10 == 0 else None)


BURST = 5
# Where the Big album's photos with a position were taken (north and east: exif() writes N and E).
CITIES = (("Paris", 48.8566, 2.3522), ("Vienna", 48.2082, 16.3738), ("Tokyo", 35.6895, 139.6917),
          ("Oslo", 59.9139, 10.7522), ("Cairo", 30.0444, 31.2357))


def stacks_and_copies(root):
    """A burst: five consecutive frames of a video, one camera, one second, stepping fractions;
    and copies of a Large photo (its very bytes, and half its size) beside a photo of their own."""
    burst = root / "Burst"
    burst.mkdir(parents=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1200x800:r=10:d=1",
                    "-frames:v", str(BURST), "-q:v", "3", str(burst / "frame%d.jpg")], check=True)
    for n in range(BURST):
        frame = burst / f"frame{n + 1}.jpg"
        data = Image.Exif()
        data[0x010F], data[0x0110] = "Tessera", "Burst"  # Make, Model
        data.get_ifd(0x8769)[0x9003] = "2024:03:03 10:00:00"  # DateTimeOriginal
        data.get_ifd(0x8769)[0x9291] = f"{n + 1}00"  # SubSecTimeOriginal
        with Image.open(frame) as image:
            image.load()
        image.save(burst / f"IMG_{n + 1:04d}.jpg", "JPEG", quality=90, exif=data)
        frame.unlink()
    copies = root / "Copies"
    copies.mkdir(parents=True)
    original = root / "Large" / "DSC_0004.jpg"
    shutil.copyfile(original, copies / "DSC_0004 copy.jpg")
    with Image.open(original) as image:
        image.resize((image.width // 2, image.height // 2)).save(copies / "DSC_0004 small.jpg", "JPEG", quality=80,
                                                                  exif=image.getexif())
    photo(copies / "own.jpg", 1200, 800, 800, date="2024:03:04 10:00:00")


def clips(folder):
    """A phone video (H.264, held upright), one in HEVC and a camera's MJPEG AVI with PCM sound
    (which browsers do not play: the scan makes them web videos), and a Live Photo: a still and
    a short HEVC video of its name."""
    folder.mkdir(parents=True)
    def ffmpeg(*arguments):
        subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(folder / "plain.mp4"))
    # The display matrix of a phone held upright: the legacy tag, set when the stream is copied.
    ffmpeg("-i", str(folder / "plain.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=270", str(folder / "VID_0001.mp4"))
    (folder / "plain.mp4").unlink()
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx265", "-x265-params", "log-level=error",
           "-tag:v", "hvc1", str(folder / "VID_0002.mov"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x480:r=15:d=2", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
           "-c:v", "mjpeg", "-q:v", "5", "-c:a", "pcm_s16le", str(folder / "VID_0003.avi"))
    photo(folder / "IMG_0500.JPG", 1600, 1200, 500, date="2024:06:01 10:00:00")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=800x600:r=25:d=2", "-c:v", "libx265", "-x265-params", "log-level=error",
           "-tag:v", "hvc1", str(folder / "IMG_0500.MOV"))


def page_metrics(page, style, scale, aspects):
    """Runs in the page: every photo of the visible layout, checked as the docstring says."""
    return page.evaluate("""async ([style, scale, aspects, whole]) => {
      const until = async (test, ms) => { const end = Date.now() + ms;
        while (!test() && Date.now() < end) await new Promise(r => setTimeout(r, 25)); return test(); };
      const layouts = [...document.querySelectorAll('.layout')].filter(l => getComputedStyle(l).display !== 'none');
      const out = {layouts: layouts.length, images: 0, unloaded: [], misplaced: [], cropped: [], lowres: [],
                   enlarged: [], holes: [], columns: 0, stripStart: null, ids: [], rows: [], singles: []};
      if (layouts.length !== 1) return out;
      const layout = layouts[0];
      // The frame a photo is drawn in, and the layout's own when the photo is drawn smaller inside it.
      const drawn = (a) => [a.style.left, a.style.top, a.style.width, a.style.height].map(parseFloat);
      const frameOf = (a) => (a.dataset.frame ? a.dataset.frame.split(' ').map(parseFloat) : drawn(a));
      const lefts = new Set();
      for (const a of layout.querySelectorAll('a.photo')) {
        const img = a.querySelector('img');
        out.images++;
        out.ids.push(a.dataset.id);
        a.scrollIntoView({block: 'center', inline: 'center'});
        if (!await until(() => img.complete && img.naturalWidth > 0, 8000)) { out.unloaded.push(img.getAttribute('src')); continue; }
        const want = drawn(a);
        const got = [a.offsetLeft, a.offsetTop, a.offsetWidth, a.offsetHeight];
        const box = img.getBoundingClientRect(), frame = a.getBoundingClientRect();
        if (got.some((v, i) => Math.abs(v - want[i]) > 1) || Math.abs(box.width - frame.width) > 1 || Math.abs(box.height - frame.height) > 1)
          out.misplaced.push({src: img.currentSrc.split('/').pop(), want, got});
        lefts.add(Math.round(frameOf(a)[0]));
        if (a.dataset.frame) out.holes.push({id: a.dataset.id, frame: a.dataset.frame, drawn: drawn(a)});
        const photoSize = aspects[a.dataset.id];
        if (!photoSize) out.misplaced.push({id: a.dataset.id, unknown: 'no such photo in the index'});
        if (photoSize && (box.width > photoSize.width + 0.5 || box.height > photoSize.height + 0.5))
          out.enlarged.push({id: a.dataset.id, drawn: [box.width, box.height], pixels: [photoSize.width, photoSize.height]});
        const probe = new Image();
        probe.src = img.currentSrc;
        await probe.decode();
        const [w, h] = [want[2], want[3]];
        const photo = aspects[a.dataset.id];
        if (whole && photo) {
          const shown = w / h;
          if (Math.abs(shown / photo.aspect - 1) > 0.01 || Math.abs(probe.naturalWidth / probe.naturalHeight / shown - 1) > 0.01)
            out.cropped.push({id: a.dataset.id, shown, photo: photo.aspect});
        }
        if (scale === 2 && photo) {
          const density = Math.min(probe.naturalWidth / w, probe.naturalHeight / h);
          const allowed = Math.min(photo.width / w, photo.height / h);
          if (density < Math.min(1.9, allowed) - 0.02)
            out.lowres.push({id: a.dataset.id, density: +density.toFixed(2), allowed: +allowed.toFixed(2), frame: [w, h]});
        }
      }
      out.columns = lefts.size;
      // How much of the window the photos span.
      const spans = [...layout.querySelectorAll('a.photo')].map((a) => frameOf(a)).map(([x, , w]) => [x, x + w]);
      out.extent = spans.length ? (Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0]))) / window.innerWidth : 0;
      // Rows: photos sharing a vertical middle (a photo kept at its own size sits in the middle
      // of its row), within a pixel.
      const content = layout.offsetWidth - 2 * parseFloat(layout.querySelector('a.photo, .header')?.style.left || 0);
      const byTop = new Map();
      const middles = [...layout.querySelectorAll('a.photo')].map((a) => [a, frameOf(a)])
        .sort((p, q) => (p[1][1] + p[1][3] / 2) - (q[1][1] + q[1][3] / 2));
      let middle = null;
      for (const [a, [x, y, w, h]] of middles) {
        // The layout's frame: a photo smaller than its frame is drawn at its size inside it.
        if (middle === null || y + h / 2 - middle > 1) middle = y + h / 2;
        const top = Math.round(middle), row = byTop.get(top) || [];
        row.push([x, x + w, h, a.dataset.id]);
        byTop.set(top, row);
      }
      const tops = [...byTop.keys()].sort((a, b) => a - b);
      tops.forEach((top, i) => {
        const row = byTop.get(top), next = tops[i + 1];
        // Sections share rows (album pages coalesce them): only the layout's last row may stop short.
        const last = next === undefined;
        out.rows.push({top, fill: (Math.max(...row.map(r => r[1])) - Math.min(...row.map(r => r[0]))) / content, last, count: row.length});
      });
      // Where the title, the first date header and the leftmost photo frame start.
      const firstHeader = layout.querySelector('.header');
      const frames = [...layout.querySelectorAll('a.photo')].map(a => layout.getBoundingClientRect().left
        + frameOf(a)[0]);
      out.edges = {title: document.querySelector('header h1').getBoundingClientRect().left,
                   header: firstHeader ? firstHeader.getBoundingClientRect().left : null,
                   photo: frames.length ? Math.min(...frames) : null};
      // Tiles: how far each cell is from its photo's proportions.
      out.tileOff = [];
      if (style === 'tiles') for (const a of layout.querySelectorAll('a.photo')) {
        const [, , w, h] = frameOf(a), photo = aspects[a.dataset.id];
        const off = photo ? Math.max(w / h / photo.aspect, photo.aspect / (w / h)) : 1;
        if (off > 2.01) out.tileOff.push({id: a.dataset.id, cell: +(w / h).toFixed(2), photo: +photo.aspect.toFixed(2)});
      }
      // A section of one photo (tiles): its frame and the photo's aspect.
      const items = [...layout.querySelectorAll('.header, a.photo')];
      items.forEach((item, i) => {
        if (!item.classList.contains('header')) return;
        const next = items[i + 1], after = items[i + 2];
        if (next && next.matches('a.photo') && (!after || after.classList.contains('header'))) {
          const photo = aspects[next.dataset.id];
          if (photo) out.singles.push({id: next.dataset.id, frame: next.offsetWidth / next.offsetHeight, photo: photo.aspect});
        }
      });
      const first = layout.querySelector('.strip a.photo');
      for (const strip of layout.querySelectorAll('.strip')) strip.scrollLeft = 0;
      window.scrollTo(0, 0);
      await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      if (first) out.stripStart = first.getBoundingClientRect().left - layout.getBoundingClientRect().left;
      window.scrollTo(0, 0);
      return out;
    }""", [style, scale, aspects, style in WHOLE])


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def crawl(base, start):
    """Every page reachable from `start`, and every reference on them, fetched once."""
    pages, seen, queue, failures = 0, set(), [start], []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                body = response.read() if url.endswith(".html") else b""
        except (urllib.error.URLError, OSError) as error:
            failures.append(f"{url}: {error}")
            continue
        if not url.endswith(".html"):
            continue
        pages += 1
        structure = Structure()
        structure.feed(body.decode("utf-8"))
        for reference in structure.references:
            target = urllib.parse.urljoin(url, reference).split("#")[0]
            if target.startswith(base) and target not in seen:
                queue.append(target)
    return pages, len(seen), failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tessera", nargs="?")
    parser.add_argument("--out", default=str(PROJECT / "tessera-data/album-check"))
    args = parser.parse_args()
    tessera = args.tessera
    if tessera is None:
        subprocess.run(["swift", "build", "--product", "tessera"], cwd=PROJECT, check=True, stdout=subprocess.DEVNULL)
        tessera = str(Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=PROJECT, check=True,
                                          capture_output=True, text=True).stdout.strip()) / "tessera")
    browser_binary = chromium()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.monotonic()

    def step(name):
        """Says when each part of the check starts: where its time goes."""
        print(f"album check: {name} at {time.monotonic() - started:.0f} s", flush=True)

    with tempfile.TemporaryDirectory(prefix="tessera-album-") as work, sync_playwright() as playwright:
        work = Path(work)
        photos = work / "photos"
        library(tessera, photos)
        store = ["--index", str(work / "index.sqlite"), "--cache", str(work / "cache")]
        # (no faces: the site's pages have no people yet, and the library's 2,000 generated photos
        # have none to find)
        (work / "tessera.yaml").write_text("faces: false\n")
        subprocess.run([tessera, "scan", str(photos), *store, "--config", str(work / "tessera.yaml")], check=True,
                       stdout=subprocess.DEVNULL)
        with sqlite3.connect(work / "index.sqlite") as db:
            # The most a photo may be drawn at: its pixels, or its largest fit rendition's when fewer
            # (an image is never drawn larger than what is served for it).
            def drawable(width, height, fit_width, fit_height):
                scale = min(1, fit_width / width, fit_height / height) if fit_width and fit_height else 1
                return {"width": width * scale, "height": height * scale, "aspect": width / height}
            aspects = {str(row[0]): drawable(*row[1:]) for row in db.execute(
                "SELECT id, display_width, display_height,"
                " (SELECT max(width) FROM renditions r WHERE r.photo_id = p.id AND r.kind = 'fit'),"
                " (SELECT max(height) FROM renditions r WHERE r.photo_id = p.id AND r.kind = 'fit')"
                " FROM photos p WHERE status IN ('ok', 'warning')")}
        step("styles")
        browser = playwright.chromium.launch(executable_path=browser_binary, args=["--no-sandbox"])
        sites = {}
        for style in STYLES:
            site = out / "sites" / style
            subprocess.run([tessera, "album", "build", "--out", str(site), "--style", style, *store],
                           check=True, stdout=subprocess.DEVNULL)
            sites[style] = site
            # A rebuild with nothing changed writes no file (inode and mtime of every entry as they were).
            def stamps():
                return {str(p): (p.lstat().st_ino, p.lstat().st_mtime_ns) for p in site.rglob("*")}
            before = stamps()
            subprocess.run([tessera, "album", "build", "--out", str(site), "--style", style, *store],
                           check=True, stdout=subprocess.DEVNULL)
            after = stamps()
            rewritten = sorted(p for p in after if after[p] != before.get(p))
            check(not rewritten and after.keys() == before.keys(),
                  f"{style}: an unchanged rebuild wrote {rewritten[:5]} ({len(rewritten)} files)")
            pages = sorted(site.rglob("*.html"))
            # Without script every photo of every album is on one of its pages (a tile's hidden
            # ones on its section's page), as the lightbox's data lists them.
            on_pages, listed = set(), set()
            for folder in (site / "albums").iterdir():
                listed |= {entry["id"] for entry in lightbox_entries(folder)}
                for album_page in folder.glob("*.html"):
                    on_pages |= set(re.findall(r'data-id="(\d+)"', album_page.read_text(encoding="utf-8")))
            check(len(listed) > BIG and on_pages == listed and listed <= set(aspects),
                  f"{style}: {len(listed - on_pages)} photos on no page without script, {len(on_pages - listed)} unknown")
            broken = []
            for page in pages:
                text = page.read_text(encoding="utf-8")
                structure = Structure()
                structure.feed(text)
                if structure.errors or structure.stack or "<script>alert(1)</script>" in text:
                    broken.append(f"{page}: {structure.errors[:2]} {structure.stack}")
            check(not broken, f"{style}: pages that do not parse or show the folder name unescaped: {broken[:3]}")
            large = next(site.glob("albums/large-*/index.html"))
            for width in (375, 1280):
                for scale in (1, 2):
                    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=scale)
                    page = context.new_page()
                    page.goto(large.as_uri(), wait_until="load")
                    report = page_metrics(page, style, scale, aspects)
                    where = f"{style} at {width} px, scale {scale}"
                    check(report["layouts"] == 1, f"{where}: {report['layouts']} visible layouts")
                    check(report["images"] >= 6, f"{where}: only {report['images']} images")
                    check(not report["misplaced"], f"{where}: off their frames: {report['misplaced'][:3]}")
                    check(not report["cropped"], f"{where}: cropped or distorted: {report['cropped'][:3]}")
                    check(not report["lowres"], f"{where}: under 1.9 device px per CSS px: {report['lowres'][:3]}")
                    check_page(report, style, width, where)
                    if style == "strip":
                        inset = 8 if width < 600 else max(16, (width - 2528) / 2)
                        check(report["stripStart"] is not None and abs(report["stripStart"] - inset) <= 1,
                              f"{where}: the strip starts at x = {report['stripStart']}")
                    page.screenshot(path=str(out / f"{style}-{width}-{scale}x.png"), full_page=True)
                    context.close()
        step("sparse")
        check_sparse(browser, tessera, store, sites, out, aspects)
        step("tree")
        check_tree(browser, sites["justified"], out)
        step("viewer_details")
        check_viewer_details(browser, sites["justified"], out)
        step("find")
        check_find(browser, sites["justified"], out)
        step("placeholders")
        check_placeholders(browser, sites["justified"])
        step("viewer")
        check_viewer(browser, sites["justified"], out)
        step("videos")
        check_videos(browser, sites["justified"], out)
        step("stacks_and_copies")
        check_stacks_and_copies(browser, tessera, store, sites["justified"], work, out)
        step("big_album")
        check_big_album(browser, sites, out)
        step("places")
        check_places(browser, sites["justified"], work, out)
        check_album_map(browser, sites["justified"], out)
        step("people")
        check_people(browser, tessera, work, out)
        step("private")
        check_private(browser, tessera, store, work, sites["justified"], out)
        step("private video")
        check_private_video(browser, tessera, work, out)
        step("portable")
        check_portable(sites["justified"], work)
        step("end")
        browser.close()
    print(f"screenshots in {out}")
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


def check_page(report, style, width, where):
    """What every album page owes at every width: images loaded and never past their pixels;
    title, date headers and photos starting together; justified rows filling the width but
    for a section's last; justified and masonry photos as large as their frames (no holes);
    every masonry column used."""
    check(not report["unloaded"], f"{where}: images not loaded: {report['unloaded'][:3]}")
    check(not report["enlarged"], f"{where}: drawn larger than their pixels: {report['enlarged'][:3]}")
    # Rows and columns are made of what is drawn: a photo smaller than its frame would leave a hole.
    if style in ("justified", "masonry"):
        check(not report["holes"], f"{where}: photos drawn smaller than their frames: {report['holes'][:3]}")
    edges = report["edges"]
    aligned = [edges["header"]] + ([edges["photo"]] if style != "grid" else [])
    check(all(edge is not None and abs(edge - edges["title"]) <= 1 for edge in aligned),
          f"{where}: the title, date headers and photos do not start together: {edges}")
    if style == "justified":
        short = [row for row in report["rows"] if not row["last"] and row["fill"] < 0.95]
        check(not short, f"{where}: rows under 95 % of the width: {short[:3]}")
    if style == "tiles":
        check(not report["tileOff"], f"{where}: tiles more than 2× off their photo's proportions: {report['tileOff'][:3]}")
    if style == "masonry":
        side = 8 if width < 600 else max(16, (width - 2528) / 2)
        columns = 2 if width < 600 else max(3, math.floor((width - 2 * side) / 280 + 0.5))
        check(report["columns"] == columns, f"{where}: {report['columns']} columns used, not {columns}")



def check_placeholders(browser, site):
    """Each photo's ThumbHash, decoded by album.js while its image is not there, is a blurred
    version of the photo: of its average colour (within 12 of 255 per channel)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/media/**", lambda route: route.abort())
    album = next(site.glob("albums/large-*/index.html"))
    page.goto(album.as_uri(), wait_until="load")
    page.wait_for_function("""() => [...document.querySelectorAll('.layout img[data-th]')]
        .filter((img) => img.offsetParent).every((img) => img.style.backgroundImage)""", timeout=10_000)
    painted = page.evaluate("""async () => {
        const shown = [...document.querySelectorAll('.layout img[data-th]')].filter((img) => img.offsetParent);
        return Promise.all(shown.map(async (img) => {
            const picture = new Image();
            picture.src = img.style.backgroundImage.slice(5, -2);
            await picture.decode();
            const canvas = Object.assign(document.createElement('canvas'), {width: picture.width, height: picture.height});
            const context = canvas.getContext('2d');
            context.drawImage(picture, 0, 0);
            const data = context.getImageData(0, 0, picture.width, picture.height).data, mean = [0, 0, 0];
            for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) mean[c] += data[i + c] / (data.length / 4);
            return {src: img.getAttribute('src'), mean};
        }));
    }""")
    page.close()
    check(len(painted) >= 6, f"placeholders painted for {len(painted)} images")
    off = []
    for entry in painted:
        with Image.open((album.parent / urllib.parse.unquote(entry["src"])).resolve()) as photo:
            mean = photo.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
        if any(abs(a - b) > 12 for a, b in zip(mean, entry["mean"])):
            off.append((entry["src"], [round(v) for v in mean], [round(v) for v in entry["mean"]]))
    check(not off, f"placeholders not of the photo's colour (photo, placeholder): {off[:3]}")


def lightbox_entries(folder):
    """The photos.js entries of an album or month folder, in its order."""
    text = (folder / "photos.js").read_text(encoding="utf-8")
    data = json.loads(text[text.index("{"):text.rindex("}") + 1])
    # Shared texts are numbers into `words` (docs/ALBUM.md, "The lightbox's data").
    for entry in data["photos"]:
        for key in ("format", "camera"):
            if isinstance(entry["find"].get(key), int):
                entry["find"][key] = data["words"][entry["find"][key]]
    return data["photos"]


def photo_address(album_page, name):
    """The address that opens the album's lightbox on the photo named `name`."""
    entry = next(e for e in lightbox_entries(album_page.parent) if e["name"] == name)
    return album_page.as_uri() + f"#photo-{entry['id']}", entry["id"]


def open_address(page, address, photo_id):
    """Loads a photo's address and waits for the lightbox to show that photo, loaded."""
    page.goto(address, wait_until="load")
    page.wait_for_selector(".lightbox:not([hidden])")
    shown = page.evaluate("document.querySelector('.lightbox').dataset.id")
    check(shown == photo_id, f"{address} opens photo {shown}, not {photo_id}")
    page.wait_for_function("""(() => { const i = document.querySelector('.lightbox figure img');
        return i.hidden || (i.complete && i.naturalWidth > 0); })()""")


def sparse_page(site):
    """The Sparse album's first page (not its child's, `sparse-trip-…`)."""
    return next(p for p in site.glob("albums/sparse-*/index.html") if not p.parent.name.startswith("sparse-trip"))


def check_sparse(browser, tessera, store, sites, out, aspects):
    """The curated folder (20 photos, 19 days, tiny scans) in every style and at three widths:
    rows that fill the width, no photo drawn past its pixels, every masonry column used; tiles
    singles keep their aspect; the folder tree with breadcrumbs and child albums."""
    for style, site in sites.items():
        sparse = sparse_page(site)
        for width in (375, 390, 740, 768, 1280, 1920):
            for scale in ((1, 2) if width in (375, 1280) else (2,)):
                context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=scale)
                page = context.new_page()
                page.goto(sparse.as_uri(), wait_until="load")
                report = page_metrics(page, style, scale, aspects)
                where = f"sparse {style} at {width} px, scale {scale}"
                # Tiles show six photos a section, the rest behind "+N".
                check(report["images"] == (6 if style == "tiles" else 20), f"{where}: {report['images']} photos shown")
                # A sparse album keeps its dates: headers that say when, over its photos.
                dates = page.eval_on_selector_all(".layout .header", "els => els.map((e) => e.textContent)")
                check(dates and all(re.search(r"\b20\d\d\b", d) for d in dates), f"{where}: date headers {dates}")
                check_page(report, style, width, where)
                # The photos fill the window at any width: a grid's whole columns, rows, masonry
                # columns (but a strip, which scrolls, and tiles, which stand side by side only
                # when there are sections enough: this album has one).
                if style not in ("strip", "tiles"):
                    check(report["extent"] >= 0.9, f"{where}: the photos span {report['extent']:.0%} of the window")
                if scale == 2 and width in (390, 768, 1280, 1920):
                    page.screenshot(path=str(out / f"sparse-{style}-{width}-2x.png"), full_page=True)
                if style == "tiles" and scale == 1:
                    # "+N" leads to a page of all the section's photos.
                    more = page.locator(".layout:visible a.photo.more")
                    check(more.count() == 1 and more.inner_text().strip() == "+14", f"{where}: the +N tile is {more.count()}")
                    if more.count():
                        more.first.click()
                        page.wait_for_load_state("load")
                        count = page.locator(".layout:visible a.photo").count()
                        check("/section-" in page.url and count == 20, f"{where}: +14 leads to {page.url} with {count} photos")
                        check(page.locator("a[rel=up]").count() == 1, f"{where}: the section page has no way back")
                context.close()
    # Tiles by day: a day of one photo is a cell of the photo's own aspect.
    site = out / "sites" / "tiles-by-day"
    subprocess.run([tessera, "album", "build", "--out", str(site), "--style", "tiles", "--sections", "day", *store],
                   check=True, stdout=subprocess.DEVNULL)
    for width in (375, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=2)
        page = context.new_page()
        page.goto(sparse_page(site).as_uri(), wait_until="load")
        report = page_metrics(page, "tiles", 2, aspects)
        check(len(report["singles"]) >= 5, f"tiles by day at {width} px: {len(report['singles'])} one-photo days")
        off = [s for s in report["singles"] if abs(s["frame"] / s["photo"] - 1) > 0.01]
        check(not off, f"tiles by day at {width} px: singles not at their aspect: {off[:3]}")
        check(not report["enlarged"], f"tiles by day at {width} px: drawn larger than their pixels: {report['enlarged'][:3]}")
        page.screenshot(path=str(out / f"sparse-tiles-by-day-{width}-2x.png"), full_page=True)
        context.close()
    # For a person to look at: the viewer on a landscape, a portrait and a tiny scan, each opened
    # by its address, and the nested album, at 390 and 1280 px.
    site = sites["justified"]
    large = next(site.glob("albums/large-*/index.html"))
    views = {"landscape": photo_address(large, "DSC_0000.jpg"), "portrait": photo_address(large, "DSC_0001.jpg"),
             "tiny": photo_address(sparse_page(site), "P000.jpg")}
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800}, device_scale_factor=2)
        page = context.new_page()
        for name, (address, photo_id) in views.items():
            open_address(page, address, photo_id)
            page.screenshot(path=str(out / f"viewer-{name}-{width}-2x.png"))
        page.goto(sparse_page(site).as_uri(), wait_until="load")
        page.screenshot(path=str(out / f"nested-{width}-2x.png"), full_page=True)
        context.close()
    # The folder tree: Trip inside Sparse, not beside it.
    site = sites["justified"]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=2)
    page = context.new_page()
    page.goto((site / "index.html").as_uri(), wait_until="load")
    names = page.eval_on_selector_all(".albums .name", "els => els.map(e => e.textContent)")
    check("Sparse" in names and "Trip" not in names and "Sparse/Trip" not in names, f"the album list shows {names}")
    page.screenshot(path=str(out / "albums-1280-2x.png"), full_page=True)
    page.goto(sparse_page(site).as_uri(), wait_until="load")
    children = page.eval_on_selector_all(".children .albums a", "els => els.map(e => [e.querySelector('.name').textContent, e.href])")
    check([name for name, _ in children] == ["Trip"], f"Sparse's child albums: {children}")
    check(page.inner_text("header p").startswith("20 photos"), f"Sparse's subtitle: {page.inner_text('header p')!r}")
    page.screenshot(path=str(out / "nested-1280-2x.png"), full_page=True)
    # Find: a date range shows exactly the album's photos of those days, across its pages; clearing it restores the pages.
    entries = lightbox_entries(sparse_page(site).parent)
    expected = [entry["id"] for entry in entries if entry["find"].get("day") and "2023-06-01" <= entry["find"]["day"] <= "2023-09-30"]
    page.click("form.find button.filters")
    page.fill("form.find input[name=from]", "2023-06-01")
    page.fill("form.find input[name=to]", "2023-09-30")
    page.wait_for_function("document.querySelector('form.find output').textContent.includes(' of ')")
    shown = page.eval_on_selector_all("section.found a.photo", "els => els.map(e => e.dataset.id)")
    check(0 < len(expected) < 20 and shown == expected, f"Find June–September: {shown}, expected {expected}")
    check(page.evaluate("document.querySelector('main').hidden"), "Find leaves the album's own layout showing")
    check(page.inner_text("form.find output") == f"{len(expected)} photo{'' if len(expected) == 1 else 's'} of 20",
          f"Find says {page.inner_text('form.find output')!r}")
    page.screenshot(path=str(out / "find-1280-2x.png"), full_page=True)
    page.locator("section.found a.photo").first.click()
    page.wait_for_selector(".lightbox:not([hidden])")
    check(page.evaluate("document.querySelector('.lightbox').dataset.id") == expected[0] if expected else False,
          "a found photo does not open in the viewer")
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('.lightbox').hidden")
    page.fill("form.find input[name=from]", "")
    page.fill("form.find input[name=to]", "")
    page.wait_for_function("!document.querySelector('main').hidden")
    check(page.evaluate("document.querySelector('section.found').hidden"), "clearing Find does not restore the album")
    if children:
        page.goto(children[0][1], wait_until="load")
        trail = page.eval_on_selector_all("nav.crumbs .trail a", "els => els.map(e => e.textContent)")
        check(trail == ["Albums", "Sparse"], f"Trip's breadcrumbs: {trail}")
        check(page.inner_text("header p").startswith("3 photos"), f"Trip's subtitle: {page.inner_text('header p')!r}")
        page.locator("nav.crumbs .trail a").nth(1).click()
        page.wait_for_load_state("load")
        check("/albums/sparse-" in page.url and "sparse-trip" not in page.url, f"the breadcrumb leads to {page.url}")
    context.close()


def check_tree(browser, site, out):
    """The folder tree: a folder of folders is an album with a cover of its albums' covers,
    cards are titled by their own names, and breadcrumbs lead up one level each."""
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800}, device_scale_factor=2)
        page = context.new_page()
        page.goto((site / "index.html").as_uri(), wait_until="load")
        names = page.eval_on_selector_all(".albums .name", "els => els.map(e => e.textContent)")
        check("Trips" in names and not any("/" in name for name in names) and "Rome" not in names,
              f"at {width} px the album list shows {names}")
        card = page.locator(".albums a", has=page.locator(".name", has_text=re.compile("^Trips$")))
        covers = card.locator(".mosaic img")
        card.scroll_into_view_if_needed()
        # (lazy images: in view, each loads; decode() settles when it has)
        loaded = covers.evaluate_all(
            "els => Promise.all(els.map(e => e.decode().then(() => e.naturalWidth > 0, () => false)))"
            ".then(ok => ok.filter(Boolean).length)")
        check(covers.count() == 2 and loaded == 2, f"at {width} px Trips' cover shows {loaded} of {covers.count()} covers")
        long = page.locator(".albums a", has=page.locator(".name", has_text=LONG_NAME[:40]))
        lines = long.locator(".name").evaluate("e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
        check(long.count() == 1 and lines <= 3 and long.get_attribute("title") == LONG_NAME,
              f"at {width} px the 120-character name takes {lines} lines on its card")
        meta = card.locator(".meta").inner_text()
        check(meta.startswith("7 photos, 2 albums"), f"Trips' card says {meta!r}")
        if width == 1280:
            page.screenshot(path=str(out / f"tree-albums-{width}-2x.png"), full_page=True)
        card.click()
        page.wait_for_load_state("load")
        check(page.inner_text("h1") == "Trips" and page.locator("a.photo").count() == 0, f"Trips' page: {page.inner_text('h1')!r}")
        children = page.eval_on_selector_all(".children .albums .name", "els => els.map(e => e.textContent)")
        check(children == ["2023", "2024 Summer"], f"Trips' albums: {children}")
        check(page.inner_text("header p").startswith("7 photos"), f"Trips' subtitle: {page.inner_text('header p')!r}")
        page.screenshot(path=str(out / f"tree-trips-{width}-2x.png"), full_page=True)
        page.locator(".children .albums a", has=page.locator(".name", has_text=re.compile("^2023$"))).click()
        page.wait_for_load_state("load")
        children = page.eval_on_selector_all(".children .albums .name", "els => els.map(e => e.textContent)")
        check(children == ["Florence", "Rome"], f"2023's albums: {children}")
        page.locator(".children .albums a", has=page.locator(".name", has_text=re.compile("^Rome$"))).click()
        page.wait_for_load_state("load")
        trail = page.eval_on_selector_all("nav.crumbs .trail a", "els => els.map(e => e.textContent)")
        check(page.inner_text("h1") == "Rome" and trail == ["Albums", "Trips", "2023"], f"Rome's breadcrumbs: {trail}")
        check(page.locator(".layout:visible a.photo").count() == 3, "Rome's photos")
        page.screenshot(path=str(out / f"tree-rome-{width}-2x.png"), full_page=True)
        for level, title in ((2, "2023"), (1, "Trips"), (0, "Albums")):
            page.locator("nav.crumbs .trail a").nth(level).click()
            page.wait_for_load_state("load")
            check(page.inner_text("h1") == title, f"the breadcrumb {title} leads to {page.inner_text('h1')!r}")
            if level:
                page.go_back()
                page.wait_for_load_state("load")
        context.close()


def check_find(browser, site, out):
    """Find as a phone shows it: behind its button; its one box finds a camera by name; results
    laid out in rows that fill the width; photos and videos counted apart; only the filters the
    album gives a choice of; none on a one-photo album."""
    garden = next(site.glob("albums/garden-*/index.html"))
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    page.goto(garden.as_uri(), wait_until="load")
    check(not page.locator("form.find").is_visible() and page.locator("button.find-open").is_visible(),
          "at 390 px Find is not behind its button")
    page.screenshot(path=str(out / "find-closed-390-2x.png"))
    page.click("button.find-open")
    check(page.locator("form.find input[name=text]").is_visible(), "the Find button does not open Find")
    entries = lightbox_entries(garden.parent)
    expected = [e["id"] for e in entries if e["find"].get("camera") is not None]
    page.fill("form.find input[name=text]", "sample camera")
    page.wait_for_function("document.querySelector('form.find output').textContent.includes(' of ')")
    shown = page.eval_on_selector_all("section.found a.photo", "els => els.map(e => e.dataset.id)")
    said = page.inner_text("form.find output")
    check(0 < len(expected) < len(entries) and sorted(shown) == sorted(expected)
          and said == f"{len(expected)} photos of {len(entries)}", f"Find 'sample camera' shows {shown} ({said!r}), expected {expected}")
    report = page.evaluate("""() => {
        const links = [...document.querySelectorAll('section.found a.photo')].map(a => a.getBoundingClientRect());
        const rows = new Map();
        for (const r of links) rows.set(Math.round(r.top), Math.max(rows.get(Math.round(r.top)) || 0, r.right));
        const layout = document.querySelector('section.found .layout').getBoundingClientRect();
        return {rows: [...rows.values()], right: layout.right};
    }""")
    # Every row but the last ends at the layout's right inset (8 px on a phone), as an album's rows do.
    full = report["rows"][:-1]
    check(len(full) >= 1 and all(abs(right - (report["right"] - 8)) <= 1 for right in full),
          f"Find's rows do not fill the width: {report}")
    page.screenshot(path=str(out / "find-open-390-2x.png"), full_page=True)
    context.close()
    # A videos-only album offers no camera or rating, and counts its videos as videos.
    clips = next(site.glob("albums/clips-*/index.html"))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(clips.as_uri(), wait_until="load")
    page.click("form.find button.filters")
    page.wait_for_function("document.querySelector('form.find').dataset.filled === '1'")
    offered = page.eval_on_selector_all("form.find .facets label", "els => els.filter(e => !e.hidden).map(e => e.dataset.facet)")
    check("camera" not in offered and "rating" not in offered, f"the clips album offers {offered}")
    page.fill("form.find input[name=text]", "vid_")
    page.wait_for_function("document.querySelector('form.find output').textContent.includes(' of ')")
    said = page.inner_text("form.find output")
    check(said == "3 videos of 4", f"Find 'vid_' on the clips album says {said!r}")
    context.close()
    # A one-photo album has nothing to find in.
    messages = next(site.glob("albums/messages-*/index.html"))
    check("form class=\"find\"" not in messages.read_text(encoding="utf-8"), "a one-photo album offers Find")


def check_viewer_details(browser, site, out):
    """The viewer as a photographer reads it: opaque, the photo's title, caption, stars and
    keywords above its facts, `i` hiding them (remembered after a reload), and the previous and
    next buttons beside the photo, never over it (on a phone, scrolling with it)."""
    tagged = next(site.glob("albums/tagged-*/index.html"))
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
    page = context.new_page()
    open_address(page, *photo_address(tagged, "H0.jpg"))
    background = page.evaluate("getComputedStyle(document.querySelector('.lightbox')).backgroundColor")
    check(background.startswith("rgb(") , f"the viewer's background is {background}, not opaque")
    heading = page.inner_text(".lightbox .facts h2")
    caption = page.inner_text(".lightbox .facts .caption") if page.locator(".lightbox .facts .caption").count() else None
    stars = page.inner_text(".lightbox .facts .stars") if page.locator(".lightbox .facts .stars").count() else None
    words = page.eval_on_selector_all(".lightbox .facts .keywords li", "els => els.map(e => e.textContent)")
    check(heading == "Harbour at dawn" and caption == "Fishing boats, first light" and stars == "★★★★☆"
          and words == ["boats", "harbour"], f"the viewer says {heading!r}, {caption!r}, {stars!r}, {words}")
    image = page.locator(".lightbox figure img").bounding_box()
    for name in ("prev", "next"):
        button = page.locator(f".lightbox .{name}").bounding_box()
        apart = button["x"] + button["width"] <= image["x"] + 0.5 or button["x"] >= image["x"] + image["width"] - 0.5
        check(apart, f"at 1280 px the {name} button {button} lies over the photo {image}")
    page.screenshot(path=str(out / "viewer-details-1280-2x.png"))
    page.keyboard.press("i")
    check(page.evaluate("getComputedStyle(document.querySelector('.lightbox .facts')).display") == "none",
          "i does not hide the details")
    wider = page.locator(".lightbox figure img").bounding_box()
    check(wider["width"] > image["width"], f"without details the photo stays {wider['width']} px wide")
    page.reload(wait_until="load")
    page.wait_for_selector(".lightbox:not([hidden])")
    check(page.evaluate("getComputedStyle(document.querySelector('.lightbox .facts')).display") == "none",
          "the details come back after a reload: the choice is not remembered")
    page.screenshot(path=str(out / "viewer-plain-1280-2x.png"))
    page.keyboard.press("i")
    check(page.evaluate("getComputedStyle(document.querySelector('.lightbox .facts')).display") != "none",
          "i does not show the details again")
    context.close()
    # A phone: scrolled down to the details, the buttons have gone up with the photo.
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    open_address(page, *photo_address(tagged, "H0.jpg"))
    page.screenshot(path=str(out / "viewer-details-390-2x.png"))
    before = page.locator(".lightbox .next").bounding_box()
    page.evaluate("document.querySelector('.lightbox').scrollTop = 600")
    page.wait_for_function("document.querySelector('.lightbox').scrollTop > 0")
    after = page.locator(".lightbox .next").bounding_box()
    strip = page.locator(".filmstrip").bounding_box()
    overlaps = after["y"] < strip["y"] + strip["height"] and after["y"] + after["height"] > strip["y"]
    check(after["y"] < before["y"] and not overlaps, f"at 390 px, scrolled, the next button {after} sits on the filmstrip {strip}")
    page.screenshot(path=str(out / "viewer-details-390-scrolled-2x.png"))
    context.close()


def check_viewer(browser, site, out):
    large = next(site.glob("albums/large-*/index.html"))
    for width, scale in ((1280, 1), (375, 2)):
        context = browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=scale, has_touch=width < 600)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(large.as_uri(), wait_until="load")
        order = page.evaluate("""[...[...document.querySelectorAll('.layout')]
            .find(l => getComputedStyle(l).display !== 'none').querySelectorAll('a.photo')].map(a => a.dataset.id)""")
        page.evaluate("window.scrollTo(0, 400)")
        before = page.evaluate("window.scrollY")
        tiles = page.locator(".layout:visible a.photo")
        start = next(i for i in range(tiles.count()) if tiles.nth(i).bounding_box()["y"] > 0)
        tiles.nth(start).click()
        page.wait_for_selector(".lightbox:not([hidden])")
        shown = lambda: page.evaluate("document.querySelector('.lightbox').dataset.id")
        where = f"viewer at {width} px"
        check(shown() == order[start], f"{where}: opened {shown()}, clicked {order[start]}")
        check(page.url.endswith(f"#photo-{order[start]}"), f"{where}: the address of the open photo is {page.url}")
        page.wait_for_function("document.querySelector('.lightbox img').complete && document.querySelector('.lightbox img').naturalWidth > 0")
        page.wait_for_function("document.getAnimations().length === 0")
        page.screenshot(path=str(out / f"viewer-{width}-{scale}x.png"))
        page.keyboard.press("ArrowRight")
        check(shown() == order[start + 1], f"{where}: -> shows {shown()}, expected {order[start + 1]}")
        page.keyboard.press("ArrowRight")
        check(shown() == order[start + 2], f"{where}: -> -> shows {shown()}, expected {order[start + 2]}")
        page.keyboard.press("ArrowLeft")
        check(shown() == order[start + 1], f"{where}: <- shows {shown()}, expected {order[start + 1]}")
        check("Date from" in page.inner_text(".lightbox .facts"), f"{where}: the panel does not say where the date came from")
        # The filmstrip settles with the current photo's thumbnail at its centre, at the photo's aspect.
        centred = """() => { const s = document.querySelector('.filmstrip'), c = s.querySelector('button.current');
            if (!c) return false; const a = s.getBoundingClientRect(), b = c.getBoundingClientRect();
            return Math.abs(b.left + b.width / 2 - (a.left + a.width / 2)) < 4; }"""
        try:
            page.wait_for_function(centred, timeout=5000)
            ok = True
        except PlaywrightTimeout:
            ok = False
        thumb = page.evaluate("""(() => { const c = document.querySelector('.filmstrip button.current');
            return c ? {w: c.offsetWidth, h: c.offsetHeight, others: document.querySelectorAll('.filmstrip button').length} : null; })()""")
        check(ok and thumb and thumb["others"] == len(order), f"{where}: the filmstrip does not centre the current photo: {thumb}")
        heavy = page.evaluate("""[...document.querySelectorAll('.filmstrip img')].filter(i => i.complete && i.naturalWidth > 600).length""")
        check(heavy == 0, f"{where}: {heavy} filmstrip thumbnails load more than 600 pixels")
        # Space starts a slideshow: the next photo comes by itself; a key stops it.
        shown_before = shown()
        page.keyboard.press(" ")
        try:
            page.wait_for_function(f"document.querySelector('.lightbox').dataset.id !== '{shown_before}'", timeout=8000)
            advanced = True
        except PlaywrightTimeout:
            advanced = False
        check(advanced, f"{where}: Space did not start a slideshow")
        page.keyboard.press("Shift")
        page.keyboard.press("ArrowLeft")
        if width == 1280:
            # + zooms to one image pixel per device pixel, from the original.
            page.keyboard.press("+")
            page.wait_for_function("""(() => { const img = document.querySelector('.lightbox figure.zoomed img.zoom');
                return img && img.complete && img.currentSrc.includes('/originals/') && img.naturalWidth > 0; })()""")
            zoomed = page.evaluate("""(() => { const img = document.querySelector('.lightbox figure img.zoom');
                return {natural: img.naturalWidth, drawn: img.getBoundingClientRect().width * devicePixelRatio, src: img.currentSrc}; })()""")
            check(zoomed["natural"] > 0 and abs(zoomed["drawn"] - zoomed["natural"]) < 2 and "/originals/" in zoomed["src"],
                  f"{where}: + shows {zoomed}, not the original at 1:1")
            page.keyboard.press("-")
            check(page.evaluate("!document.querySelector('.lightbox figure').classList.contains('zoomed')"), f"{where}: - does not zoom out")
        if width < 600:
            box = page.locator(".lightbox figure").bounding_box()
            y = box["y"] + box["height"] / 2
            page.evaluate("""([x0, x1, y]) => { const f = document.querySelector('.lightbox figure');
              const touch = x => new Touch({identifier: 1, target: f, clientX: x, clientY: y});
              f.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(x0)], bubbles: true}));
              f.dispatchEvent(new TouchEvent('touchend', {changedTouches: [touch(x1)], bubbles: true})); }""",
                          [box["width"] * 0.8, box["width"] * 0.2, y])
            check(shown() == order[start + 2], f"{where}: a swipe to the left shows {shown()}, expected {order[start + 2]}")
        if scale == 2 or width == 1280:
            # Back closes the photo and stays on the album, at its own address.
            album_url = page.url.split("#")[0]
            check(page.url.endswith(f"#photo-{shown()}"), f"{where}: the address of the photo moved to is {page.url}")
            page.go_back()
            page.wait_for_function("document.querySelector('.lightbox').hidden")
            page.wait_for_function("!document.documentElement.classList.contains('viewing')")
            check(page.url == album_url, f"{where}: Back left the album for {page.url}")
            tiles.nth(start).click()
            page.wait_for_selector(".lightbox:not([hidden])")
        page.keyboard.press("Escape")
        try:
            page.wait_for_function("document.querySelector('.lightbox').hidden && !document.documentElement.classList.contains('viewing')",
                                   timeout=3000)
        except PlaywrightTimeout:
            pass
        check(page.evaluate("document.querySelector('.lightbox').hidden"), f"{where}: Esc does not close the viewer")
        check(page.evaluate("window.scrollY") == before, f"{where}: Esc returns to {page.evaluate('window.scrollY')}, not {before}")
        check(not errors, f"{where}: script errors {errors[:2]}")
        context.close()
    # Full screen at 2x: every photo with the pixels is drawn at 1.9 device px per CSS px or more.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
    page = context.new_page()
    page.goto(large.as_uri(), wait_until="load")
    page.locator(".layout:visible a.photo").first.click()
    page.wait_for_selector(".lightbox:not([hidden])")
    soft = []
    for _ in range(8):
        page.wait_for_function("document.querySelector('.lightbox img').complete && document.querySelector('.lightbox img').naturalWidth > 0")
        found = page.evaluate("""async () => { const img = document.querySelector('.lightbox img');
          const probe = new Image(); probe.src = img.currentSrc; await probe.decode();
          const box = img.getBoundingClientRect();
          return {id: document.querySelector('.lightbox').dataset.id, density: probe.naturalWidth / box.width,
                  drawn: box.width, pixels: img.width > 0 ? +img.getAttribute('width') : 0}; }""")
        allowed = found["pixels"] / found["drawn"] if found["drawn"] else 0
        if found["density"] < min(1.9, allowed) - 0.02:
            soft.append(found)
        page.keyboard.press("ArrowRight")
    check(not soft, f"lightbox at 1280x800x2: under 1.9 device px per CSS px: {soft[:3]}")
    page.screenshot(path=str(out / "viewer-1280-2x.png"))
    context.close()
    # The tiny scan, opened by its address: at its own size, on dark, details beside it.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
    page = context.new_page()
    open_address(page, *photo_address(sparse_page(site), "P000.jpg"))
    box = page.locator(".lightbox figure img").bounding_box()
    check(box["width"] <= 75.5 and box["height"] <= 100.5, f"the 75×100 scan is drawn {box['width']}×{box['height']}")
    side = page.locator(".lightbox .facts").bounding_box()
    check(side["x"] > box["x"] + box["width"], "the details are not beside the photo at 1280 px")
    page.screenshot(path=str(out / "viewer-tiny-1280-2x.png"))
    # The photo dated by its file name says so, and that it is a guess.
    messages = next(site.glob("albums/messages-*/index.html"))
    open_address(page, *photo_address(messages, lightbox_entries(messages.parent)[0]["name"]))
    facts = page.inner_text(".lightbox .facts")
    check("guess from the file name" in facts and "Mon 12 Aug 2019" in facts, f"the WhatsApp photo's details say: {facts!r}")
    check(page.locator(".lightbox dd.guess").count() == 1, "the guessed date is not marked")
    # Closing a photo opened by its address leaves the album page, at its own address.
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('.lightbox').hidden")
    check(page.url == messages.as_uri(), f"closing leaves the address {page.url}")
    context.close()
    # Without JavaScript: a photo opens its largest rendition.
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(messages.as_uri(), wait_until="load")
    page.locator(".layout:visible a.photo").first.click()
    page.wait_for_load_state("load")
    check("/media/fit-" in page.url, f"without script a photo opens {page.url}")
    check(page.evaluate("document.images.length === 1 && document.images[0].naturalWidth > 0"),
          "without script the photo's rendition does not show")
    context.close()
    # The photo with a GPS position shows its place in words, and its position linked to the site's own map.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    open_address(page, *photo_address(large, "DSC_0003.jpg"))
    facts = page.evaluate("""Object.fromEntries([...document.querySelectorAll('.lightbox dt')].map(dt => {
        const a = dt.nextElementSibling.querySelector('a');
        return [dt.textContent, [dt.nextElementSibling.textContent, a && a.href]]; }))""")
    place, position = facts.get("Place"), facts.get("Position")
    check(place and place[0].startswith("Paris") and position and position[0].startswith("48.86")
          and "/map.html#14/48.86" in (position[1] or "") and "openstreetmap.org" not in (position[1] or ""),
          f"the GPS photo's place: {place}, position: {position}")
    context.close()


def check_videos(browser, site, out):
    """Videos and Live Photos in Chromium: badges on the tiles, a player that plays, the motion
    of a Live Photo on hover, a link for a codec the browser does not play, and the lightbox."""
    album = next(site.glob("albums/clips-*/index.html"))
    for width, scale in ((1280, 1), (390, 2)):
        context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=scale)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(album.as_uri(), wait_until="load")
        where = f"videos at {width} px"
        tiles = page.evaluate("""[...[...document.querySelectorAll('.layout')].find(l => getComputedStyle(l).display !== 'none')
            .querySelectorAll('a.photo')].map(a => [a.querySelector('img').alt, [(a.querySelector('.badge') || {}).textContent || '',
                                                    (a.querySelector('.badge') || {}).title || '']])""")
        badges = {name: text for name, (text, _) in tiles}
        titles = {name: title for name, (_, title) in tiles}
        check(set(badges) == {"VID_0001.mp4", "VID_0002.mov", "VID_0003.avi", "IMG_0500.JPG"},
              f"{where}: tiles {sorted(badges)} (the Live Photo's video is no tile)")
        # The HEVC clip and the AVI, which Chromium does not play, play as their web videos: no
        # badge offers them to download instead.
        check(badges == {"VID_0001.mp4": "0:04", "VID_0002.mov": "0:02", "VID_0003.avi": "0:02", "IMG_0500.JPG": "LIVE"},
              f"{where}: badges {badges}")
        check(not any(titles.values()), f"{where}: badge titles {titles}")
        page.screenshot(path=str(out / f"videos-{width}-{scale}x.png"), full_page=True)
        # The lightbox plays the video in place of its poster.
        page.locator(".layout:visible a.photo", has=page.locator("img[alt='VID_0001.mp4']")).click()
        page.wait_for_selector(".lightbox:not([hidden]) video")
        page.wait_for_function("document.querySelector('.lightbox video').readyState >= 1")
        shown = page.evaluate("[document.querySelector('.lightbox video').videoWidth, document.querySelector('.lightbox video').videoHeight]")
        check(shown == [360, 640], f"{where}: the lightbox video is {shown}, not upright (360×640)")
        page.screenshot(path=str(out / f"videos-lightbox-{width}-{scale}x.png"))
        check(not errors, f"{where}: script errors {errors[:2]}")
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    # Each opened by its address: the video plays, upright; the Live Photo moves under the
    # pointer and stops when it leaves.
    open_address(page, *photo_address(album, "VID_0001.mp4"))
    page.wait_for_function("document.querySelector('.lightbox figure video[controls]').readyState >= 1")
    box = page.locator(".lightbox figure video").bounding_box()
    check(box["height"] > box["width"], f"the upright phone video is drawn {box['width']}×{box['height']}")
    page.evaluate("document.querySelector('.lightbox video').muted = true; document.querySelector('.lightbox video').play()")
    page.wait_for_function("document.querySelector('.lightbox video').currentTime > 0.2")
    check("0:04" in page.inner_text(".lightbox .facts"), f"the video's details: {page.inner_text('.lightbox .facts')!r}")
    page.screenshot(path=str(out / "video-1280.png"))
    open_address(page, *photo_address(album, "IMG_0500.JPG"))
    page.hover(".lightbox figure.live")
    page.wait_for_function("""document.querySelector('.lightbox figure.live.playing video')
        && document.querySelector('.lightbox figure.live video').currentTime > 0.1""")
    page.screenshot(path=str(out / "live-photo-1280.png"))
    page.hover(".lightbox .facts")
    check(page.evaluate("document.querySelector('.lightbox figure.live video').paused"),
          "the Live Photo keeps playing after the pointer left")
    if MOTION_PHOTO.exists():
        # A motion photo whose MP4 is HEVC: LIVE, not ⤓, and it moves under the pointer (its web video).
        motion = next(site.glob("albums/motion-*/index.html"))
        page.goto(motion.as_uri(), wait_until="load")
        badge = page.locator(".layout:visible a.photo .badge").first.inner_text()
        check(badge == "LIVE", f"the motion photo's badge says {badge!r}")
        open_address(page, *photo_address(motion, "motion.heic"))
        page.hover(".lightbox figure.live")
        page.wait_for_function("""(() => { const v = document.querySelector('.lightbox figure.live.playing video');
            return v && v.readyState >= 2 && v.currentTime > 0.1; })()""")
        source = page.evaluate("document.querySelector('.lightbox figure.live video').currentSrc")
        check("/media/web-1080/" in source, f"the motion photo plays {source}, not its web video")
        page.screenshot(path=str(out / "motion-photo-1280.png"))
    # The HEVC clip and the camera's AVI play in the lightbox: their web videos.
    for name, size in (("VID_0002.mov", [320, 240]), ("VID_0003.avi", [640, 480])):
        open_address(page, *photo_address(album, name))
        page.wait_for_selector(".lightbox:not([hidden]) figure video[controls]")
        page.evaluate("const v = document.querySelector('.lightbox video'); v.muted = true; v.play()")
        page.wait_for_function("""(() => { const v = document.querySelector('.lightbox video');
            return v.readyState >= 2 && v.currentTime > 0.2; })()""")
        shown = page.evaluate("[document.querySelector('.lightbox video').videoWidth, document.querySelector('.lightbox video').videoHeight]")
        check(shown == size, f"{name} plays at {shown}, not {size}")
        source = page.evaluate("document.querySelector('.lightbox video').src")
        check("/media/web-1080/" in source and source.endswith(".mp4"), f"{name} plays {source}, not its web video")
        check(page.locator(".lightbox a", has_text="Video").count() == 0, f"{name} is offered to download as if it could not play")
    page.screenshot(path=str(out / "video-avi-1280.png"))
    context.close()


def check_stacks_and_copies(browser, tessera, store, site, work, out):
    """A burst is one tile whose badge counts its frames, and the viewer opens it out: its
    frames in the filmstrip, each shown in turn. Copies are on no page and in no photos.js,
    unless the site is asked to show them."""
    with sqlite3.connect(work / "index.sqlite") as db:
        copies = {str(row[0]) for row in db.execute("SELECT photo_id FROM copy_members WHERE position > 0")}
        frames = [str(row[0]) for row in db.execute(
            "SELECT m.photo_id FROM stack_members m JOIN stacks s ON s.id = m.stack_id WHERE s.kind = 'burst'"
            " ORDER BY m.position")]
        named = dict(db.execute("SELECT id, path_text FROM photos"))
    check(len(frames) == BURST, f"the burst's frames stack as one: {frames}")
    check(sorted(Path(named[int(i)]).name for i in copies) == ["DSC_0004 copy.jpg", "DSC_0004 small.jpg"],
          f"the copies hidden: {[named[int(i)] for i in copies]}")
    burst = next(site.glob("albums/burst-*/index.html"))
    for width, scale in ((1280, 1), (390, 2)):
        context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 800},
                                      device_scale_factor=scale, has_touch=width < 600)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(burst.as_uri(), wait_until="load")
        where = f"the burst at {width} px"
        tiles = page.locator(".layout:visible a.photo")
        badge = tiles.first.locator(".badge.stack")
        check(tiles.count() == 1 and tiles.first.get_attribute("data-id") == frames[0],
              f"{where}: {tiles.count()} tiles, the first {tiles.first.get_attribute('data-id')}, not the face {frames[0]}")
        check(badge.count() == 1 and badge.inner_text() == str(BURST) and badge.is_visible(),
              f"{where}: the tile's badge says {badge.all_inner_texts()}")
        check("5 photos" in (badge.get_attribute("title") or ""), f"{where}: the badge's title {badge.get_attribute('title')!r}")
        if width == 1280:
            page.screenshot(path=str(out / f"stack-album-{width}.png"))
        tiles.first.click()
        page.wait_for_selector(".lightbox:not([hidden])")
        strip = page.eval_on_selector_all(".filmstrip button", "els => els.map(e => e.className)")
        check(len(strip) == BURST and strip[0].startswith("stacked") and all(c.startswith("member") for c in strip[1:]),
              f"{where}: the filmstrip holds {strip}")
        shown = []
        for _ in range(BURST):
            page.wait_for_function("""(() => { const i = document.querySelector('.lightbox figure img');
                return i.complete && i.naturalWidth > 0; })()""")
            shown.append(page.evaluate("document.querySelector('.lightbox').dataset.id"))
            facts = page.inner_text(".lightbox .facts")
            check("A burst of 5 photos" in facts, f"{where}: the details of {shown[-1]} say {facts!r}")
            if len(shown) == 2:
                page.screenshot(path=str(out / f"stack-viewer-{width}-{scale}x.png"))
            page.keyboard.press("ArrowRight")
        check(shown == frames, f"{where}: the viewer showed {shown}, the frames are {frames}")
        # A frame's own address opens the viewer on it, its stack opened out.
        page.goto(burst.as_uri() + f"#photo-{frames[3]}", wait_until="load")
        page.reload(wait_until="load")
        page.wait_for_selector(".lightbox:not([hidden])")
        opened = page.evaluate("document.querySelector('.lightbox').dataset.id")
        check(opened == frames[3], f"{where}: #photo-{frames[3]} opens {opened}")
        check(not errors, f"{where}: script errors {errors}")
        context.close()
    # Without script there is no viewer: the page lists the burst's frames, each a link to its rendition.
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(burst.as_uri(), wait_until="load")
    page.screenshot(path=str(out / "stack-album-noscript-1280.png"), full_page=True)
    links = page.locator(".stacks li a")
    listed = [Path(named[int(i)]).name for i in frames]
    check(links.all_inner_texts() == listed and "A burst of 5 photos" in page.inner_text(".stacks li"),
          f"without script the burst lists {links.all_inner_texts()}, its frames are {listed}")
    links.nth(3).click()
    page.wait_for_load_state("load")
    check("/media/fit-" in page.url and page.evaluate("document.images.length === 1 && document.images[0].naturalWidth > 0"),
          f"without script the 4th frame's link opens {page.url}")
    context.close()
    with_script = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    with_script.goto(burst.as_uri(), wait_until="load")
    check(not with_script.locator(".stacks").count(), "with script the stack's list is not shown")
    with_script.context.close()
    # Copies: on no page, in no lightbox data, and the total says what is shown.
    def ids(folder_site):
        on_pages, listed = set(), set()
        for page in folder_site.rglob("*.html"):
            on_pages |= set(re.findall(r'data-id="(\d+)"', page.read_text(encoding="utf-8")))
        for data in folder_site.rglob("photos.js"):
            listed |= {entry["id"] for entry in lightbox_entries(data.parent)}
        return on_pages, listed
    on_pages, listed = ids(site)
    check(not copies & (on_pages | listed), f"copies shown: {copies & (on_pages | listed)}")
    check(not set(frames[1:]) & on_pages, f"the burst's frames have tiles of their own: {set(frames[1:]) & on_pages}")
    shown_site = out / "sites" / "show-copies"
    subprocess.run([tessera, "album", "build", "--out", str(shown_site), "--show-copies", *store],
                   check=True, stdout=subprocess.DEVNULL)
    on_pages, listed = ids(shown_site)
    check(copies <= on_pages and copies <= listed, f"--show-copies leaves out {copies - on_pages}")
    counts = [re.search(r"<p>[^<]*?([\d,]+) photos", (s / "index.html").read_text(encoding="utf-8")) for s in (site, shown_site)]
    totals = [int(m.group(1).replace(",", "")) if m else None for m in counts]
    check(None not in totals and totals[1] - totals[0] == len(copies),
          f"the album list counts {totals[0]} photos, and {totals[1]} with the copies shown")


def check_big_album(browser, sites, out):
    for style, site in sites.items():
        big = next(site.glob("albums/big-*/index.html"))
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(big.as_uri(), wait_until="load")
        load = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        check(load < 1000, f"{style}: the {BIG}-photo album's first page loads in {load:.0f} ms")
        ids = page.evaluate("new Set([...document.querySelectorAll('a.photo')].map(a => a.dataset.id)).size")
        check(0 < ids <= 60, f"{style}: the first page holds {ids} photos")
        check(page.locator("nav.pager a[rel=next]").count() == 1, f"{style}: no next page link")
        if style == "tiles":
            more = page.locator(".layout:visible a.photo.more").first
            hidden = int(more.inner_text().strip().lstrip("+"))
            more.click()
            page.wait_for_load_state("load")
            shown = page.locator(".layout:visible a.photo").count()
            check("/section-" in page.url and shown == 6 + hidden, f"the +{hidden} tile leads to {page.url} with {shown} photos")
            page.goto(big.as_uri(), wait_until="load")
        page.goto(big.with_name("page-2.html").as_uri(), wait_until="load")
        check(page.locator("nav.pager a[rel=prev]").count() == 1, f"{style}: page 2 has no previous link")
        print(f"{style}: {BIG}-photo album, load event at {load:.0f} ms, {ids} photos on the first page")
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((sites["justified"] / "timeline.html").as_uri(), wait_until="load")
    check_stream(page, sites["justified"], out)
    # Find on the timeline looks through every photo of the site.
    # (the months' photos.js, newest month first, as the timeline lists them)
    entries = []
    # (newest first, the undated last)
    for month in sorted((sites["justified"] / "months").iterdir(), key=lambda m: (m.name != "undated", m.name), reverse=True):
        entries += lightbox_entries(month)
    expected = [e["id"] for e in entries if e["find"].get("day") and "2024-05-02" <= e["find"]["day"] <= "2024-05-02"]
    page.click("form.find button.filters")
    page.fill("form.find input[name=from]", "2024-05-02")
    page.fill("form.find input[name=to]", "2024-05-02")
    page.wait_for_function("document.querySelector('form.find output').textContent.includes(' of ')")
    shown = page.eval_on_selector_all("section.found a.photo", "els => els.map(e => e.dataset.id)")
    check(len(expected) == 6 and shown == expected, f"timeline Find 2 May 2024: {shown}, expected {expected}")
    page.screenshot(path=str(out / "timeline-find-1280.png"), full_page=True)
    page.locator("section.found a.photo").first.click()
    # It opens in the timeline's viewer, among its month's photos, at its address.
    page.wait_for_selector(".lightbox:not([hidden])")
    check(page.url.endswith(f"timeline.html#2024-05/photo-{expected[0]}")
          and page.evaluate("document.querySelector('.lightbox').dataset.id") == expected[0],
          f"a photo found on the timeline opens {page.url}")
    page.keyboard.press("Escape")
    page.wait_for_selector(".lightbox", state="hidden")
    page.screenshot(path=str(out / "timeline-1280.png"), full_page=True)
    # By its rarest format: find.js says which months hold it, and those are all that load.
    formats = {}
    for entry in entries:
        formats.setdefault(entry["find"]["format"], []).append(entry["id"])
    rare, ids = min(formats.items(), key=lambda item: len(item[1]))
    loaded = []
    page.on("request", lambda request: loaded.append(request.url) if request.url.endswith("/photos.js") else None)
    page.goto((sites["justified"] / "timeline.html").as_uri(), wait_until="load")
    # (what the stream reads as the page opens is not Find's)
    page.wait_for_selector(".stream a.photo")
    loaded.clear()
    page.click("form.find button.filters")
    page.wait_for_function("document.querySelector('form.find select[name=format]').options.length > 1")
    page.select_option("form.find select[name=format]", rare)
    page.wait_for_function(f"document.querySelector('form.find output').textContent.startsWith('{len(ids)} photo')"
                           f" && document.querySelectorAll('section.found a.photo').length >= {min(len(ids), 120)}")
    shown = page.eval_on_selector_all("section.found a.photo", "els => els.map(e => e.dataset.id)")
    months_with = {month.name for month in (sites["justified"] / "months").iterdir()
                   if any(e["find"]["format"] == rare for e in lightbox_entries(month))}
    check(shown == ids and len({url.split("/")[-2] for url in loaded}) <= len(months_with),
          f"timeline Find {rare}: {shown[:5]}, expected {ids[:5]}; loaded {len(loaded)} months for {len(months_with)}")
    # A word finds a keyword, and loads only the month that holds it.
    page.goto((sites["justified"] / "timeline.html").as_uri(), wait_until="load")
    page.wait_for_selector(".stream a.photo")
    loaded.clear()
    page.fill("form.find input[name=text]", "harbour")
    page.wait_for_function("document.querySelector('form.find output').textContent.includes(' of ')"
                           " && !document.querySelector('form.find output').textContent.startsWith('up to')")
    shown = page.eval_on_selector_all("section.found a.photo", "els => els.map(e => e.dataset.id)")
    expected = [e["id"] for e in entries if "harbour" in e["find"].get("keywords", [])]
    check(len(expected) == 1 and shown == expected and len(loaded) == 1,
          f"timeline Find 'harbour': {shown}, expected {expected}; loaded {len(loaded)} months")
    context.close()


def check_stream(page, site, out):
    """The timeline is a stream of photos: the newest month's first, laid out in rows that span
    the width, days side by side under their dates; a scrubber by year, whose last entry leads
    to the undated photos; and months far from the window let their photos go."""
    page.wait_for_function("document.querySelectorAll('.stream a.photo').length >= 10")
    months = sorted((m for m in (site / "months").iterdir() if m.name != "undated"), reverse=True)
    first = page.evaluate("document.querySelector('.stream section.month h2').textContent")
    newest = lightbox_entries(months[0])
    shown = page.eval_on_selector_all("#month-" + months[0].name + " a.photo", "els => els.map(e => e.dataset.id)")
    check(shown == [e["id"] for e in newest], f"the stream's first month ({first}) shows {shown[:4]}, not its photos")
    report = page.evaluate("""() => {
      const block = document.querySelector('.stream section.month .layout');
      const frames = [...block.querySelectorAll('a.photo')].map((a) => [a.offsetLeft, a.offsetTop, a.offsetWidth, a.offsetHeight]);
      const rows = new Map();
      for (const [x, y, w, h] of frames) {
        const key = Math.round(y + h / 2);
        const row = rows.get(key) || [Infinity, -Infinity];
        rows.set(key, [Math.min(row[0], x), Math.max(row[1], x + w)]);
      }
      const spans = [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, [l, r]]) => r - l);
      const headers = [...block.querySelectorAll('.header')].map((h) => h.textContent);
      return {spans, headers, width: window.innerWidth, layout: block.offsetWidth,
              scrubber: [...document.querySelectorAll('.scrubber a')].map((a) => a.textContent)};
    }""")
    content = report["layout"] - 2 * 16
    short = [span for span in report["spans"][:-1] if span < 0.95 * content]
    check(report["spans"] and not short, f"stream rows under 95 % of {content} px: {short[:3]} of {report['spans']}")
    check(report["headers"] and all(re.match(r"^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d+ \w{3} \d{4}$", h) for h in report["headers"]),
          f"the stream's day labels: {report['headers'][:4]}")
    check(report["scrubber"][:1] == [months[0].name[:4]] and report["scrubber"][-1:] == ["Undated"],
          f"the scrubber's years: {report['scrubber']}")
    page.screenshot(path=str(out / "timeline-stream-1280.png"))
    check_stream_viewer(page, months, out)
    page.goto((site / "timeline.html").as_uri(), wait_until="load")
    page.wait_for_function("document.querySelectorAll('.stream a.photo').length >= 10")
    # The scrubber's last entry: the undated scans (and clips nothing dates), at the end.
    undated = [e["id"] for e in lightbox_entries(site / "months" / "undated")]
    names = [e["name"] for e in lightbox_entries(site / "months" / "undated")]
    check(all(f"S{n}.jpg" in names for n in range(UNDATED)), f"the undated month holds {names}")
    page.click(".scrubber a:text('Undated')")
    page.wait_for_function(f"document.querySelectorAll('#month-undated a.photo').length === {len(undated)}"
                           " && [...document.querySelectorAll('#month-undated img')].every((i) => i.complete && i.naturalWidth > 0)")
    shown = page.eval_on_selector_all("#month-undated a.photo", "els => els.map(e => e.dataset.id)")
    check(shown == undated, f"the stream's undated photos: {shown}, expected {undated}")
    page.screenshot(path=str(out / "timeline-undated-1280.png"))
    # Far from the window, the newest month has let its photos go (and kept its height).
    page.wait_for_function("document.querySelectorAll('#month-" + months[0].name + " a.photo').length === 0")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("document.querySelectorAll('#month-" + months[0].name + " a.photo').length > 0")
    # Each month's page leads to the months beside it, the oldest to the undated.
    page.goto((months[0] / "index.html").as_uri(), wait_until="load")
    check(page.locator("nav.months a[rel=prev]").count() == 0, "the newest month links to a newer one")
    page.click("nav.months a[rel=next]")
    page.wait_for_load_state("load")
    check(page.url.endswith(f"months/{months[1].name}/index.html"), f"the newest month's next month is {page.url}")
    page.goto((months[-1] / "index.html").as_uri(), wait_until="load")
    page.click("nav.months a[rel=next]")
    page.wait_for_load_state("load")
    check(page.url.endswith("months/undated/index.html") and page.locator("nav.months a[rel=prev]").count() == 1,
          f"the oldest month's next month is {page.url}")
    # For a person to look at: the stream at a phone's, a tablet's and a wide screen's width.
    for width in (390, 768, 1920):
        context = page.context.browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 900},
                                                   device_scale_factor=2)
        wide = context.new_page()
        wide.goto((site / "timeline.html").as_uri(), wait_until="load")
        wide.wait_for_function("document.querySelectorAll('.stream a.photo').length >= 10")
        wide.wait_for_function("[...document.querySelectorAll('.stream img')].slice(0, 10).every((i) => i.complete)")
        spans = wide.evaluate("""() => { const l = document.querySelector('.stream .layout');
          const xs = [...l.querySelectorAll('a.photo')].map((a) => [a.offsetLeft, a.offsetLeft + a.offsetWidth]);
          return (Math.max(...xs.map((x) => x[1])) - Math.min(...xs.map((x) => x[0]))) / window.innerWidth; }""")
        # (the scrubber's 44 px beside it)
        check(spans >= (0.9 if width >= 740 else 0.8), f"the stream at {width} px spans {spans:.0%} of the window")
        wide.screenshot(path=str(out / f"timeline-stream-{width}-2x.png"))
        context.close()
    page.goto((site / "timeline.html").as_uri(), wait_until="load")


def check_stream_viewer(page, months, out):
    """A photo of the stream opens in the timeline's own viewer, among its month's photos, at an
    address naming both; past the month's last photo comes the next month's first; the address
    reopens the same photo; Esc closes it over the stream."""
    newest, older = lightbox_entries(months[0]), lightbox_entries(months[1])
    page.locator(f"#month-{months[0].name} a.photo").first.click()
    page.wait_for_selector(".lightbox:not([hidden])")
    viewing = lambda: page.evaluate("document.querySelector('.lightbox').dataset.id")
    check(viewing() == newest[0]["id"] and page.url.endswith(f"timeline.html#{months[0].name}/photo-{newest[0]['id']}"),
          f"a photo of the stream opens {viewing()} at {page.url}")
    page.locator(".lightbox .filmstrip button").last.click()
    page.wait_for_function(f"document.querySelector('.lightbox').dataset.id === '{newest[-1]['id']}'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"document.querySelector('.lightbox').dataset.id === '{older[0]['id']}'")
    strip = page.locator(".lightbox .filmstrip button").count()
    counter = page.evaluate("document.querySelector('.lightbox .counter').textContent")
    title = page.evaluate(f"document.querySelector('#month-{months[1].name} h2').textContent")
    check(page.url.endswith(f"#{months[1].name}/photo-{older[0]['id']}") and strip == len(older)
          and counter == f"1 / {len(older)} · {title}",
          f"past {months[0].name}'s last photo: {viewing()} at {page.url}, a filmstrip of {strip}, '{counter}'")
    page.screenshot(path=str(out / "timeline-viewer-1280.png"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.querySelector('.lightbox').dataset.id === '{newest[-1]['id']}'")
    page.reload(wait_until="load")
    page.wait_for_selector(".lightbox:not([hidden])")
    check(viewing() == newest[-1]["id"] and "streaming" in page.evaluate("document.documentElement.className"),
          f"the address of {newest[-1]['id']} reopens {viewing()} on the timeline")
    page.keyboard.press("Escape")
    page.wait_for_selector(".lightbox", state="hidden")
    check(page.url.endswith("timeline.html"), f"closed, the timeline's address is {page.url}")


def map_state(page):
    """The map's clusters as drawn: their counts, and the tiles loaded."""
    return page.evaluate("""(() => ({
        counts: [...document.querySelectorAll('.map-cluster span')].map((s) => s.textContent),
        tiles: [...document.querySelectorAll('img.leaflet-tile')].filter((t) => t.complete && t.naturalWidth > 0).length,
        zoom: Number((location.hash.match(/^#(\\d+)\\//) || [])[1]),
    }))()""")


def check_map(browser, url, expected, out, name):
    """The map at `url` (from disk or served): tiles and clusters drawn, each photo counted once."""
    for width, height, scale in ((1280, 800, 1), (1280, 800, 2), (390, 844, 2)):
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url, wait_until="load")
        page.wait_for_selector(".map-cluster span", timeout=10000)
        page.wait_for_function("[...document.querySelectorAll('img.leaflet-tile')].some((t) => t.complete && t.naturalWidth)")
        state = map_state(page)
        counts = [int(c) for c in state["counts"] if c.isdigit()]
        where = f"the map {name} at {width} px, scale {scale}"
        check(not errors, f"{where}: script errors {errors[:2]}")
        check(state["tiles"] > 0, f"{where}: no background tile loaded")
        check(sum(counts) == expected, f"{where}: clusters count {sum(counts)} photos, not {expected}: {state['counts']}")
        page.screenshot(path=str(out / f"map-{name}-{width}-{scale}x.png"))
        context.close()


def check_places(browser, site, work, out):
    """Places as a person meets them: the map of every photo with a position, the Places pages,
    and the place in the viewer."""
    with sqlite3.connect(work / "index.sqlite") as db:
        expected = db.execute(
            "SELECT COUNT(*) FROM photos WHERE gps_latitude IS NOT NULL AND status IN ('ok', 'warning')").fetchone()[0]
    index = (site / "map" / "index.js").read_text(encoding="utf-8")
    check(f'"photos":{expected}' in index, f"map/index.js does not count the {expected} photos with a position")
    check_map(browser, (site / "map.html").as_uri(), expected, out, "disk")
    # A cluster of many zooms in; a single photo opens in the viewer, which names its place.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=2)
    page = context.new_page()
    page.goto((site / "map.html").as_uri(), wait_until="load")
    page.wait_for_selector(".map-cluster span")
    page.wait_for_function("/^#\\d+\\//.test(location.hash)")
    before = map_state(page)["zoom"]
    many = page.locator(".map-cluster", has=page.locator("span", has_text=re.compile(r"^([2-9]|\d\d+)$"))).first
    many.click()
    page.wait_for_function(f"Number((location.hash.match(/^#(\\d+)\\//) || [])[1]) > {before}", timeout=10000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(out / "map-zoomed-1280-2x.png"))
    page.goto((site / "map.html").as_uri() + "#17/48.8614/2.2945", wait_until="load")
    page.wait_for_selector(".map-cluster span")
    single = page.locator(".map-cluster", has=page.locator("span", has_text=re.compile(r"^1$"))).first
    single.click()
    page.wait_for_selector(".lightbox:not([hidden])", timeout=10000)
    facts = page.inner_text(".lightbox .facts")
    check("Paris" in facts and "Position" in facts, f"the photo opened from the map names no place: {facts!r}")
    link = page.get_attribute(".lightbox .facts a[href*='map.html']", "href") or ""
    check("map.html#14/48.86" in link and "openstreetmap.org/?" not in page.content(),
          f"the viewer's position links to {link!r}, not the site's map")
    page.screenshot(path=str(out / "map-photo-viewer-1280-2x.png"))
    # The Places pages: countries, then a country's regions and photos.
    page.goto((site / "places.html").as_uri(), wait_until="load")
    countries = page.eval_on_selector_all("main.albums .name", "els => els.map((e) => e.textContent)")
    check({"France", "Austria", "Japan", "Norway", "Egypt"} <= set(countries), f"Places lists {countries}")
    check("GeoNames" in page.inner_text("footer"), "the Places page does not credit GeoNames")
    page.screenshot(path=str(out / "places-1280-2x.png"), full_page=True)
    page.click("main.albums a[title='Japan']")
    page.wait_for_selector(".children .albums a")
    check(page.inner_text("h1") == "Japan", "a country's page has no title")
    page.screenshot(path=str(out / "places-japan-1280-2x.png"), full_page=True)
    # Down to a town: its photos newest first, each opening in its album's viewer.
    while page.locator("main.place-photos img").count() == 0 and page.locator(".children .albums a").count():
        page.locator(".children .albums a").first.click()
        page.wait_for_load_state("load")
    thumbnails = page.locator("main.place-photos img")
    check(thumbnails.count() > 0 and "Tokyo" in page.inner_text("h1"), f"no town page with photos: {page.url}")
    page.wait_for_function("[...document.querySelectorAll('main.place-photos img')].every((i) => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(out / "places-town-1280-2x.png"), full_page=True)
    thumbnails.first.click()
    page.wait_for_selector(".lightbox:not([hidden])", timeout=10000)
    check("Tokyo" in page.inner_text(".lightbox .facts"), "a town's photo opens in a viewer that names another place")
    context.close()
    # Served over HTTP, as from any web host.
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=site,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/map.html", timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        check_map(browser, f"http://127.0.0.1:{port}/map.html", expected, out, "http")
    finally:
        server.terminate()
        server.wait()


def check_people(browser, tessera, work, out):
    """People as a visitor meets them: named people only, each with their face; their photos;
    their name in the viewer; Find's person filter finding exactly their photos."""
    if not JOHNS.is_dir():
        print(f"album check: people skipped: {JOHNS} not found (the shared labelled faces)")
        return
    photos, people = work / "people-photos", work / "people"
    names = sorted(p.name for p in JOHNS.iterdir() if p.is_dir())[:3]
    for name in names:
        (photos / name).mkdir(parents=True)
        for source in sorted((JOHNS / name).glob("*.jpg"))[:4]:
            shutil.copy(source, photos / name / source.name)
    store = ["--index", str(people / "index.sqlite"), "--cache", str(people / "cache")]
    subprocess.run([tessera, "scan", str(photos), *store], check=True, stdout=subprocess.DEVNULL)
    with sqlite3.connect(people / "index.sqlite") as db:
        rows = db.execute("SELECT f.person_id, p.path_text FROM faces f JOIN photos p ON p.id = f.photo_id").fetchall()
    by_folder = {}
    for person, path in rows:
        by_folder.setdefault(Path(path).parent.name, set()).add(person)
    check(all(len(by_folder.get(n, ())) == 1 for n in names), f"the people's faces are not one person each: {by_folder}")
    if not all(len(by_folder.get(n, ())) == 1 for n in names):
        return
    named = {"Ada Lovelace": next(iter(by_folder[names[0]])), "Émile <Zola>": next(iter(by_folder[names[1]]))}
    for name, person in named.items():
        subprocess.run([tessera, "people", "name", str(person), name, *store], check=True, stdout=subprocess.DEVNULL)
    site = out / "sites" / "people"
    subprocess.run([tessera, "album", "build", "--out", str(site), *store], check=True, stdout=subprocess.DEVNULL)
    for width, scale in ((1280, 1), (390, 2)):
        context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=scale)
        page = context.new_page()
        page.goto((site / "people.html").as_uri(), wait_until="load")
        page.wait_for_function("[...document.querySelectorAll('main.people img')].every((i) => i.complete)")
        cards = page.evaluate("""() => [...document.querySelectorAll('main.people a')].map((a) => {
            const img = a.querySelector('img'), box = img.getBoundingClientRect();
            return {name: a.querySelector('.name').textContent, src: img.currentSrc, shown: box.width,
                    round: getComputedStyle(img).borderRadius};
        })""")
        for card in cards:
            # The face's own pixels for each CSS pixel the card shows, at the screen's density.
            with Image.open(urllib.request.url2pathname(urllib.parse.urlparse(card["src"]).path)) as face:
                card["density"] = round(min(face.size) / card["shown"], 2)
        check(sorted(c["name"] for c in cards) == sorted(named) and all(
            c["src"].endswith("/face.jpg") and c["round"] == "50%" and c["density"] >= (1.9 if scale == 2 else 1)
            for c in cards), f"the People page at {width} px, {scale}x shows {cards}")
        page.screenshot(path=str(out / f"people-{width}-{scale}x.png"), full_page=True)
        context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((site / "people.html").as_uri(), wait_until="load")
    page.click("main.people a[title='Ada Lovelace']")
    page.wait_for_selector("main.place-photos img")
    thumbnails = page.locator("main.place-photos img")
    check(page.inner_text("h1") == "Ada Lovelace" and thumbnails.count() == 4,
          f"Ada's page shows {thumbnails.count()} photos under {page.inner_text('h1')!r}")
    page.screenshot(path=str(out / "people-person-1280-1x.png"), full_page=True)
    thumbnails.first.click()
    page.wait_for_selector(".lightbox:not([hidden])", timeout=10000)
    facts = page.inner_text(".lightbox .facts")
    check("People" in facts and "Ada Lovelace" in facts, f"a person's photo opens in a viewer that says {facts!r}")
    # Find: the person filter, on the timeline (of undated photos) and on an album, finds exactly
    # their photos.
    album = page.url.split("#")[0]
    for start, expected in (("timeline.html", "4 photos of 12"), (None, "4 photos of 4")):
        address = (site / start).as_uri() if start else album
        page.goto(address, wait_until="load")
        page.click("form.find button.filters")
        page.wait_for_function("document.querySelector('form.find').dataset.filled === '1'")
        options = page.eval_on_selector_all("form.find select[name=person] option", "els => els.map(e => e.value)")
        offered = ["", *named] if start else ["", "Ada Lovelace"]  # (an album offers its own people)
        check(sorted(options) == sorted(offered), f"Find's person filter offers {options}")
        page.select_option("form.find select[name=person]", "Émile <Zola>" if start else "Ada Lovelace")
        page.wait_for_function("/ of \\d/.test(document.querySelector('form.find output').textContent)"
                               " && !document.querySelector('form.find output').textContent.startsWith('up to')")
        said = page.inner_text("form.find output")
        check(said == expected, f"Find's person filter on {start or 'an album'} says {said!r}, not {expected!r}")
        check(not page.locator("section.found button.more").is_visible(), "Find offers More when all is shown")
        page.screenshot(path=str(out / f"people-find-{start or 'album'}-1280-1x.png"))
    context.close()


def check_album_map(browser, site, out):
    """An album's own map, under its photos: its photos with a position counted once at 1280 and
    390 px (1× and 2×), the album's address kept, and a photo opening in the album's viewer."""
    big = next(site.glob("albums/big-*/index.html"))
    expected = sum("at" in entry for entry in lightbox_entries(big.parent))
    large = next(site.glob("albums/large-*/index.html"))
    for width, height, scale in ((1280, 800, 1), (390, 844, 2)):
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(big.as_uri(), wait_until="load")
        page.locator(".album-map h2").scroll_into_view_if_needed()
        page.wait_for_selector(".album-map .map-cluster span", timeout=10000)
        page.locator(".album-map").scroll_into_view_if_needed()
        counts = [int(c) for c in page.eval_on_selector_all(".album-map .map-cluster span", "s => s.map((e) => e.textContent)")]
        where = f"the Big album's map at {width} px, scale {scale}"
        check(not errors, f"{where}: script errors {errors[:2]}")
        check(sum(counts) == expected, f"{where}: clusters count {sum(counts)} photos, not {expected}: {counts}")
        check(page.url == big.as_uri(), f"{where}: the album's address became {page.url}")
        page.screenshot(path=str(out / f"album-map-{width}-{scale}x.png"))
        # The Large album's one photo with a position opens in its viewer.
        page.goto(large.as_uri(), wait_until="load")
        page.locator(".album-map h2").scroll_into_view_if_needed()
        page.locator(".album-map .map-cluster").first.click()
        page.wait_for_selector(".lightbox:not([hidden])", timeout=10000)
        _, photo_id = photo_address(large, "DSC_0003.jpg")
        check(page.url.endswith(f"#photo-{photo_id}") and "Paris" in page.inner_text(".lightbox .facts"),
              f"{where}: the map's photo opened {page.url}")
        context.close()
    # An album with no position has no map.
    page = browser.new_page()
    page.goto(next(site.glob("albums/clips-*/index.html")).as_uri(), wait_until="load")
    check(page.locator(".album-map").count() == 0, "an album of photos without a position shows a map")
    page.close()


def check_portable(site, work):
    copy = work / "copied-site"
    shutil.copytree(site, copy, symlinks=True)
    with served(copy) as base:
        pages, fetched, failures = crawl(base, base + "index.html")
        check(fetched > BIG and not failures, f"served copy: {len(failures)} of {fetched} references fail: {failures[:3]}")
        print(f"served copy: {pages} pages, {fetched} references, {len(failures)} failures")


@contextlib.contextmanager
def served(folder):
    """`folder` served over HTTP on a free port of 127.0.0.1, once it answers: its address."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=folder,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base, timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait()


def sealed_files(site, album_id, passphrase):
    """A private album's manifest and a way to open its files, decrypted here as its page does
    (PBKDF2-SHA256, AES-256-GCM; docs/PRIVATE.md): a second implementation of the format."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
    folder = site / "private" / album_id
    wraps = json.loads(re.fullmatch(r"tesseraKeys\((.*)\);\n", (folder / "keys.js").read_text(), re.S).group(1))
    key = None
    for wrap in wraps["passphrases"]:
        wrapping = PBKDF2HMAC(hashes.SHA256(), 32, base64.b64decode(wrap["salt"]), wraps["rounds"]).derive(passphrase.encode())
        sealed = base64.b64decode(wrap["key"])
        try:
            key = AESGCM(wrapping).decrypt(sealed[:12], sealed[12:], f"tessera-key|{album_id}|{wrap['salt']}".encode())
        except Exception:
            continue
    check(key is not None, f"private/{album_id}: the passphrase does not open its keys.js here")

    def open_file(name):
        text = (folder / f"{name}.js").read_text()
        sealed = base64.b64decode(re.fullmatch(r'tesseraSealed\("(?:[0-9a-f]+|manifest)","(.*)"\);\n', text, re.S).group(1))
        plain = AESGCM(key).decrypt(sealed[:12], sealed[12:], f"tessera-file|{album_id}|{name}".encode())
        return plain[:plain.rstrip(b"\0").rindex(b"\x80")]
    return json.loads(open_file("manifest")), open_file


def check_private(browser, tessera, store, work, public_site, out):
    """Private albums as their visitors meet them, at 1280 and 390 px: opened with the passphrase
    (a wrong one says so) and with a link, over HTTP and from disk; the same photos as the public
    album shows; the video plays; a damaged file is said to be, the rest shows; and the public
    pages show no trace of them."""
    site = out / "sites" / "private"
    passes = {"Tagged": "harbour at dawn", "Clips": "clips in the garden"}
    lines = ["faces: false", "private_albums:"]
    for folder, phrase in passes.items():
        (work / f"{folder}.pass").write_text(phrase + "\n")
        lines += [f"  - folder: {folder}", f"    passphrase_file: {work / (folder + '.pass')}"]
    config = ["--config", str(work / "private.yaml")]
    (work / "private.yaml").write_text("\n".join(lines) + "\n")
    built = subprocess.run([tessera, "album", "build", "--out", str(site), *store, *config], check=True,
                           capture_output=True, text=True).stdout
    ids = dict(re.findall(r"Private album (\w+): .* in private/([0-9a-f]+)/", built))
    check(set(ids) == set(passes), f"private albums built: {built}")
    if set(ids) != set(passes):
        return
    # No trace in the clear: names, titles, keywords, file names (the site's own code aside) outside
    # the sealed files' ciphertext (base64 of random bytes spells any short word somewhere); every
    # sealed file opens with its album's key, so it is ciphertext; none of their pictures among the
    # public ones.
    words = [b"Tagged", b"tagged-", b"Harbour at dawn", b"Fishing boats", b"harbour", b"Clips", b"clips-",
             b"VID_0001", b"H0.jpg"]
    files = [path for path in site.rglob("*") if path.is_file() and path.relative_to(site).parts[0] != "assets"]
    outside = {path: re.sub(rb'\A(tesseraSealed\("[^"]*",")[A-Za-z0-9+/=]*("\);\n)\Z', rb"\1\2", path.read_bytes())
               for path in files}
    leaks = [f"{path.relative_to(site)}: {word!r}" for path in files for word in words if word in outside[path]]
    leaks += [f"{path.relative_to(site)}: {signature!r}" for path in files if path.relative_to(site).parts[0] == "private"
              for signature in (b"\xff\xd8\xff", b"ftyp", b"\x89PNG") if signature in outside[path]]
    for folder, album_id in ids.items():
        _, open_album_file = sealed_files(site, album_id, passes[folder])
        for path in (site / "private" / album_id).iterdir():
            if path.name not in ("keys.js", "index.html"):
                try:
                    open_album_file(path.stem)
                except Exception as error:
                    leaks.append(f"{path.relative_to(site)} does not open: {error!r}")
    check(not leaks, f"private albums in the clear: {leaks[:5]}")
    manifest, open_file = sealed_files(site, ids["Tagged"], passes["Tagged"])
    squares = sorted(path for path in manifest["files"] if path.startswith("media/") and path.endswith(".jpg"))
    pictures = {open_file(manifest["files"][path]["name"]) for path in squares}
    check(squares and all(picture[:3] == b"\xff\xd8\xff" for picture in pictures),
          "the sealed renditions do not open here as JPEGs")
    public_media = [path.relative_to(site) for path in (site / "media").rglob("*") if path.is_file()
                    and path.read_bytes() in pictures]
    check(not public_media, f"a private photo's rendition is in the public media: {public_media[:3]}")
    public = {folder: len(lightbox_entries(next(public_site.glob(f"albums/{folder.lower()}-*"))))
              for folder in passes}
    shown_photos = "[...document.querySelectorAll('.layout a.photo')].filter(a => a.offsetParent).length"
    loaded = ("[...document.querySelectorAll('.layout img')].filter(i => i.offsetParent)"
              ".every(i => i.complete && i.naturalWidth > 0)")
    with served(site) as base:
        link = subprocess.run([tessera, "album", "share", "Clips", "--out", str(site), "--base-url", base, *store,
                               *config], check=True, capture_output=True, text=True).stdout.strip()
        check(link.startswith(base + f"private/{ids['Clips']}/index.html#key="), f"the shared link is {link}")
        for width, scale in ((1280, 1), (390, 2)):
            where = f"private albums at {width} px"
            context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=scale)
            page = context.new_page()
            errors, asked = [], []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: asked.append(request.url))
            page.goto(f"{base}private/{ids['Tagged']}/index.html")
            page.fill("input[name=passphrase]", "harbour at dusk")
            page.click("form.unlock button")
            page.wait_for_function("document.querySelector('.unlock .status').textContent === 'Wrong passphrase.'")
            page.screenshot(path=str(out / f"private-wrong-{width}-{scale}x.png"))
            page.fill("input[name=passphrase]", passes["Tagged"])
            page.click("form.unlock button")
            page.wait_for_selector(".layout.laid")
            page.wait_for_function(loaded)
            count = page.evaluate(shown_photos)
            check(count == public["Tagged"], f"{where}: the private Tagged shows {count} photos, public {public['Tagged']}")
            check("Tagged" in page.title(), f"{where}: the opened page is titled {page.title()}")
            page.screenshot(path=str(out / f"private-album-{width}-{scale}x.png"), full_page=True)
            page.locator(".layout a.photo:visible").first.click()
            page.wait_for_selector(".lightbox:not([hidden])")
            page.wait_for_function("(() => { const i = document.querySelector('.lightbox figure img');"
                                   " return i && i.complete && i.naturalWidth > 0; })()")
            text = page.inner_text(".lightbox")
            check("Harbour at dawn" in text or "Market" in text, f"{where}: the viewer shows {text[:80]!r}")
            page.screenshot(path=str(out / f"private-viewer-{width}-{scale}x.png"))
            # A reload of the tab opens it again without the passphrase; a new tab asks for it.
            page.reload()
            page.wait_for_selector(".layout.laid")
            plain = [url for url in asked if url.startswith(base) and re.search(r"/(media|albums)/", url)]
            check(not plain, f"{where}: the private page asked the server for {plain[:3]}")
            # The link: the video plays, upright.
            clip = context.new_page()
            clip.goto(link)
            clip.wait_for_selector(".layout.laid")
            count = clip.evaluate(shown_photos)
            check(count == public["Clips"], f"{where}: the private Clips shows {count} photos, public {public['Clips']}")
            check("#key=" not in clip.url, f"{where}: the key stays in the address: {clip.url}")
            clip.locator(".layout:visible a.photo", has=clip.locator("img[alt='VID_0001.mp4']")).click()
            clip.wait_for_function("(() => { const v = document.querySelector('.lightbox figure video[controls]');"
                                   " return v && v.readyState >= 1; })()", timeout=60000)
            shown = clip.evaluate("[document.querySelector('.lightbox video').videoWidth,"
                                  " document.querySelector('.lightbox video').videoHeight]")
            check(shown == [360, 640], f"{where}: the private video is {shown}, not 360×640")
            clip.screenshot(path=str(out / f"private-video-{width}-{scale}x.png"))
            check(not errors, f"{where}: script errors {errors[:2]}")
            context.close()
        # From disk: the photos show.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto((site / "private" / ids["Tagged"] / "index.html").as_uri())
        page.fill("input[name=passphrase]", passes["Tagged"])
        page.click("form.unlock button")
        page.wait_for_selector(".layout.laid")
        page.wait_for_function(loaded)
        check(page.evaluate(shown_photos) == public["Tagged"], "from disk: the private album's photos do not show")
        context.close()
        # One photo's files damaged (its renditions share a name): said to be, the other photo shows.
        for path in squares:
            if Path(path).name == Path(squares[0]).name:
                damaged = site / "private" / ids["Tagged"] / (manifest["files"][path]["name"] + ".js")
                text = damaged.read_text()
                middle = len(text) // 2
                damaged.write_text(text[:middle] + ("A" if text[middle] != "A" else "B") + text[middle + 1:])
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{base}private/{ids['Tagged']}/index.html")
        page.fill("input[name=passphrase]", passes["Tagged"])
        page.click("form.unlock button")
        page.wait_for_selector(".sealed-status")
        note = page.inner_text(".sealed-status")
        check("damaged" in note, f"a damaged file: the page says {note!r}")
        shown = page.evaluate("[...document.querySelectorAll('.layout img')].filter(i => i.naturalWidth > 0).length")
        check(shown >= 1, "a damaged file: no other photo shows")
        page.screenshot(path=str(out / "private-damaged.png"))
        context.close()
        # A revoked link opens it no more.
        subprocess.run([tessera, "album", "revoke", "Clips", "--all-links", "--out", str(site), *store, *config],
                       check=True, capture_output=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(link)
        page.wait_for_function("document.querySelector('.unlock .status').textContent.includes('does not open')")
        context.close()


def check_private_video(browser, tessera, work, out):
    """A private album's long video, sealed in parts: it plays once some of its parts have come
    (not all: the page opens them 20 s ahead of where it plays), plays on, a seek near its end
    plays there, and what played long before is let go; over HTTP and from disk."""
    folder = work / "long"
    (folder / "photos" / "Long").mkdir(parents=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=s=640x360:r=25:d=90,noise=alls=14:allf=t", "-f", "lavfi", "-i",
                    "sine=frequency=330:duration=90", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", "-g", "50",
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(folder / "photos" / "Long" / "walk.mp4")],
                   check=True)
    (folder / "long.pass").write_text("a long walk\n")
    (folder / "tessera.yaml").write_text(
        f"faces: false\nprivate_albums:\n  - folder: Long\n    passphrase_file: {folder / 'long.pass'}\n")
    store = ["--index", str(folder / "index.sqlite"), "--cache", str(folder / "cache"),
             "--config", str(folder / "tessera.yaml")]
    subprocess.run([tessera, "scan", str(folder / "photos"), *store], check=True, stdout=subprocess.DEVNULL)
    site = out / "sites" / "private-video"
    built = subprocess.run([tessera, "album", "build", "--out", str(site), *store], check=True, capture_output=True,
                           text=True).stdout
    found = re.search(r"Private album Long: .* in private/([0-9a-f]+)/", built)
    check(found, f"the private album with a long video: {built}")
    if not found:
        return
    album_id = found.group(1)
    manifest, _ = sealed_files(site, album_id, "a long walk")
    videos = [entry for path, entry in manifest["files"].items() if path.startswith("media/video/")]
    check(len(videos) == 1 and len(videos[0].get("parts", [])) >= 3
          and videos[0].get("type", "").startswith('video/mp4; codecs="avc1.'),
          f"the long video is not sealed in parts that stream: {videos}")
    if len(videos) != 1:
        return
    parts = [videos[0]["name"]] + [part["name"] for part in videos[0].get("parts", [])]
    video = "document.querySelector('.lightbox figure video[controls]')"
    for where in ("over HTTP", "from disk"):
        with served(site) as base:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            asked, errors = [], []
            page.on("request", lambda request: asked.append(request.url.rsplit("/", 1)[-1].removesuffix(".js")))
            page.on("pageerror", lambda error: errors.append(str(error)))
            index = site / "private" / album_id / "index.html"
            page.goto(f"{base}private/{album_id}/index.html" if where == "over HTTP" else index.as_uri())
            page.fill("input[name=passphrase]", "a long walk")
            page.click("form.unlock button")
            page.wait_for_selector(".layout.laid")
            page.locator(".layout a.photo:visible").first.click()
            page.wait_for_function(f"(() => {{ const v = {video}; return v && v.readyState >= 2; }})()", timeout=60000)
            fetched = [name for name in parts if name in asked]
            check(1 < len(fetched) < len(parts),
                  f"{where}: the long video could play after {len(fetched)} of its {len(parts)} parts")
            duration = page.evaluate(f"{video}.duration")
            check(abs(duration - 90) < 1, f"{where}: the long video lasts {duration} s in the page, not 90")
            page.evaluate(f"(() => {{ const v = {video}; v.muted = true; return v.play(); }})()")
            page.wait_for_function(f"{video}.currentTime > 1", timeout=60000)
            page.evaluate(f"{video}.currentTime = 80")
            page.wait_for_function(f"(() => {{ const v = {video}; return !v.seeking && v.currentTime > 80.5; }})()",
                                   timeout=60000)
            page.wait_for_function(f"{video}.buffered.length > 0 && {video}.buffered.start(0) > 40", timeout=60000)
            page.screenshot(path=str(out / f"private-long-video-{where.split()[-1].lower()}.png"))
            check(not errors, f"{where}: script errors {errors[:2]}")
            context.close()


if __name__ == "__main__":
    main()
