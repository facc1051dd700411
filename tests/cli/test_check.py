"""offline-mesh check CONFIG.yaml: a JSON verdict a script can read.

Every rule is tried; each broken one is listed under "violations", "ok" is
false and the exit status 1, with one error line on stderr (the same line
as check --preset). A config that cannot be read is an ordinary error:
nothing on stdout.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
EXAMPLES = os.environ.get("OFFLINE_MESH_EXAMPLES", "examples")
EXAMPLE = os.path.join(EXAMPLES, "train.yaml")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")
FAILED_LINE = ('offline-mesh: error: check failed: the verdict on stdout lists '
               'each broken rule under "violations"\n')


def run(*args):
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                          timeout=60)


def verdict(r, code):
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    out = json.loads(r.stdout)
    # Canonical spelling: keys sorted, no spaces.
    assert r.stdout == json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n"
    assert r.stderr == ("" if code == 0 else FAILED_LINE)
    return out


@pytest.fixture
def config(tmp_path):
    def write(text):
        path = tmp_path / "train.yaml"
        path.write_text(text)
        return str(path)
    return write


def test_passing_verdict_is_unchanged_plus_an_empty_list():
    r = run("check", EXAMPLE, "--world-size", "8", "--num-experts", "8")
    assert verdict(r, 0) == {
        "dims": {"cp_size": 2, "dp_size": 2, "ep_size": 2, "loss_parallel": True,
                 "pp_size": 1, "sequence_parallel": True, "tp_size": 2},
        "experts": {"edp": 4, "ep": 2},
        "mesh": {"mesh_dim_names": ["dp", "cp", "tp"], "mesh_shape": [2, 2, 2]},
        "ok": True, "plan_dim_names": ["cp", "tp"], "violations": []}


def test_one_broken_rule():
    r = run("check", EXAMPLE, "--world-size", "8", "--num-experts", "3")
    out = verdict(r, 1)
    assert out["ok"] is False
    assert out["violations"] == ["num_experts 3 is not divisible by ep_size 2"]
    # What could be computed is still reported.
    assert out["mesh"] == {"mesh_dim_names": ["dp", "cp", "tp"], "mesh_shape": [2, 2, 2]}
    assert out["plan_dim_names"] == ["cp", "tp"]


def test_every_broken_rule_not_only_the_first(config):
    path = config("accelerator: {pp_size: 2, ep_size: 3}\n")
    out = verdict(run("check", path, "--world-size", "8", "--num-experts", "4"), 1)
    assert out["violations"] == [
        "pp_size 2 > 1 is not supported with extended expert parallelism",
        "ep_size 3 does not divide the dense region of 4 ranks",
        "num_experts 4 is not divisible by ep_size 3"]
    assert "experts" not in out
    assert out["mesh"]["mesh_shape"] == [4, 1, 1, 2]


def test_world_size_and_experts_both_reported(config):
    path = config("accelerator: {tp_size: 3, ep_size: 4}\n")
    out = verdict(run("check", path, "--world-size", "10", "--num-experts", "6"), 1)
    # Without a world size there are no dims, mesh or plan to show.
    assert out == {"ok": False, "violations": [
        "world size 10 is not divisible by tp*cp*pp = 3",
        "num_experts 6 is not divisible by ep_size 4"]}


def test_world_size_from_the_environment_is_named(config):
    path = config("accelerator: {tp_size: 4}\n")
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    env["WORLD_SIZE"] = "6"
    r = subprocess.run([CLI, "check", path], capture_output=True, text=True, env=env)
    assert r.returncode == 1 and r.stderr == FAILED_LINE
    assert json.loads(r.stdout)["violations"] == [
        "world size 6 (from WORLD_SIZE) is not divisible by tp*cp*pp = 4"]


def test_expert_layout_that_does_not_divide(config):
    path = config("accelerator: {tp_size: 2, ep_size: 3}\n")
    out = verdict(run("check", path, "--world-size", "4"), 1)
    assert out["violations"] == ["ep_size 3 does not divide the dense region of 4 ranks"]
    assert out["dims"]["dp_size"] == 2


def test_unreadable_config_is_an_error_not_a_verdict(tmp_path):
    r = run("check", str(tmp_path / "missing.yaml"), "--world-size", "8")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("offline-mesh: error: ") and r.stderr.count("\n") == 1
    assert "missing.yaml" in r.stderr


def test_check_takes_no_mesh():
    r = run("check", "--mesh", "dp=2")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("offline-mesh: error: unknown option \"--mesh\" for 'check' "
                        "(it takes --world-size, --num-experts, --strict)\n")


def test_check_preset_fails_the_same_way():
    r = run("check", "--preset", "megatron", "--param",
            "tensor_model_parallel_size=3", "--world-size", "8")
    assert r.returncode == 1
    assert r.stderr == FAILED_LINE
    out = json.loads(r.stdout)
    # etp defaults to tp: the expert generator's own rule fails too.
    assert out["ok"] is False and out["violations"] == [
        "world_size (8) is not divisible by 3",
        "world_size (8) is not divisible by "
        "expert_tensor_model_pipeline_parallel size (3)"]
