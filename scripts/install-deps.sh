#!/usr/bin/env bash
# Installs the Debian packages Tessera builds against, when any is missing.
# libheif comes at 1.19 or later, from bookworm-backports on Debian 12 (install-libheif.sh).
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(pkg-config libjpeg62-turbo-dev libpng-dev libexif-dev zlib1g-dev libsqlite3-dev liblcms2-dev libwebp-dev libraw-dev libexempi-dev libjxl-dev libbrotli-dev libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev libdlib-dev libopenblas-dev "$@")
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exec "$(dirname "$0")/install-libheif.sh" libheif-dev
fi

echo "Installing missing packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
exec "$(dirname "$0")/install-libheif.sh" libheif-dev
