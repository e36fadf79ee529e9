#!/usr/bin/env python3
"""Checks the shape of the code against the limits docs/ARCHITECTURE.md ("Shape") sets.

- No Swift function (func, init, deinit, subscript, computed property) over 100 lines, no source file
  over 400 lines (the schema migrations aside, listed below by name), no line over 120 columns.
- The executable (Sources/tessera) under 900 lines.
- Formats are named in their table: `.jpeg` as a value of its own (not a member of another
  value, as `metadata.jpeg`) in at most 2 files of Sources.
- Meanings of SQL are named once: each literal below appears at most twice in Sources.
- No script of the album site over 400 lines.

`--report` prints every measure, whether within its limit or not. Exits 1 with what is over.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
FUNCTION_LINES, FILE_LINES, COLUMNS, EXECUTABLE_LINES, SCRIPT_LINES = 100, 400, 120, 900, 400
# The schema's migrations are history: each step stays as it shipped (docs/INDEX.md).
MIGRATIONS = {"TesseraIndex/PhotoIndex+Migrations.swift", "TesseraCluster/ClusterSchema.swift"}
FORMAT_CASE, FORMAT_FILES = re.compile(r"(?<![\w)\]?])\.jpeg\b"), 2
SQL_MEANINGS = {"status IN ('ok'": 2, "missing_since_ms IS NULL": 2}
# A line that starts another declaration: the one before it had no body.
NEXT_DECLARATION = re.compile(r"\s*(?:@\w+|(?:public|private|fileprivate|internal|package|static|mutating|override|"
                              r"nonisolated|final|func|var|let|case|init|subscript|associatedtype|typealias)\b)")
DECLARATION = re.compile(r"(?<![\w.])(func|init|deinit|subscript)(?!\w)|(?<![\w.])var\s+\w+\s*:[^=\n{]*\{")


def blanked(text):
    """`text` with comments and the contents of string literals blanked out (newlines kept), so
    that the braces left are the code's."""
    out, i, n = [], 0, len(text)
    # A stack of what is open: ("code", paren depth) inside an interpolation, or a string's
    # (delimiter, hashes).
    stack = []
    def emit(chunk):
        out.append(re.sub(r"[^\n]", " ", chunk))
    while i < n:
        top = stack[-1] if stack else None
        if top and top[0] == "string":
            _, quote, hashes = top
            close = quote + "#" * hashes
            if text.startswith("\\" + "#" * hashes + "(", i):
                width = 2 + hashes
                emit(text[i:i + width])
                i += width
                stack.append(("code", 0))
                continue
            if hashes == 0 and text[i] == "\\":
                emit(text[i:i + 2])
                i += 2
                continue
            if text.startswith(close, i):
                emit(close)
                i += len(close)
                stack.pop()
                continue
            emit(text[i])
            i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            emit(text[i:end])
            i = end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            emit(text[i:end])
            i = end
            continue
        match = re.match(r'(#*)("""|")', text[i:])
        if match and (match.group(1) == "" or text[i] == "#"):
            hashes, quote = len(match.group(1)), match.group(2)
            emit(match.group(0))
            i += len(match.group(0))
            stack.append(("string", quote, hashes))
            continue
        char = text[i]
        if top and top[0] == "code":
            if char == "(":
                stack[-1] = ("code", top[1] + 1)
            elif char == ")":
                if top[1] == 0:
                    stack.pop()
                    emit(char)
                    i += 1
                    continue
                stack[-1] = ("code", top[1] - 1)
        out.append(char)
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, line count) of each function-like declaration with a body."""
    code = blanked(text)
    line_of = [0] * (len(code) + 1)
    line = 1
    for index, char in enumerate(code):
        line_of[index] = line
        if char == "\n":
            line += 1
    line_of[len(code)] = line
    found = []
    for match in DECLARATION.finditer(code):
        start = match.start()
        # The body: the first `{` outside parentheses after the signature, unless the
        # declaration ends first (a protocol requirement).
        depth, i = 0, match.end() - 1 if code[match.end() - 1] == "{" else match.end()
        while i < len(code):
            char = code[i]
            if char in "([":
                depth += 1
            elif char in ")]":
                depth -= 1
            elif depth == 0 and char == "{":
                break
            elif depth == 0 and (char == "}" or (char == "\n" and NEXT_DECLARATION.match(code, i + 1))):
                i = -1  # no body
                break
            i += 1
        if i < 0 or i >= len(code):
            continue
        braces, j = 0, i
        while j < len(code):
            if code[j] == "{":
                braces += 1
            elif code[j] == "}":
                braces -= 1
                if braces == 0:
                    break
            j += 1
        name = re.match(r"\w+(\s+\w+)?", code[start:]).group(0)
        name_match = re.match(r"(?:func\s+(\S+?)\s*[(<]|var\s+(\w+))", code[start:])
        if name_match:
            name = name_match.group(1) or name_match.group(2)
        found.append((name, line_of[start], line_of[j] - line_of[start] + 1))
    return found


def measure():
    """Every measure, as (kind, where, value, limit)."""
    measures = []
    executable = 0
    format_files = []
    sql = {literal: 0 for literal in SQL_MEANINGS}
    for source in sorted(SOURCES.rglob("*.swift")):
        relative = source.relative_to(SOURCES).as_posix()
        text = source.read_text()
        lines = text.splitlines()
        if relative.startswith("tessera/"):
            executable += len(lines)
        if relative not in MIGRATIONS:
            measures.append(("file", relative, len(lines), FILE_LINES))
        for number, line in enumerate(lines, 1):
            measures.append(("line", f"{relative}:{number}", len(line), COLUMNS))
        for name, first, count in [] if relative in MIGRATIONS else functions(text):
            measures.append(("function", f"{relative}:{first} {name}", count, FUNCTION_LINES))
        if FORMAT_CASE.search(text):
            format_files.append(relative)
        for literal in sql:
            sql[literal] += text.count(literal)
    measures.append(("executable", "Sources/tessera", executable, EXECUTABLE_LINES - 1))
    measures.append(("format cases", ", ".join(format_files), len(format_files), FORMAT_FILES))
    for literal, count in sql.items():
        measures.append(("SQL literal", literal, count, SQL_MEANINGS[literal]))
    for script in sorted((SOURCES / "TesseraAlbum/Resources").rglob("*.js")):
        measures.append(("script", script.relative_to(SOURCES).as_posix(),
                         len(script.read_text().splitlines()), SCRIPT_LINES))
    return measures


def main():
    report = "--report" in sys.argv[1:]
    over = []
    for kind, where, value, limit in measure():
        if value > limit:
            over.append(f"{kind} over {limit}: {where} ({value})")
        elif report and kind not in ("line", "function", "file"):
            print(f"check-shape: {kind}: {where} ({value}, limit {limit})")
    for problem in over:
        print(f"check-shape: {problem}")
    if over:
        return 1
    print("check-shape: functions, files, lines, the executable, format cases, SQL literals and scripts within limits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
