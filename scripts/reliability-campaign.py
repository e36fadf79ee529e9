#!/usr/bin/env python3
"""Fault campaigns against a built `tessera`, bigger than the test suite's, with the figures.

Usage: scripts/reliability-campaign.py [--tessera PATH] [--rounds N]

Prints one line per campaign: offline roots (a disk unmounted and mounted again between and
during scans, in a mount namespace of its own: rows, renditions and album files lost), a disk
below a root pulled while the walk is inside it (from scan and serve: the same), album
builds (during scans, two at once to one folder, after cache files were deleted: broken
references, pages not healed, photos.js not reproducible), the memory budget (a one-worker
scan of each corpus format under memory_limit: peak RSS above a one-photo scan), overlapping
writers (rows lost), kill campaigns (orphaned
thumbnails, integrity), readers during scans ("database is locked"), hostile control-socket
clients (status latency), and peak RSS from /usr/bin/time for `tessera thumb` on files that
lie about their size and for a 2-worker scan over the broken corpora plus thousands of
mutants. Needs /usr/bin/time (Debian's `time`) and sqlite3; installs them when missing.
Without ../shared beside the project it says so and leaves those files out.
"""
import argparse, html, os, random, re, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))


def library(tessera, where, copies):
    """A library of generated photos (the sample library, copied `copies` times)."""
    sample = os.path.join(where, "sample")
    subprocess.run([tessera, "sample-library", sample], check=True, capture_output=True)
    photos = os.path.join(where, "photos")
    for n in range(copies):
        shutil.copytree(sample, os.path.join(photos, f"copy{n:03}"))
    return photos


def count(index, sql):
    return int(subprocess.run(["sqlite3", "-readonly", index, sql], capture_output=True, text=True).stdout.strip() or -1)


