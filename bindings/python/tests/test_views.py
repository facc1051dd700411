"""Views, worlds and the world-size step through the package: values,
the planner surface on every view, and each error path with its status."""

import copy
import pickle

import pytest

import offline_mesh as om
from offline_mesh import OfflineMesh, Status, World, WorldSizeSource

BASE = OfflineMesh(("dp", "cp", "tp"), (2, 2, 2))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def raises(status, call, *args, match=None):
    with pytest.raises(om.OfflineMeshError, match=match) as info:
        call(*args)
    assert info.value.status is status, info.value
    return info.value


def test_flatten_unflatten_slice_values():
    dp_tp = BASE.flatten(("dp", "tp"))  # non-adjacent: two modes
    assert dp_tp.mesh_dim_names == ("dp_tp",) and dp_tp.mesh_shape == (4,)
    assert dp_tp.layout == (((2, 4), (2, 1)),) and not dp_tp.is_plain
    assert dp_tp.groups("dp_tp") == [(0, 1, 4, 5), (2, 3, 6, 7)]
    assert dp_tp.coordinate(4) == (2,) and dp_tp.instance_count == 2
    assert dp_tp.instance_modes == ((2, 2),) and dp_tp.rank_count == 8
    xy = dp_tp.unflatten("dp_tp", (2, 2), ("x", "y"))
    assert xy.layout == (((2, 4),), ((2, 1),))
    assert xy.groups("x") == [(0, 4), (1, 5), (2, 6), (3, 7)]
    back = xy.flatten(("x", "y"), "dp_tp")
    assert back == dp_tp and hash(back) == hash(dp_tp)  # flatten . unflatten = id
    sub = BASE.slice(("tp", "dp"))  # lenient: axes in the order named
    assert sub.mesh_dim_names == ("tp", "dp") and sub.groups("tp") == BASE.groups("tp")
    assert BASE.flatten("dp,cp", "dp_cp").groups("dp_cp") == [(0, 2, 4, 6), (1, 3, 5, 7)]


def test_flatten_as_torch():
    # One axis into its own name: the axis's family, as torch's mesh["cp"]._flatten().
    cp = BASE.flatten(("cp",))
    assert cp == BASE.slice("cp") and cp.instance_count == 4 and cp != BASE["cp"]
    assert cp.groups("cp") == [(0, 2), (1, 3), (4, 6), (5, 7)]
    # Size-1 axes may stand anywhere; growing strides stay an error.
    mesh = OfflineMesh(("dp", "ep", "tp"), (2, 1, 2))
    assert mesh.flatten(("ep", "dp", "tp")).layout == (((4, 1),),)
    raises(Status.AXIS_ORDER, mesh.flatten, ("tp", "ep", "dp"), match="not in view order")


def test_strided_and_layout_constructors():
    v = OfflineMesh.strided(("a", "b"), (2, 2), (1, 4), offset=8)
    assert v.offset == 8 and v.extent == 14 and v.holds(13) and not v.holds(10)
    assert v.groups("a") == [(8, 9), (12, 13)] and v.coordinate(12) == (0, 1)
    w = OfflineMesh.from_layout(("a",), [[(2, 4), (2, 1)]], instances=[(2, 2)])
    assert w == BASE.flatten(("dp", "tp"), "a")
    plain = OfflineMesh.strided(("dp", "tp"), (2, 4), (4, 1))
    assert plain.is_plain and plain == OfflineMesh(("dp", "tp"), (2, 4))
    # a view's groups equal a row-major mesh's when its strides are row-major
    assert plain.groups("dp") == OfflineMesh(("dp", "tp"), (2, 4)).groups("dp")


def test_equality_hash_pickle_account_for_the_layout():
    a = OfflineMesh.strided(("x",), (4,), (1,))
    b = OfflineMesh.strided(("x",), (4,), (2,))
    c = OfflineMesh.strided(("x",), (4,), (1,), offset=4)
    assert a == OfflineMesh(("x",), (4,)) and a != b and a != c and b != c
    assert len({a, b, c, OfflineMesh(("x",), (4,))}) == 3
    for view in (b, c, BASE.slice("dp"), BASE.flatten(("dp", "tp"))):
        for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(view, proto))
            assert again == view and again.layout == view.layout
            assert again.offset == view.offset and again.groups(view.mesh_dim_names[0]) \
                == view.groups(view.mesh_dim_names[0])
        assert copy.deepcopy(view) is view
        assert eval(repr(view), {"OfflineMesh": OfflineMesh}) == view


