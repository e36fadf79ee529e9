#!/usr/bin/env bash
# Installs libheif 1.19 or later: the named packages (libheif-dev to build, libheif1 to run),
# with the HEVC and AV1 decoder plugins libheif 1.19 loads. Debian 12 ships 1.15, which refuses
# the HEICs every iPhone since iOS 17 writes and cannot decode a grid tile by tile; Debian's
# bookworm-backports has 1.19, and this script enables it when the system's own suites lack it
# (docs/INSTALL.md). Does nothing when a new enough libheif is installed. Needs root or sudo.
#
# Usage: install-libheif.sh PACKAGE...        e.g. install-libheif.sh libheif-dev
#        install-libheif.sh --check PACKAGE   exits 0 when PACKAGE is installed at 1.19 or later
set -euo pipefail

minimum=1.19
check=false
[ "${1:-}" = --check ] && { check=true; shift; }
[ $# -gt 0 ] || { echo "usage: install-libheif.sh [--check] PACKAGE..." >&2; exit 64; }

new_enough() {
  local version
  version=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null) || return 1
  [[ $version == "install ok installed "* ]] || return 1
  dpkg --compare-versions "${version##* }" ge "$minimum"
}

missing=()
for package in "$@"; do new_enough "$package" || missing+=("$package"); done
[ ${#missing[@]} -eq 0 ] && exit 0
$check && exit 1

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || { echo "error: need root or sudo to install libheif $minimum (${missing[*]})" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
release=()
candidate=$(apt-cache policy "${missing[0]}" | awk '/Candidate:/ { print $2 }')
if ! dpkg --compare-versions "${candidate:-0}" ge "$minimum"; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [ "$codename" != bookworm ]; then
    echo "error: libheif $minimum or later is needed and this system ($codename) offers ${candidate:-none}" >&2
    exit 1
  fi
  if ! apt-cache policy | grep -q 'bookworm-backports'; then
    echo "Enabling Debian's bookworm-backports for libheif $minimum (docs/INSTALL.md)" >&2
    echo "deb http://deb.debian.org/debian bookworm-backports main" | $sudo tee /etc/apt/sources.list.d/bookworm-backports.list > /dev/null
    $sudo apt-get update -qq
  fi
  # Backports are never chosen on their own: ask for these packages, and the plugins at their
  # version, from there.
  release=(-t bookworm-backports)
fi
echo "Installing libheif $minimum or later: ${missing[*]}" >&2
$sudo apt-get install -y -qq --no-install-recommends "${release[@]}" "${missing[@]}" libheif-plugin-libde265 libheif-plugin-dav1d
for package in "${missing[@]}"; do
  new_enough "$package" || { echo "error: $package is still older than $minimum" >&2; exit 1; }
done
