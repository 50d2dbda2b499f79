#!/usr/bin/env python3
"""code_shape.py: keeps the code in the shape docs/architecture.md promises.

    python3 code_shape.py SOURCE_DIR [ALLOW_FILE]

Checks every .c and .h under src/ and models/:
  - a file has at most 900 lines;
  - a function has at most 80 lines (from its opening brace at column 0
    to its closing one);
  - a file's head comment has at most 10 lines;
  - the library (src/ outside src/cli/, and models/) never includes cli.h,
    never writes to stderr or stdout, and never spells a command-line
    option (OPTIONS), not even in a comment: it names run parameters
    (gpuplan.h, GP_PARAM_TEXT) and the program shows them as options.
ALLOW_FILE lists the places still over a limit, one per line as
"path kind name size" (kind: file, function, head); a listed place may
shrink but not grow, and one back within its limit must leave the list,
so the list only ever gets shorter.  Exit 0 when all is well, else 1 with
one line per problem.
"""
import os
import re
import sys

MAX_FILE, MAX_FUNCTION, MAX_HEAD = 900, 80, 10
LIMITS = {"file": MAX_FILE, "function": MAX_FUNCTION, "head": MAX_HEAD}
# gpuplan's options (src/cli/options.c and the commands' own)
OPTIONS = ("trace layout map step region provider instance-type time pricing "
           "commitments-out scenario out json csv skip-bad rejects horizon "
           "forward train-until relabel seed runs threads idle-threshold "
           "idle-min-hours spot-confidence explain terms payment lookback instruments "
           "years growth decline migrate "
           "quiet help version").split()
OPTION = re.compile(r"(?<![-\w])--(" + "|".join(
    sorted(OPTIONS, key=len, reverse=True)) + r")(?![\w-])")
PRINTS = re.compile(r"\b(fprintf\s*\(\s*std(err|out)|printf\s*\(|puts\s*\(|"
                    r"fputs\s*\([^;]*std(err|out)\s*\))")


def sources(root):
    for top in ("src", "models"):
        for d, _, files in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    p = os.path.join(d, f)
                    yield os.path.relpath(p, root), p


def functions(lines):
    """(name, first line, length) of each function: a '{' at column 0
    closed by a '}' at column 0, named by the identifier before its '('."""
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{") and start is None:
            j = i - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            start = (i, m.group(1) if m else "?")
        elif line.startswith("}") and start is not None:
            yield start[1], start[0] + 1, i - start[0] + 1
            start = None


def head_lines(lines):
    """Lines of the comment that opens the file (0 when there is none)."""
    if not lines or not lines[0].startswith("/*"):
        return 0
    for i, line in enumerate(lines):
        if "*/" in line:
            return i + 1
    return len(lines)


def measure(root):
    """{(path, kind, name): size} of everything over its limit, and the
    library's forbidden uses as messages."""
    over, bad = {}, []
    for rel, path in sources(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > MAX_FILE:
            over[(rel, "file", "-")] = len(lines)
        h = head_lines(lines)
        if h > MAX_HEAD:
            over[(rel, "head", "-")] = h
        for name, first, n in functions(lines):
            if n > MAX_FUNCTION:
                over[(rel, "function", name)] = n
        if rel.startswith("src/cli/"):
            continue
        for k, line in enumerate(lines, 1):
            code = line.split("//")[0]
            if re.search(r'#\s*include\s+"cli\.h"', code):
                bad.append(f"{rel}:{k}: the library includes cli.h")
            if PRINTS.search(code) and not code.lstrip().startswith("*"):
                bad.append(f"{rel}:{k}: the library prints: {line.strip()}")
            for m in OPTION.finditer(line):
                bad.append(f"{rel}:{k}: the library spells option "
                           f"--{m.group(1)}")
    return over, bad


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    allowed = {}
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8") as f:
            for line in f:
                line = line.split("#")[0].split()
                if len(line) == 4:
                    allowed[tuple(line[:3])] = int(line[3])
    over, problems = measure(root)
    for key, size in sorted(over.items()):
        path, kind, name = key
        what = f"{path}: {kind} {name if kind == 'function' else ''}".rstrip()
        if key not in allowed:
            problems.append(f"{what} has {size} lines (at most "
                            f"{LIMITS[kind]})")
        elif size > allowed[key]:
            problems.append(f"{what} grew to {size} lines (listed at "
                            f"{allowed[key]}; at most {LIMITS[kind]})")
    for key in sorted(set(allowed) - set(over)):
        problems.append(f"{' '.join(key)}: within its limit now: take it "
                        f"off the list")
    for p in problems:
        print(p)
    print(f"code_shape: {len(over)} places over a limit, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
