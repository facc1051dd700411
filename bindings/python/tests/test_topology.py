"""Rank topology, cross-checked against a pure-Python computation."""

import itertools
import math
import random

import pytest

import offline_mesh

from offline_mesh import OfflineMesh, OfflineMeshError, Status, _core

from conftest import (Index, random_shapes, ref_coordinate, ref_groups,
                      ref_rank)

MESH = OfflineMesh(("dp", "cp", "tp"), (2, 2, 2))


def test_domain_examples():
    assert MESH.groups("tp") == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert MESH.groups("cp") == [(0, 2), (1, 3), (4, 6), (5, 7)]
    assert MESH.groups("dp") == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert MESH.groups(("dp", "cp")) == [(0, 2, 4, 6), (1, 3, 5, 7)]
    assert MESH.groups("dp,cp") == MESH.groups(["cp", "dp"]) == MESH.groups(" cp , dp ")
    assert MESH.groups(()) == [(r,) for r in range(8)]
    assert MESH.groups("") == [(r,) for r in range(8)]
    assert MESH.groups(("dp", "cp", "tp")) == [tuple(range(8))]
    assert OfflineMesh().groups(()) == [(0,)]


def test_coordinate_and_rank_are_inverse():
    for r in range(8):
        coord = MESH.coordinate(r)
        assert coord == ref_coordinate((2, 2, 2), r)
        assert MESH.rank(coord) == r
        assert MESH.rank(list(coord)) == r
    assert MESH.coordinate(rank=Index(5)) == (1, 0, 1)
    assert MESH.rank(coord=(Index(1), 0, 1)) == 5
    assert OfflineMesh().coordinate(0) == ()
    assert OfflineMesh().rank(()) == 0


@pytest.mark.parametrize("seed", range(6))
def test_random_shapes_against_pure_python(seed):
    rng = random.Random(seed)
    for names, shape in random_shapes(seed, 25):
        mesh = OfflineMesh(names, shape)
        size = math.prod(shape)
        for r in rng.sample(range(size), min(size, 12)):
            assert mesh.coordinate(r) == ref_coordinate(shape, r)
            assert mesh.rank(mesh.coordinate(r)) == r
        subsets = [s for k in range(len(names) + 1)
                   for s in itertools.combinations(range(len(names)), k)]
        for subset in rng.sample(subsets, min(len(subsets), 6)):
            dims = tuple(names[i] for i in subset)
            shuffled = list(dims)
            rng.shuffle(shuffled)  # naming order does not matter
            expected = ref_groups(shape, set(subset))
            assert mesh.groups(dims) == expected
            assert mesh.groups(shuffled) == expected
            assert mesh.groups(",".join(dims)) == expected
            buf = mesh.groups_buffer(dims)
            assert buf.shape == (len(expected), len(expected[0]))
            assert buf.tolist() == [list(g) for g in expected]
            for r in rng.sample(range(size), min(size, 5)):
                group = mesh.group_of(r, dims)
                assert r in group and group in expected


def test_groups_partition_the_world():
    mesh = OfflineMesh(("pp", "dp", "ep", "cp", "tp"), (2, 3, 2, 2, 4))
    for k in range(6):
        for subset in itertools.combinations(mesh.mesh_dim_names, k):
            groups = mesh.groups(subset)
            flat = sorted(r for g in groups for r in g)
            assert flat == list(range(mesh.size()))
            assert len(groups[0]) == math.prod(mesh.size(d) for d in subset)


def test_groups_buffer_format_and_slices():
    mesh = OfflineMesh(("dp", "tp"), (4, 3))
    full = mesh.groups_buffer("dp")
    assert isinstance(full, memoryview)
    assert full.format == "i" and full.itemsize == 4 and full.ndim == 2
    assert full.shape == (3, 4) and full.readonly and full.c_contiguous
    assert full.tolist() == [list(g) for g in mesh.groups("dp")]
    assert full[1, 2] == mesh.groups("dp")[1][2]
    assert mesh.groups_buffer("dp", start=1).tolist() == full.tolist()[1:]
    assert mesh.groups_buffer("dp", 1, 1).tolist() == full.tolist()[1:2]
    empty = mesh.groups_buffer("dp", start=3, count=0)
    assert empty.shape == (0,) and empty.tolist() == [] and empty.format == "i"
    assert mesh.groups_buffer("dp", start=3).shape == (0,)
    assert mesh.groups_buffer("dp", count=None).tolist() == full.tolist()
    with pytest.raises(TypeError):
        full[0, 0] = 1  # read-only


