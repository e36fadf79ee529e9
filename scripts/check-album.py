#!/usr/bin/env python3
"""Album pages as a browser shows them.

Builds album pages from a generated sample library (with a folder named like an HTML
injection), then with headless Chromium (Debian's `chromium`, installed when missing):
takes screenshots at 375 px and 1280 px, and checks in the DOM that every image of the
visible layout loaded (naturalWidth > 0) and that every photo sits where the layout put it
(its data-x/y/w/h attributes, within 1 px). Also checks that the HTML parses with balanced
tags and that every src and href resolves to a file.

Usage: scripts/check-album.py [TESSERA_BINARY] [--out DIR]   (default out: ./tessera-data/album-check)
Prints "N passed, M failed" and exits non-zero on any failure.
"""
import argparse
import html
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VOID = {"meta", "img", "br", "hr", "input", "link", "source", "area", "base", "col", "embed", "wbr"}
results = {"passed": 0, "failed": 0}


def check(condition, message):
    if condition:
        results["passed"] += 1
    else:
        results["failed"] += 1
        print(f"FAIL: {message}", file=sys.stderr)


class Structure(html.parser.HTMLParser):
    """Balanced tags and every reference of one page."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.references = [], [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.references.append(value)
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


HARNESS = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="%(page)s" style="border:0;width:%(width)dpx;height:6000px"></iframe>
<pre id="result">pending</pre>
<script>
document.getElementById('page').addEventListener('load', () => {
  const doc = document.getElementById('page').contentDocument;
  const win = document.getElementById('page').contentWindow;
  const out = {layouts: 0, images: 0, unloaded: [], misplaced: []};
  const visible = [...doc.querySelectorAll('.layout')].filter(l => win.getComputedStyle(l).display !== 'none');
  out.layouts = visible.length;
  out.layoutWidth = visible.length ? visible[0].style.width : null;
  for (const layout of visible) {
    for (const a of layout.querySelectorAll('a.photo')) {
      const img = a.querySelector('img');
      out.images++;
      if (!(img.complete && img.naturalWidth > 0)) out.unloaded.push(img.getAttribute('src'));
      const want = ['x', 'y', 'w', 'h'].map(k => parseFloat(a.dataset[k]));
      const got = [a.offsetLeft, a.offsetTop, a.offsetWidth, a.offsetHeight];
      if (got.some((v, i) => Math.abs(v - want[i]) > 1)) out.misplaced.push({want, got});
    }
  }
  document.getElementById('result').textContent = JSON.stringify(out);
});
</script></body></html>"""


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
    browser = chromium()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="tessera-album-") as work:
        work = Path(work)
        photos = work / "photos"
        subprocess.run([tessera, "sample-library", str(photos)], check=True, stdout=subprocess.DEVNULL)
        hostile = photos / "<script>alert(1)</script>"
        hostile.mkdir(parents=True)  # "/" nests it: the album name is exactly this string
        for source in sorted((photos / "Garden").glob("IMG_*.jpg"))[:8]:
            shutil.copyfile(source, hostile / f"it's \"{source.name}\"")
        store = ["--index", str(work / "index.sqlite"), "--cache", str(work / "cache")]
        subprocess.run([tessera, "scan", str(photos), *store], check=True, stdout=subprocess.DEVNULL)
        for style in ("justified", "tiles", "strip"):
            site = out / style
            subprocess.run([tessera, "album", "build", "--out", str(site), "--style", style, "--copy-thumbnails", *store],
                           check=True, stdout=subprocess.DEVNULL)
            pages = sorted(site.rglob("*.html"))
            check(len(pages) == 5, f"{style}: {len(pages)} pages, expected 5")
            for page in pages:
                text = page.read_text(encoding="utf-8")
                structure = Structure()
                structure.feed(text)
                check(not structure.errors and not structure.stack, f"{page}: {structure.errors[:2]} {structure.stack}")
                check("<script>alert(1)</script>" not in text, f"{page}: the folder name is not escaped")
                for reference in structure.references:
                    target = (page.parent / urllib.parse.unquote(reference)).resolve()
                    check(target.exists(), f"{page}: {reference} does not resolve")
            # What a person sees: screenshots, and the DOM of the visible layout.
            album = next(p for p in pages if "garden" in str(p.parent) and p.name == "index.html")
            for width in (375, 1280):
                shot = out / f"{style}-{width}.png"
                subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                f"--window-size={width},1400", f"--screenshot={shot}", album.as_uri()],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
                check(shot.exists() and shot.stat().st_size > 10_000, f"{shot} was not written")
                harness = work / f"harness-{style}-{width}.html"
                harness.write_text(HARNESS % {"page": album.as_uri(), "width": width}, encoding="utf-8")
                dom = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu",
                                      "--allow-file-access-from-files", "--virtual-time-budget=15000",
                                      f"--window-size={width + 20},1400", "--dump-dom", harness.as_uri()],
                                     capture_output=True, text=True, timeout=120).stdout
                start = dom.find('<pre id="result">') + len('<pre id="result">')
                raw = dom[start:dom.find("</pre>", start)]
                try:
                    report = json.loads(html.unescape(raw)) if raw and raw != "pending" else None
                except ValueError:
                    report = None
                check(report is not None, f"{style} at {width}: no DOM report ({raw[:80]})")
                if report:
                    check(report["layouts"] == 1, f"{style} at {width}: {report['layouts']} visible layouts")
                    check(report["layoutWidth"] == f"{width}px", f"{style} at {width}: layout for {report['layoutWidth']}")
                    check(report["images"] >= 10, f"{style} at {width}: only {report['images']} images")
                    check(not report["unloaded"], f"{style} at {width}: images not loaded: {report['unloaded'][:3]}")
                    check(not report["misplaced"], f"{style} at {width}: misplaced: {report['misplaced'][:3]}")
    print(f"screenshots in {out}")
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
