#!/usr/bin/env python3
"""Regenerate tests/slurm/slurm.json by running the real Slurm srun.

    apt-get install -y --no-install-recommends slurmd slurmctld slurm-client munge
    OFFLINE_MESH_CLI=build-x/src/cli/offline-mesh \
        python3 tests/slurm/generate.py > tests/slurm/slurm.json

Run as root. It starts a private Slurm cluster on this machine for the
recording and stops it afterwards: munged (unless one runs already),
slurmctld and one slurmd per node (`slurmd -N NAME`, Debian's build
supports several on one host), with a slurm.conf in a temporary directory
(ports 16817 and 17000-17003 must be free). The nodes are listed in
slurm.conf out of name order (sn10, sn2, sn0, sn1): slurmctld orders its
node table by name (natural order: sn0, sn1, sn2, sn10), and that order,
read back with `scontrol show node`, is recorded as `slurm_node_order`.
The tests never need Slurm: they read the JSON.

Per case, without hosts: `srun -N N --ntasks-per-node P
--distribution=block PROGRAM`; with hosts: `srun -n N*P
--distribution=arbitrary` with SLURM_HOSTFILE set to the plan's own
hostfile. Each task writes its environment; a task's "set" is every
variable it has that the launcher lacks or has with another value.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

NODES = ["sn10", "sn2", "sn0", "sn1"]  # slurm.conf order, not name order

CONF = """\
ClusterName=om
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool-%n
SlurmctldPidFile={d}/ctld.pid
SlurmdPidFile={d}/slurmd-%n.pid
SlurmctldPort=16817
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldLogFile={d}/ctld.log
SlurmdLogFile={d}/slurmd-%n.log
{nodes}
PartitionName=p Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
"""

WORKER = """\
import json, os, sys
with open(os.path.join(sys.argv[1], os.environ["SLURM_PROCID"] + ".json"), "w") as f:
    json.dump(dict(os.environ), f)
"""

# (nnodes, nproc_per_node, hosts or None); host lists in and out of name
# order (and in slurm.conf order, ["sn10", "sn2"]) show how Slurm numbers
# nodes.
CASES = [
    (1, 1, None), (1, 4, None), (2, 2, None), (2, 3, None), (3, 2, None),
    (4, 2, None), (3, 1, None),
    (2, 2, ["sn0", "sn1"]), (2, 2, ["sn1", "sn0"]), (3, 2, ["sn2", "sn0", "sn1"]),
    (4, 1, ["sn10", "sn2", "sn1", "sn0"]), (2, 2, ["sn10", "sn2"]),
    (2, 3, ["sn2", "sn10"]), (4, 2, ["sn0", "sn1", "sn2", "sn10"]),
]


def cli_plan(nnodes, nproc, hosts):
    cli = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
    args = [cli, "launch", "--mesh", f"dp={nnodes * nproc}", "--nnodes",
            str(nnodes), "--nproc-per-node", str(nproc), "--format", "slurm"]
    if hosts:
        args += ["--hosts", ",".join(hosts)]
    return json.loads(subprocess.run(args, check=True, capture_output=True,
                                     text=True).stdout)


class Cluster:
    """munged, slurmctld and a slurmd per node, stopped by their pids."""

    def __init__(self, d):
        self.d, self.pids = d, []
        os.makedirs(os.path.join(d, "state"))
        nodes = "\n".join(f"NodeName={n} NodeHostname=localhost NodeAddr=127.0.0.1 "
                          f"Port={17000 + i} CPUs=8 RealMemory=1000 State=UNKNOWN"
                          for i, n in enumerate(NODES))
        self.conf = os.path.join(d, "slurm.conf")
        with open(self.conf, "w") as f:
            f.write(CONF.format(d=d, nodes=nodes))
        self.env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root",
                    "LANG": "C.UTF-8", "SLURM_CONF": self.conf}

    def start(self):
        if subprocess.run(["munge", "-n"], capture_output=True).returncode:
            os.makedirs("/run/munge", exist_ok=True)
            subprocess.run(["munged", "--force"], check=True)
            with open("/run/munge/munged.pid") as f:
                self.pids.append(int(f.read()))
        subprocess.run(["slurmctld", "-c", "-i"], check=True, env=self.env)
        self.pids.append(self.pid("ctld.pid"))
        for n in NODES:
            subprocess.run(["slurmd", "-N", n], check=True, env=self.env)
            self.pids.append(self.pid(f"slurmd-{n}.pid"))
        for _ in range(60):
            out = subprocess.run(["sinfo", "-h", "-o", "%T %D"], env=self.env,
                                 capture_output=True, text=True).stdout.split()
            if out == ["idle", str(len(NODES))]:
                return
            time.sleep(1)
        raise SystemExit(f"the Slurm nodes did not come up: {out}")

    def pid(self, name):
        for _ in range(50):
            try:
                with open(os.path.join(self.d, name)) as f:
                    return int(f.read())
            except (FileNotFoundError, ValueError):
                time.sleep(0.1)
        raise SystemExit(f"no {name}")

    def stop(self):
        for pid in reversed(self.pids):
            try:
                os.kill(pid, 15)
                for _ in range(100):  # wait until it is gone
                    os.kill(pid, 0)
                    time.sleep(0.1)
            except ProcessLookupError:
                pass


def run_case(cluster, nnodes, nproc, hosts, workdir):
    plan = cli_plan(nnodes, nproc, hosts)
    out = tempfile.mkdtemp(dir=workdir)
    env = dict(cluster.env)
    if hosts:
        hostfile = os.path.join(workdir, "hostfile")
        with open(hostfile, "w") as f:
            f.write(plan["hostfile"])
        env["SLURM_HOSTFILE"] = hostfile
        args = ["-n", str(nnodes * nproc), "--distribution=arbitrary"]
    else:
        args = ["-N", str(nnodes), "--ntasks-per-node", str(nproc),
                "--distribution=block"]
    cmd = ["srun"] + args + ["python3", os.path.join(workdir, "dump_env.py"), out]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120,
                       cwd=workdir)
    if r.returncode != 0:
        raise SystemExit(f"srun {nnodes}x{nproc} failed:\n{r.stderr}")
    procs = []
    for rank in range(nnodes * nproc):
        with open(os.path.join(out, f"{rank}.json")) as f:
            task = json.load(f)
        procs.append({"rank": rank,
                      "set": {k: v for k, v in sorted(task.items())
                              if env.get(k) != v}})
    return {"nnodes": nnodes, "nproc_per_node": nproc, "hosts": hosts,
            "hostfile": plan.get("hostfile"), "launcher_env": env,
            "command": " ".join(["srun"] + args + ["python3", "dump_env.py", "OUT"]),
            "processes": procs}


def main():
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "dump_env.py"), "w") as f:
            f.write(WORKER)
        cluster = Cluster(os.path.join(workdir, "cluster"))
        version = subprocess.run(["srun", "--version"], capture_output=True,
                                 text=True, check=True,
                                 env=cluster.env).stdout.strip()
        try:
            cluster.start()
            shown = subprocess.run(["scontrol", "-o", "show", "node"], check=True,
                                   capture_output=True, text=True, env=cluster.env).stdout
            order = [line.split()[0].split("=", 1)[1] for line in shown.splitlines()]
            cases = [run_case(cluster, n, p, h, workdir) for n, p, h in CASES]
        finally:
            cluster.stop()
    json.dump({"generator": "tests/slurm/generate.py", "slurm_version": version,
               "slurm_conf_nodes": NODES, "slurm_node_order": order, "cases": cases},
              sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
