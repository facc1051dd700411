"""offline-mesh launch --format slurm against the real Slurm srun.

Every case of tests/slurm/slurm.json was recorded by tests/slurm/generate.py
on a private Slurm 22.05 cluster of four slurmd on one machine (nodes
sn10, sn2, sn0, sn1 in slurm.conf; slurmctld orders them by name: sn0, sn1,
sn2, sn10): `srun -N N --ntasks-per-node P --distribution=block`, or with
hosts `srun --distribution=arbitrary` with the plan's own hostfile as
SLURM_HOSTFILE, each task dumping its environment. For every task, every
variable the plan gives has srun's value (SLURM_NODEID included: see
test_nodeid_follows_slurms_node_order) and the task ran on the plan's host.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
VECTORS = os.environ.get("OFFLINE_MESH_SLURM_VECTORS", os.path.join(
    os.path.dirname(__file__), "..", "slurm", "slurm.json"))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")

with open(VECTORS) as f:
    DOC = json.load(f)
NODE_ORDER = DOC["slurm_node_order"]  # slurmctld's node table, as recorded


def launch(case):
    args = ["launch", "--mesh", f"dp={case['nnodes'] * case['nproc_per_node']}",
            "--nnodes", str(case["nnodes"]), "--nproc-per-node",
            str(case["nproc_per_node"]), "--format", "slurm"]
    if case["hosts"]:
        args += ["--hosts", ",".join(case["hosts"])]
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    r = subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return json.loads(r.stdout)


def in_order(hosts, order):
    return sorted(hosts, key=order.index) == hosts


def test_vectors_name_their_slurm():
    assert DOC["slurm_version"].startswith("slurm-wlm 22.")
    shapes = {(c["nnodes"], c["nproc_per_node"]) for c in DOC["cases"]}
    assert {(1, 1), (1, 4), (2, 2), (3, 2), (4, 2)} <= shapes
    # slurm.conf lists the nodes out of name order, so the recording tells
    # Slurm's numbering by name from a numbering in slurm.conf order.
    conf = DOC["slurm_conf_nodes"]
    assert sorted(NODE_ORDER) == sorted(conf) and NODE_ORDER != conf
    hosts = [c["hosts"] for c in DOC["cases"] if c["hosts"]]
    assert any(not in_order(h, NODE_ORDER) for h in hosts)
    assert any(in_order(h, conf) and not in_order(h, NODE_ORDER) for h in hosts)


def ids(case):
    return "{}x{}-{}".format(case["nnodes"], case["nproc_per_node"],
                             ",".join(case["hosts"] or ["block"]))


@pytest.mark.parametrize("case", DOC["cases"], ids=ids)
def test_every_task_equals_srun(case):
    plan = launch(case)
    assert plan.get("hostfile") == case["hostfile"]  # the file srun ran
    names = case["hosts"] or NODE_ORDER  # srun -N N takes the first N nodes
    for want in case["processes"]:
        (node, got), = [(n, p) for n in plan["nodes"] for p in n["processes"]
                        if p["rank"] == want["rank"]]
        # srun ran the task on the plan's host.
        assert want["set"]["SLURMD_NODENAME"] == names[node["node_rank"]]
        for name, value in got["env"].items():
            assert want["set"].get(name) == value, name


@pytest.mark.parametrize("case", [c for c in DOC["cases"] if c["hosts"]], ids=ids)
def test_nodeid_follows_slurms_node_order(case):
    """srun numbers a step's nodes in slurmctld's node order (by name),
    whatever the hostfile's order, and so does the plan: its SLURM_NODEID
    is the node rank only when --hosts follow that order."""
    plan = launch(case)
    in_step = sorted(case["hosts"], key=NODE_ORDER.index)
    for want in case["processes"]:
        host = want["set"]["SLURMD_NODENAME"]
        assert want["set"]["SLURM_NODEID"] == str(in_step.index(host))
        (node, got), = [(n, p) for n in plan["nodes"] for p in n["processes"]
                        if p["rank"] == want["rank"]]
        assert got["env"]["SLURM_NODEID"] == want["set"]["SLURM_NODEID"]
        assert (got["env"]["SLURM_NODEID"] == str(node["node_rank"])) == \
            in_order(case["hosts"], NODE_ORDER)
