"""offline-mesh launch --format openmpi against the real Open MPI mpirun.

Every case of tests/openmpi/openmpi.json was recorded by
tests/openmpi/generate.py: mpirun 4.1 started with the plan's own rankfile
on simulated nodes (one UTS namespace per host), each process dumping its
environment, host name and CPU affinity, and --display-map giving where
Open MPI put every rank. For every process, the plan must give each
variable mpirun set with mpirun's value, invent none, name every other one
(a value only the run knows) in "not_reproduced" with a rule the recorded
values follow, and its rankfile must have put the rank on the plan's host
and slot.
"""
import json
import os
import re
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
VECTORS = os.environ.get("OFFLINE_MESH_OPENMPI_VECTORS", os.path.join(
    os.path.dirname(__file__), "..", "openmpi", "openmpi.json"))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")

with open(VECTORS) as f:
    DOC = json.load(f)

HOLES = {
    "{int}": "[0-9]+", "{jobid}": "[0-9]+", "{hex16}": "[0-9a-f]{16}",
    "{uri}": r"[0-9]+\.[0-9]+;[a-z0-9]+://\S+", "{node_regex}": r"\S+",
    "{pmix_version}": r"[0-9]+\.[0-9]+\.[0-9]+\S*", "{args}": ".*",
}


def rule_regex(rule, proc):
    rule = rule.replace("{session_dir}",
                        "{tmpdir}/ompi.{hostname}.{uid}/{jobfam_dir}")
    known = {"{tmpdir}": DOC["tmpdir"], "{cwd}": DOC["cwd"],
             "{rankfile}": DOC["rankfile_path"], "{program}": DOC["program"],
             "{uid}": str(DOC["uid"]), "{hostname}": proc["hostname"],
             "{rank}": str(proc["rank"])}
    out = []
    for part in re.split(r"(\{[a-z_0-9]+\})", rule):
        if part in known:
            out.append(re.escape(known[part]))
        elif part == "{jobfam_dir}":
            out.append(r"(pid|jf)\.[0-9]+")
        elif part in HOLES:
            out.append(HOLES[part])
        else:
            assert "{" not in part, f"unknown placeholder in {rule!r}"
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z")


def launch(case, mesh):
    args = ["launch", "--mesh", mesh, "--nnodes", str(case["nnodes"]),
            "--nproc-per-node", str(case["nproc_per_node"]), "--format", "openmpi"]
    if case["hosts"]:
        args += ["--hosts", ",".join(case["hosts"])]
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    r = subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return json.loads(r.stdout)


def test_vectors_name_their_openmpi():
    assert DOC["openmpi_version"].startswith("mpirun (Open MPI) 4.1")
    assert DOC["generator"] == "tests/openmpi/generate.py"
    shapes = {(c["nnodes"], c["nproc_per_node"], c["hosts"] is None)
              for c in DOC["cases"]}
    assert {(1, 1, False), (1, 4, False), (2, 2, False), (2, 3, False),
            (3, 2, False), (4, 2, False), (2, 2, True)} <= shapes


def ids(case):
    return "{}x{}-{}{}".format(case["nnodes"], case["nproc_per_node"],
                               "hosts" if case["hosts"] else "allocation",
                               "-from-" + case["mpirun_host"]
                               if case["mpirun_host"] else "")


@pytest.mark.parametrize("case", DOC["cases"], ids=ids)
def test_every_process_equals_mpirun(case):
    nnodes, nproc = case["nnodes"], case["nproc_per_node"]
    names = case["hosts"] or case["allocation"]
    mca = {"OMPI_MCA_" + k: v for k, v in case["mca"].items()}
    for mesh in (f"dp={nnodes * nproc}", f"pp={nnodes},tp={nproc}"):
        plan = launch(case, mesh)
        assert plan["rankfile"] == case["rankfile"]  # the file mpirun ran
        rules = plan["not_reproduced"]
        where = {p["rank"]: (n["node_rank"], p) for n in plan["nodes"]
                 for p in n["processes"]}
        assert sorted(where) == list(range(nnodes * nproc))
        for want in case["processes"]:
            node, got = where[want["rank"]]
            local = got["local_rank"]
            # Open MPI put the rank on the plan's host and slot.
            assert want["hostname"] == want["map"]["host"] == names[node]
            assert want["map"]["core"] == local
            if want["cpus"] is not None:
                assert want["cpus"] == [local]
            assert want["removed"] == []
            assert not set(got["env"]) - set(want["set"])  # nothing invented
            for name, value in want["set"].items():
                if name in mca:  # the recording's own --mca options
                    assert value == mca[name]
                elif name == "OMPI_UNIVERSE_SIZE" and case["mpirun_host"]:
                    # mpirun's own host is in the allocation, with its cores.
                    assert int(value) == int(got["env"][name]) + DOC["cpu_count"]
                elif name in rules:
                    assert rule_regex(rules[name], want).match(value), \
                        (name, value, rules[name])
                else:
                    assert got["env"].get(name) == value, name
            for name, values in want["run_dependent"].items():
                assert name in rules or name in mca, name
                for value in values:
                    assert name in mca or rule_regex(rules[name], want).match(value)


def test_relative_hosts_need_an_allocation():
    """Without hosts the rankfile says "+nK", which mpirun refuses unless a
    resource manager gave the allocation (the cases above with an
    "allocation" ran inside one)."""
    (refused,) = DOC["refused"]
    plan = launch({"nnodes": refused["nnodes"], "hosts": None,
                   "nproc_per_node": refused["nproc_per_node"]}, "dp=4")
    assert plan["rankfile"] == refused["rankfile"]
    assert refused["exit_status"] != 0
    assert "no prior allocation" in refused["message"]


def test_rule_regex_rejects_other_values():
    proc = {"hostname": "hz", "rank": 3}
    top = f"{DOC['tmpdir']}/ompi.hz.{DOC['uid']}"
    assert rule_regex("{session_dir}", proc).match(top + "/jf.123")
    assert not rule_regex("{session_dir}", proc).match(top + "/xx.123")
    assert not rule_regex("{session_dir}", {"hostname": "hy", "rank": 3}).match(
        top + "/jf.123")
    assert rule_regex("{jobid}.{rank}", proc).match("77.3")
    assert not rule_regex("{jobid}.{rank}", proc).match("77.4")
    assert not rule_regex("{uri}", proc).match("none")
    assert not rule_regex("rsh", proc).match("ssh")
