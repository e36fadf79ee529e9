#!/usr/bin/env bash
# The service under a real systemd: packages Tessera (scripts/package.sh), boots a minimal
# Debian 12 with systemd as PID 1 in systemd-nspawn, installs it there with the bundle's
# install.sh exactly as docs/INSTALL.md says, and runs scripts/systemd-check/in-container.sh
# as a unit of that system. Prints one PASS or FAIL line per check, with its evidence; the
# report, the install's output, the service's journal and the console are kept in
# tessera-data/systemd-check/.
# Exits 1 when a check fails, or when the container cannot boot (saying why); never skips.
#
# Needs root (it boots a container): run as root or with sudo available. Installs
# debootstrap and systemd-container from Debian when missing, and what the cluster worker's
# check needs (scripts/cluster-tools.sh: PostgreSQL, SeaweedFS): the worker's unit runs in the
# container against a PostgreSQL on this machine, reached by its socket. The Debian root file
# system is built once (from $TESSERA_CHECK_MIRROR, default deb.debian.org) and kept in
# $TESSERA_CHECK_CACHE (default /var/cache/tessera-systemd-check).
set -euo pipefail
self=$(realpath "$0")
cd "$(dirname "$self")/.."
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo > /dev/null || { echo "systemd-check: needs root to boot a container, and there is no sudo" >&2; exit 1; }
  exec sudo --preserve-env=PATH,TESSERA_CHECK_CACHE,TESSERA_CHECK_MIRROR "$self" "$@"
fi
started=$(date +%s)
scripts/install-deps.sh debootstrap systemd-container python3 python3-pil

# Where the check's time goes, step by step.
step() { echo "systemd-check: $1 at $(( $(date +%s) - started )) s"; }
bundle=$(scripts/package.sh)
step "packaged"
packages=$("$bundle/install.sh" --print-packages)
scripts/cluster-tools.sh > /dev/null
step "cluster tools ready"

# The cached root file system: minimal Debian 12 with systemd and the packages install.sh
# would fetch (the booted container has no network), keyed by that list.
suite=bookworm
# dbus and libpam-systemd: logind starts a user's manager with them, as on any Debian desktop
# (the user service's check).
include="systemd,systemd-sysv,dbus,libpam-systemd,${packages// /,}"
cache=${TESSERA_CHECK_CACHE:-/var/cache/tessera-systemd-check}
# libheif comes from bookworm-backports (install-libheif.sh), which debootstrap does not read.
heif=$(sha256sum < "$bundle/install-libheif.sh")
key=$(echo "$suite $include $heif" | sha256sum | cut -c1-12)
rootfs="$cache/debian-$suite-$key"
if [ ! -d "$rootfs" ]; then
  echo "Building the Debian $suite root file system in $rootfs (once)..."
  mkdir -p "$cache"
  rm -rf "$rootfs.partial"
  if ! debootstrap --variant=minbase --include="$include" "$suite" "$rootfs.partial" "${TESSERA_CHECK_MIRROR:-http://deb.debian.org/debian}" \
      > "$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    echo "systemd-check: debootstrap failed (log: $cache/debootstrap.log)" >&2
    exit 1
  fi
  cp "$bundle/install-libheif.sh" "$rootfs.partial/tmp/"
  if ! chroot "$rootfs.partial" /tmp/install-libheif.sh libheif1 >> "$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    echo "systemd-check: libheif 1.19 could not be installed in the root file system (log: $cache/debootstrap.log)" >&2
    exit 1
  fi
  rm "$rootfs.partial/tmp/install-libheif.sh"
  mv "$rootfs.partial" "$rootfs"
  # Root file systems built for other package lists are not used again.
  find "$cache" -mindepth 1 -maxdepth 1 -type d -name "debian-$suite-*" ! -path "$rootfs" -exec rm -rf {} +
fi

