#!/usr/bin/env python3
"""Regenerate tests/yaml_reference/cases.json by loading random configs with PyYAML.

    python3 -m venv /tmp/pyyaml && /tmp/pyyaml/bin/pip install pyyaml
    /tmp/pyyaml/bin/python tests/yaml_reference/generate.py > tests/yaml_reference/cases.json

Trainers read their configs with PyYAML's safe_load, so the library must
read every document as PyYAML does. This draws random documents from a fixed
seed (tricky scalar spellings, tags, block and flow style, anchors, aliases,
merge keys, comments, CRLF, a BOM, other sections, duplicate and complex
keys, document markers, second documents), loads each with PyYAML's C
loader and its pure-Python loader (a draw on which the two disagree is left
out and counted), and applies DOMAIN.md's projection rules to PyYAML's value
(`project` below) with the world size the case gives, as `offline-mesh dims
--world-size N` does. The tests never need PyYAML: they read the JSON.

Where the library decides differently on purpose (README.md lists why), the
expectation comes from `DecidedLoader`, PyYAML's pure loader with exactly
those decisions applied, and the case names them in "decisions"; "pyyaml"
always holds what PyYAML itself gives.

"duplicates" lists the keys the library must report as repeated
(OM_DIAGNOSTIC_DUPLICATE_KEY): found on PyYAML's composed nodes, before any
merge is applied, in the accelerator mapping, the top-level mapping (for
"accelerator" itself) and every mapping they merge, each with the line of
the key that comes again; a second merge key (`<<` or `!!merge`) in any of
those mappings counts as "<<" given again (PyYAML applies both).
"""
import json
import random
import re
import sys

import yaml
from yaml.constructor import BaseConstructor
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

SEED = 20261201
CASES = 520
SIZES = ["dp_size", "tp_size", "cp_size", "ep_size", "pp_size"]
FLAGS = ["sequence_parallel", "loss_parallel"]
FIELDS = SIZES + FLAGS
MAX_SIZE = 2**31 - 1
STR_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"

# ---- the library's documented decisions, applied to PyYAML's pure loader ----

# PyYAML's int resolver (YAML 1.1): what the library accepts as an integer,
# also under an explicit !!int tag.
YAML11_INT = re.compile(r"""^(?:[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+
    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""", re.X)
NULLS = {"", "~", "null", "Null", "NULL"}


class DecidedLoader(yaml.SafeLoader):
    """PyYAML's pure safe loader with the library's decisions:
    non-specific-tag: a scalar tagged `!` is a string (YAML's rule; PyYAML
        resolves it as if untagged);
    strict-int-tag: `!!int` text that is not a YAML 1.1 integer is refused
        (PyYAML falls back to Python's int(): spaces, Unicode digits, 0o10,
        1:60 pass);
    strict-null-tag: `!!null` text that is not a null spelling is refused
        (PyYAML gives None for `!!null 5`);
    complex-key-ignored: a key that is a mapping or list is an unknown key
        (reported as such), not a refusal (PyYAML: unhashable key);
    unread-values: a value the projection never reads (another section,
        an unknown key, a repeated or merged key that another overrides)
        is not checked: PyYAML fails on the whole document when one cannot
        be constructed (`!!bool 0`, `0b_`, `!custom x`, a mapping with
        `<<: 5`), the library only when it reads it (an Unreadable here,
        refused by project())."""

    fired = set()

    def unreadable(self, node, why):
        DecidedLoader.fired.add("unread-values")
        return Unreadable(why)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (ValueError, KeyError, IndexError) as e:
            self.recursive_objects.pop(node, None)
            value = self.constructed_objects[node] = self.unreadable(node, type(e).__name__)
            return value

    def construct_decided_map(self, node):
        try:
            self.flatten_mapping(node)
        except yaml.constructor.ConstructorError:
            # a merge key (<<) of something else than mappings
            return self.unreadable(node, "bad merge")
        return self.construct_yaml_map(node)

    def construct_undefined(self, node):
        return self.unreadable(node, "undefined tag " + node.tag)

    def compose_scalar_node(self, anchor):
        tag = self.peek_event().tag
        node = super().compose_scalar_node(anchor)
        if tag == "!":
            if node.tag != STR_TAG:
                DecidedLoader.fired.add("non-specific-tag")
            node.tag = STR_TAG
        return node

    def construct_yaml_int(self, node):
        text = self.construct_scalar(node)
        if not YAML11_INT.match(text):
            DecidedLoader.fired.add("strict-int-tag")
            return Unreadable("not a YAML 1.1 int")
        return super().construct_yaml_int(node)

    def construct_yaml_null(self, node):
        if self.construct_scalar(node) not in NULLS:
            DecidedLoader.fired.add("strict-null-tag")
            return Unreadable("not a null")
        return None

    def construct_mapping(self, node, deep=False):
        if isinstance(node, MappingNode):
            self.flatten_mapping(node)
        kept = [(k, v) for k, v in node.value if isinstance(k, ScalarNode)]
        if len(kept) != len(node.value):
            DecidedLoader.fired.add("complex-key-ignored")
        node.value = kept
        return BaseConstructor.construct_mapping(self, node, deep)


