"""Planner preflight: axis validation, plan axes, expert layout, locality."""

import itertools
import math
import random

import pytest

from offline_mesh import (ExpertLayout, HostLocality, OfflineMesh,
                          ParallelDimsSpec, build_offline_mesh, expert_layout,
                          host_locality, plan_dim_names, validate_axes)

from conftest import (Index, random_shapes, ref_expert_groups, ref_groups,
                      ref_locality)


def ref_validate(names, shape, tp, cp, ep):
    sizes = dict(zip(names, shape))
    for axis, size in (("tp", tp), ("cp", cp)):
        if size > 1 and sizes.get(axis) != size:
            return False
    if "ep" in sizes and sizes["ep"] != ep:
        return False
    return True


def ref_plan_names(names, tp, cp, ep):
    plan = {"tp": tp, "cp": cp, "ep": ep}
    return tuple(n for n in names if n in plan and plan[n] > 1)


def test_validate_axes_examples():
    mesh = OfflineMesh(("dp", "cp", "tp"), (2, 2, 4))
    assert validate_axes(mesh) is None
    assert validate_axes(mesh, tp_size=4, cp_size=2) is None
    assert validate_axes(mesh, ep_size=8) is None  # no ep axis: not compared
    with pytest.raises(ValueError, match='tp_size 2 does not match mesh axis "tp" of size 4'):
        validate_axes(mesh, tp_size=2)
    with pytest.raises(ValueError, match='cp_size 4 does not match'):
        validate_axes(mesh, cp_size=4)
    no_cp = OfflineMesh(("dp", "tp"), (2, 4))
    with pytest.raises(ValueError, match='cp_size 2 needs a mesh axis "cp"'):
        validate_axes(no_cp, cp_size=2)
    old_style = OfflineMesh(("dp", "ep"), (2, 4))
    validate_axes(old_style, ep_size=4)
    with pytest.raises(ValueError, match="ep_size 2"):
        validate_axes(old_style, ep_size=2)
    for bad in (0, -1):
        with pytest.raises(ValueError, match=">= 1"):
            validate_axes(mesh, tp_size=bad)


@pytest.mark.parametrize("seed", range(4))
def test_validate_and_plan_against_pure_python(seed):
    rng = random.Random(seed)
    for names, shape in random_shapes(seed + 100, 40, max_ndim=4):
        mesh = OfflineMesh(names, shape)
        for _ in range(5):
            tp, cp, ep = (rng.choice([1, 2, 3, 4, 8]) for _ in range(3))
            ok = ref_validate(names, shape, tp, cp, ep)
            if ok:
                validate_axes(mesh, tp, cp, ep)
            else:
                with pytest.raises(ValueError):
                    validate_axes(mesh, tp, cp, ep)
            assert plan_dim_names(mesh, tp, cp, ep) == ref_plan_names(names, tp, cp, ep)


def test_plan_dim_names_examples():
    mesh = OfflineMesh(("dp", "ep", "cp", "tp"), (2, 2, 2, 2))
    assert plan_dim_names(mesh) == ()
    assert plan_dim_names(mesh, tp_size=2) == ("tp",)
    assert plan_dim_names(mesh, tp_size=2, cp_size=2, ep_size=2) == ("ep", "cp", "tp")
    assert plan_dim_names(mesh, 2, 2, 1) == ("cp", "tp")
    assert plan_dim_names(OfflineMesh(("dp",), (8,)), 2, 2, 2) == ()
    with pytest.raises(ValueError, match=">= 1"):
        plan_dim_names(mesh, cp_size=0)


def test_expert_layout_domain_example():
    layout = expert_layout(OfflineMesh(("dp", "tp"), (4, 2)), 4)
    assert isinstance(layout, ExpertLayout)
    assert (layout.edp, layout.ep) == (2, 4)
    assert layout.ep_groups == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert layout.edp_groups == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert layout.mesh == OfflineMesh(("edp", "ep"), (2, 4))
    assert expert_layout(OfflineMesh(("dp", "tp"), (4, 2)), 4, num_experts=64) == layout
    assert expert_layout(OfflineMesh(("dp", "tp"), (4, 2)), ep_size=Index(4)) == layout


