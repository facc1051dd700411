"""The shared bad-input table (tests/hardening/bad_inputs.json, format in
docs/hardening.md "The bad-input table") run through the public Python API.

Every case the API can express must fail with the exception documented for
its status (OM_ERR_IO -> OSError, OM_ERR_NO_MEMORY -> MemoryError, any other
failure -> ValueError; exactly that type, so e.g. a UnicodeEncodeError does
not pass for a ValueError) whose text contains the case's message fragment,
(cost is bounded by counts in the C suites, never timed). The other cases are skipped with the reason
(pytest -rs lists the counts per reason); test_bad_input_table_coverage
fails if fewer than MIN_RUN cases run.
"""

import array
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import offline_mesh
from offline_mesh import OfflineMesh, ParallelDimsSpec

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "tests" / "hardening" / "bad_inputs.json"
CASES = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
MIN_RUN = 100

WORLD_SIZE_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                   "SLURM_NTASKS")
EXCEPTIONS = {"OM_ERR_IO": offline_mesh.OfflineMeshIOError,
              "OM_ERR_NO_MEMORY": offline_mesh.OfflineMeshMemoryError}

# Cases whose error the binding raises itself, before the library, with its
# own documented message (kept by the other tests): the fragment here
# replaces the table's.
BINDING_MESSAGES = {
    # expert_layout(num_experts=...) takes None for "not given", so values
    # < 1 are the binding's error (test_preflight.py).
    "expert_negative_experts": "num_experts must be >= 1 or None, got -8",
    # groups_buffer() checks the slice before allocating the table
    # (test_topology.py).
    "groups_slice_outside": "start=1, count=2 is outside the 2 groups",
    "groups_negative_first": "start=-1, count=1 is outside the 2 groups",
    "groups_count_overflow":
        "start=1, count=9223372036854775807 is outside the 2 groups",
    "groups_named_outside": "start=2, count=1 is outside the 2 groups",
    "groups_named_negative_count": "start=0, count=-1 is outside the 2 groups",
}


# ---- decoding the table's values ----------------------------------------------

def text_bytes(value):
    """A text value ("str", {"hex"}, {"repeat","count"}, {"concat"}) as bytes."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if "hex" in value:
        return bytes.fromhex(value["hex"].replace(" ", ""))
    if "repeat" in value:
        return text_bytes(value["repeat"]) * value["count"]
    if "concat" in value:
        return b"".join(text_bytes(part) for part in value["concat"])
    raise ValueError(f"bad text value {value!r}")


def text(value):
    """A text value as str when it is valid UTF-8, else as bytes (for the
    arguments that take bytes: JSON, YAML, paths)."""
    data = text_bytes(value)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def make_mesh(value):
    """A mesh fixture: "dp=2,tp=4", {"json": TEXT} or {"view": TEXT}."""
    if isinstance(value, str):
        items = [item.split("=") for item in value.split(",")]
        return OfflineMesh([n.strip() for n, _ in items],
                           [int(s) for _, s in items])
    if "view" in value:
        return OfflineMesh.from_view_json(text(value["view"]))
    return OfflineMesh.from_json(text(value["json"]))


def make_params(values):
    """Preset parameters as the dict Preset() takes ("KEY=VALUE" strings);
    None when a dict cannot hold them (no '=', a key given twice)."""
    params = {}
    for item in map(text, values):
        key, equals, value = item.partition("=")
        if not equals or key in params:
            return None
        params[key] = value
    return params


def groups_out(args):
    """groups_buffer's out=: a buffer of the case's out_len int32 items."""
    return array.array("i", bytes(4 * args["out_len"])) if "out_len" in args else None


def make_dims(value):
    """A dims fixture: {"tp": 4, "dp": 2}; the rest default."""
    return ParallelDimsSpec(**{f"{dim}_size": size for dim, size in value.items()})


def mask_dims(mesh, mask):
    """The axis names an axis mask selects (the API takes names)."""
    return tuple(name for i, name in enumerate(mesh.mesh_dim_names)
                 if mask >> i & 1)


def make_path(value, case_id, directory):
    """A path argument: a text value or {"fixture": KIND}."""
    if not (isinstance(value, dict) and "fixture" in value):
        return text(value)
    kind = value["fixture"]
    if kind == "missing":
        return str(directory / "missing.yaml")
    if kind == "directory":
        path = directory / "a-directory.yaml"
        path.mkdir()
        return str(path)
    if kind == "not_a_dir":
        (directory / "plain-file").write_text("accelerator: {}\n")
        return str(directory / "plain-file" / "config.yaml")
    if kind == "long_name":
        return str(directory / ("n" * 300))
    if kind == "huge_sparse":
        path = directory / "huge.yaml"
        with open(path, "wb") as f:
            f.truncate(64 * 1024 * 1024 + 1)
        return str(path)
    if kind == "file":
        path = directory / f"{case_id}.yaml"
        path.write_bytes(text_bytes(value["content"]))
        return str(path)
    raise ValueError(f"bad path fixture {kind!r}")


def world_size(args):
    """The C API's 0 ("discover from the environment") is None here."""
    return args.get("world_size") or None


