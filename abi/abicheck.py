#!/usr/bin/env python3
"""Symbol checks of liboffline_mesh's ABI guard (driven by abi/check.sh).

Every check reads the dynamic symbol table as printed by
`nm -D --defined-only <lib>` (a file, or '-' for stdin) and fails with a
message naming each offending symbol:

  exports   every exported symbol is om_-prefixed and carries a version
            node that src/offline_mesh.map defines;
  frozen    the symbols of each version node recorded in a baseline
            (abidw XML) are exactly the baseline's: a released node never
            gains or loses a symbol, so new API must go into a new node,
            and a node named after a released version (the baseline's
            file name) that the baseline lacks was added too late;
  drift     the exported names equal the functions declared with OM_API in
            the public headers (no export without a declaration, no
            declaration without an export);
  soname    the library's SONAME (--soname) is the baseline's: within one
            baseline's series the SONAME never changes.

Only the Python standard library is used.
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SYMBOL_RE = re.compile(r"^om_[a-z0-9_]+$")


class CheckError(Exception):
    pass


def read_text(path):
    if path == "-":
        return sys.stdin.read()
    return Path(path).read_text(encoding="utf-8")


def parse_nm(text):
    """Returns ({name: version or None}, {version definitions}) from nm -D
    output. Version definitions show up as absolute ('A') symbols named
    after the node; a plain `name` without '@' is unversioned."""
    symbols = {}
    nodes = set()
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2:
            raise CheckError(f"unexpected nm line: {line!r}")
        kind, full = fields[-2], fields[-1]
        if kind == "A" and "@" not in full:
            nodes.add(full)
            continue
        if "@@" in full:
            name, version = full.split("@@", 1)
        elif "@" in full:
            # A non-default (hidden) version: an old symbol kept for
            # compatibility. Still exported, still checked.
            name, version = full.split("@", 1)
        else:
            name, version = full, None
        if name in symbols:
            raise CheckError(f"symbol {name} is exported twice")
        symbols[name] = version
    return symbols, nodes


def map_nodes(map_text):
    """Version node names defined in a GNU ld version script."""
    text = re.sub(r"/\*.*?\*/", " ", map_text, flags=re.S)
    text = re.sub(r"#[^\n]*", " ", text)
    return re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\{", text)


def strip_c(text):
    """Removes comments, string literals and preprocessor lines from C."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"\\\n", " ", text)  # join continued lines
    return "\n".join(l for l in text.splitlines()
                     if not l.lstrip().startswith("#"))


def header_api(paths):
    """Names of the functions declared with OM_API in the given headers."""
    names = {}
    for path in paths:
        code = strip_c(Path(path).read_text(encoding="utf-8"))
        for decl in re.finditer(r"\bOM_API\b([^;{]*)", code):
            head = decl.group(1).split("(", 1)[0]
            idents = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", head)
            if not idents or "(" not in decl.group(1):
                raise CheckError(
                    f"{path}: cannot read the OM_API declaration "
                    f"{decl.group(0).strip()[:60]!r}")
            name = idents[-1]
            if name in names:
                raise CheckError(f"{path}: {name} declared with OM_API "
                                 f"again (first in {names[name]})")
            names[name] = path
    return names


def baseline_nodes(baseline):
    """{version node: set of symbol names} recorded in an abidw XML file."""
    root = ET.parse(baseline).getroot()
    nodes = {}
    for sym in root.iter("elf-symbol"):
        version = sym.get("version")
        if not version:
            raise CheckError(f"{baseline}: symbol {sym.get('name')} has no "
                             "version in the baseline")
        nodes.setdefault(version, set()).add(sym.get("name"))
    if not nodes:
        raise CheckError(f"{baseline}: no ELF symbols in the baseline")
    return nodes


def check_exports(symbols, defined_nodes, map_path):
    allowed = set(map_nodes(read_text(map_path)))
    if not allowed:
        raise CheckError(f"{map_path}: no version node found")
    problems = []
    if not symbols:
        problems.append("the library exports no symbol at all")
    for name, version in sorted(symbols.items()):
        if not SYMBOL_RE.match(name):
            problems.append(f"{name}: exported without the om_ prefix")
        if version is None:
            problems.append(f"{name}: exported without a symbol version")
        elif version not in allowed:
            problems.append(f"{name}: version {version} is not a node of "
                            f"{map_path}")
    for node in sorted(defined_nodes - allowed):
        problems.append(f"version node {node} is not in {map_path}")
    return problems, f"{len(symbols)} exports om_-prefixed and versioned " \
        f"({', '.join(sorted({v for v in symbols.values() if v}))})"


