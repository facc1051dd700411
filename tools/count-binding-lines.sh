#!/usr/bin/env bash
# Counts the hand-written binding code under bindings/ (issue 12's measure):
#   tools/count-binding-lines.sh [GIT-REVISION]
# Counted: the SWIG interface files (*.i) and the sources of the idiomatic
# layers: Python package *.py and *.pyi, Go *.go except tests and the
# generated bindings/go/internal/omswig/omswig.go, Java under src/main.
# Not counted: generated code, tests and test data, examples, build and
# test scripts. Prints per language and in total: all lines, and lines
# that are neither blank nor comment (C-style /* */ and // comments; for
# Python, # comments and docstrings), then the functions the public
# headers declare (OM_API) and the code lines per function. With a
# revision (e.g. the seed, b6cc841), counts that commit's files instead of
# the work tree.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-}
# The files under a folder: at the revision, or in the work tree.
listing() {
    if [[ -n $rev ]]; then
        git ls-tree -r --name-only "$rev" "$1"
    else
        git ls-files --cached --others --exclude-standard "$1"
    fi
}
files=$(listing bindings)
HEADERS=$(listing include | grep -E '\.h(\.in)?$')
export HEADERS
echo "$files" | grep -E '\.(i|py|pyi|go|java)$' \
    | grep -vE '(_test\.go|/tests?/|/testdata/|/examples/|internal/omswig/omswig\.go|parity_check\.py)$|/tests?/|/testdata/|/examples/' \
    | REV=$rev python3 -c '
import io, os, re, subprocess, sys, tokenize

def text_of(path):
    rev = os.environ["REV"]
    if rev:
        return subprocess.run(["git", "show", f"{rev}:{path}"], check=True,
                              capture_output=True, text=True).stdout
    return open(path, encoding="utf-8").read()

def code_lines(path, text):
    if path.endswith((".py", ".pyi")):
        lines, prev = set(), None
        skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                tokenize.DEDENT, tokenize.ENDMARKER)
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in skip:
                prev = tok if tok.type != tokenize.COMMENT else prev
                continue
            if tok.type == tokenize.STRING and (prev is None or prev.type in skip):
                prev = tok  # a docstring
                continue
            lines.update(range(tok.start[0], tok.end[0] + 1))
            prev = tok
        return len(lines)
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text,
                  flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return sum(1 for line in text.splitlines() if line.strip())

def language(path):
    part = path.split("/")[1]
    return part if part in ("python", "go", "java") else "shared"

totals = {}
for path in sys.stdin.read().split():
    text = text_of(path)
    row = totals.setdefault(language(path), [0, 0, 0])
    row[0] += 1
    row[1] += len(text.splitlines())
    row[2] += code_lines(path, text)
print("%-8s %5s %6s %6s" % ("part", "files", "lines", "code"))
for name in ("shared", "python", "go", "java"):
    files, lines, code = totals.get(name, [0, 0, 0])
    print("%-8s %5d %6d %6d" % (name, files, lines, code))
files, lines, code = (sum(r[i] for r in totals.values()) for i in range(3))
print("%-8s %5d %6d %6d" % ("total", files, lines, code))
exported = len({name for p in os.environ["HEADERS"].split()
                for name in re.findall(r"OM_API[^;{]*?\b(om_[a-z0-9_]+)\s*\(", text_of(p))})
print("functions %d, code per function %.1f" % (exported, code / exported))
'