def peak(cmd, env=None):
    """Exit status and peak RSS in MiB of `cmd`, from /usr/bin/time."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True, env=env)
    kib = int(result.stderr.strip().splitlines()[-1])
    return result.returncode, kib / 1024


def overlapping(tessera, rounds):
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 16)  # 16 × 27 files
        expected = sum(len(files) for _, _, files in os.walk(photos))
        lost = 0
        for _ in range(rounds):
            index = os.path.join(where, "index.sqlite")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(index + suffix):
                    os.remove(index + suffix)
            runs = [subprocess.Popen([tessera, "scan", photos, "--index", index, "--cache", os.path.join(where, "cache")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(4)]
            statuses = [run.wait() for run in runs]
            assert all(s == 0 for s in statuses), statuses
            lost += expected - count(index, "SELECT count(*) FROM photos")
        print(f"overlapping writers: {rounds} rounds of 4 scans at once over {expected} files: {lost} rows lost")


def kills(tessera, rounds):
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 8)
        index, cache = os.path.join(where, "index.sqlite"), os.path.join(where, "cache")
        rng = random.Random(5)
        for _ in range(rounds):
            run = subprocess.Popen([tessera, "scan", photos, "--index", index, "--cache", cache],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.02, 0.6))
            run.send_signal(signal.SIGKILL)
            run.wait()
            # Change some photos, so renders the kill left unrecorded match no file any more.
            for folder, _, files in os.walk(photos):
                for name in files:
                    if rng.random() < 0.1:
                        path = os.path.join(folder, name)
                        with open(path, "ab") as handle:
                            handle.write(b"\0")
        subprocess.run([tessera, "scan", photos, "--full", "--index", index, "--cache", cache], check=True, capture_output=True)
        referenced = set(subprocess.run(["sqlite3", "-readonly", index, "SELECT path FROM renditions"], capture_output=True, text=True).stdout.split("\n")) - {""}
        files = {os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs}
        integrity = subprocess.run(["sqlite3", "-readonly", index, "PRAGMA integrity_check"], capture_output=True, text=True).stdout.strip()
        print(f"kill campaign: {rounds} SIGKILLs at random moments, then scan --full: {len(files - referenced)} orphaned "
              f"rendition files, {len(referenced - files)} missing, integrity {integrity}")


def readers(tessera, scans, pause=0.05):
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 2)
        index = os.path.join(where, "index.sqlite")
        args = ["--index", index, "--cache", os.path.join(where, "cache")]
        subprocess.run([tessera, "scan", photos] + args, check=True, capture_output=True)
        done = threading.Event()
        tally = {"reads": 0, "locked": 0}

        def read():
            while not done.is_set():
                result = subprocess.run(["sqlite3", "-readonly", index, "SELECT count(*) FROM photos"], capture_output=True, text=True)
                tally["reads"] += 1
                if result.returncode != 0:
                    tally["locked"] += 1
                time.sleep(pause)

        reader = threading.Thread(target=read)
        reader.start()
        target = os.path.join(photos, "copy000", "Garden", "drawing.png")
        for n in range(scans):
            os.utime(target, (1_600_000_000 + n, 1_600_000_000 + n))
            subprocess.run([tessera, "scan", photos] + args, capture_output=True)
        done.set()
        reader.join()
        print(f"readers: {tally['reads']} sqlite3 -readonly reads, {pause * 1000:.0f} ms apart, during {scans} scans: "
              f"{tally['locked']} failed")


def hostile_clients(tessera):
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 1)
        sock = os.path.join(where, "control.sock")
        config = os.path.join(where, "config.yaml")
        with open(config, "w") as handle:
            handle.write("watch: false\n")
        daemon = subprocess.Popen([tessera, "serve", photos, "--config", config, "--socket", sock, "--index",
                                   os.path.join(where, "index.sqlite"), "--cache", os.path.join(where, "cache")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while not os.path.exists(sock):
                time.sleep(0.05)
            stop = threading.Event()

            def connect():
                s = socket.socket(socket.AF_UNIX)
                s.connect(sock)
                return s

            idle = [connect() for _ in range(200)]

            def slow():
                clients = [connect() for _ in range(40)]
                while not stop.is_set():
                    for i, c in enumerate(clients):
                        try:
                            c.send(b"{")
                        except OSError:
                            clients[i] = connect()
                    stop.wait(4)

            thread = threading.Thread(target=slow)
            thread.start()
            latencies = []
            end = time.time() + 60
            while time.time() < end:
                start = time.time()
                result = subprocess.run([tessera, "status", "--json", "--socket", sock], capture_output=True, timeout=10)
                latencies.append((time.time() - start, result.returncode))
                time.sleep(1)
            stop.set()
            thread.join()
            for s in idle:
                s.close()
            worst = max(l for l, _ in latencies)
            refused = sum(1 for _, status in latencies if status != 0)
            print(f"hostile clients: 200 idle + 40 one-byte-every-4-s clients for 60 s: {len(latencies)} status requests, "
                  f"{refused} refused, slowest answer {worst:.2f} s")
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait()


def liars(where):
    """Files that claim far more than they hold."""
    files = {}
    base = os.path.join(where, "base.jpg")
    if os.path.exists(os.path.join(CORPUS, "camera", "Canon EOS 7D.jpg")):
        shutil.copy(os.path.join(CORPUS, "camera", "Canon EOS 7D.jpg"), base)
        sparse = os.path.join(where, "sparse.jpg")
        shutil.copy(base, sparse)
        os.truncate(sparse, 6 << 30)
        files["6 GiB sparse .jpg"] = sparse
    progressive = os.path.join(CORPUS, "formats", "progressive", "OLYMPUS E-M1MarkII.jpg")
    if os.path.exists(progressive):
        data = open(progressive, "rb").read()
        i = data.find(b"\xff\xc2")
        claimed = os.path.join(where, "claims-14142.jpg")
        open(claimed, "wb").write((data[:i + 5] + struct.pack(">HH", 14142, 14142) + data[i + 9:])[:44000])
        files["44 KB progressive JPEG claiming 14142²"] = claimed

    def chunk(kind, body, length=None):
        return struct.pack(">I", len(body) if length is None else length) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = os.path.join(where, "ztxt.png")
    raw = b"".join(b"\0" + b"\x80" * 48 for _ in range(16))
    open(png, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
                          + chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"x" * 100), 1 << 30)
                          + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    files["PNG with a zTXt chunk claiming 1 GiB"] = png
    # A motion photo whose MP4's moov claims 2^63 - 1 bytes in its 64-bit size.
    xmp = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           b'<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" '
           b'xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" '
           b'GCamera:MotionPhoto="1"><Container:Directory><rdf:Seq><rdf:li><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/>'
           b'</rdf:li><rdf:li><Container:Item Item:Semantic="MotionPhoto" Item:Mime="video/mp4" Item:Length="40"/></rdf:li>'
           b'</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>')
    still = open(base, "rb").read() if os.path.exists(base) else None
    if still:
        payload = b"http://ns.adobe.com/xap/1.0/\0" + xmp
        video = struct.pack(">I", 16) + b"ftypisom" + b"\0\0\2\0" + struct.pack(">I", 1) + b"moov" + struct.pack(">Q", (1 << 63) - 1) + bytes(8)
        motion = os.path.join(where, "motion-2^63.jpg")
        open(motion, "wb").write(still[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + still[2:] + video)
        files["motion photo whose moov claims 2^63 - 1 bytes"] = motion
    # The 17000×17000 AVIF with its ispe saying 64×64.
    avif = os.path.join(CORPUS, "formats", "avif", "17000x17000.avif")
    if os.path.exists(avif):
        data = bytearray(open(avif, "rb").read())
        i = data.find(b"ispe")
        data[i + 8:i + 16] = struct.pack(">II", 64, 64)
        patched = os.path.join(where, "ispe-64.avif")
        open(patched, "wb").write(bytes(data))
        files["17000² AVIF whose ispe says 64²"] = patched
    # One 8000×8000 MJPEG frame in a MOV whose track header and sample entry say 64×64.
    big = os.path.join(where, "big.mov")
    if shutil.which("ffmpeg") and subprocess.run(
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=8000x8000:r=10", "-frames:v", "1", "-c:v", "mjpeg",
             "-q:v", "8", big]).returncode == 0:
        data = bytearray(open(big, "rb").read())
        i = data.find(b"tkhd")
        end = i - 4 + struct.unpack(">I", data[i - 4:i])[0]
        data[end - 8:end] = struct.pack(">II", 64 << 16, 64 << 16)
        entry = data.find(b"stsd") + 12
        data[entry + 32:entry + 36] = struct.pack(">HH", 64, 64)
        liar = os.path.join(where, "tkhd-64.mov")
        open(liar, "wb").write(bytes(data))
        files["8000² MJPEG frame in a MOV that says 64²"] = liar
    bomb = os.path.join(CORPUS, "broken", "bombs", "bomb_40000x40000_rgb8_truncated.png")
    if os.path.exists(bomb):
        files["40000² PNG bomb"] = bomb
    return files


def memory(tessera, mutants):
    with tempfile.TemporaryDirectory() as where:
        for name, path in liars(where).items():
            status, mib = peak([tessera, "thumb", path, "-o", os.path.join(where, "out.jpg")])
            print(f"peak RSS, tessera thumb on {name}: {mib:.0f} MiB (exit {status})")
        # A 2-worker scan over the broken corpora and mutants of real photos.
        photos = os.path.join(where, "photos")
        os.makedirs(photos)
        sources = []
        if os.path.isdir(CORPUS):
            for folder, _, names in os.walk(CORPUS):
                for name in names:
                    if name.endswith((".jpg", ".JPG", ".png", ".jpeg")) and os.path.getsize(os.path.join(folder, name)) < 4 << 20:
                        sources.append(os.path.join(folder, name))
                    if "broken" in folder:
                        shutil.copy(os.path.join(folder, name), os.path.join(photos, f"broken-{len(os.listdir(photos))}-{name}"))
        else:
            print("note: ../shared/corpus not found; the mutants come from the sample library only")
            sample = library(tessera, os.path.join(where, "sample-lib"), 1)
            sources = [os.path.join(d, f) for d, _, fs in os.walk(sample) for f in fs]
        rng = random.Random(17)
        for n in range(mutants):
            data = bytearray(open(rng.choice(sources), "rb").read())
            kind = n % 4
            if kind == 0:
                data = data[: rng.randrange(len(data))]
            elif kind == 1:
                for _ in range(rng.randrange(1, 16)):
                    data[rng.randrange(len(data))] = rng.randrange(256)
            elif kind == 2:
                i = data.find(b"\xff\xc0") if data.find(b"\xff\xc0") > 0 else data.find(b"\xff\xc2")
                if i > 0:
                    data[i + 5:i + 9] = struct.pack(">HH", rng.choice([1, 65535, 40000]), rng.choice([65535, 1, 30000]))
            else:
                i = data.find(b"IHDR")
                if i > 0:
                    data[i + 4:i + 12] = struct.pack(">II", rng.choice([60000, 1, 1 << 20]), rng.choice([60000, 7, 1 << 20]))
            open(os.path.join(photos, f"mutant-{n:05}.jpg"), "wb").write(bytes(data))
        status, mib = peak([tessera, "scan", photos, "--workers", "2", "--index", os.path.join(where, "index.sqlite"),
                            "--cache", os.path.join(where, "cache")])
        files = len(os.listdir(photos))
        print(f"peak RSS, 2-worker scan of {files} broken files and mutants: {mib:.0f} MiB (exit {status})")


OFFLINE_CYCLE = r"""
T=$1 SOURCE=$2 DISK=$3 INDEX=$4 CACHE=$5 SITE=$6 ROUNDS=$7
counts() {
  echo "$1 rows=$(sqlite3 "$INDEX" 'select count(*) from photos') renditions=$(sqlite3 "$INDEX" 'select count(*) from renditions') cached=$(find "$CACHE" -type f ! -name '.tmp-*' | wc -l) site=$(find "$SITE" -type f | wc -l)"
}
mkdir -p "$DISK"
for round in $(seq 1 "$ROUNDS"); do
  mount -t tmpfs disk "$DISK" || exit 90
  cp -a "$SOURCE"/. "$DISK"/
  if [ $((round % 2)) -eq 0 ]; then
    # Unmounted (lazily, as a pulled disk) while the scan is at work.
    "$T" scan "$DISK" --index "$INDEX" --cache "$CACHE" --workers 1 > /dev/null 2>&1 &
    scan=$!
    n=0; until [ "$(sqlite3 "$INDEX" "select count(*) from scans where state = 'running'")" = 1 ] || [ $n -ge 200 ]; do n=$((n + 1)); sleep 0.05; done
    umount -l "$DISK"
    wait $scan
    echo "during $round"
  else
    "$T" scan "$DISK" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
    "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
    counts mounted
    umount "$DISK"
  fi
  "$T" scan "$DISK" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
  "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
  counts unmounted
