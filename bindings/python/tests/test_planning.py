"""Hierarchies, presets and launch plans: values and errors through the
package (the library's own suites check the computations in depth)."""

import pytest

import offline_mesh as om
from offline_mesh import Hierarchy, OfflineMesh, Preset, Status

MESH = OfflineMesh(("dp", "tp"), (4, 4))


def test_uniform_hierarchy():
    h = Hierarchy.from_spec("host=4,rack=8")
    assert h.levels == ("host", "rack") and h.ranks == 0
    assert h.ranks_per_domain("rack") == 8 and h.ranks_per_domain(0) == 4
    assert h.level_index("rack") == 1
    assert h.domain_of("host", 9) == 2 and h.domain_of(1, 9) == 1
    assert h.to_json() == ('[{"name":"host","ranks_per_domain":4},'
                           '{"name":"rack","ranks_per_domain":8}]')
    host, rack = h.locality(MESH, "dp")
    assert host.level == "host" and host.groups_inside == 0
    assert host.groups_crossing == 4 and host.max_domains == 4
    assert rack.max_domains == 2 and host.first_crossing == 0
    assert h.locality(MESH, ("tp",))[0].groups_inside == 4
    assert h.check(MESH, "tp:host") == []
    broken = h.check(MESH, "tp:host,dp:rack")
    assert len(broken) == 1 and broken[0].startswith("dp:rack broken: dp group 0")


def test_hierarchy_levels_by_index():
    h = Hierarchy.from_spec("host=4,rack=8")
    # negative indices count from the slowest level, as in h.levels
    assert h.ranks_per_domain(-1) == 8 and h.domain_of(-2, 9) == 2
    assert h.domain_label(-1, 1) == h.domain_label(1, 1)
    for call in (lambda level: h.ranks_per_domain(level), lambda level: h.domain_of(level, 0),
                 lambda level: h.domain_label(level, 0)):
        for level in (2, -3, 2**70):
            with pytest.raises(om.OfflineMeshError, match=f"level {level} is outside the 2 levels") as info:
                call(level)
            assert info.value.status is Status.OUT_OF_RANGE
        for level in (None, 1.0, True):
            with pytest.raises(TypeError, match="level must be an int"):
                call(level)


def test_hierarchy_errors_carry_the_status():
    with pytest.raises(om.OfflineMeshError) as info:
        Hierarchy.from_spec("host=8,rack=4")
    assert info.value.status is Status.INVALID_ARGUMENT
    with pytest.raises(om.OfflineMeshError) as info:
        Hierarchy.from_spec("host")
    assert info.value.status is Status.PARSE
    with pytest.raises(om.OfflineMeshError) as info:
        Hierarchy.from_spec("host=4").locality(MESH, "ep")
    assert info.value.status is Status.UNKNOWN_AXIS
    with pytest.raises(om.OfflineMeshError, match="rack"):
        Hierarchy.from_spec("host=4").level_index("rack")


def test_megatron_preset():
    p = Preset("megatron", {"tensor_model_parallel_size": 2}, world_size=8)
    assert p.name == "megatron" and p.world_size == 8
    assert p.views == ("dense", "expert")
    assert "tp" in p.group_lists
    assert p.group_list("tp") == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert p.to_json().startswith("{") and '"views"' in p.to_json()
    verdict = om.check_preset("megatron", {"tensor_model_parallel_size": 3}, 8)
    assert verdict == {"ok": False, "preset": "megatron",
                       "violations": ["world_size (8) is not divisible by 3",
                                      "world_size (8) is not divisible by "
                                      "expert_tensor_model_pipeline_parallel size (3)"]}
    with pytest.raises(om.OfflineMeshError, match="not divisible by 3"):
        Preset("megatron", {"tensor_model_parallel_size": 3}, world_size=8)
    with pytest.raises(om.OfflineMeshError, match="nosuch"):
        Preset("nosuch")
    with pytest.raises(TypeError):
        Preset("megatron", [("a", "b")], 8)


def test_launch_plan_and_check():
    plan = om.launch_plan(MESH, 2, 8)
    assert [n["ranks"] for n in plan["nodes"]] == [list(range(8)), list(range(8, 16))]
    env = plan["nodes"][1]["processes"][0]["env"]
    assert env["RANK"] == "8" and env["MASTER_PORT"] == "29500"
    slurm = om.launch_plan(MESH, 2, 8, "slurm", hosts=["a", "b"])
    assert slurm["nodes"][1]["host"] == "b" and "hostfile" in slurm
    assert om.launch_check(MESH, 2, 8) == []
    assert om.launch_check(MESH, 2, 8, Hierarchy.from_spec("host=4")) == [
        "level host has 4 ranks per domain but nproc_per_node is 8"]
    with pytest.raises(om.OfflineMeshError, match="launcher|format|known"):
        om.launch_plan(MESH, 2, 8, "pbs")
    with pytest.raises(om.OfflineMeshError):
        om.launch_plan(MESH, 3, 8)


def test_hierarchy_arguments_must_be_hierarchies():
    spec = om.ParallelDimsSpec(dp_size=2, tp_size=4)
    for wrong in ("host=4", MESH, 4):
        for call in (lambda: om.launch_check(MESH, 2, 8, wrong),
                     lambda: om.order_check(spec, "dp,tp", wrong),
                     lambda: om.order_advice(spec, wrong)):
            with pytest.raises(TypeError, match=f"hierarchy must be a Hierarchy or None, not {type(wrong).__name__}"):
                call()
