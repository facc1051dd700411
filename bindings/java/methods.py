#!/usr/bin/env python3
"""Writes the Java methods of the C API as SWIG declarations.

  methods.py PARITY.tsv HEADER... NAMES.i METHODS.i

Run by bindings/java/meson.build at build time (nothing it writes is
committed). NAMES.i renames the classes and enums (included before their
declarations), METHODS.i declares the methods.
A C function is bound once it is declared in a header and named in
parity.tsv's Java column ("Class.method"); the rest follows from its
signature, by the conventions of bindings/offline_mesh.i:
- om_X_free's row ("Class.close") names the class of the handle om_X; the
  functions of no handle are static methods of OfflineMeshes (struct om);
- a parameter of the class's handle type makes an instance method (the first
  such parameter is `this`), else the method is static;
- the outputs give the return kind (the om_java_* typedefs of
  offline_mesh_java.i): a new handle, a string, a bulk buffer, the scalars;
- an axis set or a coordinate that is the last input becomes Java varargs;
- a `path` parameter makes the method declare IOException.
"""

import re
import sys
from pathlib import Path


def declarations(headers):
    """({C function: (return type, [(parameter type, name)])}, [enum types])."""
    functions, enums = {}, []
    for header in headers:
        text = re.sub(r"/\*.*?\*/", " ", Path(header).read_text(encoding="utf-8"), flags=re.S)
        enums += re.findall(r"typedef enum (om_\w+)", text)
        for ret, name, params in re.findall(
                r"\bOM_API\s+(?:OM_[A-Z]+\s+)*([^;(]*?)\s*\b(om_\w+)\s*\(([^)]*)\)\s*;", text):
            functions[name] = (ret.strip(), [re.match(r"(.*?)\s*(\w+)$", " ".join(p.split())).groups()
                                             for p in params.split(",") if p.strip() != "void"])
    return functions, enums


def java_names(parity):
    """{C function: [(Class, method), ...]} for the cells that start with Class.method."""
    rows = (line.split("\t") for line in Path(parity).read_text(encoding="utf-8").splitlines()
            if not line.startswith("#"))
    return {cells[0]: re.findall(r"(?:^|, )(\w+)\.(\w+)", cells[3])
            for cells in rows if len(cells) == 4 and re.match(r"\w+\.\w+", cells[3])}


def signature(ret, params, struct, handles):
    """(return kind, declared parameters, call arguments, type of `this` or None)."""
    pairs, outputs, last_input, this, i = [], [], 0, None, 0
    while i < len(params):
        (ptype, pname), after = params[i], [t for t, _ in params[i + 1:i + 4]]
        width, output = 1, None
        if this is None and ptype.removeprefix("const ") == struct + " *":
            this, ptype, pname = ptype, None, "$self"
        elif ptype.endswith("**"):
            output = "om_java_string" if ptype == "char **" else "om_java_" + ptype[3:-3]
        elif ptype in ("int32_t *", "int64_t *") and after[:2] == ["size_t", "size_t *"]:
            width = 4 if params[i + 3:i + 4] and params[i + 3][1] == "group_size" else 3
            output = "om_java_groups" if width == 4 else "om_java_ints" if "32" in ptype else "om_java_longs"
        elif ptype.endswith(" *") and not ptype.startswith("const ") and ptype[:-2] not in handles \
                and after[:1] != ["size_t"]:
            output = "" if ptype == "om_error *" or pname == "count" else ptype[:-2]  # a scalar output
        pairs += params[i:i + width] if ptype else [(None, pname)]
        outputs += [output] if output else []
        last_input = len(pairs) - 1 if output is None and ptype else last_input
        i += width
    if last_input and pairs[last_input - 1] in (("const char *const *", "axes"), ("const int64_t *", "coord")):
        (ptype, pname), _ = pairs[last_input - 1:last_input + 1]
        pairs[last_input - 1:last_input + 1] = [(ptype, "v" + pname), ("size_t", "nv" + pname)]
    decl = [t + ("" if t.endswith("*") else " ") + n for t, n in pairs if t]
    return kind(ret, outputs), decl, [n for _, n in pairs], this


def kind(ret, outputs):
    """The return kind of a call that returns `ret` and writes `outputs`."""
    whole = [o for o in outputs if o.startswith("om_java_")]
    if ret != "om_status" or (whole and len(outputs) > 1):
        return None if ret == "om_status" else ret
    if whole or not outputs:
        return (whole or ["om_java_void"])[0]
    if len(outputs) > 1:
        return "om_java_size" if outputs[-1] == "om_world_size_source" else "om_java_longs"
    scalar = {"bool": "bool", "int64_t": "long", "uint64_t": "long", "size_t": "long"}
    return "om_java_" + scalar.get(outputs[0], outputs[0][3:])


def main(parity, *paths):
    *headers, names_out, methods_out = paths
    functions, enums = declarations(headers)
    names = java_names(parity)
    classes = {pairs[0][0]: c[:-5] for c, pairs in names.items() if c.endswith("_free")}
    out = [f"%rename({camel(e[3:])}) {e};\nOM_JAVA_ENUM(om_java_{e[3:]}, {camel(e[3:])})" for e in enums]
    out += [f"%rename({c}) {s};\nOM_JAVA_HANDLE(om_java_{s[3:]}, {c})\n%apply SWIGTYPE **OM_NEW {{ {s} **out }};"
            for c, s in classes.items()]
    Path(names_out).write_text("\n".join(out) + "\n", encoding="utf-8")
    classes["OfflineMeshes"], out = "om", []
    for cname, pairs in sorted(names.items()):
        cls, member = next(((c, m) for c, m in pairs if c in classes), (None, "close"))
        if member == "close":
            continue
        if cname not in functions:
            sys.exit(f"methods.py: {cname} is in {parity} but in none of the headers")
        struct = classes[cls]
        ret, decl, args, this = signature(*functions[cname], struct, set(classes.values()))
        if ret is None:
            sys.exit(f"methods.py: no Java return kind for the outputs of {cname}")
        out.append(f"%rename({member}) {struct}::{cname};")
        if "const char *path" in decl:
            out.append(f'%javaexception("java.io.IOException") {struct}::{cname} %{{ $action %}}')
        out.append(f"%extend {struct} {{ {'' if this else 'static '}{ret} {cname}({', '.join(decl)})"
                   f"{' const' if this and this.startswith('const') else ''} {{ return {cname}({', '.join(args)}); }} }}")
    Path(methods_out).write_text("\n".join(out) + "\n", encoding="utf-8")


def camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


if __name__ == "__main__":
    main(*sys.argv[1:])
