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
    pairs, outputs, last_input, this, this_at, i = [], [], None, None, 0, 0
    while i < len(params):
        (ptype, pname), after = params[i], [t for t, _ in params[i + 1:i + 4]]
        width, role = 1, "input"
        if this is None and ptype.count("*") == 1 and ptype.removeprefix("const ")[:-2] == struct:
            this, this_at, i = ptype, len(pairs), i + 1
            continue
        if ptype.endswith("**"):
            role = "om_java_string" if ptype == "char **" else "om_java_" + ptype[3:-3]
        elif ptype in ("int32_t *", "int64_t *") and after[:2] == ["size_t", "size_t *"]:
            width = 4 if params[i + 3:i + 4] and params[i + 3][1] == "group_size" else 3
            role = ("om_java_groups" if width == 4 else "om_java_ints" if "32" in ptype
                    else "om_java_longs")
        elif ptype == "om_error *" or pname == "count":
            role = None
        elif ptype.endswith(" *") and not ptype.startswith("const ") and ptype[:-2] not in handles \
                and after[:1] != ["size_t"]:
            role = ptype[:-2]  # a scalar output (an int, bool or enum)
        pairs += params[i:i + width]
        if role == "input":
            last_input = len(pairs) - 1
        elif role:
            outputs.append(role)
        i += width
    if last_input and pairs[last_input - 1] in (("const char *const *", "axes"), ("const int64_t *", "coord")):
        (ptype, pname), _ = pairs[last_input - 1:last_input + 1]
        pairs[last_input - 1:last_input + 1] = [(ptype, "v" + pname), ("size_t", "nv" + pname)]
    args = [n for _, n in pairs]
    args[this_at:this_at] = ["$self"] if this else []
    return kind(ret, outputs), [t + ("" if t.endswith("*") else " ") + n for t, n in pairs], args, this


def kind(ret, outputs):
    """The return kind of a call that returns `ret` and writes `outputs`."""
    whole = [o for o in outputs if o.startswith("om_java_")]
    scalars = [o for o in outputs if not o.startswith("om_java_")]
    if ret != "om_status" or len(whole) + bool(scalars) > 1:
        return ret if ret != "om_status" else None
    if whole or not scalars:
        return whole[0] if whole else "om_java_void"
    if scalars[-1] == "om_world_size_source":
        return "om_java_size"
    if len(scalars) > 1 or scalars[0] in ("int64_t", "uint64_t", "size_t"):
        return "om_java_longs" if len(scalars) > 1 else "om_java_long"
    return "om_java_bool" if scalars[0] == "bool" else "om_java_" + scalars[0][3:]


def main(parity, *headers):
    *headers, names_out, methods_out = headers
    functions, enums = declarations(headers)
    names = java_names(parity)
    classes = {pairs[0][0]: c[:-5] for c, pairs in names.items() if c.endswith("_free")}
    classes["OfflineMeshes"] = "om"
    handles = {struct for struct in classes.values()}
    out = [f"%rename({camel(e[3:])}) {e};\nOM_JAVA_ENUM(om_java_{e[3:]}, {camel(e[3:])})" for e in enums]
    out += [f"%rename({c}) {s};\nOM_JAVA_HANDLE(om_java_{s[3:]}, {c})\n%apply SWIGTYPE **OM_NEW {{ {s} **out }};"
            for c, s in classes.items() if s != "om"]
    Path(names_out).write_text("\n".join(out) + "\n", encoding="utf-8")
    out = []
    for cname, pairs in sorted(names.items()):
        cls, member = next(((c, m) for c, m in pairs if c in classes), (None, None))
        if member in (None, "close"):
            continue
        if cname not in functions:
            sys.exit(f"methods.py: {cname} is in {parity} but in none of the headers")
        struct = classes[cls]
        ret, decl, args, this = signature(*functions[cname], struct, handles)
        if ret is None:
            sys.exit(f"methods.py: no Java return kind for the outputs of {cname}")
        out.append(f"%rename({member}) {struct}::{cname};")
        if any(d.endswith(" *path") for d in decl):
            out.append(f'%javaexception("java.io.IOException") {struct}::{cname} %{{ $action %}}')
        out.append(f"%extend {struct} {{ {'' if this else 'static '}{ret} {cname}({', '.join(decl)})"
                   f"{' const' if this and this.startswith('const') else ''} {{ return {cname}({', '.join(args)}); }} }}")
    Path(methods_out).write_text("\n".join(out) + "\n", encoding="utf-8")


def camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


if __name__ == "__main__":
    main(*sys.argv[1:])
