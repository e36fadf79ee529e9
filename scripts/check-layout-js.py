#!/usr/bin/env python3
"""The album pages' layout script (Resources/script/layout-*.js) against the layout engine it ports.

For random libraries (photos of every shape, some without a size, some turned by their EXIF
orientation, dates over a few days or years), every style album pages use, sections by day and
none, and widths from a phone's to a wide screen's: `tessera layout` lays the photos out with
the settings album pages use at that width; the script, in headless Chromium (Debian's, through
Playwright), lays out the same pieces of each page (a section's photos on it, under its header);
every header and photo frame, crop flag and "+N" count must agree within 1e-6.

Usage: check-layout-js.py [TESSERA_BINARY]. Prints "N passed, M failed"; exits non-zero on a failure.
"""
import json
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

PROJECT = Path(__file__).resolve().parent.parent
ASSETS = PROJECT / "Sources/TesseraAlbum/Assets.swift"
SCRIPTS = PROJECT / "Sources/TesseraAlbum/Resources/script"
STYLES = ("justified", "masonry", "grid", "strip", "tiles")
WIDTHS = (320, 375, 599, 600, 740, 768, 999, 1000, 1100, 1280, 1920, 2560, 3000)
PER_PAGE = 60
results = {"passed": 0, "failed": 0}


def check(condition, message):
    results["passed" if condition else "failed"] += 1
    if not condition:
        print(f"FAIL: {message}", file=sys.stderr)


def photos(rng, count):
    """Photo records as `tessera layout --photos` reads them."""
    shapes = [(4000, 3000), (3000, 4000), (1920, 1080), (1080, 1920), (1000, 1000), (6000, 1000), (800, 3000), (75, 100),
              (100, 68), (600, 400), (300, 200)]
    spread = rng.choice([3, 40, 2000])
    made = []
    for number in range(count):
        width, height = rng.choice(shapes)
        record = {"id": f"{number:05d}", "width": width + rng.randrange(0, 7), "height": height}
        if rng.random() < 0.1:
            record["orientation"] = rng.choice([6, 8, 3])
        if rng.random() < 0.03:
            del record["width"]
        if rng.random() < 0.9:
            day = rng.randrange(spread)
            record["capturedAt"] = f"{2010 + day // 365:04d}-{1 + day % 365 // 31:02d}-{1 + day % 28:02d}T{rng.randrange(24):02d}:00:00"
        made.append(record)
    return made


def aspect(record):
    """LayoutPhoto.aspect: the pixel size turned by the orientation; 1 when it is unknown."""
    width, height = record.get("width"), record.get("height")
    if record.get("orientation") in (5, 6, 7, 8):
        width, height = height, width
    return width / height if width and height else 1.0


def limit(record):
    """LayoutPhoto.heightLimit: the displayed height, unlimited when unknown or one pixel."""
    width, height = record.get("width"), record.get("height")
    if record.get("orientation") in (5, 6, 7, 8):
        width, height = height, width
    return height if width and height and height > 1 else float("inf")