def node_version(name):
    """(major, minor) of a node named OFFLINE_MESH_<major>.<minor>, or None."""
    m = re.fullmatch(r"OFFLINE_MESH_(\d+)\.(\d+)", name or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def check_frozen(symbols, baseline):
    problems = []
    recorded = baseline_nodes(baseline)
    # A baseline is the release of its file name (offline_mesh-1.3.abi):
    # a node of that release or an older one that the baseline does not
    # hold was added after the release (a release without new functions
    # records no node of its own).
    released = node_version("OFFLINE_MESH_" + Path(baseline).stem.rsplit("-", 1)[-1])
    late = {v for v in symbols.values()
            if v not in recorded and released and node_version(v)
            and node_version(v) <= released}
    for node in sorted(late):
        for name in sorted(n for n, v in symbols.items() if v == node):
            problems.append(f"{name}: in node {node}, new since the release "
                            f"of {Path(baseline).name}; new API goes into a "
                            "node of a later version")
    for node, names in sorted(recorded.items()):
        now = {n for n, v in symbols.items() if v == node}
        for name in sorted(now - names):
            problems.append(f"{name}: added to the released node {node}; "
                            "new API goes into a new version node")
        for name in sorted(names - now):
            problems.append(f"{name}: removed from the released node {node}"
                            " (an ABI break)")
    return problems, "released nodes unchanged: " + ", ".join(
        f"{node} ({len(names)} symbols)" for node, names in
        sorted(recorded.items()))


def check_soname(soname, baseline):
    recorded = ET.parse(baseline).getroot().get("soname")
    if not recorded:
        raise CheckError(f"{baseline}: no soname recorded")
    if soname != recorded:
        return [f"SONAME is {soname!r}, the baseline {baseline} has "
                f"{recorded!r} (a SONAME bump starts a new baseline)"], ""
    return [], f"SONAME {soname} as in the baseline"


def check_drift(symbols, headers):
    problems = []
    declared = header_api(headers)
    exported = set(symbols)
    for name in sorted(exported - set(declared)):
        problems.append(f"{name}: exported but declared with OM_API in no "
                        "public header")
    for name in sorted(set(declared) - exported):
        problems.append(f"{name}: declared OM_API in {declared[name]} but "
                        "not exported")
    return problems, f"exports equal the {len(declared)} OM_API " \
        "declarations of the headers"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("check", choices=["exports", "frozen", "drift", "soname", "all"])
    parser.add_argument("--nm", required=True,
                        help="output of nm -D --defined-only ('-' = stdin)")
    parser.add_argument("--map", help="the version script (exports, all)")
    parser.add_argument("--baseline", help="abidw XML baseline (frozen, all)")
    parser.add_argument("--soname", help="the library's SONAME (soname, all)")
    parser.add_argument("--header", action="append", default=[],
                        help="a public header (drift, all); repeatable")
    args = parser.parse_args(argv)

    try:
        symbols, defined_nodes = parse_nm(read_text(args.nm))
        runs = []
        if args.check in ("exports", "all"):
            if not args.map:
                parser.error("--map is required")
            runs.append(("exports", check_exports(symbols, defined_nodes,
                                                  args.map)))
        if args.check in ("frozen", "all"):
            if not args.baseline:
                parser.error("--baseline is required")
            runs.append(("frozen", check_frozen(symbols, args.baseline)))
        if args.check in ("drift", "all"):
            if not args.header:
                parser.error("--header is required")
            runs.append(("drift", check_drift(symbols, args.header)))
        if args.check in ("soname", "all"):
            if not args.soname or not args.baseline:
                parser.error("--soname and --baseline are required")
            runs.append(("soname", check_soname(args.soname, args.baseline)))
    except (CheckError, OSError, ET.ParseError) as exc:
        print(f"abicheck: error: {exc}", file=sys.stderr)
        return 2

    failed = False
    for label, (problems, summary) in runs:
        if problems:
            failed = True
            for problem in problems:
                print(f"abicheck {label}: FAIL: {problem}", file=sys.stderr)
        else:
            print(f"abicheck {label}: ok: {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