def test_every_view_answers_the_planner_surface():
    world = om.Preset("torchtitan", {"dp_shard": 2, "cp": 2, "tp": 2}, world_size=8).world()
    for name in world:
        view = world[name]
        for dim, size in zip(view.mesh_dim_names, view.mesh_shape):
            assert view.size(dim) == size and view[dim].mesh_shape == (size,)
            if view.is_plain:  # DOMAIN.md's sub-mesh (dim,)/(size,)
                assert view[dim] == OfflineMesh((dim,), (size,))
            else:  # the slice keeps every instance
                assert view[dim].groups(dim) == view.groups(dim)
        assert view.size() == view.rank_count // view.instance_count
        assert view.size("absent") == 1 and view["absent"].ndim == 0
    dense = world["dense"]
    pair = dense["dp_shard", "cp"]
    assert pair == dense[("dp_shard", "cp")] == dense[["dp_shard", "cp"]]
    assert pair.mesh_dim_names == ("dp_shard", "cp") and pair.size() == 4
    assert dense.is_plain and pair == OfflineMesh(("dp_shard", "cp"), (2, 2))
    assert dense.slice("dp_shard,cp").groups(("dp_shard", "cp")) == dense.groups("dp_shard,cp")
    strided = OfflineMesh.strided(("dp", "cp", "tp"), (2, 2, 2), (8, 2, 1))
    fam = strided["cp", "dp"]  # a view: the library's slice, in the order named
    assert fam.mesh_dim_names == ("cp", "dp") and fam.size() == 4 and fam.instance_count == 2
    assert fam.groups("dp,cp") == [(0, 8, 2, 10), (1, 9, 3, 11)]  # members in fam's order
    assert strided.groups("dp,cp") == [(0, 2, 8, 10), (1, 3, 9, 11)] and fam == strided[("cp", "dp")]
    raises(Status.UNKNOWN_AXIS, lambda: strided["dp", "absent"])
    assert strided["absent"] == OfflineMesh()


def test_world_lookups_and_slicing():
    dp_tp = BASE.flatten(("dp", "tp"))
    world = World(8, {"base": BASE, "flat": dp_tp})
    assert world.size == 8 and world.views == ("base", "flat") and len(world) == 2
    assert "flat" in world and "nope" not in world and list(world) == ["base", "flat"]
    assert world["flat"] == dp_tp and world.axis_view("dp_tp") == "flat"
    assert world.axis_view("nope") is None
    sliced = world.slice(("dp_tp", "cp"))
    assert sliced.mesh_dim_names == ("dp_tp", "cp") and sliced.groups("cp") == BASE.groups("cp")
    again = World.from_json(world.to_json())
    assert again.views == world.views and again["flat"] == dp_tp
    assert repr(world) == "World(8, views=('base', 'flat'))"


def test_world_load_json(tmp_path):
    path = tmp_path / "world.json"
    path.write_text(World(8, {"base": BASE}).to_json())
    assert World.load_json(path)["base"] == BASE
    with pytest.raises(om.OfflineMeshIOError) as info:
        World.load_json(tmp_path / "missing.json")
    assert info.value.status is Status.IO
    (tmp_path / "mesh.json").write_text(BASE.to_json())
    assert OfflineMesh.load_json(tmp_path / "mesh.json") == BASE
    with pytest.raises(om.OfflineMeshIOError):
        OfflineMesh.load_json(tmp_path / "nope.json")


def test_view_errors_carry_status_and_message():
    raises(Status.AXIS_ORDER, BASE.flatten, ("tp", "dp"), match="not in view order")
    raises(Status.DUPLICATE_NAME, BASE.flatten, ("dp", "cp"), "tp", match="'tp' already exists in the view")
    raises(Status.UNKNOWN_AXIS, BASE.flatten, ("dp", "zz"))
    raises(Status.SIZE_MISMATCH, BASE.unflatten, "dp", (3, 2), ("a", "b"),
           match=r"the product of sizes \(3, 2\) is 6, but axis 'dp' has size 2")
    raises(Status.UNALIGNED, OfflineMesh.from_layout(("a",), [[(3, 4), (2, 1)]]).unflatten,
           "a", (2, 3), ("x", "y"), match="does not align")
    raises(Status.RANK_COLLISION, OfflineMesh.strided, ("a", "b"), (2, 2), (1, 1),
           match="appears twice")
    raises(Status.BAD_SIZE, OfflineMesh.strided, ("a",), (0,), (1,))
    raises(Status.LENGTH_MISMATCH, OfflineMesh.strided, ("a", "b"), (2,), (1,))
    raises(Status.PARSE, OfflineMesh.from_view_json, '{"dim_names":["a"]}')
    with pytest.raises(TypeError):
        BASE.flatten(5)
    with pytest.raises(TypeError):
        OfflineMesh.strided(("a",), (2,), ("1",))