done
"""


SUBDISK_CYCLE = r"""
T=$1 SOURCE=$2 LARGE=$3 ROOT=$4 INDEX=$5 CACHE=$6 SITE=$7 ROUNDS=$8 MODE=$9 CONFIG=${10} SOCKET=${11} LOG=${12}
# What was there before each unplug: the rows not added during it, shown, and their renditions and pages.
counts() {
  base="path_text not like '%/new-%'"
  echo "$1 rows=$(sqlite3 "$INDEX" "select count(*) from photos where $base and missing_since_ms is null") renditions=$(sqlite3 "$INDEX" "select count(*) from renditions r join photos p on p.id = r.photo_id where $base") cached=$(find "$CACHE" -type f ! -name '.tmp-*' | wc -l) site=$(find "$SITE" -name '*.html' | wc -l)"
}
finished() { sqlite3 "$INDEX" "select count(*) from scans where state in ('finished', 'interrupted', 'failed')"; }
running() { sqlite3 "$INDEX" "select count(*) from scans where state = 'running'"; }
offline() { sqlite3 "$INDEX" "select coalesce(offline, '') from scans order by id desc limit 1"; }
wait_for() { n=0; until eval "$1"; do n=$((n + 1)); [ $n -ge 1200 ] && return 1; sleep 0.05; done; }
mkdir -p "$ROOT/ext"
cp -a "$SOURCE/local" "$ROOT/"
if [ "$MODE" = serve ]; then
  mount -t tmpfs ext "$ROOT/ext" || exit 90
  cp -a "$SOURCE/ext"/. "$ROOT/ext/"
  "$T" serve "$ROOT" --config "$CONFIG" --socket "$SOCKET" --index "$INDEX" --cache "$CACHE" 2> "$LOG" &
  daemon=$!
  trap 'kill -TERM $daemon; wait $daemon' EXIT
  wait_for '[ "$(finished)" -ge 1 ]' || exit 1