@pytest.mark.parametrize("start,count", [(-1, None), (4, None), (0, 4), (2, 2), (0, -1)])
def test_groups_buffer_bad_slice(start, count):
    with pytest.raises(ValueError, match="is outside the 3 groups"):
        OfflineMesh(("dp", "tp"), (4, 3)).groups_buffer("dp", start, count)


def test_groups_buffer_big_mesh_without_python_ints():
    mesh = OfflineMesh(("dp", "cp", "tp"), (256, 64, 64))  # 2**20 ranks
    buf = mesh.groups_buffer("dp")
    assert buf.shape == (4096, 256) and buf.nbytes == 4 << 20
    assert buf[0, 1] == 4096 and buf[4095, 255] == 2**20 - 1
    assert [buf[17, i] for i in range(256)] == list(mesh.group_of(17, "dp"))
    middle = mesh.groups_buffer(("cp", "tp"), start=100, count=2)
    assert middle.tolist() == [list(range(100 * 4096, 102 * 4096))[i * 4096:(i + 1) * 4096]
                               for i in range(2)]


def test_numpy_views_the_buffer_without_copy():
    np = pytest.importorskip("numpy")
    mesh = OfflineMesh(("dp", "cp", "tp"), (4, 2, 8))
    arr = np.asarray(mesh.groups_buffer("cp"))
    assert arr.dtype == np.int32 and arr.shape == (32, 2)
    expected = np.moveaxis(np.arange(64).reshape(4, 2, 8), 1, -1).reshape(-1, 2)
    assert (arr == expected).all()


def test_groups_buffer_into_a_caller_buffer():
    import array
    mesh = OfflineMesh(("dp", "cp", "tp"), (3, 5, 7))
    for dims, start, count in (("dp", 0, None), (("cp", "tp"), 1, 2), ("tp", 14, 1)):
        expected = mesh.groups_buffer(dims, start, count).tolist()
        out = array.array("i", [-1]) * (len(expected) * len(expected[0]) + 3)
        assert mesh.groups_buffer(dims, start, count, out=out) is out
        flat = [r for g in expected for r in g]
        assert out.tolist() == flat + [-1, -1, -1]  # only the table's items are written
    view = memoryview(bytearray(4 * 105)).cast("i", (35, 3))  # any shape of int32
    assert mesh.groups_buffer("dp", out=view) is view
    assert view.tolist() == mesh.groups_buffer("dp").tolist()
    assert mesh.groups_buffer("dp", 35, 0, out=array.array("i")).tolist() == []


def test_groups_buffer_into_a_bad_buffer():
    import array
    mesh = OfflineMesh(("dp", "tp"), (4, 3))
    with pytest.raises(OfflineMeshError, match="needs 12 elements but the buffer holds 11") as info:
        mesh.groups_buffer("dp", out=array.array("i", bytes(44)))
    assert info.value.status == Status.BUFFER_TOO_SMALL
    for wrong in (array.array("q", bytes(96)), array.array("f", bytes(48)), bytearray(48),
                  array.array("I", bytes(48))):
        with pytest.raises(TypeError, match="4-byte signed integers"):
            mesh.groups_buffer("dp", out=wrong)
    for unwritable in (bytes(48), memoryview(bytearray(96)).cast("i")[::2]):
        with pytest.raises(BufferError):
            mesh.groups_buffer("dp", out=unwritable)
    with pytest.raises(TypeError):
        mesh.groups_buffer("dp", out=[0] * 12)


def test_numpy_fills_a_prepared_array():
    np = pytest.importorskip("numpy")
    mesh = OfflineMesh(("dp", "cp", "tp"), (3, 5, 7))
    out = np.empty((15, 7), dtype=np.int32)
    assert mesh.groups_buffer("tp", out=out) is out
    assert (out == np.arange(105).reshape(15, 7)).all()
    with pytest.raises(TypeError):
        mesh.groups_buffer("tp", out=np.empty((15, 7), dtype=np.int64))
    with pytest.raises((BufferError, ValueError)):
        mesh.groups_buffer("tp", out=np.empty((7, 30), dtype=np.int32)[:, ::2])