# ---- the calls ----------------------------------------------------------------
# Each takes (args, case id, scratch directory) and returns a zero-argument
# function making the call: fixtures are built outside the timed call.

CALLS = {
    "mesh_new": lambda a, i, d: lambda: OfflineMesh(
        [text(n) for n in a["names"]], a["sizes"]),
    "mesh_from_json": lambda a, i, d: (
        lambda t: lambda: OfflineMesh.from_json(t))(text(a["text"])),
    # om_dims_set: the field of a ParallelDimsSpec reaching the library.
    "dims_set": lambda a, i, d: (lambda spec: lambda: offline_mesh.build_offline_mesh(
        spec))(make_dims({**a["dims"], a["dim"]: a["value"]})),
    "build_offline_mesh": lambda a, i, d: (
        lambda spec: lambda: offline_mesh.build_offline_mesh(spec))(
            make_dims(a["dims"])),
    # om_world_size_from_env: what world_size=None discovers.
    "world_size_from_env": lambda a, i, d: lambda: offline_mesh.parse_parallel_dims(
        "accelerator: {tp_size: 1}\n"),
    "dims_from_yaml": lambda a, i, d: (
        lambda t: lambda: offline_mesh.parse_parallel_dims(t, world_size(a)))(
            text(a["text"])),
    "dims_load_yaml": lambda a, i, d: (
        lambda p: lambda: offline_mesh.load_parallel_dims(p, world_size(a)))(
            make_path(a["path"], i, d)),
    # om_mesh_axes (the 1.0 mask call; the API names axes with the 1.1
    # calls): the generated binding, as the package does not use it.
    "mesh_axes": lambda a, i, d: (
        lambda m: lambda: offline_mesh._core.om_mesh_axes(m, text(a["names"])))(
            make_mesh(a["mesh"])),
    "mesh_from_spec": lambda a, i, d: (
        lambda t: lambda: OfflineMesh.from_spec(t))(text(a["spec"])),
    "mesh_to_spec": lambda a, i, d: (
        lambda m: lambda: m.to_spec())(make_mesh(a["mesh"])),
    "build_runtime_mesh": lambda a, i, d: (
        lambda spec: lambda: offline_mesh.build_runtime_mesh(spec, text(a["order"])))(
            make_dims(a["dims"])),
    "order_normalize": lambda a, i, d: (
        lambda t: lambda: offline_mesh.normalize_order(t))(text(a["order"])),
    "mesh_group_shape": lambda a, i, d: (
        lambda m: lambda: m.group_shape(mask_dims(m, a["axes"])))(make_mesh(a["mesh"])),
    "mesh_group_index": lambda a, i, d: (
        lambda m: lambda: m.group_index(a["rank"], mask_dims(m, a["axes"])))(
            make_mesh(a["mesh"])),
    "mesh_coordinate": lambda a, i, d: (
        lambda m: lambda: m.coordinate(a["rank"]))(make_mesh(a["mesh"])),
    "mesh_rank": lambda a, i, d: (
        lambda m: lambda: m.rank(a["coord"]))(make_mesh(a["mesh"])),
    "mesh_groups": lambda a, i, d: (
        lambda m: lambda: m.groups_buffer(mask_dims(m, a["axes"]),
                                          a["first_group"], a["group_count"]))(
            make_mesh(a["mesh"])),
    "mesh_group_of": lambda a, i, d: (
        lambda m: lambda: m.group_of(a["rank"], mask_dims(m, a["axes"])))(
            make_mesh(a["mesh"])),
    "mesh_locality": lambda a, i, d: (
        lambda m: lambda: offline_mesh.host_locality(
            m, mask_dims(m, a["axes"]), a["ranks_per_host"]))(make_mesh(a["mesh"])),
    "validate_axes": lambda a, i, d: (
        lambda m: lambda: offline_mesh.validate_axes(m, a["tp"], a["cp"], a["ep"]))(
            make_mesh(a["mesh"])),
    "plan_dim_names": lambda a, i, d: (
        lambda m: lambda: offline_mesh.plan_dim_names(m, a["tp"], a["cp"], a["ep"]))(
            make_mesh(a["mesh"])),
    "expert_mesh": lambda a, i, d: (
        lambda m: lambda: offline_mesh.expert_layout(m, a["ep"],
                                                     a.get("num_experts")))(
            make_mesh(a["mesh"])),
    "view_from_json": lambda a, i, d: (
        lambda t: lambda: OfflineMesh.from_view_json(t))(text(a["text"])),
    "world_from_json": lambda a, i, d: (
        lambda t: lambda: offline_mesh.World.from_json(t))(text(a["text"])),
    "view_slice": lambda a, i, d: (
        lambda m: lambda: m.slice([text(n) for n in a["axes"]]))(make_mesh(a["mesh"])),
    "view_flatten": lambda a, i, d: (
        lambda m: lambda: m.flatten([text(n) for n in a["axes"]],
                                    text(a["name"]) if "name" in a else None))(
            make_mesh(a["mesh"])),
    "mesh_groups_named": lambda a, i, d: (
        lambda m: lambda: m.groups_buffer([text(n) for n in a["axes"]],
                                          a.get("first_group", 0),
                                          a.get("group_count", 1), groups_out(a)))(
            make_mesh(a["mesh"])),
    "hierarchy_from_spec": lambda a, i, d: (
        lambda t: lambda: offline_mesh.Hierarchy.from_spec(t))(text(a["spec"])),
    "world_size_resolve": lambda a, i, d: lambda: offline_mesh.resolve_world_size(
        a["explicit_size"]),
    "preset_new": lambda a, i, d: (
        lambda p: lambda: offline_mesh.Preset(text(a["name"]), p, a["world_size"]))(
            make_params(a["params"])),
}

