#!/usr/bin/env python3
"""Regenerate tests/openmpi/openmpi.json by running the real Open MPI mpirun.

    apt-get install -y openmpi-bin      # Open MPI 4.1.4 on Debian 12
    OFFLINE_MESH_CLI=build-x/src/cli/offline-mesh \
        python3 tests/openmpi/generate.py > tests/openmpi/openmpi.json

Run as root (it makes UTS namespaces with `unshare --uts`; mpirun then
needs OMPI_ALLOW_RUN_AS_ROOT, set in LAUNCHER_ENV). The tests never need
Open MPI: they read the JSON this prints.

A job of N nodes runs on this one machine. mpirun starts in a UTS namespace
whose host name is the plan's node 0, and reaches the other nodes through
`--mca plm_rsh_agent AGENT`, an ssh stand-in that runs the orted command
here in a UTS namespace named after the target host: every orted is the
node it was sent to (gethostname() included), as over ssh. The rankfile is
the one `offline-mesh launch --format openmpi` prints for the case (with
--hosts: mpirun gets `--rankfile FILE` alone; without hosts its "+nK" lines
need an allocation, given here as the SLURM_* variables of a Slurm
allocation that Open MPI's ras_slurm reads). Each worker writes its
environment, host name and CPU affinity to a file.

Per case, the job runs twice (a variable whose value differs between the
two runs, or that names a path under the temporary directory, is
"run_dependent" with both values) and a third time with --display-map,
whose JOB MAP gives the host and core Open MPI assigned every rank (that
run's environment is not recorded: --display-map reaches the remote
processes as OMPI_MCA_rmaps_base_display_map). When a node needs more
cores than this machine has, HWLOC_SYNTHETIC gives every node a synthetic
topology of P cores: processes are then mapped but not bound. One case
starts mpirun on a host outside the job ("mpirun_host", a login node; null
means node 0): its cores then count in OMPI_UNIVERSE_SIZE.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

WORKER = """\
import json, os, socket, sys
rank = os.environ["OMPI_COMM_WORLD_RANK"]
with open(os.path.join(sys.argv[1], rank + ".json"), "w") as f:
    json.dump({"env": dict(os.environ), "hostname": socket.gethostname(),
               "cpus": sorted(os.sched_getaffinity(0))}, f)
"""

# The ssh stand-in: `AGENT HOST orted ARGS...` runs orted here as HOST.
AGENT = """\
#!/bin/sh
host="$1"; shift
exec unshare --uts sh -c "hostname $host && exec $*"
"""

LAUNCHER_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
                "OMPI_ALLOW_RUN_AS_ROOT": "1",
                "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}

# (nnodes, nproc_per_node, hosts or None). Host names are deliberately not
# in sorted order; without hosts, node K is the allocation's K-th node.
CASES = [
    (1, 1, ["solo"]), (1, 4, ["hz"]), (2, 2, ["hz", "hy"]),
    (2, 3, ["gpu-b", "gpu-a"]), (3, 2, ["n2", "n10", "n1"]),
    (4, 2, ["hd", "hc", "hb", "ha"]), (3, 1, ["c", "a", "b"]),
    (2, 5, ["left", "right"]), (5, 1, ["e", "d", "c", "b", "a"]),
    (1, 3, None), (2, 2, None), (3, 2, None),
]
# mpirun started on a host outside the job (a login node), not on node 0.
LOGIN_CASES = [(2, 2, ["hz", "hy"])]
LOGIN_HOST = "login"


def cli_plan(nnodes, nproc, hosts):
    cli = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
    args = [cli, "launch", "--mesh", f"dp={nnodes * nproc}", "--nnodes",
            str(nnodes), "--nproc-per-node", str(nproc), "--format", "openmpi"]
    if hosts:
        args += ["--hosts", ",".join(hosts)]
    return json.loads(subprocess.run(args, check=True, capture_output=True,
                                     text=True).stdout)


def launcher_env(nnodes, nproc, hosts):
    env = dict(LAUNCHER_ENV)
    if hosts is None:  # a Slurm allocation, for the rankfile's "+nK" lines
        nodes = ",".join(f"node{k}" for k in range(nnodes))
        env.update({"SLURM_JOBID": "4242", "SLURM_JOB_ID": "4242",
                    "SLURM_NODELIST": nodes, "SLURM_JOB_NODELIST": nodes,
                    "SLURM_TASKS_PER_NODE": f"{nproc}(x{nnodes})",
                    "SLURM_JOB_CPUS_PER_NODE": f"{nproc}(x{nnodes})"})
    if nproc > os.cpu_count():
        env["HWLOC_SYNTHETIC"] = f"core:{nproc} pu:1"
    return env


def mca_options(hosts, workdir):
    """The --mca options of the recording (mpirun passes each to every
    process as OMPI_MCA_<name>)."""
    mca = {"plm_rsh_agent": os.path.join(workdir, "agent.sh")}
    if hosts is None:
        mca["plm"] = "rsh"  # not srun: there is no Slurm
    return mca


def command(nnodes, nproc, hosts, workdir, extra, login=None):
    first = login or (hosts[0] if hosts else "node0")
    mpirun = ["mpirun"]
    for name, value in mca_options(hosts, workdir).items():
        mpirun += ["--mca", name, value]
    mpirun += extra + ["--rankfile", os.path.join(workdir, "rankfile"), "-np",
                       str(nnodes * nproc), "python3",
                       os.path.join(workdir, "dump_env.py")]
    return ["unshare", "--uts", "sh", "-c",
            f'hostname {first} && exec "$@"', "sh"] + mpirun


def run(nnodes, nproc, hosts, workdir, extra=(), login=None):
    out = tempfile.mkdtemp(dir=workdir)
    cmd = command(nnodes, nproc, hosts, workdir, list(extra), login) + [out]
    r = subprocess.run(cmd, env=launcher_env(nnodes, nproc, hosts),
                       capture_output=True, text=True, timeout=300,
                       cwd=workdir)
    if r.returncode != 0:
        raise SystemExit(f"mpirun {nnodes}x{nproc} failed:\n{r.stdout}{r.stderr}")
    procs = {}
    for name in os.listdir(out):
        with open(os.path.join(out, name)) as f:
            p = json.load(f)
        procs[int(p["env"]["OMPI_COMM_WORLD_RANK"])] = p
    if sorted(procs) != list(range(nnodes * nproc)):
        raise SystemExit(f"{nnodes}x{nproc}: ranks {sorted(procs)} wrote files")
    return procs, r.stdout


def job_map(text):
    """Rank -> (host, core) from the first JOB MAP mpirun printed."""
    lines = text.split("JOB MAP", 1)[1].splitlines()[1:]
    placed, host = {}, None
    for line in lines:
        if line.strip().startswith("=" * 20):
            break
        m = re.search(r"Data for node: (\S+)", line)
        if m:
            host = m.group(1)
        m = re.search(r"Process rank: (\d+) Bound: .*?core (\d+)\[", line)
        if m:
            placed[int(m.group(1))] = {"host": host, "core": int(m.group(2))}
    return placed


def refused_relative_hosts(workdir):
    """The "+nK" rankfile without an allocation: mpirun's refusal."""
    plan = cli_plan(2, 2, None)
    with open(os.path.join(workdir, "rankfile"), "w") as f:
        f.write(plan["rankfile"])
    with open(os.path.join(workdir, "hostfile"), "w") as f:
        f.write("node0 slots=2\nnode1 slots=2\n")
    cmd = command(2, 2, ["node0"], workdir,
                  ["--hostfile", os.path.join(workdir, "hostfile")]) + [workdir]
    r = subprocess.run(cmd, env=LAUNCHER_ENV, capture_output=True, text=True,
                       timeout=120, cwd=workdir)
    text = r.stdout + r.stderr
    reason = "A relative host was specified, but no prior allocation has been made."
    if r.returncode == 0 or reason not in text:
        raise SystemExit(f"+nK without an allocation was not refused:\n{text}")
    return {"nnodes": 2, "nproc_per_node": 2, "hostfile": "node0 slots=2\nnode1 slots=2\n",
            "rankfile": plan["rankfile"], "exit_status": r.returncode,
            "message": reason}


