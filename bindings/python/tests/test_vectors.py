"""Every case of the framework vectors (tests/vectors/, computed by running
torch, torchtitan, Megatron and DeepSpeed; see tests/vectors/README.md)
through the Python views: presets as Preset, World and OfflineMesh views,
the layout model through flatten/unflatten/slice. Group lists and
coordinates are compared exactly."""

import json
from pathlib import Path

import pytest

import offline_mesh as om
from offline_mesh import OfflineMesh, Preset, Status, World

VECTORS = Path(__file__).resolve().parents[3] / "tests" / "vectors"
PRESETS = {"torchtitan": "torchtitan", "megatron": "megatron",
           "deepspeed": "deepspeed", "hyper_parallel": "hyper-parallel"}
# om_preset_world names Megatron's expert axes apart from the dense ones
# (VIEWS.md 3.2); the vectors keep Megatron's raw tokens.
RENAMED = {("megatron", "expert"): {"expt_dp": "dp", "expt_tp": "tp"}}
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def cases(stem, folder=VECTORS):
    doc = json.loads((folder / f"{stem}.json").read_text())
    return [pytest.param(case, id=f"{stem}-{i}") for i, case in enumerate(doc["cases"])]


def expect_error(case):
    """The library's decision where it differs from the framework wins."""
    library = case.get("library")
    return "error" in library if library is not None else "error" in case


@pytest.fixture(autouse=True)
def no_world_size_in_env(monkeypatch):
    for name in WORLD_VARS:
        monkeypatch.delenv(name, raising=False)


def check_view(view, record, world_size, rename=None):
    """A view against a vector's view record: its groups over every axis
    (as sets of groups, each group's member order exact) and every rank's
    coordinate (None where the view does not hold the rank)."""
    rename = rename or {}
    names = [rename.get(n, n) for n in view.mesh_dim_names]
    kept = [record["dim_names"].index(n) for n in names]
    assert [record["shape"][i] for i in kept] == list(view.mesh_shape)
    for axis, name in zip(view.mesh_dim_names, names):
        if name in record["groups"]:
            assert view.groups(axis) == sorted(tuple(g) for g in record["groups"][name]), axis
    for rank in range(world_size):
        expected = record["coords"][rank]
        if expected is None:
            assert not view.holds(rank)
        else:
            assert view.coordinate(rank) == tuple(expected[i] for i in kept), rank


# the random configurations recorded from the frameworks (tests/frameworks/)
RECORDED = VECTORS.parent / "frameworks"


@pytest.mark.parametrize("folder", [VECTORS, RECORDED], ids=["shared", "recorded"])
@pytest.mark.parametrize("stem", list(PRESETS))
def test_preset_cases(stem, folder):
    for param in cases(stem, folder):
        case = param.values[0]
        params, world = case["params"], case["world_size"]
        if expect_error(case):
            with pytest.raises(om.OfflineMeshError) as info:
                Preset(PRESETS[stem], params, world_size=world)
            assert info.value.status in (Status.INVALID_ARGUMENT, Status.OUT_OF_RANGE)
            verdict = om.check_preset(PRESETS[stem], params, world)
            assert verdict["ok"] is False and str(info.value) in verdict["violations"]
            continue
        preset = Preset(PRESETS[stem], params, world_size=world)
        out = json.loads(preset.to_json())
        assert out["views"] == case["views"]  # the framework's order, exactly
        assert out.get("local_ranks") == case.get("local_ranks")  # hyper-parallel's, per rank
        for name, groups in case.get("groups", {}).items():
            assert preset.group_list(name) == [tuple(g) for g in groups], name
        assert om.check_preset(PRESETS[stem], params, world)["ok"] is True
        if stem == "torchtitan":  # get_mesh / get_optional_mesh, as torchtitan answers
            single = preset.single_axes()
            assert single["one_dimensional_active"] == case["one_dimensional_active"]
            for name, axis in case["single_axis"].items():
                got = single["single_axis"][name]
                assert {k: got[k] for k in got} == {k: axis[k] for k in got}
                view = world_views_of(preset)[got["from_view"]]
                assert sorted(view.groups(got["mesh_dim_name"])) == sorted(map(tuple, axis["groups"]))
        else:
            with pytest.raises(om.OfflineMeshError, match="torchtitan"):
                preset.single_axes()
        world_views = preset.world()
        assert world_views.size == world and set(world_views) == set(case["views"])
        for name in world_views:
            record = dict(case["views"][name])
            # DeepSpeed's view has the same groups as its named lists (as sets)
            if "groups" not in record:
                record["groups"] = {"ep": case["groups"]["ep"], "edp": case["groups"]["expt_dp"]}
            check_view(world_views[name], record, world, RENAMED.get((stem, name)))


