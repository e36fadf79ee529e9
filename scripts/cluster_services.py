"""The servers a cluster needs, started for a check or a benchmark: a throwaway PostgreSQL on a Unix
socket, SeaweedFS serving S3 with one signed identity, network namespaces as other hosts, and a
signed S3 client of the check's own (Python's hmac and hashlib) to look at what the store holds."""
import datetime
import glob
import hashlib
import hmac
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
WEED = PROJECT / ".build-venv" / "bin" / "weed"
ACCESS_KEY, SECRET_KEY, REGION, BUCKET = "AKIDTESSERACHECK", "tessera-check-secret", "us-east-1", "photos"
S3_PORT = 18333


def wait_for(what, predicate, timeout=120, every=0.1):
    """Polls `predicate` until it holds; ends the run when it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise SystemExit(f"FAIL waiting for {what}: not so after {timeout} s")


class Postgres:
    """A throwaway cluster in `work`, run by the postgres user, reachable only by its socket."""

    def __init__(self, work):
        self.data = work / "pg"
        self.socket = work / "pg-socket"
        for folder in (self.data, self.socket):
            folder.mkdir()
            shutil.chown(folder, "postgres")
        shutil.chown(work, "postgres")
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1])
        self.log = work / "pg.log"
        self.as_postgres([self.bin / "initdb", "-D", self.data, "--auth=trust", "-U", "postgres"])
        self.url = f"postgres://postgres@/postgres?host={self.socket}"

    def as_postgres(self, command):
        subprocess.run(["runuser", "-u", "postgres", "--"] + [str(part) for part in command], check=True,
                       stdout=subprocess.DEVNULL)

    def control(self, *action):
        options = f"-c listen_addresses='' -c unix_socket_directories={self.socket} -c fsync=off"
        self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l", self.log, "-w", *action])

    def sql(self, query):
        result = subprocess.run(
            ["psql", "-h", str(self.socket), "-U", "postgres", "-At", "-F", "\t", "-c", query],
            check=True, capture_output=True, text=True)
        return [line.split("\t") for line in result.stdout.splitlines() if line]

    def value(self, query):
        return self.sql(query)[0][0]


class Store:
    """SeaweedFS serving S3 with one identity, so every request must be signed."""

    def __init__(self, work):
        self.directory = work / "weed"
        self.directory.mkdir()
        self.identities = work / "s3.json"
        self.identities.write_text(json.dumps({"identities": [{
            "name": "tessera", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}))
        self.log = open(work / "weed.log", "a")
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [str(WEED), "server", f"-dir={self.directory}", "-s3", f"-s3.port={S3_PORT}",
             f"-s3.config={self.identities}", "-ip=127.0.0.1", "-ip.bind=0.0.0.0", "-master.port=19333",
             "-volume.port=18080", "-filer.port=18888", "-metricsPort=0"],
            stdout=self.log, stderr=self.log, start_new_session=True)
        wait_for("the S3 store", answers, timeout=60, every=0.25)

    def kill(self):
        # weed takes its time over SIGTERM; a store that vanishes is the case tested anyway.
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def create_bucket(self):
        subprocess.run([str(WEED), "shell", "-master=127.0.0.1:19333"], input=f"s3.bucket.create -name {BUCKET}\n",
                       text=True, check=True, capture_output=True)


def answers():
    """Whether the S3 port answers at all (a refusal is an answer)."""
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{S3_PORT}/", timeout=2).close()
        return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def request(method, key, query=None, data=b""):
    """A signed S3 request of the check's own (Python's hmac and hashlib): the bytes, or None."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = f"/{BUCKET}/" + urllib.parse.quote(key, safe="/~") if key else f"/{BUCKET}"
    pairs = sorted((urllib.parse.quote(k, safe="~"), urllib.parse.quote(v, safe="~")) for k, v in (query or {}).items())
    canonical_query = "&".join(f"{k}={v}" for k, v in pairs)
    payload_hash = hashlib.sha256(data).hexdigest()
    headers = {"host": f"127.0.0.1:{S3_PORT}", "x-amz-content-sha256": payload_hash, "x-amz-date": stamp}
    names = sorted(headers)
    canonical = "\n".join([method, path, canonical_query, "".join(f"{n}:{headers[n]}\n" for n in names),
                           ";".join(names), payload_hash])
    scope = f"{stamp[:8]}/{REGION}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    signing = ("AWS4" + SECRET_KEY).encode()
    for part in (stamp[:8], REGION, "s3", "aws4_request"):
        signing = hmac.new(signing, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(signing, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/{scope}, "
                                f"SignedHeaders={';'.join(names)}, Signature={signature}")
    url = f"http://127.0.0.1:{S3_PORT}{path}" + (f"?{canonical_query}" if canonical_query else "")
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data or None, method=method, headers=headers),
                                    timeout=10) as answer:
            return answer.read()
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


def objects(prefix):
    """Every key under `prefix`, relative to it."""
    keys, token = [], None
    while True:
        query = {"list-type": "2", "prefix": prefix}
        if token:
            query["continuation-token"] = token
        root = ElementTree.fromstring(request("GET", "", query=query))
        space = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
        keys += [item.find(f"{space}Key").text[len(prefix):] for item in root.findall(f"{space}Contents")]
        if root.findtext(f"{space}IsTruncated") != "true":
            return keys
        token = root.findtext(f"{space}NextContinuationToken")


class Namespace:
    """A network namespace joined to this one by a veth pair: another host, as far as the store can tell."""

    def __init__(self, number):
        self.name = f"tessera-check-{number}"
        outside, inside = f"tcx{number}a", f"tcx{number}b"
        host, guest = f"10.231.{number}.1", f"10.231.{number}.2"
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True)
        subprocess.run(["ip", "link", "delete", outside], capture_output=True)
        for command in (["ip", "netns", "add", self.name],
                        ["ip", "link", "add", outside, "type", "veth", "peer", "name", inside, "netns", self.name],
                        ["ip", "addr", "add", f"{host}/24", "dev", outside], ["ip", "link", "set", outside, "up"],
                        ["ip", "-n", self.name, "addr", "add", f"{guest}/24", "dev", inside],
                        ["ip", "-n", self.name, "link", "set", inside, "up"],
                        ["ip", "-n", self.name, "link", "set", "lo", "up"]):
            subprocess.run(command, check=True)
        self.outside = outside
        self.environment = {"AWS_ENDPOINT_URL": f"http://{host}:{S3_PORT}"}

    def delete(self):
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True)
        subprocess.run(["ip", "link", "delete", self.outside], capture_output=True)
