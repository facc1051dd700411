"""No input crashes the extension: odd values everywhere raise TypeError or
ValueError (or IndexError for an axis index), never anything worse."""

import gc
import itertools

import pytest

import offline_mesh
from offline_mesh import OfflineMesh, ParallelDimsSpec, _core

ODD = [None, True, 0, -1, 2**63, 2**64, -(2**70), 1.5, float("nan"), "", "\0",
       "tp", "d\udc80", b"tp", bytearray(b"x"), (), ("tp",), ["tp", 3],
       {"tp": 2}, {"tp"}, object(), OfflineMesh(), ParallelDimsSpec(),
       memoryview(b"ab"), iter([1])]

MESH = OfflineMesh(("dp", "cp", "tp"), (2, 2, 2))
ALLOWED = (TypeError, ValueError, IndexError, OSError)

CALLS = {
    "OfflineMesh/1": lambda a: OfflineMesh(a),
    "OfflineMesh/2": lambda a: OfflineMesh(("tp",), a),
    "size": lambda a: MESH.size(a),
    "getitem": lambda a: MESH[a],
    "coordinate": lambda a: MESH.coordinate(a),
    "rank": lambda a: MESH.rank(a),
    "groups": lambda a: MESH.groups(a),
    "groups_buffer": lambda a: MESH.groups_buffer(a),
    "groups_buffer/start": lambda a: MESH.groups_buffer("tp", a),
    "groups_buffer/count": lambda a: MESH.groups_buffer("tp", 0, a),
    "group_of/rank": lambda a: MESH.group_of(a, "tp"),
    "group_of/dims": lambda a: MESH.group_of(0, a),
    "from_json": lambda a: OfflineMesh.from_json(a),
    "build_offline_mesh": lambda a: offline_mesh.build_offline_mesh(a),
    "build/tp_size": lambda a: offline_mesh.build_offline_mesh(ParallelDimsSpec(tp_size=a)),
    "build/flag": lambda a: offline_mesh.build_offline_mesh(ParallelDimsSpec(loss_parallel=a)),
    "parse_parallel_dims": lambda a: offline_mesh.parse_parallel_dims(a),
    "parse/world_size": lambda a: offline_mesh.parse_parallel_dims("accelerator: {tp_size: 1}", a),
    "load_parallel_dims": lambda a: offline_mesh.load_parallel_dims(a),
    "validate_axes/mesh": lambda a: offline_mesh.validate_axes(a),
    "validate_axes/tp": lambda a: offline_mesh.validate_axes(MESH, a),
    "plan_dim_names/mesh": lambda a: offline_mesh.plan_dim_names(a),
    "plan_dim_names/ep": lambda a: offline_mesh.plan_dim_names(MESH, 1, 1, a),
    "expert_layout/mesh": lambda a: offline_mesh.expert_layout(a, 2),
    "expert_layout/ep": lambda a: offline_mesh.expert_layout(MESH, a),
    "expert_layout/experts": lambda a: offline_mesh.expert_layout(MESH, 2, a),
    "host_locality/mesh": lambda a: offline_mesh.host_locality(a, "tp", 2),
    "host_locality/dims": lambda a: offline_mesh.host_locality(MESH, a, 2),
    "host_locality/per_host": lambda a: offline_mesh.host_locality(MESH, "tp", a),
    "om_status_string": lambda a: _core.om_status_string(a),
    "om_mesh_axes": lambda a: _core.om_mesh_axes(MESH, a),
}


# Only exception types matter here: "" as a config is empty, and warns.
@pytest.mark.filterwarnings("ignore::offline_mesh.ConfigWarning")
@pytest.mark.parametrize("name", sorted(CALLS))
def test_odd_arguments_raise_python_errors(name):
    call = CALLS[name]
    outcomes = set()
    for value in ODD:
        try:
            call(value)
            outcomes.add("ok")
        except ALLOWED as exc:
            outcomes.add(type(exc).__name__)
    gc.collect()
    # every call sees at least one value it must refuse
    assert outcomes - {"ok"}, name


def test_errors_are_exact_builtin_classes():
    cases = [
        (lambda: OfflineMesh(("a",), (0,)), offline_mesh.OfflineMeshError),
        (lambda: OfflineMesh(None, ()), TypeError),
        (lambda: offline_mesh.load_parallel_dims("/nonexistent/train.yaml"),
         offline_mesh.OfflineMeshIOError),
    ]
    for call, cls in cases:
        with pytest.raises(cls) as info:
            call()
        assert type(info.value) is cls
        assert str(info.value)


def test_status_strings_from_the_library():
    assert _core.om_status_string(_core.OM_ERR_IO) == "I/O error"
    assert _core.om_status_string(_core.OM_OK) == "ok"
    names = {_core.om_status_string(s) for s in range(_core.OM_ERR_BUFFER_TOO_SMALL + 1)}
    assert len(names) == _core.OM_ERR_BUFFER_TOO_SMALL + 1
    assert _core.om_status_string(999) == "unknown status"
    assert _core.om_dim_field_name(_core.OM_DIM_CP) == "cp_size"
    assert _core.om_dim_axis_name(_core.OM_DIM_PP) == "pp"
    assert _core.om_dim_axis_name(99) is None
    assert _core.om_flag_field_name(_core.OM_FLAG_LOSS_PARALLEL) == "loss_parallel"
    with pytest.raises(ValueError, match="status = 1099511627776 is out of range"):
        _core.om_status_string(2**40)
    assert _core.om_version_string() == offline_mesh.__version__
    major, minor, patch = (int(p) for p in offline_mesh.__version__.split("."))
    assert _core.om_version_number() == major * 10000 + minor * 100 + patch