# The C length check: OfflineMesh(names, shape) calls om_mesh_new_checked.
CALLS["mesh_new_checked"] = CALLS["mesh_new"]

# Calls whose text arguments may be bytes (non-UTF-8 in a str argument
# cannot be expressed: Python str holds Unicode, the binding encodes UTF-8).
BYTES_CALLS = {"mesh_from_json", "dims_from_yaml", "dims_load_yaml",
               "view_from_json", "world_from_json",
               "world_size_from_env", "world_size_resolve"}  # env values: os.environb

NEEDS_REASONS = {
    "null": "needs a NULL argument: the API raises TypeError for None "
            "before the library",
    "c_only": "needs NULL out-pointers or explicit C lengths",
    "raw_enum": "needs an out-of-range enum: ParallelDimsSpec has named fields",
}
NOT_EXPOSED = ("call not in the Python API (mesh_get: mesh[...] never fails; "
               "dims_*: ParallelDimsSpec is a dataclass)")


def skip_reason(case):
    call, needs = case["call"], set(case.get("needs", ()))
    if call not in CALLS:
        return NOT_EXPOSED
    for tag in ("null", "c_only", "raw_enum"):
        if tag in needs:
            return NEEDS_REASONS[tag]
    if "bytes" in needs and call not in BYTES_CALLS:
        return "needs non-UTF-8 bytes in an argument the API takes as str"
    unknown = needs - {"bytes", "env", "files"}
    if unknown:
        return f"needs {sorted(unknown)}"
    if call == "preset_new" and make_params(case["args"]["params"]) is None:
        return "a parameter without '=' or given twice: Preset takes a dict"
    mesh = case["args"].get("mesh")
    if isinstance(case["args"].get("axes"), int) and mesh is not None:
        ndim = make_mesh(mesh).ndim
        if case["args"]["axes"] >> ndim:
            return "axis mask selects an axis the mesh lacks: the API takes names"
    return None


PARAMS = []
SKIPPED = {}
for _case in CASES:
    _reason = skip_reason(_case)
    if _reason:
        SKIPPED[_reason] = SKIPPED.get(_reason, 0) + 1
        PARAMS.append(pytest.param(_case, id=_case["id"],
                                   marks=pytest.mark.skip(reason=_reason)))
    else:
        PARAMS.append(pytest.param(_case, id=_case["id"]))
RUN = len(CASES) - sum(SKIPPED.values())


def set_env(monkeypatch, env):
    for var in WORLD_SIZE_VARS:
        monkeypatch.delenv(var, raising=False)
    for name, value in env.items():
        if value is not None:
            # surrogateescape: non-UTF-8 bytes reach the C environment as is
            monkeypatch.setenv(name, os.fsdecode(text_bytes(value)))


@pytest.fixture
def scratch():
    """A short scratch directory, like the C runner's /tmp/om-bad-inputs-*:
    the library shortens long quoted paths, and some fragments hold a file
    name (pytest's tmp_path is too long for them)."""
    path = tempfile.mkdtemp(prefix="om-bad-inputs-", dir="/tmp")
    yield Path(path)
    shutil.rmtree(path)


@pytest.mark.parametrize("case", PARAMS)
def test_bad_input(case, monkeypatch, scratch):
    own = case["id"] in BINDING_MESSAGES
    expected = ValueError if own else EXCEPTIONS.get(
        case["status"], offline_mesh.OfflineMeshError)
    fragment = BINDING_MESSAGES.get(case["id"], case["message"])
    set_env(monkeypatch, case.get("env", {}))
    call = CALLS[case["call"]](case["args"], case["id"], scratch)
    with pytest.raises(BaseException) as info:
        call()
    message = str(info.value)
    assert type(info.value) is expected, (
        f"{type(info.value).__name__}: {message[:300]} (expected {expected.__name__})")
    assert fragment in message, f"message {message[:300]!r} lacks {fragment!r}"
    if not own:  # the library's status travels with the exception
        assert info.value.status == case["code"]
        assert info.value.status is offline_mesh.Status[case["status"][len("OM_ERR_"):]]
    assert "\ufffd" not in message, "the library's message was not valid UTF-8"


def test_bad_input_table_coverage():
    skipped = ", ".join(f"{n} {r}" for r, n in sorted(SKIPPED.items()))
    print(f"bad inputs: {RUN} of {len(CASES)} cases run; skipped: {skipped}")
    assert len(CASES) == 243
    assert RUN >= MIN_RUN, f"only {RUN} cases run; skipped: {skipped}"