def test_world_errors_carry_status_and_message():
    dense = OfflineMesh.strided(("dp",), (2,), (1,))
    other = OfflineMesh.strided(("dp",), (2,), (2,))
    raises(Status.VIEW_CONFLICT, World, 4, {"a": dense, "b": other},
           match="views 'a' and 'b' disagree on axis 'dp'")
    raises(Status.OUTSIDE_WORLD, World, 4, {"big": BASE}, match="reaches rank 7, world size is 4")
    raises(Status.EMPTY_NAME, World, 8, {"": BASE})
    raises(Status.OUT_OF_RANGE, World, 0, {})
    world = World(8, {"base": BASE})
    raises(Status.UNKNOWN_VIEW, world.__getitem__, "x", match="no view 'x'")
    raises(Status.UNKNOWN_AXIS, world.slice, ("zz",))
    raises(Status.RANK_COLLISION, World(8, {"b": BASE, "f": BASE.flatten(("dp", "tp"))}).slice,
           ("dp", "dp_tp"), match="overlapping")
    with pytest.raises(TypeError):
        World(8, [BASE])
    with pytest.raises(TypeError):
        World(8, {"a": "dp=2"})


def test_world_size_step(monkeypatch):
    for name in WORLD_VARS:
        monkeypatch.delenv(name, raising=False)
    assert om.resolve_world_size() == (1, WorldSizeSource.DEFAULT)
    assert om.resolve_world_size(0) == (1, WorldSizeSource.DEFAULT)
    assert om.resolve_world_size(16) == (16, WorldSizeSource.EXPLICIT)
    monkeypatch.setenv("PMI_SIZE", "12")
    size, source = om.resolve_world_size(None)
    assert (size, source) == (12, WorldSizeSource.FROM_PMI_SIZE)
    assert source.variable == "PMI_SIZE" and source.description == "from PMI_SIZE"
    assert WorldSizeSource.EXPLICIT.variable is None
    e = raises(Status.INVALID_ARGUMENT, om.resolve_world_size, -8)
    assert str(e) == "world size must be >= 1 (or 0 to discover it), got -8"
    monkeypatch.setenv("PMI_SIZE", "x")
    raises(Status.INVALID_ARGUMENT, om.resolve_world_size, None, match="PMI_SIZE")
    monkeypatch.delenv("PMI_SIZE")
    # applying it: dp derived when not given, checked when given
    spec = om.ParallelDimsSpec(dp_size=None, tp_size=4)
    resolved = om.apply_world_size(spec, 8)
    assert resolved == (om.ParallelDimsSpec(dp_size=2, tp_size=4), 8, WorldSizeSource.EXPLICIT)
    raises(Status.INVALID_ARGUMENT, om.apply_world_size, spec, None,
           match=r"world size 1 \(the default: no --world-size and none of WORLD_SIZE")
    raises(Status.INVALID_ARGUMENT, om.apply_world_size, om.ParallelDimsSpec(dp_size=3, tp_size=4), 8)
    assert om.apply_world_size(om.ParallelDimsSpec(dp_size=3, tp_size=4)).spec.dp_size == 3
    raises(Status.INVALID_ARGUMENT, om.apply_world_size, spec, -1)
    with pytest.raises(TypeError):
        om.apply_world_size(spec, "8")


def test_loaders_use_the_pure_projection(tmp_path, monkeypatch):
    for name in WORLD_VARS:
        monkeypatch.delenv(name, raising=False)
    text = "accelerator:\n  tp_size: 2\n"
    projected = om.parse_parallel_dims(text, resolve=False)
    assert projected == om.ParallelDimsSpec(dp_size=None, tp_size=2)
    monkeypatch.setenv("WORLD_SIZE", "8")
    assert om.parse_parallel_dims(text, resolve=False) == projected  # pure: no environment
    assert om.parse_parallel_dims(text).dp_size == 4
    path = tmp_path / "train.yaml"
    path.write_text(text + "  dp_size: 2\n")
    assert om.load_parallel_dims(path, resolve=False).dp_size == 2
    raises(Status.INVALID_ARGUMENT, om.load_parallel_dims, path, 6, match="6")
    with pytest.raises(om.OfflineMeshIOError):
        om.load_parallel_dims(tmp_path / "missing.yaml")


def test_order_advice_and_check():
    spec = om.ParallelDimsSpec(dp_size=2, tp_size=4, pp_size=2)
    host = om.Hierarchy.from_spec("host=4")
    advice = om.order_advice(spec, host, require="tp:host")
    best = advice["orders"][0]
    assert best["broken"] == [] and best["crossings"]["tp"]["host"] == 0
    assert om.order_check(spec, best["torch"], host, "tp:host") == []
    broken = om.order_check(spec, "tp,dp,pp", host, "tp:host")
    assert len(broken) == 1 and broken[0].startswith("tp:host")
    raises(Status.INVALID_ARGUMENT, om.order_advice, spec, host, None, None, "tp>zz")
