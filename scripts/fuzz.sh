#!/usr/bin/env bash
# Fuzzes Tessera's parsers with libFuzzer and AddressSanitizer (Sources/TesseraFuzz).
#
#   scripts/fuzz.sh --list                     the targets, one a line
#   scripts/fuzz.sh TARGET SECONDS [SEEDS…]    fuzz TARGET for SECONDS
#   scripts/fuzz.sh --smoke                    every target once over its seeds and the findings
#                                              kept in Tests/, without libFuzzer (the test command)
#
# The fuzzing binary is built once into .build-fuzz/ (ignored by git). Seeds are the shared
# corpus's files of the target's kind (cut to the longest input) plus any folders given; the
# corpus grows in .build-fuzz/runs/TARGET/corpus. Exits non-zero on a crash, a sanitizer report,
# a leak or an input that takes more than 5 s, and leaves the reproducer in
# .build-fuzz/runs/TARGET/findings/ (replay it: `tessera-fuzz TARGET FILE`, from a normal build).
set -euo pipefail
cd "$(dirname "$0")/.."

# The target list, dictionaries and seed kinds come from the same program built normally.
scripts/build.sh
replay="$(scripts/build.sh --bin)/tessera-fuzz"

if [ "${1:-}" = "--list" ]; then
  "$replay" --list | cut -f1
  exit 0
fi
max_len=1048576
# seeds TARGET FOLDER [SEEDS…]: the shared corpus's files of TARGET's kind, cut to the longest
# input, the target's own few, and the files of the folders given.
seeds() {
  local target=$1 into=$2
  shift 2
  mkdir -p "$into"
  local extensions
  extensions=$("$replay" --extensions "$target")
  seed() { head -c "$max_len" "$1" > "$into/$(basename "$1" | tr -c 'A-Za-z0-9._\n-' '_')"; }
  if [ -d ../shared/corpus ]; then
    while IFS= read -r -d '' file; do
      local name=${file##*/}
      local extension=${name##*.}
      if [ -z "$extensions" ] || [[ " $extensions " == *" ${extension,,} "* ]]; then seed "$file"; fi
    done < <(find ../shared/corpus -type f ! -name MANIFEST.tsv -size -64M -print0)
  else
    echo "fuzz: no ../shared/corpus beside the project: seeds only from the folders given" >&2
  fi
  case $target in
    jxl | jxl-container)  # the corpus has none: two made from a small gradient, when cjxl is here
      if command -v cjxl >/dev/null; then
        python3 -c 'import sys; sys.stdout.buffer.write(b"P6 64 48 255\n" + bytes((x * 4, y * 5, (x + y) * 2) [c] for y in range(48) for x in range(64) for c in range(3)))' > "$into/gradient.ppm"
        cjxl "$into/gradient.ppm" "$into/lossy.jxl" -d 1 >/dev/null 2>&1 || true
        cjxl "$into/gradient.ppm" "$into/lossless-container.jxl" -d 0 --container=1 >/dev/null 2>&1 || true
        rm -f "$into/gradient.ppm"
      fi ;;
    configuration) seed config/tessera.yaml ;;
    s3-listing)
      printf '<?xml version="1.0"?><ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>library/square-256/ab/c.jpg</Key><Size>12</Size><LastModified>2026-11-29T01:02:03.000Z</LastModified></Contents><Contents><Key>library/R&amp;D.jpg</Key><Size>3</Size></Contents></ListBucketResult>' \
        > "$into/listing.xml" ;;
    s3-credentials)
      printf '# keys\r\n[default]\r\naws_access_key_id = AKID\r\naws_secret_access_key = secret\r\n[other]\naws_session_token = t\n' \
        > "$into/credentials.ini" ;;
    database-url)
      printf 'postgres://tessera:p%%40ss@db.example:6543/library' > "$into/tcp.url"
      printf 'postgresql:///library?host=/run/postgresql&port=5433' > "$into/socket.url"
      printf 'postgres://u@[::1]:5432/d' > "$into/ipv6.url" ;;
    file-record)
      printf '{"status":"ok","device":1,"inode":2,"size":3,"mtimeNanoseconds":4,"warnings":[],"facts":{"format":"jpeg","width":640,"height":480,"orientation":6,"bitDepth":8,"coding":"baseline","camera":{},"annotations":{"keywords":[]},"warnings":[]},"renditions":{"contentHash":"0123456789abcdef","key":"0123456789abcdef","settings":"q85","thumbhash":"AAAA","perceptualHash":"ff","entries":[{"spec":{"kind":"square","size":256},"width":256,"height":256,"bytes":100,"object":"square-256/01/0123.jpg","source":"decoded"}]}}' \
        > "$into/photo.json"
      printf '{"status":"failed","device":1,"inode":2,"size":3,"mtimeNanoseconds":4,"warnings":[],"failure":{"format":"heif","code":"corrupt","message":"truncated"}}' \
        > "$into/failed.json" ;;
    place-table)
      # A small lookup file of the installed layout (scripts/build-places.py): two countries, a
      # region, three places (one with alternate names), two on each side of the antimeridian.
      python3 - "$into/small.bin" <<'PY'
import struct, sys
strings, offsets = bytearray(), {}
def text(value):
    if value not in offsets:
        offsets[value] = len(strings)
        strings.extend(struct.pack("<H", len(value.encode())) + value.encode())
    return offsets[value]