# One run: a copy of the root file system, the bundle, photos and the check unit.
run=$(mktemp -d /var/tmp/tessera-systemd-check.XXXXXX)
chmod 0755 "$run"
# The cluster worker's database: a throwaway PostgreSQL here, its socket bound into the container.
stop_postgres() { runuser -u postgres -- "$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_ctl" -D "$run/pg" -m immediate stop > /dev/null 2>&1 || true; }
# Under sudo, what is kept belongs to the user who asked.
trap 'stop_postgres; rm -rf "$run"; [ -z "${SUDO_UID:-}" ] || chown -R "$SUDO_UID:$SUDO_GID" tessera-data/systemd-check' EXIT
python3 - "$run" <<'EOF'
import sys
from pathlib import Path
sys.path.insert(0, "scripts")
from cluster_services import Postgres
Postgres(Path(sys.argv[1])).control("start")
EOF
step "root file system ready"
root="$run/root"
cp -a "$rootfs" "$root"
step "root file system copied"
cp -a "$(realpath "$bundle")" "$root/root/tessera"
install -m 0755 scripts/systemd-check/in-container.sh "$root/root/in-container.sh"
# The worker's check: SeaweedFS to serve S3 inside the container, and the identity it signs with.
install -m 0755 .build-venv/bin/weed "$root/root/weed"
python3 - "$root/root/s3.json" <<'EOF'
import json, sys
sys.path.insert(0, "scripts")
from cluster_services import ACCESS_KEY, SECRET_KEY
open(sys.argv[1], "w").write(json.dumps({"identities": [{"name": "tessera", "credentials": [
    {"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}], "actions": ["Admin", "Read", "Write", "List"]}]}))
EOF
results=tessera-data/systemd-check
rm -rf "$results"
mkdir -p "$root/srv/photos" "$results"
"$bundle/bin/tessera" sample-library "$root/srv/photos" > /dev/null
# Photos for a scan that lasts long enough to be stopped, and to send progress lines (every
# 2 s), on any number of cores: 60 distinct 1200x800 JPEGs per core (at most 2,000), which the
# service reads from a slow disk (in-container.sh: some 80 ms a photo, a worker a core).
big=$((60 * $(nproc)))
/usr/bin/python3 - "$root/root/photos-big" "$root/root/photos-inbox" "$(( big < 2000 ? big : 2000 ))" <<'EOF'
import io, os, random, sys
from PIL import Image
big, inbox, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(big); os.makedirs(inbox)
random.seed(7)
def photo(width, height, seed):
    small = Image.effect_noise((width // 50, height // 50), 60 + seed % 40).convert("RGB")
    image = small.resize((width, height), Image.BICUBIC)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)
    return out.getvalue()
bases = [photo(1200, 800, seed) for seed in range(12)]
for number in range(count):
    # Distinct files: each base is followed by bytes of its own after the image's end.
    with open(os.path.join(big, f"IMG_{number:04}.jpg"), "wb") as f:
        f.write(bases[number % len(bases)] + b"copy %d" % number)
with open(os.path.join(inbox, "arrived.jpg"), "wb") as f:
    f.write(photo(1600, 1200, 99))
with open(os.path.join(inbox, "second-root.jpg"), "wb") as f:
    f.write(photo(1200, 1600, 98))
EOF
cat > "$root/etc/systemd/system/tessera-check.service" <<'EOF'
[Unit]
Description=Tessera's live systemd check
After=multi-user.target

[Service]
Type=exec
ExecStart=/root/in-container.sh
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
EOF
ln -s ../tessera-check.service "$root/etc/systemd/system/multi-user.target.wants/tessera-check.service"

step "photos made"
echo "Booting Debian $suite under systemd-nspawn (systemd as PID 1)..."
set +e
timeout --kill-after=30 900 systemd-nspawn --quiet --directory="$root" --boot --register=no --keep-unit \
  --private-network --bind="$PWD/$results:/check" --bind="$run/pg-socket:/srv/tessera-check-pg" \
  --console=read-only > "$results/console.log" 2>&1
nspawn=$?
set -e
report="$results/report"
if [ ! -s "$report" ]; then
  tail -40 "$results/console.log" >&2
  if [ "$nspawn" -eq 124 ]; then
    echo "systemd-check: the container ran for 15 minutes without finishing the check" >&2
  else
    echo "systemd-check: the container did not run the check (systemd-nspawn exit $nspawn; its console is above)" >&2
  fi
  exit 1
fi
cat "$report"
passed=$(grep -c '^PASS' "$report" || true)
failed=$(grep -c '^FAIL' "$report" || true)
echo "systemd check: $passed passed, $failed failed in $(( $(date +%s) - started )) s"
if ! grep -q '^DONE' "$report"; then
  tail -40 "$results/console.log" >&2
  echo "systemd-check: the check stopped before its end (systemd-nspawn exit $nspawn)" >&2
  exit 1
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
