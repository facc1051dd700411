#!/usr/bin/env python3
"""Writes a deliberately broken copy of an abidw baseline, standing in for a
library with an ABI break, so tests/install/run-tests.sh can prove that the
abidiff guard fails on it.

  mutate_abi.py BASELINE OUT MUTATION

MUTATION is one of
  remove-function      om_mesh_free disappears (symbol and declaration);
  change-return-type   om_mesh_ndim returns int instead of size_t;
  change-struct-size   om_error.message shrinks from 256 to 128 bytes.
Exits non-zero when the baseline lacks what the mutation changes.
"""
import sys
import xml.etree.ElementTree as ET


def die(msg):
    sys.exit(f"mutate_abi: {msg}")


def function_decl(root, name):
    for decl in root.iter("function-decl"):
        if decl.get("name") == name and decl.get("elf-symbol-id"):
            return decl
    die(f"no function-decl {name}")


def remove_function(root, name):
    removed = 0
    for parent in list(root.iter()):
        for child in list(parent):
            if (child.tag == "elf-symbol" and child.get("name") == name) or \
               (child.tag == "function-decl" and child.get("name") == name
                    and child.get("elf-symbol-id")):
                parent.remove(child)
                removed += 1
    if removed < 2:
        die(f"{name}: found {removed} of its symbol and declaration")


def change_return_type(root, name):
    ints = [t.get("id") for t in root.iter("type-decl") if t.get("name") == "int"]
    if not ints:
        die("no type-decl int")
    ret = function_decl(root, name).find("return")
    if ret is None or ret.get("type-id") == ints[0]:
        die(f"{name}: no return type to change")
    ret.set("type-id", ints[0])


def change_struct_size(root, struct, member, new_len):
    types = {t.get("id"): t for t in root.iter() if t.get("id")}
    cls = next((c for c in root.iter("class-decl")
                if c.get("name") == struct and c.get("size-in-bits")), None)
    if cls is None:
        die(f"no struct {struct}")
    for dm in cls.iter("data-member"):
        var = dm.find("var-decl")
        if var is None or var.get("name") != member:
            continue
        array = types[var.get("type-id")]
        sub = array.find("subrange")
        if array.tag != "array-type-def" or sub is None:
            die(f"{struct}.{member} is not an array")
        old_len = int(sub.get("length"))
        elem_bits = int(array.get("size-in-bits")) // old_len
        sub.set("length", str(new_len))
        array.set("size-in-bits", str(new_len * elem_bits))
        cls.set("size-in-bits",
                str(int(cls.get("size-in-bits")) - (old_len - new_len) * elem_bits))
        return
    die(f"no member {struct}.{member}")


def main():
    if len(sys.argv) != 4:
        die("usage: mutate_abi.py BASELINE OUT MUTATION")
    baseline, out, mutation = sys.argv[1:]
    tree = ET.parse(baseline)
    root = tree.getroot()
    if mutation == "remove-function":
        remove_function(root, "om_mesh_free")
    elif mutation == "change-return-type":
        change_return_type(root, "om_mesh_ndim")
    elif mutation == "change-struct-size":
        change_struct_size(root, "om_error", "message", 128)
    else:
        die(f"unknown mutation {mutation}")
    tree.write(out, encoding="unicode")


if __name__ == "__main__":
    main()