def options(style, width, sections):
    """CollectionPages.layoutConfig(width:) as `--option`s."""
    narrow, wide = width < 600, width >= 1000
    side = max(8 if narrow else 16, (width - 2528) / 2)
    columns = max(1, math.ceil((width - 2 * side + 16) / (538 + 16))) if style == "tiles" else 1
    square, content = (112 if narrow else 176), width - 2 * side
    grid_columns = max(1, math.floor((content - 5) / (square + 5) + 0.5))
    item = max(1, math.floor((content - 5 * (grid_columns + 1)) / grid_columns))
    values = {
        "page.insets": f"8,{side},8,{side}", "tiles.columns": columns, "paging.mode": "count",
        "paging.count": max(1, PER_PAGE // 6) if style == "tiles" else PER_PAGE, "sections.groupBy": sections,
        "masonry.fillColumns": "true", "masonry.noEnlarge": "true", "tiles.singleAspect": "true", "tiles.fitOrientation": "true", "tiles.margin": 0, "output.rounding": "pixel",
        "output.scale": 2, "masonry.columns": 2 if narrow else max(3, math.floor((width - 2 * side) / 280 + 0.5)),
        "sections.coalesce": "true", "justified.noEnlarge": "true",
        "strip.height": 160 if narrow else 320 if wide else 240, "grid.itemWidth": item, "grid.itemHeight": item,
        "justified.targetRowHeight": 140 if narrow else 220,
    }
    return [argument for key, value in values.items() for argument in ("--option", f"{key}={value}")]


def pieces(page, by_id):
    """A page's pieces, as album pages carry them: each section's photos under its header."""
    found = []
    for item in page["items"]:
        if item["type"] == "header":
            found.append({"header": True, "photos": [], "limits": [], "ids": []})
            continue
        if not found:
            found.append({"header": False, "photos": [], "limits": [], "ids": []})
        hidden = (item.get("overlay") or {}).get("hiddenPhotoIds", [])
        found[-1]["ids"].append(item["photoId"])
        found[-1]["photos"].append(aspect(by_id[item["photoId"]]))
        found[-1]["limits"].append(limit(by_id[item["photoId"]]))
        if hidden:
            found[-1]["hidden"] = hidden
    # The photos a "+N" tile stands for come after the section's shown ones, as in the engine.
    for piece in found:
        hidden = piece.pop("hidden", [])
        piece["ids"] += hidden
        piece["photos"] += [aspect(by_id[i]) for i in hidden]
        piece["limits"] += [limit(by_id[i]) for i in hidden]
    return found


def compare(expected, got, where):
    """The engine's items against the script's, in order."""
    if len(expected) != len(got):
        check(False, f"{where}: {len(got)} items, the engine has {len(expected)}")
        return
    bad = []
    for number, (want, have) in enumerate(zip(expected, got)):
        frame = [want[k] for k in ("x", "y", "width", "height")]
        drawn = [have[k] for k in ("x", "y", "width", "height")]
        same = all(abs(a - b) <= 1e-6 for a, b in zip(frame, drawn)) and (want["type"] == "header") == bool(have.get("header"))
        if want["type"] == "photo":
            same = same and bool(want.get("crop")) == bool(have.get("crop"))
            same = same and (want.get("overlay") or {}).get("count") == have.get("more")
        if not same:
            bad.append((number, want["type"], frame, drawn))
    check(not bad, f"{where}: items differ (index, type, engine, script): {bad[:3]}")


def layout_script():
    """The layout engine's files, joined as Assets.swift joins them for the site (in its order)."""
    listed = re.search(r"static let layoutScript = \[(.*?)\]", ASSETS.read_text(), re.S)
    if not listed:
        sys.exit("check-layout-js: Assets.swift lists no layoutScript")
    names = [name.replace("_", "-") + ".js" for name in re.findall(r"PackageResources\.(\w+)_js", listed.group(1))]
    return "(() => {\n'use strict';\n" + "\n".join((SCRIPTS / name).read_text() for name in names) + "\n})();\n"


def main():
    tessera = sys.argv[1] if len(sys.argv) > 1 else str(PROJECT / ".build/release/tessera")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="tessera-layout-js-") as work, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        page.add_script_tag(content=layout_script())
        for trial in range(6):
            records = photos(rng, rng.choice([1, 5, 7, 40, 130]))
            by_id = {record["id"]: record for record in records}
            source = Path(work) / f"photos-{trial}.json"
            source.write_text(json.dumps(records))
            for style in STYLES:
                for sections in ("day", "none"):
                    for width in WIDTHS:
                        run = subprocess.run(
                            [tessera, "layout", "--photos", str(source), "--style", style, "--width", str(width),
                             *options(style, width, sections)], capture_output=True, text=True)
                        where = f"trial {trial} ({len(records)} photos), {style}, sections {sections}, {width} px"
                        if run.returncode != 0:
                            check(False, f"{where}: tessera layout failed: {run.stderr.strip()}")
                            continue
                        document = json.loads(run.stdout)
                        for number, laid in enumerate(document["pages"]):
                            got = page.evaluate("([pieces, style, width]) => window.tesseraLayout.page(pieces, style, width)",
                                                [pieces(laid, by_id), style, width])
                            compare(laid["items"], got["items"], f"{where}, page {number + 1}")
                            check(abs(got["height"] - laid["height"]) <= 1e-6,
                                  f"{where}, page {number + 1}: height {got['height']}, the engine's {laid['height']}")
        browser.close()
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