def cell(latitude, longitude):
    return min(359, int((latitude + 90) * 2)) * 720 + min(719, int((longitude + 180) * 2))
places = sorted([(38.7223, -9.1393, 545000, "Lisbon", 0, 1, text("Lisboa\x1fLissabon\x1f")),
                 (-16.9, 179.9, 800, "Ono", 4294967295, 0, 4294967295),
                 (-16.9, -179.9, 600, "Vunisea", 4294967295, 0, 4294967295)], key=lambda p: cell(p[0], p[1]))
body = struct.pack("<I2sH", text("Fiji"), b"FJ", 0) + struct.pack("<I2sH", text("Portugal"), b"PT", 0)
body += struct.pack("<IHH", text("Lisbon"), 1, 0)
starts, position = [], 0
for number in range(720 * 360 + 1):
    while position < len(places) and cell(places[position][0], places[position][1]) < number:
        position += 1
    starts.append(position)
body += struct.pack(f"<{len(starts)}I", *starts)
for latitude, longitude, population, name, region, country, alternates in places:
    body += struct.pack("<iiIIIHHI", round(latitude * 1e6), round(longitude * 1e6), population, text(name), region,
                        country, 0, alternates)
header = b"TSPLACE2" + struct.pack("<6I", 2, 1, len(places), len(strings), 720, 360)
open(sys.argv[1], "wb").write(header + body + strings)
PY
      ;;
    xmp-location)
      printf '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" exif:GPSLatitude="38,43.338N" exif:GPSLongitude="9,8.358W" photoshop:City="Sintra" photoshop:Country="Portugal" Iptc4xmpCore:CountryCode="PT" Iptc4xmpCore:Location="Pena"><Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Porto</Iptc4xmpExt:City></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown></rdf:Description></rdf:RDF></x:xmpmeta>' \
        > "$into/location.xmp" ;;
    xmp-faces)
      printf '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#" xmlns:MP="http://ns.microsoft.com/photo/1.2/" xmlns:MPRI="http://ns.microsoft.com/photo/1.2/t/RegionInfo#" xmlns:MPReg="http://ns.microsoft.com/photo/1.2/t/Region#"><mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Bag><rdf:li rdf:parseType="Resource"><mwg-rs:Name>Anna</mwg-rs:Name><mwg-rs:Type>Face</mwg-rs:Type><mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.2" stArea:h="0.3" stArea:unit="normalized"/></rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions><MP:RegionInfo rdf:parseType="Resource"><MPRI:Regions><rdf:Bag><rdf:li rdf:parseType="Resource"><MPReg:PersonDisplayName>Ben</MPReg:PersonDisplayName><MPReg:Rectangle>0.1, 0.1, 0.2, 0.2</MPReg:Rectangle></rdf:li></rdf:Bag></MPRI:Regions></MP:RegionInfo></rdf:Description></rdf:RDF></x:xmpmeta>' \
        > "$into/faces.xmp" ;;
    control-request)
      # The first byte sets the chunk size the lines arrive in.
      printf '\x05{"command":"status"}\n' > "$into/status.txt"
      printf '\x30{"command":"rescan","full":true,"wait":true,"roots":["L3Nydi9waG90b3M="]}\n{"command":"x"}\n' \
        > "$into/rescan.txt" ;;
  esac
  local folder
  for folder in "$@"; do
    while IFS= read -r -d '' file; do seed "$file"; done < <(find "$folder" -type f -print0)
  done
}

if [ "${1:-}" = "--smoke" ]; then
  smoke=$(mktemp -d)
  trap 'rm -rf "$smoke"' EXIT
  for target in $("$replay" --list | cut -f1); do
    seeds "$target" "$smoke/$target" Tests/TesseraMetadataTests/Fuzz
    count=$(find "$smoke/$target" -type f | wc -l)
    # A trap or a hang of any input fails the run, with the target and the files named.
    if ! timeout 600 "$replay" "$target" "$smoke/$target"/* >/dev/null; then
      echo "fuzz: target $target failed on its seeds ($count files)" >&2
      exit 1
    fi
    echo "fuzz: $target ran on $count seeds"
  done
  exit 0
fi

if [ $# -lt 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh --list | scripts/fuzz.sh TARGET SECONDS [SEED_DIR…]" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
"$replay" --list | cut -f1 | grep -qx "$target" || { echo "fuzz: no target '$target' (see --list)" >&2; exit 2; }

fuzz_build=(swift build -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
  -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld)
"${fuzz_build[@]}" --product tessera-fuzz >&2
fuzzer="$("${fuzz_build[@]}" --show-bin-path)/tessera-fuzz"

work=.build-fuzz/runs/$target
mkdir -p "$work/corpus" "$work/findings"
"$replay" --dictionary "$target" > "$work/dictionary"
rm -rf "$work/seeds"
seeds "$target" "$work/seeds" "$@"

echo "fuzz: $target for $seconds s from $(ls "$work/seeds" | wc -l) seeds" >&2
TESSERA_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 "$fuzzer" "$work/corpus" "$work/seeds" \
  -dict="$work/dictionary" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2560 -max_len="$max_len" \
  -artifact_prefix="$work/findings/" -print_final_stats=1