DecidedLoader.add_constructor("tag:yaml.org,2002:int", DecidedLoader.construct_yaml_int)
DecidedLoader.add_constructor("tag:yaml.org,2002:null", DecidedLoader.construct_yaml_null)
DecidedLoader.add_constructor("tag:yaml.org,2002:map", DecidedLoader.construct_decided_map)
DecidedLoader.add_constructor(None, DecidedLoader.construct_undefined)


class Unreadable:
    """A value PyYAML cannot construct: an error only where it is read."""

    def __init__(self, why):
        self.why = why

    def __repr__(self):
        return "Unreadable(%s)" % self.why

# ---- DOMAIN.md's projection of a loaded document ----


class Refusal(Exception):
    def __init__(self, status, key=None, names=()):
        super().__init__(status)
        self.status, self.key, self.names = status, key, list(names)


def project(doc, world):
    """The dims DOMAIN.md gives for PyYAML's value `doc` at world size
    `world`, or a Refusal: its status, the key the message must name and
    numbers it must contain. Fields are checked in DOMAIN's order."""
    if doc is None:
        accel = None
    elif not isinstance(doc, dict):  # Unreadable included
        raise Refusal("parse")  # the top level is not a mapping
    else:
        accel = doc.get("accelerator")
    if accel is None:
        accel = {}
    elif isinstance(accel, Unreadable):
        raise Refusal("parse")
    elif not isinstance(accel, dict):
        raise Refusal("parse", "accelerator")
    # (an Unreadable value is neither an int nor a bool: refused where read)
    dims = {f: 1 for f in SIZES}
    dp_given = False
    for f in SIZES:
        v = accel.get(f)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise Refusal("parse", f)
        if v < 1:
            raise Refusal("invalid_argument", f)
        if v > MAX_SIZE:
            raise Refusal("out_of_range", f)
        dims[f] = v
        dp_given |= f == "dp_size"
    for f in FLAGS:
        v = accel.get(f)
        if v is not None and not isinstance(v, bool):
            raise Refusal("parse", f)
        dims[f] = bool(v)
    inner = dims["tp_size"] * dims["cp_size"] * dims["pp_size"]
    if dp_given:
        if dims["dp_size"] * inner != world:
            raise Refusal("invalid_argument", None, [world])
    elif world % inner:
        raise Refusal("invalid_argument", None, [world, inner])
    else:
        dims["dp_size"] = world // inner
    return dims


def load(text, loader):
    """(value, None) or (None, the exception's type name)."""
    try:
        return yaml.load(text, Loader=loader), None
    except Exception as e:  # PyYAML raises ValueError, KeyError... too
        return None, type(e).__name__


def stage(error):
    """Where a load failed: None, reading the text, or building values."""
    if error is None:
        return None
    syntax = ("ReaderError", "ScannerError", "ParserError", "ComposerError")
    return "text" if error in syntax else "values"


def expectation(value, error, world):
    if error:
        return {"error": {"status": "parse", "key": None, "names": []}}
    try:
        return {"dims": project(value, world)}
    except Refusal as r:
        return {"error": {"status": r.status, "key": r.key, "names": [str(n) for n in r.names]}}


