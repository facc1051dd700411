"""OfflineMesh: the drop-in surface of the frozen dataclass it replaces."""

import copy
import dataclasses
import json
import pickle

import pytest

import offline_mesh
from offline_mesh import OfflineMesh

from conftest import Index


def test_construction_positional_keyword_and_defaults():
    m = OfflineMesh(("dp", "tp"), (2, 4))
    assert m.mesh_dim_names == ("dp", "tp")
    assert m.mesh_shape == (2, 4)
    assert OfflineMesh(mesh_dim_names=("dp", "tp"), mesh_shape=(2, 4)) == m
    assert OfflineMesh(mesh_shape=(2, 4), mesh_dim_names=("dp", "tp")) == m
    empty = OfflineMesh()
    assert empty.mesh_dim_names == () and empty.mesh_shape == ()
    assert empty.ndim == 0 and empty.size() == 1


def test_sequences_are_stored_as_tuples_of_plain_values():
    class Name(str):
        pass

    m = OfflineMesh(["dp", Name("tp")], [Index(2), 4])
    assert m.mesh_dim_names == ("dp", "tp")
    assert m.mesh_shape == (2, 4)
    assert type(m.mesh_dim_names) is tuple and type(m.mesh_shape) is tuple
    assert [type(n) for n in m.mesh_dim_names] == [str, str]
    assert [type(s) for s in m.mesh_shape] == [int, int]
    assert OfflineMesh(iter(["a"]), (x for x in [3])).mesh_shape == (3,)


def test_ndim_and_size():
    m = OfflineMesh(("dp", "cp", "tp"), (2, 3, 4))
    assert m.ndim == 3
    assert m.size() == 24 and m.size(None) == 24 and m.size(dim=None) == 24
    assert m.size("dp") == 2 and m.size("cp") == 3 and m.size(dim="tp") == 4
    assert m.size("ep") == 1  # absent axis
    assert m.size("t\0p") == 1  # no axis name holds NUL
    assert m.size(0) == 2 and m.size(2) == 4  # axis index, as DeviceMesh
    assert m.size(-1) == 4 and m.size(-3) == 2
    assert m.size(Index(1)) == 3
    with pytest.raises(IndexError):
        m.size(3)
    with pytest.raises(IndexError):
        m.size(-4)
    with pytest.raises(IndexError):
        m.size(2**80)
    for bad in (1.0, True, b"tp", ("tp",), object()):
        with pytest.raises(TypeError):
            m.size(bad)
    with pytest.raises(TypeError, match="positional arguments"):
        m.size("tp", "dp")
    with pytest.raises(TypeError, match="multiple values for argument 'dim'"):
        m.size("tp", dim="dp")
    with pytest.raises(TypeError, match="unexpected keyword argument 'name'"):
        m.size(name="tp")


def test_getitem_returns_single_axis_or_empty_mesh():
    m = OfflineMesh(("dp", "tp"), (2, 4))
    assert m["tp"] == OfflineMesh(("tp",), (4,))
    assert m["dp"].mesh_shape == (2,)
    absent = m["pp"]
    assert absent == OfflineMesh() and absent.ndim == 0 and absent.size() == 1
    assert OfflineMesh()["tp"] == OfflineMesh()
    for bad in (0, None, b"dp", ("dp", 0), {"dp"}):
        with pytest.raises(TypeError):
            m[bad]


def test_getitem_with_several_axes():
    m = OfflineMesh(("dp", "cp", "tp"), (2, 3, 4))
    assert m["dp", "tp"] == OfflineMesh(("dp", "tp"), (2, 4))
    assert m[("dp", "tp")] == m["dp", "tp"] == m[["dp", "tp"]]
    assert m["tp", "dp"] == OfflineMesh(("dp", "tp"), (2, 4))  # mesh order
    assert m["dp", "ep"] == OfflineMesh(("dp",), (2,))  # absent: left out
    assert m[()] == OfflineMesh()
    assert m["dp", "cp", "tp"] == m
    with pytest.raises(ValueError, match="named twice"):
        m["dp", "dp"]
    assert m["dp", "tp"].groups("tp") == [(0, 1, 2, 3), (4, 5, 6, 7)]


