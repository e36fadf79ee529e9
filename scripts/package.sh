#!/usr/bin/env bash
# Builds what installing Tessera on a Debian 12 machine needs, on a machine with the Swift
# toolchain: a release binary with the Swift runtime linked in (a clean Debian has none; the
# binary then needs only Debian's own libraries), its manual page, the units, the example
# configuration and install.sh, in one folder and one tarball (docs/INSTALL.md).
# Usage: scripts/package.sh [OUT_DIR]      (default: .build-install)
# Prints the bundle's folder on stdout; everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-.build-install}")
exec 3>&1 1>&2
scripts/install-deps.sh binutils

# A build folder of its own: the other builds here link the Swift runtime dynamically.
build=(swift build -c release --static-swift-stdlib --scratch-path .build-static)
"${build[@]}" --product tessera
binary="$("${build[@]}" --show-bin-path)/tessera"
# The manual page's text is the commands' help, the same in any build: it comes from the build
# the run and test commands share (scripts/run.sh), not from one more.
swift package -c release -Xswiftc -enable-testing --allow-writing-to-package-directory \
  generate-manual --configuration release > /dev/null
manual=.build/plugins/GenerateManual/outputs/tessera/tessera.1

version=$("$binary" --version)
name="tessera-$version-linux-$(uname -m)"
bundle="$out/$name"
rm -rf "$bundle"
install -d "$bundle/bin" "$bundle/man" "$bundle/systemd" "$bundle/config"
# Debug information is for the build machine; stripped, the binary is a third smaller.
strip -o "$bundle/bin/tessera" "$binary"
install -m 0644 "$manual" "$bundle/man/tessera.1"
install -m 0644 systemd/tessera.service systemd/tessera-rescan.service systemd/tessera-rescan.timer \
  systemd/tessera-user.service systemd/tessera-user-rescan.service "$bundle/systemd/"
install -m 0644 config/tessera.yaml "$bundle/config/tessera.yaml"
install -m 0755 scripts/install.sh "$bundle/install.sh"
install -m 0755 scripts/install-libheif.sh "$bundle/install-libheif.sh"

# Nothing of the Swift runtime may be left to find on the target.
if ldd "$bundle/bin/tessera" | grep -E "libswift|libFoundation|libdispatch|not found"; then
  echo "error: the binary still needs the libraries above; it would not start on a clean Debian" >&2
  exit 1
fi
tar -C "$out" -czf "$out/$name.tar.gz" "$name"
ln -sfn "$name" "$out/tessera"
echo "Packaged $bundle and $out/$name.tar.gz"
echo "$bundle" >&3
