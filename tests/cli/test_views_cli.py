"""groups, coord, dump, show and locality on views (--view NAME with
--world FILE or --preset NAME --param K=V...).

Every result of tests/vectors/layout.json (computed by running torch's
DeviceMesh) is written as a world file and read back through the CLI:
groups of every axis and the coordinate of every rank must equal the
vector exactly; so must the results of the random chains recorded from
torch in tests/torch_layout/layout.json. The preset worlds are checked against the preset vectors
(torchtitan and hyper-parallel list groups ascending, as the library
does). Errors exit 1 (usage errors 2) with one "offline-mesh: error:" line
and nothing on stdout.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
VECTORS = os.environ.get(
    "OFFLINE_MESH_VECTORS",
    os.path.join(os.path.dirname(__file__), "..", "vectors"))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def run(*args):
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def ok_json(*args):
    p = run(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    return json.loads(p.stdout)


def fails(code, needle, *args):
    p = run(*args)
    assert p.returncode == code, (p.stdout, p.stderr)
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("offline-mesh: error: "), p.stderr
    assert needle in lines[0], lines[0]


def layout_results():
    with open(os.path.join(VECTORS, "layout.json")) as f:
        doc = json.load(f)
    for i, case in enumerate(doc["cases"]):
        if "result" in case:
            yield pytest.param(case, id=f"layout-{i}")


TORCH_LAYOUT = os.path.join(os.path.dirname(__file__), "..", "torch_layout", "layout.json")


def torch_layout_results():
    with open(TORCH_LAYOUT) as f:
        doc = json.load(f)
    for i, case in enumerate(doc["cases"]):
        if "result" in case:
            yield pytest.param(case, id=f"torch-layout-{i}")


@pytest.mark.parametrize("case", list(torch_layout_results()))
def test_torch_layout_result_through_the_cli(case, tmp_path):
    """The random chains recorded from torch (tests/torch_layout): the view
    record as a world file (a family's "instances" included), its groups
    of every axis and, from dump, every rank's coordinate."""
    result = case["result"]
    record = {k: result[k] for k in ("dim_names", "shape", "layout", "instances")}
    world = tmp_path / "world.json"
    world.write_text(json.dumps({"views": {"v": record}, "world_size": case["world_size"]}))
    for axis, groups in result["groups"].items():
        assert ok_json("groups", "--world", str(world), "--view", "v", "--dims", axis) == groups
    p = run("dump", "--world", str(world), "--view", "v")
    assert p.returncode == 0, p.stderr
    coords = {x["rank"]: x["coord"] for x in map(json.loads, p.stdout.splitlines()) if "rank" in x}
    assert coords == {r: dict(zip(result["dim_names"], c))
                      for r, c in enumerate(result["coords"]) if c is not None}


@pytest.mark.parametrize("case", list(layout_results()))
def test_layout_result_through_the_cli(case, tmp_path):
    result = case["result"]
    record = {k: result[k] for k in ("dim_names", "shape", "layout", "instances")}
    world = tmp_path / "world.json"
    world.write_text(json.dumps({"views": {"v": record},
                                 "world_size": case["world_size"]}))
    for axis, groups in result["groups"].items():
        assert ok_json("groups", "--world", str(world), "--view", "v",
                       "--dims", axis) == groups
    for rank, coord in enumerate(result["coords"]):
        got = ok_json("coord", "--world", str(world), "--view", "v",
                      "--rank", str(rank))
        assert got == dict(zip(result["dim_names"], coord))
    # dump: one line per rank the view holds, with its coordinate
    p = run("dump", "--world", str(world), "--view", "v")
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    ranks = [x["rank"] for x in lines if "rank" in x]
    assert ranks == [r for r, c in enumerate(result["coords"]) if c is not None]
    for x in lines:
        if "rank" in x:
            assert x["coord"] == dict(zip(result["dim_names"],
                                          result["coords"][x["rank"]]))


def test_views_output_is_a_world_file(tmp_path):
    """What `offline-mesh views` prints is accepted by --world."""
    p = run("views", "--preset", "hyper-parallel", "--world-size", "16",
            "--param", "accelerator.tp_size=2", "--param", "accelerator.pp_size=2",
            "--param", "fsdp_config.dp_shard_size=2")
    assert p.returncode == 0, p.stderr
    world = tmp_path / "hp.json"
    world.write_text(p.stdout)
    doc = json.loads(p.stdout)
    for name, view in doc["views"].items():
        for axis, groups in view["groups"].items():
            assert ok_json("groups", "--world", str(world), "--view", name,
                           "--dims", axis) == groups
            assert ok_json("groups", "--preset", "hyper-parallel", "--world-size",
                           "16", "--param", "accelerator.tp_size=2",
                           "--param", "accelerator.pp_size=2",
                           "--param", "fsdp_config.dp_shard_size=2",
                           "--view", name, "--dims", axis) == groups
    # rank 13 is in PP stage 1: its device coordinate is taken in [8, 16)
    assert ok_json("coord", "--world", str(world), "--view", "device",
                   "--rank", "13") == {"cp": 0, "dp": 2, "tp": 1}


@pytest.mark.parametrize("preset,params", [
    ("torchtitan", ["--param", "dp_shard=4", "--param", "tp=2", "--param", "ep=4"]),
    ("megatron", ["--param", "tensor_model_parallel_size=2",
                  "--param", "expert_model_parallel_size=4"]),
])
def test_views_layouts_is_the_world_json(tmp_path, preset, params):
    """views --layouts prints the world JSON alone: every view's layout and
    instances, no groups or coordinates; --world reads it back to the same
    groups, and it stays small where the full document does not."""
    full = ok_json("views", "--preset", preset, "--world-size", "8", *params)
    p = run("views", "--preset", preset, "--world-size", "8", *params, "--layouts")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    doc = json.loads(p.stdout)
    assert doc["world_size"] == 8 and sorted(doc["views"]) == sorted(full["views"])
    world = tmp_path / "w.json"
    world.write_text(p.stdout)
    for name, view in doc["views"].items():
        assert not {"groups", "coords"} & set(view)
        for axis in view["dim_names"]:
            assert ok_json("groups", "--world", str(world), "--view", name,
                           "--dims", axis) == ok_json(
                "groups", "--preset", preset, "--world-size", "8", *params,
                "--view", name, "--dims", axis)
    big = ["--param", "dp_shard=-1", "--param", "tp=8"]
    p = run("views", "--preset", "torchtitan", "--world-size", str(1 << 20), *big, "--layouts")
    assert p.returncode == 0, p.stderr
    assert len(p.stdout) < 16 << 20  # the full document: hundreds of MB
    world.write_text(p.stdout)
    assert ok_json("coord", "--world", str(world), "--view", "dense",
                   "--rank", str((1 << 20) - 1)) == ok_json(
        "coord", "--preset", "torchtitan", "--world-size", str(1 << 20), *big,
        "--view", "dense", "--rank", str((1 << 20) - 1))


def test_views_layouts_usage():
    fails(2, "cannot be combined", "views", "--preset", "torchtitan", "--single-axes",
          "--layouts")


def preset_cases(stem):
    with open(os.path.join(VECTORS, stem + ".json")) as f:
        doc = json.load(f)
    for i, case in enumerate(doc["cases"]):
        if "views" in case:
            yield pytest.param(case, id=f"{stem}-{i}")


def param_args(params):
    args = []
    for key, value in params.items():
        text = value if isinstance(value, str) else json.dumps(value)
        args += ["--param", f"{key}={text}"]
    return args


@pytest.mark.parametrize("case", list(preset_cases("torchtitan")))
def test_torchtitan_views_through_the_cli(case):
    params = dict(case["params"])
    world = str(params.pop("world_size"))
    for name, view in case["views"].items():
        for axis, groups in view["groups"].items():
            got = ok_json("groups", "--preset", "torchtitan", "--world-size", world,
                          *param_args(params), "--view", name, "--dims", axis)
            assert got == groups, (name, axis)


def test_locality_and_show_on_a_view():
    args = ["--preset", "torchtitan", "--world-size", "8", "--param", "dp_shard=2",
            "--param", "cp=2", "--param", "tp=2", "--param", "ep=4"]
    got = ok_json("locality", *args, "--view", "sparse", "--dims", "ep",
                  "--dims", "efsdp", "--ranks-per-host", "4")
    assert got == {"hosts": 2, "ranks_per_host": 4, "report": [
        {"axes": ["ep"], "cross_host_groups": 0, "groups": 2, "local_groups": 2,
         "max_hosts": 1},
        {"axes": ["efsdp"], "cross_host_groups": 4, "groups": 4, "local_groups": 0,
         "max_hosts": 2}]}
    p = run("show", *args, "--view", "loss", "--color-by", "loss_mesh")
    assert p.returncode == 0, p.stderr
    assert "mesh loss_mesh=4: 4 ranks" in p.stdout
    # the instance drawn is the one at the view's first rank: 0 2 4 6
    assert "0a" in p.stdout and "6a" in p.stdout and "1a" not in p.stdout


def test_view_errors(tmp_path):
    world = tmp_path / "w.json"
    world.write_text(json.dumps({"views": {"v": {"dim_names": ["tp"], "shape": [2],
                                                 "layout": [[[2, 1]]]}}}))
    fails(1, "no view 'x' in the world (v)", "groups", "--world", str(world),
          "--view", "x", "--dims", "tp")
    fails(1, "axis \"dp\" is not in the mesh (tp)", "groups", "--world", str(world),
          "--view", "v", "--dims", "dp")
    fails(1, "rank 5 is outside the mesh of 2 ranks", "coord", "--world", str(world),
          "--view", "v", "--rank", "5")
    fails(2, "--view needs --world FILE or --preset NAME", "groups", "--view", "v",
          "--dims", "tp")
    fails(2, "need --view NAME", "groups", "--world", str(world), "--dims", "tp")
    fails(2, "cannot be combined with --mesh", "groups", "--world", str(world),
          "--view", "v", "--mesh", "tp=2", "--dims", "tp")
    fails(2, "--world FILE cannot be combined", "groups", "--world", str(world),
          "--preset", "torchtitan", "--view", "v", "--dims", "tp")
    fails(2, "--param needs KEY=VALUE", "groups", "--preset", "torchtitan",
          "--param", "tp", "--view", "v", "--dims", "tp")
    fails(1, "cannot", "groups", "--world", str(tmp_path / "missing.json"),
          "--view", "v", "--dims", "tp")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"views": {
        "a": {"dim_names": ["x", "y"], "shape": [2, 2], "layout": [[[2, 2]], [[2, 1]]]},
        "b": {"dim_names": ["x", "z"], "shape": [2, 2], "layout": [[[2, 1]], [[2, 2]]]}}}))
    fails(1, "views 'a' and 'b' disagree on axis 'x': rank 0 is in [0, 2] in 'a' "
             "and in [0, 1] in 'b'", "groups", "--world", str(bad), "--view", "a",
          "--dims", "x")
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"views": {"v": {"dim_names": ["x"], "shape": [4],
                                               "layout": [[[4, 1]]]}},
                               "world_size": 2}))
    fails(1, "view 'v' reaches rank 3, world size is 2", "groups", "--world",
          str(big), "--view", "v", "--dims", "x")
    fails(1, "ep (3) must divide", "groups", "--preset", "torchtitan",
          "--world-size", "4", "--param", "dp_shard=2", "--param", "tp=2",
          "--param", "ep=3", "--view", "sparse", "--dims", "ep")
