#!/usr/bin/env bash
# The deployment beyond one machine, live (docs/SCALE.md): scripts/cluster-tools.sh installs and
# builds what it needs, then scripts/check-cluster.py runs. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/check-cluster.py "$(scripts/cluster-tools.sh)"
