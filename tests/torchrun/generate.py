#!/usr/bin/env python3
"""Regenerate tests/torchrun/torchrun.json by running the real torchrun.

    python3 -m venv /tmp/torch-venv && /tmp/torch-venv/bin/pip install torch
    /tmp/torch-venv/bin/python tests/torchrun/generate.py > tests/torchrun/torchrun.json

Needs an interpreter with torch installed (the tests never install it: they
read the JSON this prints). For every case it starts one
`python -m torch.distributed.run --rdzv-backend=static --nnodes N
--node-rank K --nproc-per-node P ...` per node rank K at once, on this
machine, from a fixed small environment (LAUNCHER_ENV), with a worker
script that writes its os.environ to a file. A process's "set" is every
variable its environment has that the launcher's has not, or has with
another value; "removed" lists launcher variables the worker lacks. Each
case runs twice: a variable whose value differs between the two runs (or
that names a temporary file) is listed in "run_dependent" with both
values, since no offline plan can know it.

Only loopback addresses are used. Ports are the fixed ones of CASES (29500
is torchrun's default and must be free while this runs).
"""
import json
import os
import platform
import subprocess
import sys
import tempfile

WORKER = """\
import json, os, sys
path = os.path.join(sys.argv[1], "%s.json" % os.environ.get("RANK", os.getpid()))
with open(path, "w") as f:
    json.dump(dict(os.environ), f)
"""

# LANG is set: with a C/POSIX locale Python itself (PEP 538) would add
# LC_CTYPE=C.UTF-8 to the launcher's environment, which is not torchrun's.
LAUNCHER_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}

# (nnodes, nproc_per_node, --master-addr or None, --master-port or None)
CASES = [
    (1, 1, None, 29511), (1, 8, None, 29512), (1, 3, "127.0.0.2", 29513),
    (2, 4, None, None), (3, 5, None, 29515), (4, 2, "localhost", 29516),
    (3, 1, None, 29517), (2, 7, "127.0.0.2", 29518), (5, 3, None, 29519),
    (1, 1, None, None), (1, 4, None, None), (2, 2, "[::1]", 29514),
]


def run_case(nnodes, nproc, addr, port, workdir):
    out = tempfile.mkdtemp(dir=workdir)
    script = os.path.join(workdir, "dump_env.py")
    agents = []
    for node in range(nnodes):
        cmd = [sys.executable, "-m", "torch.distributed.run",
               "--rdzv-backend=static", "--nnodes", str(nnodes),
               "--node-rank", str(node), "--nproc-per-node", str(nproc)]
        if addr is not None:
            cmd += ["--master-addr", addr]
        if port is not None:
            cmd += ["--master-port", str(port)]
        agents.append(subprocess.Popen(cmd + [script, out], env=LAUNCHER_ENV,
                                       stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, text=True))
    for node, agent in enumerate(agents):
        try:
            _, err = agent.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            for a in agents:
                a.kill()
            raise SystemExit(f"torchrun node {node} of {nnodes}x{nproc} hung")
        if agent.returncode != 0:
            raise SystemExit(f"torchrun node {node} of {nnodes}x{nproc} failed:\n{err}")
    envs = {}
    for name in os.listdir(out):
        with open(os.path.join(out, name)) as f:
            env = json.load(f)
        envs[int(env["RANK"])] = env
    if sorted(envs) != list(range(nnodes * nproc)):
        raise SystemExit(f"{nnodes}x{nproc}: ranks {sorted(envs)} wrote files")
    return envs


def diff(env):
    return ({k: v for k, v in sorted(env.items()) if LAUNCHER_ENV.get(k) != v},
            sorted(k for k in LAUNCHER_ENV if k not in env))


def main():
    import torch  # the version recorded is the one that ran
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "dump_env.py"), "w") as f:
            f.write(WORKER)
        cases = []
        for nnodes, nproc, addr, port in CASES:
            first = run_case(nnodes, nproc, addr, port, workdir)
            second = run_case(nnodes, nproc, addr, port, workdir)
            procs = []
            for rank in range(nnodes * nproc):
                set_vars, removed = diff(first[rank])
                again, _ = diff(second[rank])
                dependent = {k: [v, again.get(k)] for k, v in set_vars.items()
                             if again.get(k) != v or v.startswith(tempfile.gettempdir())}
                procs.append({"node_rank": int(set_vars["GROUP_RANK"]),
                              "local_rank": int(set_vars["LOCAL_RANK"]),
                              "rank": rank, "set": set_vars, "removed": removed,
                              "run_dependent": dependent})
            cases.append({"nnodes": nnodes, "nproc_per_node": nproc,
                          "master_addr": addr, "master_port": port,
                          "processes": procs})
    json.dump({"generator": "tests/torchrun/generate.py",
               "torch_version": torch.__version__,
               "python_version": platform.python_version(),
               "tmpdir": tempfile.gettempdir(),
               "launcher_env": LAUNCHER_ENV,
               "command": "python -m torch.distributed.run --rdzv-backend=static "
                          "--nnodes N --node-rank K --nproc-per-node P "
                          "[--master-addr A] [--master-port PORT] dump_env.py",
               "cases": cases}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
