#!/usr/bin/env bash
# Builds what installing Tessera on a Debian 12 machine needs, on a machine with the Swift
# toolchain: the release binary with the Swift runtime libraries it uses beside it (a clean
# Debian has none; the binary finds them through its RPATH and needs nothing else but Debian's
# own libraries), its manual page, the units, the example configuration and install.sh, in one
# folder and one tarball (docs/INSTALL.md).
# Usage: scripts/package.sh [OUT_DIR]      (default: .build-install)
# Prints the bundle's folder on stdout; everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-.build-install}")
exec 3>&1 1>&2
scripts/install-deps.sh binutils patchelf

# The build the run and test commands share (scripts/build.sh): a package needs no build of its own.
scripts/build.sh
binary="$(scripts/build.sh --bin)/tessera"
# The manual page's text is the commands' help: a section for every command the binary has.
manual=$(scripts/build.sh --manual)
"$binary" --experimental-dump-help | python3 -c '
import json, sys
commands = [c["commandName"] for c in json.load(sys.stdin)["command"]["subcommands"]]
sections = {line.split()[-1] for line in open(sys.argv[1]) if line.startswith(".It Em ")}
missing = [c for c in commands if c not in sections]
sys.exit(f"error: the manual page lacks a section for {missing}" if missing else 0)' "$manual"

version=$("$binary" --version)
name="tessera-$version-linux-$(uname -m)"
bundle="$out/$name"
rm -rf "$bundle"
install -d "$bundle/bin" "$bundle/lib/tessera" "$bundle/man" "$bundle/systemd" "$bundle/config" "$bundle/share/tessera"
# Stripped of its symbol table (the build writes no debug information: scripts/build.sh). It looks
# for the Swift runtime in ../lib/tessera beside its own folder: in the bundle, and where
# install.sh puts both (/usr/local, or ~/.local).
strip -o "$bundle/bin/tessera" "$binary"
patchelf --set-rpath '$ORIGIN/../lib/tessera' "$bundle/bin/tessera"
# The Swift runtime libraries it loads: every one from outside the system's library folders.
system='^/(usr/)?lib/[^/]+-linux-gnu[^/]*/|^/lib64/'
ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -vE "$system" | while read -r library; do
  strip --strip-unneeded -o "$bundle/lib/tessera/$(basename "$library")" "$library"
  chmod 0644 "$bundle/lib/tessera/$(basename "$library")"
done
install -m 0644 "$manual" "$bundle/man/tessera.1"
# The place names' lookup file (GeoNames, CC-BY 4.0) and the map's tiles (© OpenStreetMap
# contributors, ODbL), beside the build's binary once installed.
scripts/install-places.sh
install -m 0644 "$(scripts/build.sh --bin)/places.bin" "$bundle/share/tessera/places.bin"
cp -r "$(scripts/build.sh --bin)/basemap" "$bundle/share/tessera/basemap"
# The face models (dlib's, CC0), checked by checksum.
scripts/install-faces.sh
cp -r "$(scripts/build.sh --bin)/faces" "$bundle/share/tessera/faces"
install -m 0644 systemd/tessera.service systemd/tessera-rescan.service systemd/tessera-rescan.timer \
  systemd/tessera-user.service systemd/tessera-user-rescan.service systemd/tessera-worker.service "$bundle/systemd/"
install -m 0644 config/tessera.yaml "$bundle/config/tessera.yaml"
install -m 0755 scripts/install.sh "$bundle/install.sh"
install -m 0755 scripts/install-libheif.sh "$bundle/install-libheif.sh"

# Nothing may be left to find in the toolchain on the target: every library the bundle's binary
# loads comes from the bundle or from the system's folders.
if ldd "$bundle/bin/tessera" | awk '$2 == "=>" { print $3 }' | grep -vE "^$bundle/(bin/\.\./)?lib/tessera/|$system"; then
  echo "error: the binary still needs the libraries above; it would not start on a clean Debian" >&2
  exit 1
fi
tar -C "$out" -czf "$out/$name.tar.gz" "$name"
ln -sfn "$name" "$out/tessera"
echo "Packaged $bundle and $out/$name.tar.gz"
echo "$bundle" >&3
