#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build in release mode, scan a photo
# folder into ./tessera-data/ (index, renditions, album site) and say what to type next.
# Usage: scripts/run.sh [PHOTO_DIR]   (default: ~/Pictures, else a generated sample library)
# $TESSERA_DATA names another folder than ./tessera-data/ for what it writes.
#
# It leaves ./tessera, a wrapper that runs the built binary on this library: its configuration,
# tessera-data/tessera.yaml, names the folder, the index, the renditions and the album site.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$PWD
scripts/install-deps.sh
# The build the test command shares (scripts/build.sh).
scripts/build.sh
# The place names' lookup file, beside the binary (docs/PLACES.md).
scripts/install-places.sh
# The face models, beside it too (docs/PEOPLE.md).
scripts/install-faces.sh
bin="$(scripts/build.sh --bin)/tessera"
data=$(realpath -m "${TESSERA_DATA:-$project/tessera-data}")
mkdir -p "$data"

photos="${1:-$HOME/Pictures}"
sample=false
if [ $# -eq 0 ] && [ ! -d "$photos" ]; then
  photos="$data/sample-photos"
  [ -d "$photos" ] || "$bin" sample-library "$photos" > /dev/null
  sample=true
fi
[ -d "$photos" ] || { echo "run.sh: $photos: no such folder" >&2; exit 1; }
photos=$(realpath "$photos")

# YAML double-quoted strings: backslashes and quotes escaped.
yaml() { local text=${1//\\/\\\\}; printf '"%s"' "${text//\"/\\\"}"; }
cat > "$data/tessera.yaml" <<EOF
# Written by scripts/run.sh: the library it scanned. ./tessera reads this file.
roots: [$(yaml "$photos")]
index: $(yaml "$data/index.sqlite")
cache: $(yaml "$data/thumbnails")
album_dir: $(yaml "$data/albums")
EOF
cat > tessera <<EOF
#!/usr/bin/env bash
# Written by scripts/run.sh: the tessera it built, on the library it scanned
# ($data/tessera.yaml; --config names another).
export TESSERA_CONFIG=$(printf '%q' "$data/tessera.yaml")
exec -a "\$0" $(printf '%q' "$bin") "\$@"
EOF
chmod +x tessera

if $sample; then
  echo "No ~/Pictures here: scanning a generated sample library in $photos."
  "$bin" sample-library --note "$photos"
fi
./tessera scan
echo
echo "Newest photos:"
./tessera list --limit 5

# A photo of the library to inspect: the newest JPEG, HEIC or RAW the index holds.
example=$(./tessera list --json --kind photo --limit 50 | python3 -c '
import json, sys
photos = [p["path"] for p in json.load(sys.stdin) if "pathBase64" not in p]
print(next((p for p in photos if p.lower().rsplit(".", 1)[-1] in ("jpg", "jpeg", "heic", "dng", "cr3", "nef", "arw")), photos[0] if photos else ""))')
cat <<EOF

Everything is in $data/. The album site: file://$data/albums/index.html

From this folder, ./tessera runs Tessera on this library (.build's binary, with $data/tessera.yaml):
  ./tessera status                 what the index holds, and the last scan
  ./tessera list --errors          the files that could not be read, and why
  ./tessera list --albums          the albums
EOF
[ -z "$example" ] || echo "  ./tessera inspect $(printf '%q' "$example")"
cat <<EOF
  ./tessera scan                   look again: only new and changed files are read
To run it as a service that follows the folder by itself: docs/INSTALL.md.
EOF