def test_world_size_from_env_through_the_c_api(monkeypatch):
    for name in ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"):
        monkeypatch.delenv(name, raising=False)
    assert _core.om_world_size_from_env() == (1, False)
    monkeypatch.setenv("PMI_SIZE", "12")
    assert _core.om_world_size_from_env() == (12, True)
    monkeypatch.setenv("PMI_SIZE", "twelve")
    with pytest.raises(ValueError, match="PMI_SIZE"):
        _core.om_world_size_from_env()


def test_no_reference_leaks_in_hot_paths():
    import sys
    spec = ParallelDimsSpec(dp_size=2, tp_size=2)
    names = ("dp", "tp")

    def run():
        for _ in range(2000):
            m = OfflineMesh(names, (2, 2))
            m["tp"]
            m.size("tp")
            offline_mesh.build_offline_mesh(spec)
            try:
                OfflineMesh(names, (2,))
            except ValueError:
                pass
            m.groups_buffer("tp")
    run()
    before = sys.getrefcount(names), sys.getrefcount(spec), sys.getrefcount("tp")
    run()
    assert (sys.getrefcount(names), sys.getrefcount(spec), sys.getrefcount("tp")) == before
    # a returned table and a caller's buffer are referenced by the caller alone
    table = _core.om_mesh_groups_named(OfflineMesh(names, (2, 2)), ["tp"], 0, 2)
    assert sys.getrefcount(table) == 2
    out = bytearray(16)
    view = memoryview(out).cast("i")
    before = sys.getrefcount(out), sys.getrefcount(view)
    for _ in range(100):
        OfflineMesh(names, (2, 2)).groups_buffer("tp", out=view)
    assert (sys.getrefcount(out), sys.getrefcount(view)) == before


def test_every_dims_combination_of_a_5d_mesh_is_consistent():
    mesh = OfflineMesh(("pp", "dp", "ep", "cp", "tp"), (2, 2, 2, 2, 2))
    for k in range(6):
        for dims in itertools.combinations(mesh.mesh_dim_names, k):
            groups = mesh.groups(dims)
            assert mesh.groups_buffer(dims).tolist() == [list(g) for g in groups]
            for r in (0, 17, 31):
                assert mesh.group_of(r, dims) in groups


SWIG_MEMBERS = {"own", "disown", "acquire", "append", "next", "this", "thisown"}


def test_no_swig_member_on_public_objects():
    mesh = OfflineMesh(("dp", "tp"), (2, 4))
    objects = [mesh, mesh["tp"], OfflineMesh, ParallelDimsSpec(),
               offline_mesh.build_offline_mesh(ParallelDimsSpec()),
               offline_mesh.expert_layout(mesh, 2),
               offline_mesh.host_locality(mesh, "tp", 2),
               offline_mesh.OfflineMeshError(1, "x"), offline_mesh.Status.OK]
    for obj in objects:
        assert not SWIG_MEMBERS & set(dir(obj)), (obj, SWIG_MEMBERS & set(dir(obj)))
    with pytest.raises(AttributeError):
        mesh.append(OfflineMesh())
    with pytest.raises(AttributeError):
        mesh.thisown  # noqa: B018


def test_status_enum_mirrors_the_c_table():
    Status = offline_mesh.Status
    codes = {name: getattr(_core, name) for name in dir(_core)
             if name == "OM_OK" or name.startswith("OM_ERR_")}
    assert {m.value for m in Status} == set(codes.values())
    for name, value in codes.items():
        assert Status[name[3:].replace("ERR_", "", 1)] == value
    assert list(Status) == sorted(Status)
    assert [m.value for m in Status] == list(range(len(Status)))  # no gaps
    if hasattr(_core, "OM_STATUS_COUNT"):
        assert len(Status) == _core.OM_STATUS_COUNT
    # every code has its own name in the library's table
    assert len({_core.om_status_string(m) for m in Status}) == len(Status)
    unknown = _core.om_status_string(len(Status))
    assert unknown not in {_core.om_status_string(m) for m in Status}


def test_errors_carry_the_status_and_pickle():
    import pickle
    with pytest.raises(offline_mesh.OfflineMeshError) as info:
        OfflineMesh(("a", "a"), (1, 2))
    assert info.value.status is offline_mesh.Status.DUPLICATE_NAME
    assert isinstance(info.value, ValueError)
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is offline_mesh.OfflineMeshError
    assert again.status is info.value.status and str(again) == str(info.value)
    with pytest.raises(OSError) as info:
        offline_mesh.load_parallel_dims("/nonexistent/train.yaml")
    assert type(info.value) is offline_mesh.OfflineMeshIOError
    assert info.value.status is offline_mesh.Status.IO
    assert offline_mesh.OfflineMeshError(999, "x").status == 999  # newer code


def test_world_size_source_mirrors_the_c_enum():
    Source = offline_mesh.WorldSizeSource
    codes = {n: getattr(offline_mesh._core, n) for n in dir(offline_mesh._core)
             if n.startswith("OM_WORLD_SIZE_") and not n.endswith("_COUNT")}
    assert len(Source) == offline_mesh._core.OM_WORLD_SIZE_SOURCE_COUNT == len(codes)
    for name, value in codes.items():
        assert Source[name[len("OM_WORLD_SIZE_"):]] == value
    assert Source.FROM_SLURM_NTASKS.variable == "SLURM_NTASKS"
    assert Source.DEFAULT.description.startswith("the default")