@pytest.mark.parametrize("dims,fragment", [
    ("ep", 'axis "ep" is not in the mesh'),
    (("dp", "dp"), 'axis "dp" is named twice'),
    ("dp,,tp", 'axis "" is not in the mesh'),
    (("dp", ""), 'axis "" is not in the mesh'),
    ("d\0p", "NUL"),
])
def test_bad_axis_names(dims, fragment):
    for call in (lambda: MESH.groups(dims), lambda: MESH.groups_buffer(dims),
                 lambda: MESH.group_of(0, dims)):
        with pytest.raises(ValueError, match=fragment):
            call()


@pytest.mark.parametrize("dims", [None, 1, b"tp", {"tp"}, ("tp", 1), ("tp", None)])
def test_wrong_dims_types(dims):
    for call in (lambda: MESH.groups(dims), lambda: MESH.groups_buffer(dims),
                 lambda: MESH.group_of(0, dims)):
        with pytest.raises(TypeError):
            call()


def test_rank_and_coordinate_errors():
    with pytest.raises(ValueError, match="rank 8 is outside the mesh of 8 ranks"):
        MESH.coordinate(8)
    with pytest.raises(ValueError, match="rank -1"):
        MESH.coordinate(-1)
    with pytest.raises(ValueError, match="rank 9"):
        MESH.group_of(9, "tp")
    with pytest.raises(ValueError, match="coordinate 2 is outside axis dp of size 2"):
        MESH.rank((2, 0, 0))
    with pytest.raises(ValueError, match="coordinate has 2 values; the mesh has 3 axes"):
        MESH.rank((0, 0))
    with pytest.raises(ValueError, match="out of range"):
        MESH.coordinate(2**64)
    for bad in (None, 1.0, "0", True):
        with pytest.raises(TypeError):
            MESH.coordinate(bad)
        with pytest.raises(TypeError):
            MESH.group_of(bad, "tp")
    for bad in (None, 5, "010", (0, 0, None), (0.0, 0, 0), (True, 0, 0)):
        with pytest.raises(TypeError):
            MESH.rank(bad)


def test_axis_mask_through_the_c_api():
    handle = MESH  # the typemap takes the OfflineMesh itself
    assert _core.om_mesh_axes(handle, "dp,tp") == 0b101
    assert _core.om_mesh_axes(handle, "") == 0
    with pytest.raises(ValueError, match="not in the mesh"):
        _core.om_mesh_axes(handle, "pp")
    with pytest.raises(TypeError, match="OfflineMesh"):  # never C's NULL
        _core.om_mesh_axes(None, "dp")
    with pytest.raises(ValueError, match="NULL"):
        _core.om_mesh_axes(handle, None)
    with pytest.raises(TypeError):
        _core.om_mesh_axes(object(), "dp")


def test_axes_beyond_64_can_be_selected():
    names = tuple(f"a{i}" for i in range(70))
    mesh = OfflineMesh(names, (1,) * 69 + (2,))
    assert mesh.groups("a63") == [(0,), (1,)]
    assert mesh.groups("a69") == [(0, 1)]  # API 1.1: axis sets by name
    with pytest.raises(ValueError, match="64"):  # the 1.0 mask call cannot
        _core.om_mesh_axes(mesh, "a69")


def test_ref_helpers_agree_with_each_other():
    shape = (3, 4, 5)
    for r in range(60):
        assert ref_rank(shape, ref_coordinate(shape, r)) == r


def test_group_shape_and_index():
    mesh = OfflineMesh(("dp", "cp", "tp"), (2, 3, 4))
    for dims in ("dp", "cp", "tp", ("dp", "tp"), ""):
        groups = mesh.groups(dims)
        assert mesh.group_shape(dims) == (len(groups), len(groups[0]))
        for rank in range(mesh.size()):
            assert rank in groups[mesh.group_index(rank, dims)]
    with pytest.raises(offline_mesh.OfflineMeshError, match="rank 24"):
        mesh.group_index(24, "dp")
