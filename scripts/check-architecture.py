#!/usr/bin/env python3
"""Checks that docs/ARCHITECTURE.md tells the truth about the code.

- The import table between the `imports` markers equals the modules each Sources/ folder
  imports (Foundation, Synchronization, Dispatch and SystemPackage left out).
- Imports point down: each module imports only modules of a lower rank (the table's `rank`
  column; 0 is the bottom).
- No module but TesseraSystem writes files through Foundation.
- No production module imports TesseraTestSupport, and only the executable TesseraSamples.
- A program that only reads the index links no codec: nothing TesseraIndex imports, directly or
  through other modules, is a codec or metadata library's module.

Exits 1 with what differs.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
IGNORED = {"Foundation", "Synchronization", "Dispatch", "SystemPackage"}
IMPORT = re.compile(r"^(?:public |@testable |@preconcurrency )?import (\w+)", re.M)
# The C libraries of pixels, containers and metadata, and the Swift modules that wrap them.
CODECS = {"CJPEG", "CPNG", "CWebP", "CHeif", "CLCMS", "CJXL", "CBrotli", "CFFmpeg", "CLibRaw", "CLibRawStream", "CExif",
          "CExempi", "CZlib", "TesseraImage", "TesseraMetadata", "TesseraVideo", "TesseraJXL", "TesseraDesktop"}
FOUNDATION_WRITES = re.compile(
    r"\.write\(to: ?(URL|url)|\.write\(toFile:|FileManager\.default\.(createDirectory|removeItem|moveItem|copyItem|"
    r"createSymbolicLink|createFile|linkItem|replaceItem|setAttributes)|\.atomic\b")


def actual_imports():
    modules = {}
    for folder in sorted((ROOT / "Sources").iterdir()):
        if not folder.is_dir() or folder.name.startswith("C"):
            continue
        names = set()
        for source in folder.rglob("*.swift"):
            names |= set(IMPORT.findall(source.read_text())) - IGNORED
        modules[folder.name] = names
    return modules


def documented_imports():
    """The table's imports and ranks, by module."""
    text = (ROOT / "docs/ARCHITECTURE.md").read_text()
    match = re.search(r"<!-- imports: begin -->(.*?)<!-- imports: end -->", text, re.S)
    if not match:
        sys.exit("docs/ARCHITECTURE.md: no import table between <!-- imports: begin --> and <!-- imports: end -->")
    modules, ranks = {}, {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("module", "---"):
            continue
        if not cells[1].isdigit():
            sys.exit(f"docs/ARCHITECTURE.md: {cells[0]}: rank {cells[1]!r} is not a number")
        ranks[cells[0]] = int(cells[1])
        modules[cells[0]] = {name.strip() for name in cells[2].split(",") if name.strip()}
    return modules, ranks


def main():
    problems = []
    actual = actual_imports()
    documented, ranks = documented_imports()
    for module in sorted(set(actual) | set(documented)):
        if module not in documented:
            problems.append(f"{module}: not in the import table")
        elif module not in actual:
            problems.append(f"{module}: in the import table, but there is no Sources/{module}")
        else:
            extra, missing = actual[module] - documented[module], documented[module] - actual[module]
            if extra:
                problems.append(f"{module} imports {', '.join(sorted(extra))}, which the table does not say")
            if missing:
                problems.append(f"{module} no longer imports {', '.join(sorted(missing))}, which the table says")
    for module, names in sorted(actual.items()):
        for name in sorted(names & set(ranks)):
            if module in ranks and ranks[name] >= ranks[module]:
                problems.append(f"{module} (rank {ranks[module]}) imports {name} (rank {ranks[name]}): imports point down")
    for module, names in actual.items():
        if "TesseraTestSupport" in names:
            problems.append(f"{module} imports TesseraTestSupport, which serves tests only")
        if "TesseraSamples" in names and module != "tessera":
            problems.append(f"{module} imports TesseraSamples: fixture builders are for tests and sample-library")
    reached, pending = set(), ["TesseraIndex"]
    while pending:
        for name in actual.get(pending.pop(), set()) - reached:
            reached.add(name)
            pending.append(name)
    if reached & CODECS:
        problems.append(f"TesseraIndex reaches {', '.join(sorted(reached & CODECS))}: a reader of the index would link codecs")
    for source in sorted((ROOT / "Sources").rglob("*.swift")):
        module = source.relative_to(ROOT / "Sources").parts[0]
        if module in ("TesseraSystem", "TesseraTestSupport"):
            continue
        for number, line in enumerate(source.read_text().splitlines(), 1):
            if FOUNDATION_WRITES.search(line):
                problems.append(f"{source.relative_to(ROOT)}:{number}: writes files with Foundation, not TesseraSystem")
    for problem in problems:
        print(f"check-architecture: {problem}")
    if problems:
        return 1
    print(f"check-architecture: docs/ARCHITECTURE.md matches the imports of {len(actual)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