def diff(env, launcher):
    return ({k: v for k, v in sorted(env.items()) if launcher.get(k) != v},
            sorted(k for k in launcher if k not in env))


def record_case(nnodes, nproc, hosts, workdir, login=None):
    plan = cli_plan(nnodes, nproc, hosts)
    with open(os.path.join(workdir, "rankfile"), "w") as f:
        f.write(plan["rankfile"])
    launcher = launcher_env(nnodes, nproc, hosts)
    first, _ = run(nnodes, nproc, hosts, workdir, login=login)
    second, _ = run(nnodes, nproc, hosts, workdir, login=login)
    _, shown = run(nnodes, nproc, hosts, workdir, ["--display-map"], login)
    placed = job_map(shown)
    procs = []
    for rank in range(nnodes * nproc):
        set_vars, removed = diff(first[rank]["env"], launcher)
        again, _ = diff(second[rank]["env"], launcher)
        dependent = {k: [v, again.get(k)] for k, v in set_vars.items()
                     if again.get(k) != v or v.startswith(tempfile.gettempdir())}
        procs.append({"rank": rank, "hostname": first[rank]["hostname"],
                      "cpus": first[rank]["cpus"]
                      if "HWLOC_SYNTHETIC" not in launcher else None,
                      "map": placed[rank], "set": set_vars, "removed": removed,
                      "run_dependent": dependent})
    return {"nnodes": nnodes, "nproc_per_node": nproc, "hosts": hosts,
            "allocation": launcher.get("SLURM_NODELIST", "").split(",")
            if hosts is None else None,
            "launcher_env": launcher, "rankfile": plan["rankfile"],
            "mca": mca_options(hosts, workdir),
            "mpirun_host": login,
            "command": " ".join(command(nnodes, nproc, hosts, "WORKDIR", [])[6:])
            .replace("WORKDIR/", ""),
            "processes": procs}


def main():
    version = subprocess.run(["mpirun", "--version"], capture_output=True,
                             text=True, check=True).stdout.splitlines()[0]
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "dump_env.py"), "w") as f:
            f.write(WORKER)
        with open(os.path.join(workdir, "agent.sh"), "w") as f:
            f.write(AGENT)
        os.chmod(os.path.join(workdir, "agent.sh"), 0o755)
        cases = [record_case(n, p, h, workdir) for n, p, h in CASES]
        cases += [record_case(n, p, h, workdir, LOGIN_HOST)
                  for n, p, h in LOGIN_CASES]
        refused = refused_relative_hosts(workdir)
        json.dump({"generator": "tests/openmpi/generate.py",
                   "openmpi_version": version, "tmpdir": tempfile.gettempdir(),
                   "cwd": workdir, "rankfile_path": os.path.join(workdir, "rankfile"),
                   "uid": os.getuid(), "cpu_count": os.cpu_count(),
                   "program": "python3", "args": "dump_env.py {outdir}",
                   "cases": cases, "refused": [refused]},
                  sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
