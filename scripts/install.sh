#!/usr/bin/env bash
# Installs Tessera as a systemd service on Debian 12, from the folder scripts/package.sh
# makes (this script is its install.sh). Run as root; running it again upgrades in place
# and keeps /etc/tessera/config.yaml. docs/INSTALL.md explains each step.
#
# Usage: ./install.sh [--root DIR]... [--timer] [--no-mount-wait] [--no-start]
#        ./install.sh --user [--root DIR]... [--timer] [--no-start]
#        ./install.sh --print-packages      the Debian packages the binary needs, one line
#   --user       for yourself, without root: the binary in ~/.local/bin, a user service
#                (systemctl --user) watching ~/Pictures or the --root folders, and the
#                desktop thumbnail cache filled for your file manager
#   --root DIR   a photo folder for a new configuration (repeat for more); default /srv/photos
#   --timer      also enable the nightly rescan timer (roots inotify cannot watch: network shares)
#   --no-mount-wait  do not write RequiresMountsFor= for the --root folders (see below)
#   --no-start   install and enable, but do not (re)start the service now
set -euo pipefail

# What the binary links against (scripts/package.sh checks it needs nothing else; libheif1
# must be 1.19 or later, see install-libheif.sh), and procps for the unit's ExecReload=/bin/kill.
packages=(libjpeg62-turbo libpng16-16 libexif12 libsqlite3-0 liblcms2-2 libwebp7 libwebpdemux2 libheif1 libraw20 libexempi8 libjxl0.7 libbrotli1 libavformat59 libavcodec59 libswscale6 libswresample4 libavutil57 libdlib19.1 libopenblas0-pthread procps libjs-leaflet)

roots=()
user=false
timer=false
start=true
mount_wait=true
while [ $# -gt 0 ]; do
  case "$1" in
    --print-packages) echo "${packages[*]}"; exit 0 ;;
    --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a folder" >&2; exit 64; }; roots+=("$2"); shift ;;
    --timer) timer=true ;;
    --user) user=true ;;
    --no-mount-wait) mount_wait=false ;;
    --no-start) start=false ;;
    *) echo "install.sh: unknown argument '$1' (see the top of this file)" >&2; exit 64 ;;
  esac
  shift
done

here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "install.sh: $*" >&2; exit 1; }
[ -x "$here/bin/tessera" ] || fail "no bin/tessera beside this script: run it from the folder scripts/package.sh makes"
step() { echo "==> $*"; }

