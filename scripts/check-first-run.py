#!/usr/bin/env python3
"""A newcomer's first minutes, in a real terminal: tmux at 80 columns.

Runs the README's run command (scripts/run.sh) as a user without ~/Pictures would, so that it
scans the generated sample library; then pastes, as they are, every `./tessera` command it
printed; then `./tessera list --errors`, `./tessera inspect` on a JPEG, a HEIC and a RAW of the
shared corpus, and `./tessera status`. Each must exit 0 and say what a user needs: the broken
sample file and why, the inspected photo's camera and exposure, what the index holds.

What run.sh writes goes to a temporary folder ($TESSERA_DATA); the ./tessera wrapper it writes
is put back as it was afterwards. Usage: check-first-run.py. Prints one PASS or FAIL line per
check and exits non-zero on any failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT.parent / "shared" / "corpus"
COLUMNS = 80
failures = 0


def check(condition, name, evidence):
    global failures
    print(f"{'PASS' if condition else 'FAIL'} {name}: {evidence}")
    failures += 0 if condition else 1
    return condition


class Terminal:
    """A tmux session running bash at COLUMNS columns; everything it prints is logged to a file."""

    def __init__(self, environment, directory):
        self.name = f"tessera-first-run-{uuid.uuid4().hex[:8]}"
        self.log = Path(directory) / "terminal.log"
        self.log.touch()
        exports = " ".join(f"{key}={shlex_quote(value)}" for key, value in environment.items())
        shell = f"cd {shlex_quote(str(PROJECT))} && env {exports} bash --norc --noprofile"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", str(COLUMNS), "-y", "50", shell], check=True)
        subprocess.run(["tmux", "pipe-pane", "-t", self.name, "-o", f"cat >> {shlex_quote(str(self.log))}"], check=True)

    def run(self, command, timeout):
        """Types `command` and waits for its exit status; returns (status, what it printed)."""
        started = time.monotonic()
        try:
            return self._run(command, timeout)
        finally:
            print(f"  ({time.monotonic() - started:.1f} s: {command[:60]})")

    def _run(self, command, timeout):
        marker = uuid.uuid4().hex[:8]
        start = self.log.stat().st_size
        typed = f"{command}; echo EXIT-{marker}=$?"
        subprocess.run(["tmux", "send-keys", "-t", self.name, "-l", typed], check=True)
        subprocess.run(["tmux", "send-keys", "-t", self.name, "Enter"], check=True)
        deadline = time.monotonic() + timeout
        pattern = re.compile(rf"EXIT-{marker}=(\d+)")
        while time.monotonic() < deadline:
            text = self.log.read_bytes()[start:].decode("utf-8", "replace")
            # The first match is the typed line echoed (EXIT-…=$?): the status is a later one.
            found = [m for m in pattern.finditer(text)]
            if found:
                output = clean(text[: found[-1].start()])
                # Drop the echoed command line itself.
                output = output.split("\n", 1)[1] if "\n" in output else ""
                return int(found[-1].group(1)), output
            time.sleep(0.2)
        return None, clean(self.log.read_bytes()[start:].decode("utf-8", "replace"))

    def close(self):
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def shlex_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def clean(text):
    """Terminal output as a reader sees it: escape sequences out, each redrawn line as it ended."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]", "", text)
    return "\n".join(line.split("\r")[-1] for line in text.replace("\r\n", "\n").split("\n"))


def printed_commands(output):
    """Every ./tessera command the output offers to type, without the description beside it: a
    line that starts with one (indented), or a line that ends with one after a colon."""
    commands = []
    for line in output.split("\n"):
        match = re.match(r"\s*(\./tessera\b.*?)(?:\s{2,}|$)", line) or re.search(r": (\./tessera\b.*)$", line)
        if match and match.group(1).strip() not in commands:
            commands.append(match.group(1).strip())
    return commands