fi
for round in $(seq 1 "$ROUNDS"); do
  if [ "$MODE" = cli ]; then
    mount -t tmpfs ext "$ROOT/ext" || exit 90
    cp -a "$SOURCE/ext"/. "$ROOT/ext/"
    "$T" scan "$ROOT" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
    "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
  else
    wait_for '[ -n "$(ls "$ROOT/ext")" ] && [ -z "$(offline)" ] && [ "$(running)" = 0 ]' || exit 1
  fi
  counts mounted
  # New large photos in the disk's first folder hold the walk there; the disk goes once one is rendered.
  cached=$(find "$CACHE" -type f ! -name '.tmp-*' | wc -l)
  before=$(finished)
  for photo in "$LARGE"/*.jpg; do
    cp "$photo" "$ROOT/ext/f00/"
    printf "%08d" "$round" >> "$ROOT/ext/f00/${photo##*/}"  # new content each round: no copy of a rendered one
  done
  if [ "$MODE" = cli ]; then
    "$T" scan "$ROOT" --workers 1 --index "$INDEX" --cache "$CACHE" >> "$LOG" 2>&1 &
    scan=$!
  fi
  wait_for '[ "$(find "$CACHE" -type f ! -name ".tmp-*" | wc -l)" -gt "$cached" ]'
  umount -l "$ROOT/ext"
  if [ "$MODE" = cli ]; then
    wait $scan
    "$T" album build --out "$SITE" --index "$INDEX" --cache "$CACHE" > /dev/null 2>&1
  else
    wait_for '[ "$(finished)" -gt "$before" ] && [ "$(running)" = 0 ]'
    mount -t tmpfs ext "$ROOT/ext" || exit 90
    mkdir "$ROOT/ext/.staging"
    cp -a "$SOURCE/ext"/. "$ROOT/ext/.staging/"
    for folder in "$ROOT/ext/.staging"/*; do mv "$folder" "$ROOT/ext/"; done
  fi
  counts unplugged
done
"""


def subdisk_unplugs(tessera, rounds):
    """A disk mounted below a root, pulled (a lazy unmount) while the walk is inside it,
    `rounds` times from `tessera scan` and from `tessera serve`: what was indexed there may
    become offline, never missing, and no rendition or album page may go."""
    with tempfile.TemporaryDirectory() as where:
        source = os.path.join(where, "source")
        sample = library(tessera, os.path.join(where, "lib"), 3)  # 3 × 27 files
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(sample) for f in fs)
        for n, path in enumerate(files):
            folder = os.path.join(source, "local") if n % 3 == 0 else os.path.join(source, "ext", f"f{n % 20:02}")
            os.makedirs(folder, exist_ok=True)
            shutil.copy(path, os.path.join(folder, f"{n}-{os.path.basename(path)}"))
        large = os.path.join(where, "large")
        os.makedirs(large)
        big = next((p for p in files if p.endswith(".jpg") and os.path.getsize(p) > 100_000), files[0])
        subprocess.run([tessera, "thumb", big, "--size", "16", "-o", os.path.join(where, "probe.jpg")], capture_output=True)
        for n in range(30):
            shutil.copy(big, os.path.join(large, f"new-{n}.jpg"))
            with open(os.path.join(large, f"new-{n}.jpg"), "ab") as f:
                f.write(struct.pack(">I", n))  # each its own content
        for mode in ("cli", "serve"):
            run = os.path.join(where, mode)
            os.makedirs(run)
            site = os.path.join(run, "site")
            config = os.path.join(run, "config.yaml")
            open(config, "w").write(f'album_dir: "{site}"\nworkers: 1\n')
            args = [tessera, source, large, os.path.join(run, "root"), os.path.join(run, "index.sqlite"),
                    os.path.join(run, "cache"), site, str(rounds), mode, config, os.path.join(run, "control.sock"),
                    os.path.join(run, "log")]
            result = subprocess.run(["unshare", "-Urm", "sh", "-c", SUBDISK_CYCLE, "sh"] + args, capture_output=True, text=True)
            if result.returncode == 90:
                print("sub-disk unplugs: cannot mount a tmpfs in a mount namespace here; left out")
                return
            def fields(line):
                return {k: int(v) for k, v in (pair.split("=") for pair in line.split()[1:])}
            mounted = [fields(l) for l in result.stdout.splitlines() if l.startswith("mounted ")]
            unplugged = [fields(l) for l in result.stdout.splitlines() if l.startswith("unplugged ")]
            lost = {key: max([0] + [m[key] - u[key] for m, u in zip(mounted, unplugged)]) for key in ("rows", "renditions", "site")}
            log = open(os.path.join(run, "log"), errors="replace").read() if os.path.exists(os.path.join(run, "log")) else ""
            midwalk = log.count("its disk went away during the scan")
            print(f"sub-disk unplugs ({mode}): {len(unplugged)} of {rounds} cycles, {midwalk} met by a walk inside the disk (exit {result.returncode}): "
                  f"{lost['rows']} rows shown before lost, {lost['renditions']} renditions lost, {lost['site']} album pages lost "
                  f"(of {mounted[0]['rows'] if mounted else '?'} rows)")


def offline_roots(tessera, rounds):
    """A root on its own disk, unmounted and mounted again `rounds` times, every other time
    while a scan is at work: nothing indexed there, rendered or published may be lost."""
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 9)  # 9 × 27 files
        args = [tessera, photos] + [os.path.join(where, name) for name in ("disk", "index.sqlite", "cache", "site")]
        result = subprocess.run(["unshare", "-Urm", "sh", "-c", OFFLINE_CYCLE, "sh"] + args + [str(rounds)],
                                capture_output=True, text=True)
        if result.returncode == 90:
            print("offline roots: cannot mount a tmpfs in a mount namespace here; left out")
            return
        def fields(line):
            return dict(pair.split("=") for pair in line.split()[1:])
        mounted = [fields(l) for l in result.stdout.splitlines() if l.startswith("mounted ")]
        unmounted = [fields(l) for l in result.stdout.splitlines() if l.startswith("unmounted ")]
        during = sum(1 for l in result.stdout.splitlines() if l.startswith("during "))
        full = mounted[0] if mounted else {}
        lost = {key: max((int(full[key]) - int(u[key]) for u in unmounted), default=0) for key in full}
        print(f"offline roots: {len(unmounted)} unmount/remount cycles ({during} during a scan): "
              f"{lost.get('rows', '?')} rows, {lost.get('renditions', '?')} renditions, "
              f"{lost.get('cached', '?')} cache files, {lost.get('site', '?')} album files lost "
              f"(of {full.get('rows')}, {full.get('renditions')}, {full.get('cached')}, {full.get('site')})")


def broken_references(site):
    """References (src, srcset, href) of the site's pages that lead to no file."""
    broken = 0
    for folder, _, names in os.walk(site):
        for name in names:
            if not name.endswith(".html"):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            values = re.findall(r'(?:src|href)="([^"]*)"', text)
            for srcset in re.findall(r'srcset="([^"]*)"', text):
                values += [part.split()[0] for part in srcset.split(",") if part.strip()]
            for value in values:
                if value.startswith(("https:", "http:", "#")):
                    continue
                target = os.path.normpath(os.path.join(folder, html.unescape(value).split("#")[0]))
                if not value or not os.path.exists(target):
                    broken += 1
    return broken


def album_builds(tessera, rounds):
    """Builds racing scans and each other, and builds after cache files were deleted."""
    with tempfile.TemporaryDirectory() as where:
        photos = library(tessera, where, 6)
        store = ["--index", os.path.join(where, "index.sqlite"), "--cache", os.path.join(where, "cache")]
        site = os.path.join(where, "site")
        subprocess.run([tessera, "scan", photos] + store, check=True, capture_output=True)
        rng = random.Random(5)
        broken = unhealed = 0
        for round in range(rounds):
            # New photos arrive while a scan, and two builds of different styles, run at once.
            shutil.copytree(os.path.join(photos, "copy000"), os.path.join(photos, f"new{round:03}"))
            scan = subprocess.Popen([tessera, "scan", photos] + store, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            builds = [subprocess.Popen([tessera, "album", "build", "--out", site, "--style", style] + store,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for style in ("grid", "justified")]
            for process in [scan] + builds:
                process.wait()
            broken += broken_references(site)
            # Cache files deleted by hand: the next plain scan and build heal the pages.
            cached = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(where, "cache")) for f in fs]
            for path in rng.sample(cached, min(len(cached), 20)):
                os.remove(path)
            subprocess.run([tessera, "scan", photos] + store, capture_output=True)
            subprocess.run([tessera, "album", "build", "--out", site] + store, capture_output=True)
            unhealed += broken_references(site)
        # Two builds of the same index into two folders give the same photos.js files.
        other = os.path.join(where, "other")
        subprocess.run([tessera, "album", "build", "--out", other] + store, capture_output=True)
        differing = 0
        for folder, _, names in os.walk(site):
            for name in names:
                if name == "photos.js":
                    mine = os.path.join(folder, name)
                    theirs = os.path.join(other, os.path.relpath(mine, site))
                    if not os.path.exists(theirs) or open(mine, "rb").read() != open(theirs, "rb").read():
                        differing += 1
        print(f"album builds: {rounds} rounds of a scan and two builds at once, then 20 cache files deleted: "
              f"{broken} broken references after the races, {unhealed} after the next scan and build; "
              f"{differing} photos.js files differ between two builds of one index")


def memory_budget(tessera):
    """Each corpus format scanned by one worker under memory_limit: peak RSS above a one-photo scan."""
    if not os.path.isdir(CORPUS):
        print("memory budget: ../shared/corpus not found; left out")
        return
    folders = ["formats/progressive", "formats/icc", "formats/mpf", "formats/webp", "formats/raw", "large", "camera",
               "pngsuite", "orientation", "formats/heic", "formats/avif"]
    with tempfile.TemporaryDirectory() as where:
        tiny = os.path.join(where, "tiny")
        subprocess.run([tessera, "sample-library", os.path.join(where, "sample")], check=True, capture_output=True)
        os.makedirs(tiny)
        first = sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(where, "sample")) for f in fs if f.endswith(".jpg"))[0]
        shutil.copy(first, tiny)
        for limit in (32, 64, 192):
            config = os.path.join(where, f"config-{limit}.yaml")
            open(config, "w").write(f"memory_limit: {limit}\n")
            def scan(folder, run):
                return peak([tessera, "scan", folder, "--workers", "1", "--config", config,
                             "--index", os.path.join(where, f"i{limit}-{run}.sqlite"), "--cache", os.path.join(where, f"c{limit}-{run}")])
            _, baseline = scan(tiny, "base")
            over = []
            for folder in folders:
                _, mib = scan(os.path.join(CORPUS, folder), folder.replace("/", "-"))
                over.append(f"{folder.split('/')[-1]} {mib - baseline:+.0f}")
            print(f"memory budget {limit} MiB (peak above a one-photo scan, MiB): " + ", ".join(over))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tessera", help="the binary to test (default: build a release one)")
    parser.add_argument("--rounds", type=int, default=20)
    options = parser.parse_args()
    require_tools({"/usr/bin/time": "time", "sqlite3": "sqlite3"})
    tessera = options.tessera or tessera_binary()
    if not os.path.isdir(CORPUS):
        print("note: ../shared/corpus not found beside the project; corpus files are left out")
    offline_roots(tessera, options.rounds)
    subdisk_unplugs(tessera, options.rounds)
    album_builds(tessera, options.rounds)
    memory_budget(tessera)
    overlapping(tessera, options.rounds)
    kills(tessera, options.rounds)
    readers(tessera, 40)
    readers(tessera, 300, pause=0)
    hostile_clients(tessera)
    memory(tessera, 3000)


if __name__ == "__main__":
    sys.exit(main())
