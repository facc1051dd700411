"""The way hyper-parallel-style planners use the mesh, unchanged."""

import pytest

from offline_mesh import (OfflineMesh, ParallelDimsSpec, build_offline_mesh,
                          expert_layout, plan_dim_names, validate_axes)


def planner_axis_sizes(mesh):
    """What a planner does with whatever mesh object it is handed."""
    names = getattr(mesh, "mesh_dim_names", ())
    return {name: mesh.size(name) for name in names}


def test_getattr_style_access():
    mesh = build_offline_mesh(ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=4))
    assert getattr(mesh, "mesh_dim_names", ()) == ("dp", "cp", "tp")
    assert getattr(mesh, "mesh_shape", ()) == (2, 2, 4)
    assert getattr(mesh, "not_an_attribute", "default") == "default"
    assert planner_axis_sizes(mesh) == {"dp": 2, "cp": 2, "tp": 4}
    assert not hasattr(mesh, "get_group")  # no process group, ever


def test_absent_axes_are_lenient():
    mesh = build_offline_mesh(ParallelDimsSpec(dp_size=8, tp_size=2, ep_size=4))
    assert mesh.size("ep") == 1
    assert mesh["pp"].ndim == 0
    assert mesh["ep"].mesh_dim_names == ()
    assert mesh["pp"].size() == 1
    assert "ep" not in mesh.mesh_dim_names


def test_sub_mesh_chain():
    mesh = build_offline_mesh(ParallelDimsSpec(dp_size=4, tp_size=8, pp_size=2))
    tp_mesh = mesh["tp"]
    assert tp_mesh.ndim == 1 and tp_mesh.size() == 8 and tp_mesh.size(0) == 8
    assert tp_mesh["tp"] == tp_mesh
    assert mesh.mesh_dim_names[-1] == "pp"


def test_plan_against_mesh_flow():
    spec = ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=4, ep_size=8,
                            sequence_parallel=True)
    mesh = build_offline_mesh(spec)
    validate_axes(mesh, tp_size=spec.tp_size, cp_size=spec.cp_size,
                  ep_size=spec.ep_size)
    assert plan_dim_names(mesh, spec.tp_size, spec.cp_size, spec.ep_size) == ("cp", "tp")
    layout = expert_layout(mesh, spec.ep_size)
    assert (layout.edp, layout.ep) == (2, 8)
    assert all(len(g) == 8 for g in layout.ep_groups)


def test_meshes_as_dict_keys_and_in_sets():
    cache = {}
    for tp in (1, 2, 4, 2, 1):
        mesh = build_offline_mesh(ParallelDimsSpec(dp_size=8 // tp, tp_size=tp))
        cache.setdefault(mesh, len(cache))
    assert len(cache) == 3
    assert OfflineMesh(("dp", "cp", "tp"), (4, 1, 2)) in cache


def test_isinstance_and_type_checks_a_planner_might_do():
    mesh = OfflineMesh(("tp",), (4,))
    assert isinstance(mesh, OfflineMesh)
    assert isinstance(mesh.mesh_dim_names, tuple)
    assert all(isinstance(s, int) for s in mesh.mesh_shape)
    assert isinstance(mesh.ndim, int) and isinstance(mesh.size(), int)
    with pytest.raises(AttributeError):
        mesh.mesh_shape = (8,)
