"""ParallelDimsSpec, build_offline_mesh and the YAML projection."""

import dataclasses
import os
import pathlib

import pytest

import offline_mesh

from offline_mesh import (OfflineMesh, ParallelDimsSpec, build_offline_mesh,
                          load_parallel_dims, parse_parallel_dims)

from conftest import Index

WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


@pytest.fixture(autouse=True)
def clean_world_env(monkeypatch):
    for name in WORLD_VARS:
        monkeypatch.delenv(name, raising=False)


def test_spec_defaults_keywords_equality_repr():
    spec = ParallelDimsSpec()
    assert (spec.dp_size, spec.tp_size, spec.cp_size, spec.ep_size,
            spec.pp_size) == (1, 1, 1, 1, 1)
    assert spec.sequence_parallel is False and spec.loss_parallel is False
    spec = ParallelDimsSpec(tp_size=4, dp_size=2, sequence_parallel=True)
    assert spec == ParallelDimsSpec(2, 4, 1, 1, 1, True, False)
    assert spec != ParallelDimsSpec(tp_size=4, dp_size=2)
    assert repr(spec) == ("ParallelDimsSpec(dp_size=2, tp_size=4, cp_size=1, "
                          "ep_size=1, pp_size=1, sequence_parallel=True, "
                          "loss_parallel=False)")
    assert hash(spec) == hash(ParallelDimsSpec(2, 4, 1, 1, 1, True, False))
    assert [f.name for f in dataclasses.fields(spec)] == [
        "dp_size", "tp_size", "cp_size", "ep_size", "pp_size",
        "sequence_parallel", "loss_parallel"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.tp_size = 8
    assert dataclasses.replace(spec, tp_size=8).tp_size == 8


@pytest.mark.parametrize("kwargs,names,shape", [
    ({}, ("dp", "cp", "tp"), (1, 1, 1)),
    ({"dp_size": 2, "cp_size": 2, "tp_size": 2}, ("dp", "cp", "tp"), (2, 2, 2)),
    ({"dp_size": 4, "tp_size": 8, "pp_size": 2}, ("dp", "cp", "tp", "pp"), (4, 1, 8, 2)),
    ({"pp_size": 1}, ("dp", "cp", "tp"), (1, 1, 1)),
    ({"ep_size": 8, "dp_size": 8}, ("dp", "cp", "tp"), (8, 1, 1)),  # ep never an axis
    ({"dp_size": 0, "cp_size": 0, "tp_size": 4}, ("tp",), (4,)),   # 0 = not declared
    ({"dp_size": 0, "cp_size": 0, "tp_size": 0}, (), ()),
    ({"dp_size": 2, "pp_size": 0, "ep_size": 0}, ("dp", "cp", "tp"), (2, 1, 1)),
    ({"dp_size": 2, "sequence_parallel": True, "loss_parallel": True},
     ("dp", "cp", "tp"), (2, 1, 1)),
])
def test_build_offline_mesh_axis_rules(kwargs, names, shape):
    mesh = build_offline_mesh(ParallelDimsSpec(**kwargs))
    assert type(mesh) is OfflineMesh
    assert mesh == OfflineMesh(names, shape)
    assert build_offline_mesh(spec=ParallelDimsSpec(**kwargs)) == mesh


def test_build_accepts_any_object_with_the_fields():
    @dataclasses.dataclass
    class PlannerSpec:  # the planner's own, mutable, dataclass
        dp_size: int = 1
        tp_size: int = 1
        cp_size: int = 1
        ep_size: int = 1
        pp_size: int = 1
        sequence_parallel: bool = False
        loss_parallel: bool = False

    spec = PlannerSpec(tp_size=Index(4), dp_size=2)
    assert build_offline_mesh(spec) == OfflineMesh(("dp", "cp", "tp"), (2, 1, 4))


def test_fields_are_read_by_name():
    class Derived(ParallelDimsSpec):
        def __getattribute__(self, name):
            return 8 if name == "tp_size" else super().__getattribute__(name)

    assert build_offline_mesh(Derived(dp_size=2, tp_size=1)) == \
        OfflineMesh(("dp", "cp", "tp"), (2, 1, 8))
    assert build_offline_mesh(ParallelDimsSpec(dp_size=2, tp_size=1)) == \
        OfflineMesh(("dp", "cp", "tp"), (2, 1, 1))
    spec = ParallelDimsSpec(dp_size=2)
    if hasattr(ParallelDimsSpec, "__slots__"):
        object.__delattr__(spec, "tp_size")  # an empty slot never crashes
        with pytest.raises(TypeError, match="ParallelDimsSpec"):
            build_offline_mesh(spec)


@pytest.mark.parametrize("bad", [
    None, 8, "dp=8", {"dp_size": 8}, object(),
    ParallelDimsSpec(tp_size="4"), ParallelDimsSpec(tp_size=4.0),
    ParallelDimsSpec(tp_size=None), ParallelDimsSpec(dp_size=True),
    ParallelDimsSpec(pp_size=[2]), ParallelDimsSpec(sequence_parallel=1),
    ParallelDimsSpec(loss_parallel=None), ParallelDimsSpec(loss_parallel="yes"),
])
def test_build_wrong_types_raise_type_error(bad):
    with pytest.raises(TypeError):
        build_offline_mesh(bad)


@pytest.mark.parametrize("kwargs,fragment", [
    ({"tp_size": -1}, "tp_size must be >= 0, got -1"),
    ({"dp_size": -5}, "dp_size must be >= 0, got -5"),
    ({"ep_size": -1}, "ep_size"),
    ({"pp_size": 2**31}, "pp_size must be at most 2147483647"),
    ({"cp_size": 2**70}, "cp_size = 1180591620717411303424 is out of range"),
    ({"dp_size": 2**16, "tp_size": 2**16}, r"exceeds 2\^31-1"),
])
def test_build_invalid_values_raise_value_error(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        build_offline_mesh(ParallelDimsSpec(**kwargs))


def test_build_wrong_arity():
    with pytest.raises(TypeError):
        build_offline_mesh()
    with pytest.raises(TypeError):
        build_offline_mesh(ParallelDimsSpec(), ParallelDimsSpec())


# ---- YAML ----

def test_parse_basic_and_derived_dp():
    spec = parse_parallel_dims("accelerator:\n  tp_size: 2\n  cp_size: 2\n",
                               world_size=16)
    assert spec == ParallelDimsSpec(dp_size=4, tp_size=2, cp_size=2)
    assert type(spec) is ParallelDimsSpec


def test_parse_full_config_flags_and_other_keys():
    text = """
model: {hidden: 4096}     # ignored
accelerator:
  tp_size: 4
  pp_size: 2
  ep_size: 8
  sequence_parallel: yes
  loss_parallel: On
  unknown_key: 3          # ignored
"""
    with pytest.warns(offline_mesh.ConfigWarning, match='^line 9: unknown key "unknown_key"'):
        spec = parse_parallel_dims(text, world_size=64)
    assert spec == ParallelDimsSpec(dp_size=8, tp_size=4, pp_size=2, ep_size=8,
                                    sequence_parallel=True, loss_parallel=True)
    assert build_offline_mesh(spec) == OfflineMesh(("dp", "cp", "tp", "pp"),
                                                   (8, 1, 4, 2))


def test_parse_yaml_features():
    text = ("base: &base\r\n  tp_size: 2\r\n  cp_size: 2\r\n"
            "accelerator:\r\n  <<: *base\r\n  tp_size: 4\r\n  # commentaire\r\n")
    assert parse_parallel_dims(text, world_size=32) == \
        ParallelDimsSpec(dp_size=4, tp_size=4, cp_size=2)
    assert parse_parallel_dims("accelerator: {tp_size: 4, dp_size: 2}") == \
        ParallelDimsSpec(dp_size=2, tp_size=4)
    with pytest.warns(offline_mesh.ConfigWarning, match="^no accelerator section: every size"):
        assert parse_parallel_dims("other: 1\n") == ParallelDimsSpec()
    with pytest.warns(offline_mesh.ConfigWarning, match="^line 1: the accelerator section is empty"):
        assert parse_parallel_dims("accelerator:\n") == ParallelDimsSpec()
    assert parse_parallel_dims(b"accelerator: {tp_size: 2}", world_size=4) == \
        ParallelDimsSpec(dp_size=2, tp_size=2)
    assert parse_parallel_dims("name: \"données\"\naccelerator: {tp_size: 2}",
                               world_size=2) == ParallelDimsSpec(dp_size=1, tp_size=2)


def test_world_size_from_environment_in_order(monkeypatch):
    text = "accelerator: {tp_size: 2}"
    monkeypatch.setenv("SLURM_NTASKS", "32")
    assert parse_parallel_dims(text).dp_size == 16
    monkeypatch.setenv("PMI_SIZE", "16")
    assert parse_parallel_dims(text).dp_size == 8
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "8")
    assert parse_parallel_dims(text).dp_size == 4
    monkeypatch.setenv("WORLD_SIZE", "4")
    assert parse_parallel_dims(text).dp_size == 2
    assert parse_parallel_dims(text, world_size=12).dp_size == 6  # explicit wins
    assert parse_parallel_dims(text, None).dp_size == 2


def test_world_size_absent_everywhere_is_one():
    with pytest.raises(ValueError, match=r"world size 1 \(the default: .*\) is not divisible by tp"):
        parse_parallel_dims("accelerator: {tp_size: 2}")
    assert parse_parallel_dims("accelerator: {tp_size: 1}") == ParallelDimsSpec()


@pytest.mark.parametrize("value", ["abc", "0", "-4", "4.0", ""])
def test_bad_environment_value_names_the_variable(monkeypatch, value):
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", value)
    with pytest.raises(ValueError, match="OMPI_COMM_WORLD_SIZE"):
        parse_parallel_dims("accelerator: {tp_size: 1}")


@pytest.mark.parametrize("text,world,fragment", [
    ('accelerator:\n  tp_size: "2"\n', 8, 'line 2: tp_size must be an integer'),
    ("accelerator:\n  tp_size: 2.5\n", 8, "line 2: tp_size must be an integer, got float 2.5"),
    ("accelerator:\n  tp_size: true\n", 8, "tp_size must be an integer, got boolean"),
    ("accelerator:\n  tp_size: 0\n", 8, "line 2: tp_size must be >= 1, got 0"),
    ("accelerator:\n  cp_size: -2\n", 8, "cp_size must be >= 1, got -2"),
    ("accelerator:\n  pp_size: 4294967296\n", 8, "pp_size must be at most 2147483647"),
    ("accelerator:\n  sequence_parallel: 1\n", 8, "sequence_parallel must be a boolean"),
    ("accelerator:\n  tp_size: 4\n", 6, "world size 6 is not divisible by tp\\*cp\\*pp = 4"),
    ("accelerator:\n  tp_size: 4\n  dp_size: 3\n", 8, "does not equal the world size 8"),
    ("accelerator: [1, 2]\n", 8, "accelerator must be a mapping"),
    ("accelerator: {tp_size: 2\n", 8, "line 2 column 1: did not find expected"),
    ("a: *missing\n", 8, "undefined alias"),
])
def test_invalid_yaml_raises_value_error_with_the_librarys_message(text, world, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_parallel_dims(text, world_size=world)


def test_world_size_zero_is_not_given_and_negative_is_the_librarys_error(monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "6")
    assert parse_parallel_dims("accelerator: {tp_size: 2}", world_size=0).dp_size == 3
    for world in (-1, -8):
        with pytest.raises(offline_mesh.OfflineMeshError) as info:
            parse_parallel_dims("accelerator: {tp_size: 1}", world_size=world)
        assert info.value.status is offline_mesh.Status.INVALID_ARGUMENT
        assert str(info.value) == f"world size must be >= 1 (or 0 to discover it), got {world}"


@pytest.mark.parametrize("world", ["8", 8.0, True, [8]])
def test_world_size_wrong_type(world):
    with pytest.raises(TypeError):
        parse_parallel_dims("accelerator: {tp_size: 1}", world_size=world)


def test_world_size_too_large():
    with pytest.raises(ValueError):
        parse_parallel_dims("accelerator: {tp_size: 1}", world_size=2**31)
    with pytest.raises(ValueError, match="out of range"):
        parse_parallel_dims("accelerator: {tp_size: 1}", world_size=2**64)


@pytest.mark.parametrize("text", [None, 42, ["accelerator: {tp_size: 1}"]])
def test_parse_wrong_text_type(text):
    with pytest.raises(TypeError):
        parse_parallel_dims(text)


def test_load_from_file_str_pathlike_and_bytes(tmp_path):
    path = tmp_path / "train.yaml"
    path.write_text("accelerator:\n  tp_size: 4\n  cp_size: 2\n")
    expected = ParallelDimsSpec(dp_size=2, tp_size=4, cp_size=2)
    assert load_parallel_dims(path, world_size=16) == expected
    assert load_parallel_dims(str(path), world_size=16) == expected
    assert load_parallel_dims(os.fsencode(path), 16) == expected
    assert load_parallel_dims(path=pathlib.PurePath(path), world_size=16) == expected


def test_load_errors(tmp_path):
    missing = tmp_path / "missing.yaml"
    with pytest.raises(OSError, match="missing.yaml") as info:
        load_parallel_dims(missing)
    assert not isinstance(info.value, ValueError)
    with pytest.raises(OSError, match="directory"):
        load_parallel_dims(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("accelerator:\n  tp_size: [4]\n")
    with pytest.raises(ValueError, match="bad.yaml"):
        load_parallel_dims(bad, world_size=8)
    for wrong in (None, 3, ["a.yaml"]):
        with pytest.raises(TypeError):
            load_parallel_dims(wrong)
    with pytest.raises(ValueError):
        load_parallel_dims("a\0b.yaml")