def world_views_of(preset):
    return preset.world()


def apply(mesh, op, known, world_size):
    """One op of a chain; `known` is the root's views by name (the base, and
    each view flattened under a new name: torch's root knows those only)."""
    kind = op["kind"]
    if kind == "flatten":
        view = mesh.flatten(op["axes"], op.get("name"))
        name = view.mesh_dim_names[0]
        if name not in mesh.mesh_dim_names and name not in known:
            known[name] = view
        return view
    if kind == "unflatten":
        return mesh.unflatten(mesh.mesh_dim_names[op["axis"]], op["sizes"], op["names"])
    if kind == "slice":  # (mesh[...] of a plain mesh is the original's sub-mesh)
        return mesh.slice(op["axes"]) if mesh.is_plain else mesh[tuple(op["axes"])]
    assert kind == "slice_root"  # axes of the base mesh and of what it flattened
    return World(world_size, known).slice(op["axes"])


TORCH_LAYOUT = VECTORS.parent / "torch_layout" / "layout.json"
TORCH_CASES = [pytest.param(case, id=f"torch-layout-{i}")
               for i, case in enumerate(json.loads(TORCH_LAYOUT.read_text())["cases"])]


@pytest.mark.parametrize("case", cases("layout") + TORCH_CASES)
def test_layout_case(case):
    """The shared layout vectors and the 800 chains recorded from torch's
    DeviceMesh (tests/torch_layout/), op by op through the Python views."""
    base = OfflineMesh(case["base"]["dim_names"], case["base"]["shape"])
    world = case["world_size"]

    def run():
        mesh, known = base, {"root": base}
        for op in case["ops"]:
            mesh = apply(mesh, op, known, world)
        return mesh

    if expect_error(case):
        with pytest.raises(om.OfflineMeshError) as info:
            run()
        assert info.value.status in (Status.RANK_COLLISION, Status.SIZE_MISMATCH, Status.DUPLICATE_NAME,
                                     Status.AXIS_ORDER, Status.UNKNOWN_AXIS, Status.UNALIGNED,
                                     Status.INVALID_ARGUMENT, Status.EMPTY_NAME), info.value
        return
    mesh = run()
    if "result" not in case:  # accepted where the framework refuses (VIEWS.md 4)
        assert list(mesh.mesh_dim_names) == case["ops"][-1]["axes"]
        return
    result = case["result"]
    assert list(mesh.mesh_dim_names) == result["dim_names"]
    assert list(mesh.mesh_shape) == result["shape"]
    assert mesh.layout == tuple(tuple(map(tuple, axis)) for axis in result["layout"])
    for axis, groups in result["groups"].items():
        assert mesh.groups(axis) == [tuple(g) for g in groups], axis
    assert [list(mesh.coordinate(r)) if mesh.holds(r) else None
            for r in range(world)] == result["coords"]
    record = json.loads(mesh.to_view_json())
    assert record.get("instances", [list(range(world))]) == result["instances"]
    # a view round-trips through its record, and pickles with its layout
    assert OfflineMesh.from_view_json(mesh.to_view_json()) == mesh