def corpus_file(folder, *names):
    for name in names:
        path = CORPUS / folder / name
        if path.is_file():
            return path
    return None


def main():
    if not CORPUS.is_dir():
        check(False, "corpus", f"no shared corpus at {CORPUS}: the inspect checks need it")
        return 1
    if shutil.which("tmux") is None:
        check(False, "tmux", "tmux is not installed")
        return 1
    wrapper = PROJECT / "tessera"
    kept = wrapper.read_bytes() if wrapper.is_file() else None
    with tempfile.TemporaryDirectory(prefix="tessera-first-run-") as directory:
        home = Path(directory) / "home"
        home.mkdir()
        # The user's own Swift package manager settings and caches, as the one who cloned the
        # project has them: in an empty home the build planned by run.sh differed, and all the
        # project's modules were compiled again (and again by the next build in the real home).
        # Not clang's module cache: its modules name the paths they were built at, and the same
        # one met through a link is "defined twice".
        for shared in (".swiftpm", ".cache/org.swift.swiftpm"):
            if (Path.home() / shared).exists():
                (home / shared).parent.mkdir(parents=True, exist_ok=True)
                (home / shared).symlink_to(Path.home() / shared)
        environment = {
            "HOME": str(home),  # no ~/Pictures: the sample library
            "TESSERA_DATA": str(Path(directory) / "tessera-data"),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "TERM": "xterm-256color",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "PS1": "$ ",
        }
        terminal = Terminal(environment, directory)
        try:
            status, output = terminal.run("scripts/run.sh", timeout=1500)
            check(status == 0, "run-command", f"scripts/run.sh exit {status}; its last lines:\n{tail(output)}")
            check(re.search(r"broken on purpose", output) is not None, "sample-broken-file-said",
                  "run.sh says which sample file is broken on purpose and why")
            commands = printed_commands(output)
            check(len(commands) >= 4, "commands-printed", f"{len(commands)}: {commands}")
            for command in commands:
                status, shown = terminal.run(command, timeout=120)
                check(status == 0 and shown.strip() != "", f"pasted: {command}", f"exit {status}; {first(shown)}")

            status, shown = terminal.run("./tessera list --errors", timeout=60)
            check(status == 0 and "broken-on-purpose.jpg" in shown, "list-errors",
                  f"exit {status}; names the broken file: {first(shown)}")

            photos = {
                "jpeg": corpus_file("formats/icc", "Canon PowerShot A560.jpg"),
                "heic": corpus_file("formats/heic", "iphone_13_pro_max.HEIC", "IMG_2682.heic"),
                "raw": corpus_file("formats/raw", "canon_eos_6d.dng", "Nikon.nef", "Canon-R6-pruned.CR3"),
            }
            for kind, path in photos.items():
                if not check(path is not None, f"inspect-{kind}-sample", f"a {kind} in the corpus: {path}"):
                    continue
                status, shown = terminal.run(f"./tessera inspect {shlex_quote(str(path))}", timeout=60)
                says = all(group in shown for group in ("Image", "size", "Capture", "Camera and exposure", "model"))
                check(status == 0 and says, f"inspect-{kind}", f"exit {status}; size, date, camera:\n{shown}")

            status, shown = terminal.run("./tessera status", timeout=60)
            check(status == 0 and "library" in shown and "last scan" in shown, "status",
                  f"exit {status}:\n{shown}")
        finally:
            terminal.close()
            if kept is None:
                wrapper.unlink(missing_ok=True)
            else:
                wrapper.write_bytes(kept)
                wrapper.chmod(0o755)
    print(f"{'FAILED' if failures else 'passed'}: {failures} failed")
    return 1 if failures else 0


def tail(text, lines=12):
    return "\n".join(text.strip().split("\n")[-lines:])


def first(text):
    return text.strip().split("\n")[0][:120] if text.strip() else "(nothing)"


if __name__ == "__main__":
    sys.exit(main())