def plain_json(value):
    """PyYAML's value as JSON: strings, floats, big ints, dates tagged."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**53 else {"int": str(value)}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else repr(k): plain_json(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [plain_json(v) for v in value]
    return {type(value).__name__: str(value)}


# ---- duplicate keys, on the composed nodes ----


def is_merge(key):
    return key.tag == MERGE_TAG


def mapping_lookup(node, key):
    """PyYAML's answer for node[key] after merges (flatten_mapping works on
    a copy: the caller's nodes stay as composed)."""
    loader = yaml.SafeLoader("")
    found = None
    flat = copy_mapping(node)
    loader.flatten_mapping(flat)
    for k, v in flat.value:
        if isinstance(k, ScalarNode) and k.tag == STR_TAG and k.value == key:
            found = v
    return found


def copy_mapping(node, memo=None):
    memo = {} if memo is None else memo
    if id(node) in memo:
        return memo[id(node)]
    if isinstance(node, MappingNode):
        new = MappingNode(node.tag, [], node.start_mark, node.end_mark)
        memo[id(node)] = new
        new.value = [(copy_mapping(k, memo), copy_mapping(v, memo)) for k, v in node.value]
    elif isinstance(node, SequenceNode):
        new = SequenceNode(node.tag, [], node.start_mark, node.end_mark)
        memo[id(node)] = new
        new.value = [copy_mapping(v, memo) for v in node.value]
    else:
        new = node
    return new


def repeated_keys(node, wanted, seen, out, merges):
    """Keys of `wanted` repeated within `node` or a mapping it merges, and
    merge keys (each once in `merges`, whichever walk finds it)."""
    if not isinstance(node, MappingNode) or id(node) in seen:
        return
    seen.add(id(node))
    first = {}
    for k, v in node.value:
        if is_merge(k):
            if "<<" in first and id(k) not in merges:
                merges.add(id(k))
                out.append({"key": "<<", "line": k.start_mark.line + 1})
            first["<<"] = True
            for m in (v.value if isinstance(v, SequenceNode) else [v]):
                repeated_keys(m, wanted, seen, out, merges)
        elif isinstance(k, ScalarNode) and k.tag == STR_TAG and k.value in wanted:
            if k.value in first:
                out.append({"key": k.value, "line": k.start_mark.line + 1})
            first[k.value] = True


def duplicates(text):
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, MappingNode):
        return []
    out = []
    merges = set()
    repeated_keys(root, {"accelerator"}, set(), out, merges)
    accel = mapping_lookup(root, "accelerator")
    repeated_keys(accel, set(FIELDS), set(), out, merges)
    return sorted(out, key=lambda d: (d["line"], d["key"]))


# ---- random documents ----

INT_SPELLINGS = [
    "1", "2", "3", "4", "6", "8", "16", "64", "+4", "+1", "0x10", "0x2", "0X10", "0x_2",
    "010", "02", "00", "0_", "08", "0o10", "0b100", "0b10", "0b_", "0b2", "1_000", "1__0",
    "_1", "1_", "2_", "1:30", "1:00", "1:30:00", "0:30", "1:60", "-1:30", "190:20:30",
    "2147483647", "2147483648", "-2147483648", "0x7fffffff", "0x80000000",
    "0b1111111111111111111111111111111", "017777777777", "020000000000",
    "9223372036854775807", "9223372036854775808", "99999999999999999999999",
    "-1", "-0", "0", "+0", "-4", "0.", "2.0", "2.5", ".5", "-.5", "+.5", "._5", "1e3",
    "1.0e+3", "4.0e-1", "1:30.5", ".inf", "-.inf", "+.Inf", ".NaN", ".nan", ".Nan",
    "2001-01-01", "four", "0x1G", "0x", "4 # four", "4#x", "1 2",
]
BOOL_SPELLINGS = [
    "true", "True", "TRUE", "tRue", "false", "False", "FALSE", "fAlse", "yes", "Yes", "YES",
    "yEs", "no", "No", "NO", "nO", "on", "On", "ON", "oN", "off", "Off", "OFF", "oFF",
    "y", "Y", "n", "N", "1", "0", "t", "f",
]
NULL_SPELLINGS = ["null", "Null", "NULL", "nUll", "~", "", "None", "nil"]
GOOD_SIZES = ["1", "2", "4", "8", "2", "4", "0x4", "010", "0b10", "+2", "1_6", "2"]
VALID_SIZES = GOOD_SIZES + [
    "0x10", "0x_8", "0b1_0", "0_", "00", "02", "010", "0_4", "1_6", "+4", "1:00", "1:04", "16",
    "32", "3", "5", "7", "", "~", "null", "Null", "NULL", "0b100", "+0x2", "1__2"]