def test_equality_and_hash():
    a = OfflineMesh(("dp", "tp"), (2, 4))
    b = OfflineMesh(["dp", "tp"], [2, 4])
    assert a == b and not a != b and hash(a) == hash(b)
    assert a != OfflineMesh(("tp", "dp"), (4, 2))
    assert a != OfflineMesh(("dp", "tp"), (4, 2))
    assert a != OfflineMesh(("dp",), (2,))
    assert a != ("dp", "tp") and a != None  # noqa: E711
    assert len({a, b, OfflineMesh(("dp",), (2,))}) == 2
    assert {a: 1}[b] == 1
    with pytest.raises(TypeError):
        a < b  # noqa: B015


def test_repr_and_str():
    assert repr(OfflineMesh(("dp", "tp"), (2, 4))) == \
        "OfflineMesh(mesh_dim_names=('dp', 'tp'), mesh_shape=(2, 4))"
    assert repr(OfflineMesh(("tp",), (8,))) == \
        "OfflineMesh(mesh_dim_names=('tp',), mesh_shape=(8,))"
    assert str(OfflineMesh()) == "OfflineMesh(mesh_dim_names=(), mesh_shape=())"


def test_immutable():
    m = OfflineMesh(("dp",), (2,))
    for name in ("mesh_dim_names", "mesh_shape", "ndim", "other", "thisown"):
        with pytest.raises(AttributeError):
            setattr(m, name, 1)
        with pytest.raises(AttributeError):
            delattr(m, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.mesh_shape = (4,)
    assert m.mesh_shape == (2,)


def test_json_round_trip_and_canonical_text():
    m = OfflineMesh(("dp", "cp", "tp"), (2, 2, 2))
    text = m.to_json()
    assert text == '{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}'
    assert json.loads(text) == {"mesh_dim_names": ["dp", "cp", "tp"],
                                "mesh_shape": [2, 2, 2]}
    assert OfflineMesh.from_json(text) == m
    assert OfflineMesh.from_json(text.encode()) == m
    assert OfflineMesh.from_json(text=text) == m
    assert OfflineMesh.from_json(' {"mesh_shape": [], "mesh_dim_names": []} ') \
        == OfflineMesh()
    uni = OfflineMesh(("données", "张量"), (2, 3))
    assert OfflineMesh.from_json(uni.to_json()) == uni


@pytest.mark.parametrize("text,fragment", [
    ("", "expected"),
    ("{}", "lacks \"mesh_dim_names\""),
    ('{"mesh_dim_names":["a"],"mesh_shape":[1]} x', "end of file expected"),
    ('{"mesh_dim_names":["a"],"mesh_shape":["1"]}', r"mesh_shape\[0\] must be an integer"),
    ('{"mesh_dim_names":[1],"mesh_shape":[1]}', r"mesh_dim_names\[0\] must be a string"),
    ('{"mesh_dim_names":["a"],"mesh_shape":[1],"extra":1}', 'unknown key "extra"'),
    ('{"mesh_dim_names":["a"],"mesh_dim_names":["a"],"mesh_shape":[1]}', "duplicate object key"),
    ('{"mesh_dim_names":["a","b"],"mesh_shape":[1]}', "2 entries"),
    ('{"mesh_dim_names":["a","a"],"mesh_shape":[1,2]}', "duplicate"),
    ('{"mesh_dim_names":["a"],"mesh_shape":[0]}', "size 0"),
    ("[]", "must be an object"),
])
def test_from_json_rejects_anything_but_one_valid_mesh(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        OfflineMesh.from_json(text)


def test_from_json_type_errors():
    for bad in (None, 1, ["{}"]):
        with pytest.raises(TypeError):
            OfflineMesh.from_json(bad)


def test_pickle_copy_and_module_name():
    m = OfflineMesh(("dp", "tp"), (2, 4))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(m, protocol))
        assert clone == m and type(clone) is OfflineMesh
    assert copy.copy(m) == m and copy.deepcopy(m) == m
    assert OfflineMesh.__module__ == "offline_mesh"
    assert OfflineMesh.__name__ == "OfflineMesh"
    assert offline_mesh.OfflineMesh is OfflineMesh


def test_dataclass_protocol():
    m = OfflineMesh(("dp", "tp"), (2, 4))
    assert dataclasses.is_dataclass(m)
    assert [f.name for f in dataclasses.fields(m)] == ["mesh_dim_names", "mesh_shape"]
    assert dataclasses.asdict(m) == {"mesh_dim_names": ("dp", "tp"),
                                     "mesh_shape": (2, 4)}
    assert dataclasses.astuple(m) == (("dp", "tp"), (2, 4))
    assert dataclasses.replace(m, mesh_shape=(4, 2)) == OfflineMesh(("dp", "tp"), (4, 2))
    match m:
        case OfflineMesh(names, shape):
            assert names == ("dp", "tp") and shape == (2, 4)
        case _:
            pytest.fail("OfflineMesh did not match its positional pattern")


@pytest.mark.parametrize("names,shape", [
    (None, ()), ((), None), ("dp", (2,)), (b"dp", (2,)), (5, ()), ((), 5),
    (("dp",), "2"), ((1,), (2,)), ((None,), (2,)), ((b"dp",), (2,)),
    (("dp",), (2.0,)), (("dp",), (True,)), (("dp",), (None,)), (("dp",), ("2",)),
])
def test_wrong_types_raise_type_error(names, shape):
    with pytest.raises(TypeError):
        OfflineMesh(names, shape)


@pytest.mark.parametrize("names,shape,fragment", [
    (("dp", "tp"), (2,), "2 entries"),
    (("dp",), (2, 4), "1 entries"),
    (("dp", "dp"), (2, 2), 'duplicate axis name "dp"'),
    (("",), (2,), "empty name"),
    (("dp",), (0,), "size 0"),
    (("dp",), (-3,), "size -3"),
    (("a", "b", "c"), (2**11, 2**10, 2**10), r"exceeds 2\^31-1 ranks at axis 2"),
    (("a",), (2**31,), r"exceeds 2\^31-1 ranks at axis 0 \(size 2147483648\)"),
    (("a",), (2**64,), "out of range"),
    (("a",), (-(2**70),), "out of range"),
    (("d\0p",), (2,), "NUL"),
    (("\udc80",), (2,), "surrogates not allowed"),  # UnicodeEncodeError
])
def test_invalid_values_raise_value_error(names, shape, fragment):
    with pytest.raises(ValueError, match=fragment):
        OfflineMesh(names, shape)


def test_largest_mesh_is_accepted():
    m = OfflineMesh(("world",), (2**31 - 1,))
    assert m.size() == 2**31 - 1
    assert m.coordinate(2**31 - 2) == (2**31 - 2,)


def test_many_axes():
    names = tuple(f"a{i}" for i in range(40))
    m = OfflineMesh(names, (1,) * 39 + (3,))
    assert m.ndim == 40 and m.size() == 3 and m.size("a39") == 3
    assert m.coordinate(2) == (0,) * 39 + (2,)
    assert m.rank((0,) * 39 + (1,)) == 1


def test_uninitialised_instance_never_crashes():
    # construction runs in the metaclass: __new__ alone leaves no fields
    for raw in (OfflineMesh.__new__(OfflineMesh), object.__new__(OfflineMesh)):
        for call in (repr, hash, lambda o: o["tp"], lambda o: o.size(),
                     lambda o: o.mesh_dim_names, lambda o: o.groups("tp"),
                     lambda o: o.to_json(), lambda o: o.coordinate(0),
                     lambda o: offline_mesh.validate_axes(o)):
            with pytest.raises((TypeError, AttributeError)):
                call(raw)
        with pytest.raises((TypeError, AttributeError)):
            raw != OfflineMesh()  # noqa: B015
    # re-running __init__ raises (issue 15) and never changes the mesh
    m = OfflineMesh(("dp",), (2,))
    for args in ((("tp",), (4,)), ()):
        with pytest.raises(TypeError, match="immutable"):
            m.__init__(*args)
    assert m == OfflineMesh(("dp",), (2,)) and m.to_json().count("dp") == 1


def test_docstrings_and_signatures():
    import inspect
    assert "immutable" in OfflineMesh.__doc__
    assert str(inspect.signature(OfflineMesh)) == "(mesh_dim_names=(), mesh_shape=())"
    assert str(inspect.signature(OfflineMesh.size)) == (
        "(self, dim: 'Union[None, str, int]' = None) -> 'int'")
    for name in ("size", "to_json", "from_json", "coordinate", "rank", "groups",
                 "groups_buffer", "group_of"):
        assert getattr(OfflineMesh, name).__doc__, name
    for name in offline_mesh.__all__:
        assert getattr(offline_mesh, name).__doc__, name
