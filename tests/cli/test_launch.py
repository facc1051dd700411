"""offline-mesh launch: the contract for scripts.

The torchrun environment expected here restates, variable by variable, what
torch 2.15's `python -m torch.distributed.run --rdzv-backend=static` gives a
worker started from an environment without OMP_NUM_THREADS,
TORCH_NCCL_ASYNC_ERROR_HANDLING and CUDA_VISIBLE_DEVICES:
LocalElasticAgent._start_workers (worker_env and _set_local_rank_env),
SimpleElasticAgent._assign_worker_ranks (one role, base rank K*P),
launcher.api.launch_agent (TORCHELASTIC_SIGNALS_TO_HANDLE in the launcher's
environment) and run.config_from_args (OMP_NUM_THREADS=1 when P > 1,
defaults --master-addr 127.0.0.1, --master-port 29500, --rdzv-id none,
--role default, --max-restarts 0). TORCHELASTIC_ERROR_FILE, a new temporary
path per run, is the one variable a plan cannot reproduce.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def run(*args):
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def ok(*args):
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    return json.loads(r.stdout)


def torchrun_env(nnodes, node_rank, nproc, local_rank, addr="127.0.0.1",
                 port=29500):
    rank = node_rank * nproc + local_rank
    env = {
        "RANK": rank, "GROUP_RANK": node_rank, "ROLE_RANK": rank,
        "ROLE_NAME": "default", "LOCAL_WORLD_SIZE": nproc,
        "WORLD_SIZE": nnodes * nproc, "GROUP_WORLD_SIZE": nnodes,
        "ROLE_WORLD_SIZE": nnodes * nproc, "MASTER_ADDR": addr,
        "MASTER_PORT": port, "TORCHELASTIC_RESTART_COUNT": 0,
        "TORCHELASTIC_MAX_RESTARTS": 0, "TORCHELASTIC_RUN_ID": "none",
        "TORCHELASTIC_USE_AGENT_STORE": True,
        "TORCH_NCCL_ASYNC_ERROR_HANDLING": 1, "LOCAL_RANK": local_rank,
        "TORCHELASTIC_SIGNALS_TO_HANDLE": "SIGTERM,SIGINT,SIGHUP,SIGQUIT",
    }
    if nproc > 1:
        env["OMP_NUM_THREADS"] = 1
    return {k: str(v) for k, v in env.items()}


@pytest.mark.parametrize("mesh,nnodes,nproc", [
    ("dp=2,tp=4", 2, 4), ("dp=3", 3, 1), ("pp=2,dp=2,tp=2", 1, 8),
    ("dp=4,cp=3", 4, 3),
])
def test_torchrun_every_process(mesh, nnodes, nproc):
    out = ok("launch", "--mesh", mesh, "--nnodes", str(nnodes),
             "--nproc-per-node", str(nproc))
    assert list(out) == ["nodes", "not_reproduced"]
    assert [n["node_rank"] for n in out["nodes"]] == list(range(nnodes))
    for node in out["nodes"]:
        k = node["node_rank"]
        assert node["ranks"] == list(range(k * nproc, (k + 1) * nproc))
        assert [p["local_rank"] for p in node["processes"]] == list(range(nproc))
        for p in node["processes"]:
            assert p["rank"] == k * nproc + p["local_rank"]
            assert p["env"] == torchrun_env(nnodes, k, nproc, p["local_rank"])
            assert all(isinstance(v, str) for v in p["env"].values())


def test_torchrun_master_addr_port(tmp_path):
    cfg = tmp_path / "train.yaml"
    cfg.write_text("accelerator:\n  tp_size: 2\n")
    out = ok("launch", str(cfg), "--world-size", "4", "--nnodes", "2",
             "--nproc-per-node", "2", "--master-addr", "head-0",
             "--master-port", "6000")
    p = out["nodes"][1]["processes"][1]
    assert p["env"] == torchrun_env(2, 1, 2, 1, "head-0", 6000)


def test_hosts_keep_the_given_order():
    out = ok("launch", "--mesh", "dp=4", "--nnodes", "4", "--nproc-per-node", "1",
             "--hosts", "node66,node7,node70,node8")
    assert [n["host"] for n in out["nodes"]] == ["node66", "node7", "node70",
                                                  "node8"]


def test_hostfile_advised_order(tmp_path):
    hf = tmp_path / "hosts"
    hf.write_text("gb-01 slots=4 nvl=a\ngb-02 slots=4 nvl=b\n"
                  "gb-03 slots=4 nvl=a\ngb-04 slots=4 nvl=b\n")
    out = ok("launch", "--mesh", "dp=4,tp=4", "--nnodes", "4",
             "--nproc-per-node", "4", "--hosts", str(hf))
    # The hosts of each NVLink domain get consecutive node ranks.
    assert [n["host"] for n in out["nodes"]] == ["gb-01", "gb-03", "gb-02",
                                                  "gb-04"]


def test_slurm():
    out = ok("launch", "--mesh", "dp=2,tp=2", "--nnodes", "2", "--nproc-per-node",
             "2", "--format", "slurm", "--hosts", "x,y")
    assert out["hostfile"] == "x\nx\ny\ny\n"
    p = out["nodes"][1]["processes"][0]
    assert p["env"] == {"SLURM_PROCID": "2", "SLURM_LOCALID": "0",
                        "SLURM_NODEID": "1", "SLURM_NTASKS": "4",
                        "SLURM_NNODES": "2", "SLURMD_NODENAME": "y"}


def test_openmpi():
    out = ok("launch", "--mesh", "dp=2,tp=2", "--nnodes", "2", "--nproc-per-node",
             "2", "--format", "openmpi")
    assert out["rankfile"] == ("rank 0=+n0 slot=0\nrank 1=+n0 slot=1\n"
                               "rank 2=+n1 slot=0\nrank 3=+n1 slot=1\n")
    assert out["nodes"][0]["processes"][1]["env"]["OMPI_COMM_WORLD_LOCAL_RANK"] == "1"


def test_every_violation_at_once():
    r = run("launch", "--mesh", "dp=2,cp=2,tp=4", "--nnodes", "3",
            "--nproc-per-node", "4", "--hierarchy", "host=8,nvl=10",
            "--require", "tp:host,dp+tp:host")
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 4, r.stderr
    assert all(line.startswith("offline-mesh: error: ") for line in lines)
    assert "world size 16 (the mesh) is not nnodes*nproc_per_node = 3*4 = 12" in lines[0]
    assert "level host has 8 ranks per domain but nproc_per_node is 4" in lines[1]
    assert "node 2 straddles two nvl domains" in lines[2]
    assert "dp+tp:host broken: dp+tp group 0" in lines[3]


def test_require_holds_with_implied_host_level():
    out = ok("launch", "--mesh", "dp=2,tp=4", "--nnodes", "2", "--nproc-per-node",
             "4", "--require", "tp:host")
    assert len(out["nodes"]) == 2


@pytest.mark.parametrize("args,code,match", [
    (["--nnodes", "2"], 2, "needs --nnodes N and --nproc-per-node P"),
    (["--nnodes", "2", "--nproc-per-node", "2", "--format", "mpich"], 2,
     "unknown launch format \"mpich\""),
    (["--nnodes", "2", "--nproc-per-node", "2", "--master-port", "70000"], 1,
     "--master-port must be 1..65535"),
    (["--nnodes", "2", "--nproc-per-node", "2", "--master-addr", "a b"], 1,
     "master address \"a b\""),
    (["--nnodes", "2", "--nproc-per-node", "2", "--master-addr", "fe80::1%eth0"], 1,
     "master address \"fe80::1%eth0\" is refused by torchrun's static rendezvous"),
    (["--nnodes", "2", "--nproc-per-node", "2", "--hosts", "a,a"], 1,
     "host \"a\" is listed twice"),
    (["--nnodes", "2", "--nproc-per-node", "2", "--hosts", "a"], 1,
     "1 hosts given for 2 nodes"),
    (["--nnodes", "2", "--nproc-per-node", "2", "--require", "tp:rack"], 1,
     "unknown level \"rack\""),
    (["--nnodes", "0", "--nproc-per-node", "2"], 1, "--nnodes must be >= 1"),
])
def test_errors(args, code, match):
    r = run("launch", "--mesh", "dp=2,tp=2", *args)
    assert r.returncode == code, r.stderr
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("offline-mesh: error: ")
    assert match in lines[0], lines[0]
