#!/usr/bin/env python3
"""Checks bindings/parity.tsv against the library and the three bindings.

  python3 bindings/parity_check.py LIBRARY [--java-generated DIR]

LIBRARY is liboffline_mesh.so (or .a); its exported om_ functions are read
with `nm`. Fails (exit 1, one line per problem) when an exported function
has no row, a row names a function the library does not export, a cell is
empty, or a named binding does not exist (format: see the head of
parity.tsv). The Python column is checked by importing offline_mesh, so run
it with the interpreter that has the package installed.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE / "parity.tsv"
GO_DIRS = {"offlinemesh": HERE / "go" / "offlinemesh",
           "omswig": HERE / "go" / "internal" / "omswig"}
JAVA_DIR = HERE / "java" / "src" / "main" / "java" / "org" / "offlinemesh"
LANGUAGES = ("Python", "Go", "Java")


def exported_functions(library: Path) -> set[str]:
    """The om_ functions the library defines (T symbols)."""
    out = subprocess.run(["nm", "-D", "--defined-only", str(library)]
                         if library.suffix != ".a" else
                         ["nm", "--defined-only", str(library)],
                         check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "T" and parts[2].startswith("om_"):
            names.add(parts[2].split("@")[0])
    return names


def read_table(text: str) -> tuple[dict[str, list[str]], list[str]]:
    rows, problems = {}, []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#") or line.startswith("c_function\t"):
            continue
        cells = line.split("\t")
        if len(cells) != 1 + len(LANGUAGES):
            problems.append(f"parity.tsv:{number}: {len(cells)} columns, "
                            f"expected {1 + len(LANGUAGES)}")
            continue
        if cells[0] in rows:
            problems.append(f"parity.tsv:{number}: {cells[0]} listed twice")
        rows[cells[0]] = [c.strip() for c in cells[1:]]
    return rows, problems


def python_has(path: str) -> bool:
    obj = importlib.import_module("offline_mesh")
    for part in path.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def go_declarations() -> dict[str, set[str]]:
    """package -> {Name, Type.Member} declared in its non-test files: funcs,
    methods, types and the fields of struct types."""
    found = {}
    func = re.compile(r"^func (?:\(\s*\w+\s+\*?(\w+)(?:\[[^]]*\])?\s*\)\s*)?(\w+)\s*[(\[]",
                      re.MULTILINE)
    struct = re.compile(r"^type (\w+)(?:\[[^]]*\])? struct \{(.*?)^\}", re.MULTILINE | re.S)
    types = re.compile(r"^type (\w+)", re.MULTILINE)
    alias = re.compile(r"^type (\w+)\s*=\s*(\w+)\.(\w+)\s*$", re.MULTILINE)
    embeds = re.compile(r"^type (\w+) struct\s*\{\s*\*?(\w+)\s*\}", re.MULTILINE)
    aliases, embedded = [], []
    for package, folder in GO_DIRS.items():
        names = found.setdefault(package, set())
        for source in folder.glob("*.go"):
            if source.name.endswith("_test.go"):
                continue
            text = source.read_text()
            for receiver, name in func.findall(text):
                names.add(f"{receiver}.{name}" if receiver else name)
            names.update(types.findall(text))
            for name, body in struct.findall(text):
                for line in body.splitlines():
                    for field in re.findall(r"^\s*(\w+(?:\s*,\s*\w+)*)\s+\S", line):
                        names.update(f"{name}.{f.strip()}" for f in field.split(","))
            aliases += [(package, *a) for a in alias.findall(text)]
            embedded += [(package, *e) for e in embeds.findall(text)]
    # type Status = omswig.Status: the alias has the members of its target
    for package, name, target_package, target in aliases:
        members = found.get(target_package, set())
        found[package].update(f"{name}.{m.split('.', 1)[1]}" for m in members
                              if m.startswith(target + "."))
    # type World struct{ object }: World has the methods of its embedded type
    for package, name, inner in embedded:
        found[package].update(f"{name}.{m.split('.', 1)[1]}" for m in list(found[package])
                              if m.startswith(inner + "."))
    return found


def go_has(name: str, declarations) -> bool:
    package, _, rest = name.partition(".")
    if package in declarations and rest:
        return rest in declarations[package]
    return name in declarations["offlinemesh"]


@functools.lru_cache(maxsize=None)
def java_interface() -> str:
    """bindings/java/offline_mesh_java.i and the declarations that
    bindings/java/methods.py derives from the headers and parity.tsv."""
    include = HERE.parent / "include" / "offline_mesh"
    with tempfile.TemporaryDirectory() as tmp:
        out = [Path(tmp, "names.i"), Path(tmp, "methods.i")]
        subprocess.run([sys.executable, HERE / "java" / "methods.py", TABLE, *sorted(include.glob("*.h")),
                        include / "version.h.in", *out], check=True)
        return "\n".join(p.read_text() for p in [HERE / "java" / "offline_mesh_java.i", *out])


def java_swig_class(cls: str) -> bool:
    """A class SWIG generates (%rename(Class) of a handle or an enum, or the %module class)."""
    pattern = r"^(%rename\(" + re.escape(cls) + r"\) |%module " + re.escape(cls) + r"$)"
    return re.search(pattern, java_interface(), re.MULTILINE) is not None


def java_has(name: str, generated: Path | None) -> bool:
    cls, _, method = name.partition(".")
    if not method:  # a class of the package
        return (JAVA_DIR / f"{cls}.java").is_file() or java_swig_class(cls) and (
            generated is None or any(generated.rglob(f"{cls}.java")))
    if generated is None and java_swig_class(cls):
        # SWIG's output lives in a build directory (the Java run-tests.sh
        # checks it there): here the interface must declare the member, as
        # a C declaration (snake_case), javacode or a %rename target
        interface = java_interface()
        snake = re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), method)
        return re.search(r"\b(%s|%s)\s*\(|%%rename\(%s\)" % (re.escape(snake), re.escape(method),
                                                            re.escape(method)), interface) is not None
    method = method.rpartition(".")[2]  # Class.Nested.member
    sources = [JAVA_DIR / f"{cls}.java"]
    if generated:
        sources += list(generated.rglob(f"{cls}.java"))
    declaration = re.compile(r"^\s*(?:(?:public|protected|private|static|final|"
                             r"synchronized|native)\s+)*[\w<>\[\], .?]+\s+"
                             + re.escape(method) + r"\s*\(", re.MULTILINE)
    for source in sources:
        if source.is_file() and declaration.search(source.read_text()):
            return True
    return False


def check(library_functions: set[str], table_text: str,
          java_generated: Path | None = None,
          languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    rows, problems = read_table(table_text)
    for name in sorted(library_functions - rows.keys()):
        problems.append(f"{name}: exported but not in parity.tsv")
    for name in sorted(rows.keys() - library_functions):
        problems.append(f"{name}: in parity.tsv but not exported")
    go = go_declarations()
    for name, cells in sorted(rows.items()):
        for language, cell in zip(LANGUAGES, cells):
            if language not in languages:
                continue
            excuse = re.match(r"not bound(?: yet)?:", cell)
            cell = re.split(r"[ ,({]", cell, 1)[0] if not excuse else cell
            if not cell:
                problems.append(f"{name}: no {language} entry")
            elif excuse:
                if not cell[excuse.end():].strip():
                    problems.append(f"{name}: {language} 'not bound' without a reason")
            elif language == "Python" and not python_has(cell):
                problems.append(f"{name}: Python offline_mesh.{cell} does not exist")
            elif language == "Go" and not go_has(cell, go):
                problems.append(f"{name}: Go {cell} is not declared")
            elif language == "Java" and not java_has(cell, java_generated):
                problems.append(f"{name}: Java {cell} is not declared")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--java-generated", type=Path, default=None,
                        help="folder holding SWIG's generated Java sources")
    parser.add_argument("--language", choices=LANGUAGES, default=None,
                        help="check only this language's column")
    args = parser.parse_args()
    functions = exported_functions(args.library)
    problems = check(functions, TABLE.read_text(encoding="utf-8"),
                     args.java_generated,
                     (args.language,) if args.language else LANGUAGES)
    for problem in problems:
        print(f"parity: {problem}")
    print(f"parity: {len(functions)} exported functions, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