VALID_FLAGS = [b for b in BOOL_SPELLINGS if yaml.safe_load(b) in (True, False)] + ["~", "", "null"]
GOOD_FLAGS = ["true", "false", "yes", "no", "on", "off", "True", "False", "ON", "OFF"]
WRAPPERS = [
    ("plain", 50), ("double", 6), ("single", 5), ("!!int", 6), ("!!str", 3), ("!!float", 3),
    ("!!bool", 5), ("!!null", 3), ("!", 4), ("verbatim-int", 2), ("!custom", 1),
]


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for item, w in pairs:
        x -= w
        if x <= 0:
            return item
    return pairs[-1][0]


def scalar_text(rng, field, flow, valid=False):
    """A value spelling for `field`: mostly valid, often tricky; with
    `valid`, only spellings PyYAML reads as a usable value (tricky ones
    included)."""
    flag = field in FLAGS
    if valid:
        text = rng.choice(VALID_FLAGS if flag else VALID_SIZES)
        wrap = rng.choice(["plain"] * 8 + ["!!int"] * (not flag) + ["!!bool"] * flag)
        return text if wrap == "plain" else "%s %s" % (wrap, text)
    r = rng.random()
    if r < 0.35:
        text = rng.choice(GOOD_FLAGS if flag else GOOD_SIZES)
    elif r < 0.5:
        text = rng.choice(NULL_SPELLINGS)
    elif r < 0.75:
        text = rng.choice(BOOL_SPELLINGS if flag else INT_SPELLINGS)
    else:
        text = rng.choice(INT_SPELLINGS + BOOL_SPELLINGS)
    if "#" in text and flow:
        text = text.split(" ")[0]
    wrap = weighted(rng, WRAPPERS)
    if wrap == "plain":
        return text
    if wrap == "double":
        return '"%s"' % text
    if wrap == "single":
        return "'%s'" % text
    if wrap == "verbatim-int":
        return "!<tag:yaml.org,2002:int> " + text
    if text == "" and wrap != "!":
        return wrap
    if text.startswith("#"):
        text = "'%s'" % text
    return "%s %s" % (wrap, text)


def key_text(rng, key):
    r = rng.random()
    if r < 0.05:
        return '"%s"' % key
    if r < 0.08:
        return "'%s'" % key
    return key