@pytest.mark.parametrize("seed", range(4))
def test_expert_layout_against_pure_python(seed):
    rng = random.Random(seed)
    for names, shape in random_shapes(seed + 200, 40, max_ranks=512):
        sizes = dict(zip(names, shape))
        if sizes.get("pp", 1) > 1:
            with pytest.raises(ValueError, match="pp_size"):
                expert_layout(OfflineMesh(names, shape), 1)
            continue
        dense = math.prod(shape)
        divisors = [d for d in range(1, dense + 1) if dense % d == 0]
        ep = rng.choice(divisors)
        layout = expert_layout(OfflineMesh(names, shape), ep,
                               num_experts=ep * rng.randint(1, 4))
        ep_groups, edp_groups = ref_expert_groups(dense, ep)
        assert (layout.edp, layout.ep) == (dense // ep, ep)
        assert layout.ep_groups == ep_groups
        assert layout.edp_groups == edp_groups
        bad = [d for d in range(2, dense + 2) if dense % d]
        if bad:
            with pytest.raises(ValueError, match="does not divide"):
                expert_layout(OfflineMesh(names, shape), rng.choice(bad))


def test_expert_layout_with_size_one_pp_and_built_mesh():
    mesh = build_offline_mesh(ParallelDimsSpec(dp_size=4, tp_size=2, ep_size=4))
    layout = expert_layout(mesh, mesh.size() // 2)
    assert layout.ep_groups == [(0, 1, 2, 3), (4, 5, 6, 7)]
    pp1 = OfflineMesh(("dp", "pp", "tp"), (2, 1, 2))
    assert expert_layout(pp1, 2).edp_groups == [(0, 2), (1, 3)]


@pytest.mark.parametrize("args,kwargs,fragment", [
    ((3,), {}, "ep_size 3 does not divide the dense region of 8 ranks"),
    ((16,), {}, "ep_size 16 does not divide"),
    ((0,), {}, "ep"),
    ((-2,), {}, "ep"),
    ((4,), {"num_experts": 6}, "num_experts 6 is not divisible by ep_size 4"),
    ((4,), {"num_experts": 0}, "num_experts must be >= 1 or None"),
    ((4,), {"num_experts": -4}, "num_experts must be >= 1 or None"),
])
def test_expert_layout_errors(args, kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        expert_layout(OfflineMesh(("dp", "tp"), (4, 2)), *args, **kwargs)


def test_expert_layout_pp_error():
    with pytest.raises(ValueError, match="pp_size 2 > 1 is not supported"):
        expert_layout(OfflineMesh(("dp", "tp", "pp"), (2, 2, 2)), 2)


@pytest.mark.parametrize("seed", range(3))
def test_host_locality_against_pure_python(seed):
    rng = random.Random(seed)
    for names, shape in random_shapes(seed + 300, 30, max_ranks=1024):
        mesh = OfflineMesh(names, shape)
        for k in range(len(names) + 1):
            for subset in itertools.combinations(range(len(names)), k):
                per_host = rng.choice([1, 2, 3, 4, 8, 16])
                dims = tuple(names[i] for i in subset)
                expected = ref_locality(ref_groups(shape, set(subset)), per_host)
                got = host_locality(mesh, dims, per_host)
                assert isinstance(got, HostLocality)
                assert tuple(got) == expected


def test_host_locality_example_and_errors():
    mesh = build_offline_mesh(ParallelDimsSpec(dp_size=4, tp_size=8))
    tp = host_locality(mesh, "tp", 8)
    assert tp == HostLocality(group_count=4, local_groups=4, max_hosts=1)
    dp = host_locality(mesh, "dp", ranks_per_host=8)
    assert (dp.group_count, dp.local_groups, dp.max_hosts) == (8, 0, 4)
    with pytest.raises(ValueError, match="ranks per host must be >= 1, got 0"):
        host_locality(mesh, "tp", 0)
    with pytest.raises(ValueError, match="not in the mesh"):
        host_locality(mesh, "pp", 8)
    with pytest.raises(TypeError):
        host_locality(None, "tp", 8)
    with pytest.raises(TypeError):
        host_locality(mesh, None, 8)
    with pytest.raises(TypeError):
        host_locality(mesh, "tp", "8")


@pytest.mark.parametrize("func", [validate_axes, plan_dim_names])
def test_preflight_wrong_types(func):
    mesh = OfflineMesh(("tp",), (2,))
    for bad_mesh in (None, ("tp",), "tp=2", ParallelDimsSpec()):
        with pytest.raises(TypeError, match="OfflineMesh"):
            func(bad_mesh)
    for bad in (None, "2", 2.0, True):
        with pytest.raises(TypeError):
            func(mesh, tp_size=bad)
    with pytest.raises(ValueError, match="out of range"):
        func(mesh, ep_size=2**63)


def test_expert_layout_wrong_types():
    mesh = OfflineMesh(("tp",), (2,))
    for args in ((None, 2), (mesh, None), (mesh, "2"), (mesh, 2.0)):
        with pytest.raises(TypeError):
            expert_layout(*args)
    with pytest.raises(TypeError):
        expert_layout(mesh, 2, num_experts="4")
