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
  functions of no handle are static methods of OfflineMeshes (the module);
- a parameter of the class's handle type makes an instance method (the first
  such parameter is `this`), else the method is static; the first name in
  each class is a method there (om_mesh_from_dims: OfflineMesh.fromDims,
  ParallelDims.buildOfflineMesh);
- the outputs are returned: a C body per method passes locals for them
  (a bulk output: a size query, then exactly that length) and returns
  them, as offline_mesh_java.i's header lists;
- an axis set or a coordinate that is the last input becomes Java varargs;
- a `path` parameter makes the method declare IOException;
- an index (`size_t index` or `level`) is checked first against its count
  (INDEX_COUNTS): the C getters answer 0 or NULL beyond it, and a negative
  Java long would reach C wrapped to a huge size_t.
"""

import re
import sys
from pathlib import Path


# The count an index is checked against, by the prefix of the function's name:
# (count function, what an index names, what the count counts).
INDEX_COUNTS = {
    "om_mesh_": ("om_mesh_ndim", "axis", "axes of the mesh"),
    "om_view_": ("om_mesh_ndim", "axis", "axes of the mesh"),
    "om_hierarchy_": ("om_hierarchy_levels", "level", "levels of the hierarchy"),
    "om_locality_": ("om_locality_levels", "level", "levels of the report"),
    "om_diagnostics_": ("om_diagnostics_count", "diagnostic", "diagnostics of the list"),
    "om_world_view_": ("om_world_view_count", "view", "views of the world"),
    "om_preset_view_": ("om_preset_view_count", "view", "views of the preset"),
    "om_preset_group_list_": ("om_preset_group_list_count", "group list", "group lists of the preset"),
}


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


def signature(params, struct, handles):
    """(declared parameters, call arguments, outputs, bulk output, type of `this` or None).
    The outputs are (type, name) locals passed by address; a bulk output, ("int32_t *", return
    type), is passed as "@" (its buffer and length) and &r->n (the needed length)."""
    pairs, outputs, bulk, this, i = [], [], None, None, 0
    while i < len(params):
        (ptype, pname), after = params[i], [t for t, _ in params[i + 1:i + 4]]
        if this is None and ptype.removeprefix("const ") == f"{struct} *":
            this, ptype, pname = ptype, None, "$self"
        elif ptype in ("int32_t *", "int64_t *") and after[:2] == ["size_t", "size_t *"]:
            grouped = params[i + 3:i + 4] == [("size_t *", "group_size")]
            bulk = ptype, ("om_java_groups" if grouped
                           else "om_java_ints" if "32" in ptype else "om_java_longs")
            ptype, pname, i = None, "@, &r->n" + ", &r->group_size" * grouped, i + 2 + grouped
        elif ptype.endswith("*") and not ptype.startswith("const ") and ptype[:-2] not in handles \
                and ptype != "om_error *" and after[:1] != ["size_t"]:
            outputs.append((ptype[:-1].strip(), pname))
            ptype, pname = None, "&" + pname
        pairs.append((ptype, pname))
        i += 1
    inputs = [n for n, (t, _) in enumerate(pairs) if t and t != "om_error *"]
    varargs = (("const char *const *", "axes"), ("const int64_t *", "coord"))  # and their length
    if len(inputs) > 1 and pairs[inputs[-2]] in varargs:
        (ptype, pname), at = pairs[inputs[-2]], inputs[-2]
        pairs[at:at + 2] = [(ptype, "v" + pname), ("size_t", "nv" + pname)]
    decl = [typed(t, n) for t, n in pairs if t]
    return decl, ", ".join(n for _, n in pairs), outputs, bulk, this


def body(ret, call, outputs, bulk):
    """(return type, C body) of a call that returns `ret` and writes `outputs` or a `bulk`
    output: the outputs become the result (a size_t *count beside a text is dropped). None
    as the type when Java has no single result for them."""
    if ret != "om_status":
        return returned(ret, call)
    declared = "".join(f"{typed(t, name)} = 0; " for t, name in outputs)  # their locals
    results = [(t, name) for t, name in outputs if name != "count"]
    if bulk:
        return bulk_output(call, bulk, results)
    emit = (no_output, one_output, several_outputs)[min(len(results), 2)]  # by the number of outputs
    return emit(call, declared, results)


def returned(ret, call):
    """`return CALL;`: a function that returns no status passes its result through."""
    return ret, f"return {call};"


def no_output(call, declared, results):
    """`if (CALL != OM_OK) return;`: a void method (the wrapper throws on a failed status)."""
    return "void", f"if ({call} != OM_OK) return;"


def one_output(call, declared, results):
    """The locals, then `return CALL == OM_OK ? out : 0;`: the output is the result."""
    return results[0][0], f"{declared}return {call} == OM_OK ? {results[0][1]} : 0;"


def several_outputs(call, declared, results):
    """The locals, then `if (CALL == OM_OK) { r->n = N; r->stack[i] = out_i; ... } return r;`."""
    kind = "om_java_size" if results[-1][0] == "om_world_size_source" else "om_java_longs"
    copies = "".join(f"r->stack[{n}] = {name}; " for n, (_, name) in enumerate(results))
    return (None if any(t.endswith("*") for t, _ in results) else kind), \
        f"{declared}if ({call} == OM_OK) {{ r->n = {len(results)}; {copies}}} return r;"


def bulk_output(call, bulk, results):
    """`if (om_java_room(r, size, CALL(0, 0), err) && CALL(r->values, r->n) != OM_OK) r->n = 0;`."""
    (ctype, kind), fill = bulk, call.replace("@", "r->values, r->n")
    query = f"om_java_room(r, sizeof({ctype[:-2]}), {call.replace('@', '0, 0')}, err)"
    return (None if results else kind), f"if ({query} && {fill} != OM_OK) r->n = 0; return r;"


def main(parity, *paths):
    *headers, names_out, methods_out = paths
    functions, enums = declarations(headers)
    names = java_names(parity)
    classes = {pairs[0][0]: c[:-5] for c, pairs in names.items() if c.endswith("_free")}
    out = [f"%rename({camel(e[3:])}) {e};" for e in enums]
    out += [f"%rename({c}) {s};" for c, s in classes.items()]
    Path(names_out).write_text("\n".join(out) + "\n", encoding="utf-8")
    classes["OfflineMeshes"], out = None, []
    for cname, pairs in sorted(names.items()):
        # its first name in each class
        members = {c: m for c, m in reversed(pairs) if c in classes and m != "close"}
        if members and cname not in functions:
            sys.exit(f"methods.py: {cname} is in {parity} but in none of the headers")
        for cls, member in reversed(members.items()):
            struct, (ret, params) = classes[cls], functions[cname]
            decl, args, outputs, bulk, this = signature(params, struct, set(classes.values()) - {None})
            ret, code = body(ret, f"{cname}({args})", outputs, bulk)
            if ret is None:
                sys.exit(f"methods.py: no Java return kind for the outputs of {cname}")
            index = next((n for t, n in params if t == "size_t" and n in ("index", "level")), None)
            if index:
                count = this and next((c for prefix, c in INDEX_COUNTS.items() if cname.startswith(prefix)), None)
                if not count:
                    sys.exit(f"methods.py: no count for the {index} of {cname} (INDEX_COUNTS)")
                code = (f'if (!om_java_index({index}, {count[0]}($self), "{count[1]}", "{count[2]}", err)) '
                        f'return {"r" if ret.startswith("om_java_") else "0"}; {code}')
                if "om_error *err" not in decl:
                    decl.append("om_error *err")  # hidden, as every om_error: a failed check throws
            target = f"{struct}::{cname}" if struct else "omj_" + cname[3:]  # OfflineMeshes: the module's
            out.append(f"%rename({member}) {target};")
            if "const char *path" in decl:
                out.append(f'%javaexception("java.io.IOException") {target} %{{ $action %}}')
            if ret.endswith("*") and outputs:
                out.append(f"%newobject {target};")  # a new handle or string: the caller's
            decl = (["om_java_array *r"] if ret.startswith("om_java_") else []) + decl  # the result's storage
            method = (f"{typed(ret, cname if struct else target)}({', '.join(decl) or 'void'})"
                      f"{' const' if this and this.startswith('const') else ''} {{ {code} }}")
            out.append(f"%extend {struct} {{ {'' if this else 'static '}{method} }}" if struct
                       else f"%inline %{{ static {method} %}}")
    Path(methods_out).write_text("\n".join(out) + "\n", encoding="utf-8")


def typed(ctype, name):
    return ctype + ("" if ctype.endswith("*") else " ") + name


def camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


if __name__ == "__main__":
    main(*sys.argv[1:])