# YAML double-quoted strings of the --root folders: a backslash and a quote are escaped.
yaml_roots() {
  local list="" root
  for root in "$@"; do
    root=${root//\\/\\\\}
    list+="${list:+, }\"${root//\"/\\\"}\""
  done
  echo "$list"
}

if [ "$user" = true ]; then
  # Without root nothing can be installed from Debian: say what is missing, and stop.
  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] || fail "these Debian packages are missing; ask for them to be installed (sudo apt install ${missing[*]})"
  step "~/.local/bin/tessera, the Swift runtime it loads (~/.local/lib/tessera), its manual page and place data"
  install -d "$HOME/.local/lib/tessera"
  install -m 0644 "$here"/lib/tessera/* "$HOME/.local/lib/tessera/"
  install -D -m 0755 "$here/bin/tessera" "$HOME/.local/bin/tessera.new"
  version=$("$HOME/.local/bin/tessera.new" --version 2>&1) || { rm -f "$HOME/.local/bin/tessera.new"; fail "the binary does not start here: $version"; }
  mv -f "$HOME/.local/bin/tessera.new" "$HOME/.local/bin/tessera"
  install -D -m 0644 "$here/man/tessera.1" "$HOME/.local/share/man/man1/tessera.1"
  install -D -m 0644 "$here/share/tessera/places.bin" "$HOME/.local/share/tessera/places.bin"
  rm -rf "$HOME/.local/share/tessera/basemap" && cp -r "$here/share/tessera/basemap" "$HOME/.local/share/tessera/basemap"
  rm -rf "$HOME/.local/share/tessera/faces" && cp -r "$here/share/tessera/faces" "$HOME/.local/share/tessera/faces"
  config_home=${XDG_CONFIG_HOME:-$HOME/.config}
  config=$config_home/tessera/config.yaml
  step "$config"
  if [ -e "$config" ]; then
    echo "kept: $config exists (its roots stay as they are)"
  else
    [ ${#roots[@]} -gt 0 ] || roots=("$HOME/Pictures")
    install -d -m 0700 "$(dirname "$config")"
    ROOTS=$(yaml_roots "${roots[@]}") awk '/^roots: / { print "roots: [" ENVIRON["ROOTS"] "]"; next } { print }' \
      "$here/config/tessera.yaml" > "$config.new"
    grep -q "^roots: \[" "$config.new" || { rm -f "$config.new"; fail "could not set 'roots' in the example configuration"; }
    mv "$config.new" "$config"
    for root in "${roots[@]}"; do [ -d "$root" ] || echo "note: the photo folder $root does not exist yet"; done
  fi
  units=$config_home/systemd/user
  step "systemd user units in $units"
  install -D -m 0644 "$here/systemd/tessera-user.service" "$units/tessera.service"
  install -D -m 0644 "$here/systemd/tessera-user-rescan.service" "$units/tessera-rescan.service"
  install -D -m 0644 "$here/systemd/tessera-rescan.timer" "$units/tessera-rescan.timer"
  systemctl --user daemon-reload || fail "no systemd user manager answers (systemctl --user); log in to a systemd session, or: loginctl enable-linger $(id -un)"
  systemctl --user enable tessera.service
  if [ "$timer" = true ]; then systemctl --user enable tessera-rescan.timer; fi
  if [ "$start" = true ]; then
    step "starting tessera.service (systemctl --user)"
    systemctl --user restart tessera.service
    if [ "$timer" = true ]; then systemctl --user start tessera-rescan.timer; fi
    systemctl --user --no-pager --lines=0 status tessera.service || true
  fi
  echo "Installed tessera $version for $(id -un). ~/.local/bin/tessera status says what it does; to keep it running after you log out: loginctl enable-linger $(id -un)."
  if [ -e /etc/tessera/config.yaml ]; then
    echo "note: /etc/tessera/config.yaml (a system service's) comes before yours: run your tessera commands with TESSERA_CONFIG=$config"
  fi
  exit 0
fi

[ "$(id -u)" -eq 0 ] || fail "run as root (sudo $0), or for yourself: $0 --user"
[ -d /run/systemd/system ] || [ "$start" = false ] || fail "systemd is not running on this machine; use --no-start"

step "Debian packages"
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# libheif 1.19 or later (Debian 12: from bookworm-backports), with its decoder plugins.
"$here/install-libheif.sh" libheif1

step "/usr/local/bin/tessera, the Swift runtime it loads (/usr/local/lib/tessera), its manual page and place data"
# The binary finds the libraries through its RPATH, ../lib/tessera beside its own folder.
install -d -m 0755 /usr/local/lib/tessera
install -m 0644 "$here"/lib/tessera/* /usr/local/lib/tessera/
install -m 0755 "$here/bin/tessera" /usr/local/bin/tessera.new
if ! version=$(/usr/local/bin/tessera.new --version 2>&1); then
  rm -f /usr/local/bin/tessera.new
  ldd "$here/bin/tessera" | grep "not found" >&2 || true
  fail "the binary does not start here: $version"
fi
mv -f /usr/local/bin/tessera.new /usr/local/bin/tessera
install -D -m 0644 "$here/man/tessera.1" /usr/local/share/man/man1/tessera.1
# The place names' lookup file, the map's tiles and the face models, where the binary looks:
# ../share/tessera beside its own folder.
install -D -m 0644 "$here/share/tessera/places.bin" /usr/local/share/tessera/places.bin
rm -rf /usr/local/share/tessera/basemap && cp -r "$here/share/tessera/basemap" /usr/local/share/tessera/basemap
rm -rf /usr/local/share/tessera/faces && cp -r "$here/share/tessera/faces" /usr/local/share/tessera/faces

step "the tessera system user and group"
# Front ends (a web gallery's user, people who may run 'tessera rescan') join the group
# to read the index and the thumbnails and to use the control socket.
if ! getent passwd tessera > /dev/null; then
  useradd --system --user-group --home-dir /var/lib/tessera --shell /usr/sbin/nologin tessera
fi

step "/etc/tessera/config.yaml"
config=/etc/tessera/config.yaml
install -d -m 0755 /etc/tessera
if [ -e "$config" ]; then
  echo "kept: $config exists (its roots stay as they are)"
else
  [ ${#roots[@]} -gt 0 ] || roots=(/srv/photos)
  list=$(yaml_roots "${roots[@]}")
  # The service's directories, written out so that 'tessera status', 'rescan' and 'list'
  # run by members of the group find the service's socket and index without options.
  ROOTS="$list" awk '
    /^roots: /            { print "roots: [" ENVIRON["ROOTS"] "]"; next }
    /^# index: /          { print "index: /var/lib/tessera/index.sqlite"; next }
    /^# cache: /          { print "cache: /var/cache/tessera/thumbnails"; next }
    /^# control_socket: / { print "control_socket: /run/tessera/control.sock"; next }
    { print }' "$here/config/tessera.yaml" > "$config.new"
  for key in roots index cache control_socket; do
    grep -q "^$key: " "$config.new" || { rm -f "$config.new"; fail "could not set '$key' in the example configuration"; }
  done
  chmod 0644 "$config.new"
  mv "$config.new" "$config"
  for root in "${roots[@]}"; do
    [ -d "$root" ] || echo "note: the photo folder $root does not exist yet"
  done
fi

step "systemd units"
install -m 0644 "$here/systemd/tessera.service" "$here/systemd/tessera-rescan.service" \
  "$here/systemd/tessera-rescan.timer" /etc/systemd/system/
# RequiresMountsFor=: the service starts after the disks holding the photo folders are mounted
# (a NAS in /etc/fstab), so its first scan does not meet an empty mount point. It would find
# such a folder offline and keep what is indexed there, but a scan of a mounted disk is better.
dropin=/etc/systemd/system/tessera.service.d/roots.conf
if [ ${#roots[@]} -gt 0 ] && [ "$mount_wait" = true ]; then
  install -d -m 0755 "$(dirname "$dropin")"
  {
    echo "# Written by install.sh for the --root folders: start once they are mounted."
    echo "[Unit]"
    for root in "${roots[@]}"; do echo "RequiresMountsFor=\"$(printf '%s' "$root" | sed 's/\\/\\\\/g; s/"/\\"/g; s/%/%%/g')\""; done
  } > "$dropin"
elif [ "$mount_wait" = false ]; then
  rm -f "$dropin"
fi
if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
systemctl enable tessera.service
if [ "$timer" = true ]; then systemctl enable tessera-rescan.timer; fi

if [ "$start" = true ]; then
  # Type=notify: this returns once the daemon has said READY=1 (or failed).
  step "starting tessera.service"
  systemctl restart tessera.service
  if [ "$timer" = true ]; then systemctl start tessera-rescan.timer; fi
  systemctl --no-pager --lines=0 status tessera.service || true
fi
echo "Installed tessera $version. The photo folders must be readable by the tessera user; docs/INSTALL.md."