class Doc:
    """Lines of a document being drawn, and what it holds."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.anchors = []  # names of anchored mappings of field pairs
        self.scalar_anchors = []
        self.features = set()
        self.valid = rng.random() < 0.55  # values PyYAML reads as usable


# Rare spellings worth a draw of their own: (key, value, block style only).
SPECIAL_PAIRS = [
    ("sequence_parallel", "!!bool tRue", False), ("loss_parallel", "!!bool oFF", False),
    ("sequence_parallel", "!!bool YeS", False), ("loss_parallel", "!!bool y", False),
    ("tp_size", "|\n    4", True), ("tp_size", ">-\n    4", True), ("pp_size", "2\n    0", True),
    ("tp_size", "\"\\x32\"", False), ("tp_size", "\uff14", False), ("cp_size", "!!int \"\uff14\"", False),
    ("tp_size", "!!int \" 4\"", False), ("tp_size", "!!int \"0o10\"", False),
    ("tp_size", "!!int 1:60", False), ("dp_size", "!!null 4", False), ("dp_size", "!!null ''", False),
    ("tp_size", "!!str", False), ("tp_size", "!!int", False), ("pp_size", "!!float", False),
    ("tp_size", "! 4", False), ("loss_parallel", "! true", False), ("tp_size", "!custom 4", False),
    ("tp_size", "!!python/int 4", False), ("tp_size", "\t4", False), ("ep_size", "0x_", False),
    ("ep_size", "0b_", False), ("ep_size", "0__", False), ("ep_size", "-0_", False),
    ("pp_size", "1_:30", False), ("pp_size", "1:3_0", False), ("pp_size", "+1:00", False),
    ("dp_size", "0o4", False), ("dp_size", "0x0_4", False), ("sequence_parallel", "!!bool 1", False),
]


def field_pairs(rng, doc, flow, count):
    """Random (key, value) texts of accelerator fields."""
    pairs = []
    valid = doc.valid
    for _ in range(count):
        if rng.random() < 0.06:
            key, value, block = rng.choice(SPECIAL_PAIRS)
            if not (block and flow):
                pairs.append((key, value))
                doc.features.add("special")
                continue
        r = rng.random()
        if r < 0.82:
            key = rng.choice(FIELDS)
        elif r < 0.9:
            key = rng.choice(["tpsize", "tp", "pipeline", "dp-size", "TP_SIZE", "micro_batch"])
            doc.features.add("unknown-key")
        else:
            key = rng.choice(FIELDS)
        if doc.scalar_anchors and rng.random() < 0.15:
            value = "*" + rng.choice(doc.scalar_anchors)
            doc.features.add("scalar-alias")
        else:
            value = scalar_text(rng, key, flow, valid)
        pairs.append((key_text(rng, key), value))
    if pairs and rng.random() < 0.2:
        key, _ = rng.choice(pairs)
        pairs.append((key, scalar_text(rng, key.strip("'\""), flow, valid)))
        doc.features.add("duplicate-key")
    return pairs


def merge_value(rng, doc):
    if not doc.anchors:
        return None
    r = rng.random()
    if r < 0.06:
        doc.features.add("bad-merge")
        return rng.choice(["5", "[*%s, 3]" % doc.anchors[0], "*%s" % doc.scalar_anchors[0]
                           if doc.scalar_anchors else "foo"])
    if r < 0.55 or len(doc.anchors) == 1:
        doc.features.add("merge")
        return "*" + rng.choice(doc.anchors)
    doc.features.add("merge-list")
    chosen = rng.sample(doc.anchors, min(len(doc.anchors), rng.randint(2, 3)))
    return "[%s]" % ", ".join("*" + a for a in chosen)


def render_mapping(rng, pairs, indent, flow):
    """Block lines (indented) or one flow mapping text of key/value pairs."""
    if flow:
        return ["{%s}" % ", ".join("%s: %s" % kv for kv in pairs)]
    out = []
    for k, v in pairs:
        if rng.random() < 0.04 and not v.startswith(("*", "[")):
            out.append("%s? %s" % (" " * indent, k))
            out.append("%s: %s" % (" " * indent, v))
            continue
        sep = "" if v == "" else " "
        out.append("%s%s:%s%s" % (" " * indent, k, sep, v))
        if rng.random() < 0.1:
            out[-1] += "  # a comment"
    return out


def add_section(doc, name, body, flow):
    if flow:
        doc.lines.append("%s %s" % (name, body[0]))
    else:
        doc.lines.append(name)
        doc.lines.extend(body)


def anchored_bases(rng, doc):
    """Top-level sections holding anchored mappings to merge (some merge
    earlier ones: nested merges), and scalar anchors."""
    if rng.random() < 0.35:
        doc.lines.append("sizes: {a: &s%d %s, b: &s%d %s}" % (
            0, rng.choice(GOOD_SIZES + ["true", "null"]), 1, rng.choice(INT_SPELLINGS)))
        doc.scalar_anchors = ["s0", "s1"]
        doc.features.add("scalar-anchor")
    for i in range(rng.choice([0, 0, 1, 2, 3])):
        name = "b%d" % i
        pairs = field_pairs(rng, doc, False, rng.randint(1, 3))
        if doc.anchors and rng.random() < 0.4:
            pairs.insert(rng.randint(0, len(pairs)), ("<<", "*" + rng.choice(doc.anchors)))
            doc.features.add("nested-merge")
        flow = rng.random() < 0.4
        body = render_mapping(rng, pairs, 2, flow)
        add_section(doc, "base_%d: &%s" % (i, name), body, flow)
        doc.anchors.append(name)


def other_section(rng, doc):
    r = rng.random()
    if r < 0.5:
        doc.lines.extend(["model:", "  name: llama", "  layers: 32", "  dropout: 0.1"])
    elif r < 0.8:
        doc.lines.append("data: {path: /tmp/x, shuffle: yes, workers: 0x8}")
    else:
        doc.lines.extend(["optimizer:", "  - adam", "  - {lr: 1.0e-4}"])


def bad_line(rng):
    return rng.choice(["model: !python/object:os.system x", "model: {<<: 5}",
                       "model: {? [a, b]: 1}", "model: !!int abc", "model: !!bool maybe"])


def accelerator_section(rng, doc):
    r = rng.random()
    if r < 0.04:
        return
    if r < 0.1:
        doc.lines.append(rng.choice(["accelerator:", "accelerator: null", "accelerator: ~",
                                     "accelerator: {}", "accelerator: []",
                                     "accelerator: [tp_size, 2]", "accelerator: 4",
                                     "accelerator: ''", "acclerator: {tp_size: 2}",
                                     "Accelerator: {tp_size: 2}"]))
        doc.features.add("odd-accelerator")
        return
    flow = rng.random() < 0.3
    pairs = field_pairs(rng, doc, flow, rng.randint(0, 5))
    merge = merge_value(rng, doc) if rng.random() < 0.6 else None
    if merge:
        at = rng.randint(0, len(pairs))
        pairs.insert(at, ("<<", merge))
        if rng.random() < 0.15:
            second = merge_value(rng, doc)
            if second:
                pairs.insert(rng.randint(0, len(pairs)), ("<<", second))
                doc.features.add("two-merge-keys")
    if doc.anchors and rng.random() < 0.04:
        pairs.insert(rng.randint(0, len(pairs)), (rng.choice(["!!merge x", "!!merge <<",
                                                              "'<<'", "\"<<\""]),
                                                  "*" + rng.choice(doc.anchors)))
        doc.features.add("tagged-or-quoted-merge-key")
    if rng.random() < 0.03:
        pairs = [(f, "true" if f in FLAGS else "1") for f in FIELDS]
        pairs.insert(rng.randint(0, len(pairs)), ("<<", rng.choice(["5", "[{tp_size: 2}, 3]",
                                                                    "foo", "[]", "{}"])))
        rng.shuffle(pairs)
        doc.features.add("merge-with-every-field")
    if rng.random() < 0.03 and not flow:
        pairs.append(("? [a, b]", "1"))
        doc.features.add("complex-key")
    indent = rng.choice([2, 2, 4])
    body = render_mapping(rng, pairs, indent, flow)
    if flow and rng.random() < 0.3:
        # a flow mapping over several lines
        body = [body[0].replace(", ", ",\n  ")]
    if rng.random() < 0.08 and pairs and not flow:
        anchor_line = "defaults: &acc"
        add_section(doc, anchor_line, body, False)
        doc.lines.append("accelerator: *acc")
        doc.features.add("aliased-accelerator")
        return
    add_section(doc, "accelerator:", body, flow)


def draw(rng):
    doc = Doc(rng)
    if rng.random() < 0.08:
        doc.lines.append("%YAML 1.1")
        doc.lines.append("---")
        doc.features.add("directive")
    elif rng.random() < 0.15:
        doc.lines.append("---")
        doc.features.add("document-start")
    if rng.random() < 0.15:
        doc.lines.append("# training config")
    if rng.random() < 0.4:
        other_section(rng, doc)
    anchored_bases(rng, doc)
    if rng.random() < 0.05:
        doc.lines.append("root_base: &root {accelerator: {tp_size: %s, pp_size: 2}}" % rng.choice(GOOD_SIZES))
        doc.lines.append("<<: *root")
        doc.features.add("top-level-merge")
    accelerator_section(rng, doc)
    if rng.random() < 0.06:
        doc.features.add("duplicate-accelerator")
        doc.lines.append("accelerator: {tp_size: %s}" % rng.choice(GOOD_SIZES))
    if rng.random() < 0.3:
        other_section(rng, doc)
    if rng.random() < 0.08:
        doc.lines.append("...")
        doc.features.add("document-end")
    if rng.random() < 0.04:
        doc.lines.extend(["---", "other: 1"])
        doc.features.add("second-document")
    clean = list(doc.lines)
    if rng.random() < 0.05:
        # at the top, after any directive and document start
        at = 0
        while at < len(doc.lines) and doc.lines[at] in ("%YAML 1.1", "---"):
            at += 1
        doc.lines.insert(at, bad_line(rng))
        doc.features.add("bad-elsewhere")
    eol = "\r\n" if rng.random() < 0.1 else "\n"
    bom = "\ufeff" if rng.random() < 0.06 else ""
    if eol == "\r\n":
        doc.features.add("crlf")
    if bom:
        doc.features.add("bom")

    def text_of(lines):
        return bom + eol.join(lines).replace("\n", eol).replace("\r\r", "\r") + eol

    return text_of(doc.lines), text_of(clean), doc.features


def world_for(rng, value):
    """Mostly a world size the sizes divide (so dims come out), sometimes not."""
    try:
        accel = value.get("accelerator") if isinstance(value, dict) else None
        sizes = [accel.get(f) for f in ("tp_size", "cp_size", "pp_size", "dp_size")]
        inner = 1
        for s in sizes[:3]:
            inner *= s if isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 64 else 1
        dp = sizes[3] if isinstance(sizes[3], int) and 1 <= sizes[3] <= 64 else None
        if rng.random() < 0.8:
            return inner * (dp if dp else rng.randint(1, 4))
    except AttributeError:
        pass
    return rng.randint(1, 64)


def main():
    rng = random.Random(SEED)
    cases, dropped = [], 0
    while len(cases) < CASES:
        text, clean, features = draw(rng)
        c_value, c_error = load(text, yaml.CSafeLoader)
        value, error = load(text, yaml.SafeLoader)
        # Both loaders failing agree when both fail reading the text, or both
        # building values (their exception types may differ).
        if (stage(c_error), plain_json(c_value)) != (stage(error), plain_json(value)):
            dropped += 1
            continue
        world = world_for(rng, value)
        DecidedLoader.fired = set()
        decided_text = clean if "bad-elsewhere" in features else text
        d_value, d_error = load(decided_text, DecidedLoader)
        decisions = sorted(DecidedLoader.fired)
        pyyaml_expect = expectation(value, error, world)
        expect = expectation(d_value, d_error, world)
        if "bad-elsewhere" in features and error:
            decisions.append("unread-sections")
        same = expect == pyyaml_expect or (
            "error" in expect and error and expect["error"]["status"] == "parse")
        if same:
            decisions = []
        elif not decisions:
            raise SystemExit("case %d differs without a decision:\n%s" % (len(cases), text))
        elif "dims" in expect and "dims" in pyyaml_expect:
            # a decision may refuse, or read what PyYAML cannot: never a
            # different number
            raise SystemExit("case %d: a decision changes the dims:\n%s" % (len(cases), text))
        case = {"id": len(cases), "features": sorted(features), "text": text,
                "world_size": world,
                "pyyaml": {"error": error, "c_loader_error": c_error} if error else plain_json(
                    value.get("accelerator") if isinstance(value, dict) else value),
                "expect": expect}
        if decisions:
            case["decisions"] = decisions
            case["pyyaml_expect"] = pyyaml_expect
        if "dims" in expect:
            case["duplicates"] = duplicates(text)
        cases.append(case)
    json.dump({"generator": "tests/yaml_reference/generate.py", "seed": SEED,
               "pyyaml": yaml.__version__, "libyaml": yaml.__with_libyaml__ and
               __import__("yaml._yaml", fromlist=["get_version_string"]).get_version_string(),
               "dropped_loaders_disagree": dropped, "cases": cases},
              sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
