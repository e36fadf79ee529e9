#!/usr/bin/env python3
"""Every reference in the project resolves: each document under docs/ named in the sources,
scripts, units and documents exists, each relative link in a Markdown file resolves, each
`docs/LAYOUT.md §N` names a section that document has, and each unit's Documentation= is a
manual page the install steps install or a file in the repository.

Usage: scripts/check-references.py   (prints what does not resolve; exits 1 if anything)
"""
import re
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SCANNED = ["Sources", "Tests", "scripts", "bench", "docs", "systemd", "config", ".ci"]
SUFFIXES = {".swift", ".py", ".sh", ".md", ".yaml", ".service", ".socket", ".timer", ""}


def files():
    yield PROJECT / "README.md"
    for folder in SCANNED:
        for path in (PROJECT / folder).rglob("*"):
            if path.is_file() and path.suffix in SUFFIXES:
                yield path


def main():
    sections = set(re.findall(r"^#+ ([0-9]+(?:\.[0-9]+)*)\.? ", (PROJECT / "docs/LAYOUT.md").read_text(), re.M))
    problems, checked = [], 0
    for path in files():
        text = path.read_text(encoding="utf-8", errors="replace")
        where = path.relative_to(PROJECT)
        for match in re.finditer(r"\bdocs/[A-Za-z-]+\.md", text):
            checked += 1
            if not (PROJECT / match.group(0)).exists():
                problems.append(f"{where}: {match.group(0)} does not exist")
        for section in re.findall(r"docs/LAYOUT\.md §([0-9.]*[0-9])", text):
            checked += 1
            if section not in sections:
                problems.append(f"{where}: docs/LAYOUT.md has no §{section}")
        links = re.findall(r"\]\(((?!https?:|#|mailto:)[^)\s]+)\)", text) if path.suffix == ".md" else []
        for target in links:
            checked += 1
            if not (path.parent / target.split("#")[0]).exists():
                problems.append(f"{where}: the link {target} does not resolve")
        for documentation in re.findall(r"^Documentation=(.*)$", text, re.M):
            for item in documentation.split():
                checked += 1
                if item.startswith("man:"):
                    if item != "man:tessera(1)":
                        problems.append(f"{where}: {item} is not a manual page the install steps install")
                elif item.startswith("file:"):
                    if not (PROJECT / item[len("file:"):].lstrip("/")).exists():
                        problems.append(f"{where}: {item} does not exist")
                else:
                    problems.append(f"{where}: {item} is not a manual page or a file here")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-references: {checked} references, {len(problems)} that do not resolve")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
