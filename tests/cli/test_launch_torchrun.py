"""offline-mesh launch --format torchrun against the real torchrun.

Every case of tests/torchrun/torchrun.json was recorded by
tests/torchrun/generate.py running torch's `python -m torch.distributed.run
--rdzv-backend=static --nnodes N --node-rank K --nproc-per-node P` for every
node rank K, each worker dumping its environment. For every process, the
plan must give each variable torchrun set with torchrun's value, invent
none, and name every other one (a value torchrun picks at run time) in
"not_reproduced" with a rule the recorded values follow.
"""
import json
import os
import re
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
VECTORS = os.environ.get("OFFLINE_MESH_TORCHRUN_VECTORS", os.path.join(
    os.path.dirname(__file__), "..", "torchrun", "torchrun.json"))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")

with open(VECTORS) as f:
    DOC = json.load(f)

HOLES = {
    "{random}": "[a-z0-9_]{8}",
    "{uuid4}": "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
    "{free_port}": "[1-9][0-9]{0,4}",
}


def rule_regex(rule, local_rank):
    parts = re.split(r"(\{[a-z_0-9]+\})", rule)
    out = []
    for part in parts:
        if part == "{tmpdir}":
            out.append(re.escape(DOC["tmpdir"]))
        elif part == "{local_rank}":
            out.append(str(local_rank))
        elif part in HOLES:
            out.append(HOLES[part])
        else:
            assert "{" not in part, f"unknown placeholder in {rule!r}"
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z")


def launch(case, source):
    args = ["launch", *source, "--nnodes", str(case["nnodes"]),
            "--nproc-per-node", str(case["nproc_per_node"])]
    if case["master_addr"] is not None:
        args += ["--master-addr", case["master_addr"]]
    if case["master_port"] is not None:
        args += ["--master-port", str(case["master_port"])]
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    r = subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return json.loads(r.stdout)


def sources(case, tmp_path):
    """Mesh sources of the case's world size: a spec, and a config with and
    without a runtime order (the plan depends on the world size only)."""
    nnodes, nproc = case["nnodes"], case["nproc_per_node"]
    cfg = tmp_path / "train.yaml"
    cfg.write_text(f"accelerator:\n  tp_size: {nproc}\n")
    world = str(nnodes * nproc)
    return [["--mesh", f"dp={nnodes * nproc}"],
            [str(cfg), "--world-size", world],
            [str(cfg), "--world-size", world, "--order", "tp-cp-dp-pp"]]


def test_vectors_name_their_torch():
    assert DOC["torch_version"].startswith("2.")
    assert DOC["generator"] == "tests/torchrun/generate.py"
    shapes = {(c["nnodes"], c["nproc_per_node"]) for c in DOC["cases"]}
    assert {(1, 1), (1, 8), (2, 4), (3, 5), (4, 2)} <= shapes


@pytest.mark.parametrize("case", DOC["cases"], ids=lambda c: "{}x{}-{}-{}".format(
    c["nnodes"], c["nproc_per_node"], c["master_addr"], c["master_port"]))
def test_every_process_equals_torchrun(case, tmp_path):
    for source in sources(case, tmp_path):
        plan = launch(case, source)
        rules = plan["not_reproduced"]
        assert [n["node_rank"] for n in plan["nodes"]] == list(range(case["nnodes"]))
        for want in case["processes"]:
            node = plan["nodes"][want["node_rank"]]
            got = node["processes"][want["local_rank"]]
            assert node["ranks"][want["local_rank"]] == want["rank"] == got["rank"]
            assert got["local_rank"] == want["local_rank"]
            assert want["removed"] == []
            assert set(got["env"]) | set(rules) == set(want["set"])
            assert not set(got["env"]) - set(want["set"])
            for name, value in want["set"].items():
                if name in rules:
                    assert rule_regex(rules[name], want["local_rank"]).match(value), \
                        (name, value, rules[name])
                else:
                    assert got["env"][name] == value, name
            for name, values in want["run_dependent"].items():
                assert name in rules, name
                for value in values:
                    assert rule_regex(rules[name], want["local_rank"]).match(value)


def test_rule_regex_rejects_other_values():
    rule = "{tmpdir}/torchelastic_{random}/none_{random}/attempt_0/{local_rank}/error.json"
    good = f"{DOC['tmpdir']}/torchelastic_ab12cd_e/none_0123abcd/attempt_0/3/error.json"
    assert rule_regex(rule, 3).match(good)
    assert not rule_regex(rule, 2).match(good)
    assert not rule_regex(rule, 3).match(good.replace("none_", "run_"))
