#!/usr/bin/env python3
"""Allocation-failure injection over every offline-mesh command.

Each command line of COMMANDS first runs clean, counting every heap
allocation of the process (fail_alloc_preload.so, LD_PRELOAD); then it runs
once per allocation with exactly that one failing. Every injected run must
end by exit (never a signal) and give the whole output or nothing: exit 0
with exactly the clean run's stdout (or the clean run's exit 1 and stdout,
for a report of broken rules), or exit 1 with an empty stdout and one
"offline-mesh: error: ... out of memory ..." line on stderr.

usage: cli_alloc_failure.py OFFLINE_MESH PRELOAD.so [FILTER]
(FILTER: run only the command lines containing it.)
Prints one line per command line and a closing "N passed, N failed".
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MESH_JSON = '{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}'
HIERARCHY_JSON = ('{"levels":["host"],"ranks":['
                  + ",".join('{"rank":%d,"host":"n%d"}' % (r, r // 4) for r in range(8))
                  + "]}")

# Every command, each source kind (config, spec, mesh JSON, world JSON,
# preset, hierarchy JSON, hostfile) at least once.
COMMANDS = [
    ["dims", "train.yaml", "--world-size", "16"],
    ["mesh", "train.yaml", "--world-size", "16"],
    ["mesh", "train.yaml", "--world-size", "16", "--order", "tp-cp-dp-pp"],
    ["mesh", "--mesh", "m.json"],
    ["mesh", "--mesh", "dp=2,tp=4"],
    ["groups", "--mesh", "m.json", "--dims", "dp,tp"],
    ["groups", "--world", "world.json", "--view", "dense", "--dims", "dp_shard,tp"],
    ["coord", "--mesh", "dp=2,cp=2,tp=2", "--rank", "5"],
    ["experts", "--mesh", "dp=4,tp=2", "--ep", "2", "--num-experts", "8"],
    ["experts", "train.yaml", "--world-size", "16", "--num-experts", "8"],
    # big enough that the output leaves in several 64 KiB blocks
    ["experts", "--mesh", "dp=256,cp=2,tp=8", "--ep", "16", "--num-experts", "64"],
    ["dump", "--mesh", "dp=64,tp=16"],
    ["check", "train.yaml", "--world-size", "8", "--num-experts", "8"],
    ["check", "--preset", "torchtitan", "--world-size", "8"],
    ["locality", "--mesh", "dp=2,tp=4", "--ranks-per-host", "4"],
    ["locality", "--mesh", "dp=2,tp=4", "--hierarchy", "h.json"],
    ["locality", "--mesh", "dp=2,tp=4", "--hierarchy", "h.json", "--require", "tp:host",
     "--examples"],
    ["locality", "--mesh", "dp=2,tp=8", "--hierarchy", "host=8,nvl=16"],
    ["dump", "--mesh", "dp=2,tp=2"],
    ["order", "tp-cp-ep-dp-pp"],
    ["views", "--preset", "torchtitan", "--world-size", "8"],
    ["views", "train.yaml", "--world-size", "16"],
    # documents of two 64 KiB blocks (about 83 KB each): every allocation is
    # made before the first block goes out, so none can leave a prefix
    ["views", "--preset", "torchtitan", "--world-size", "512"],
    ["views", "--preset", "megatron", "--world-size", "512",
     "--param", "tensor_model_parallel_size=2"],
    ["views", "--preset", "hyper-parallel", "--world-size", "512",
     "--param", "accelerator.tp_size=2", "--param", "accelerator.ep_size=4"],
    ["launch", "--mesh", "dp=2,tp=2", "--nnodes", "2", "--nproc-per-node", "2"],
    ["launch", "--mesh", "dp=2,tp=2", "--nnodes", "2", "--nproc-per-node", "2",
     "--hosts", "hosts.txt", "--format", "slurm"],
    ["advise", "train.yaml", "--world-size", "16", "--hierarchy", "host=8"],
    ["advise", "train.yaml", "--world-size", "16", "--hierarchy", "host=4,nvl=8",
     "--require", "tp:host", "--prefer", "cp:nvl"],
    ["advise", "train.yaml", "--world-size", "16", "--hierarchy", "host=4",
     "--order", "tp-cp-ep-dp-pp", "--require", "tp:host"],
    ["launch", "--mesh", "dp=2,tp=4", "--nnodes", "2", "--nproc-per-node", "4",
     "--hierarchy", "host=4", "--require", "tp:host"],
    # broken rules: the report is printed and the exit status is 1
    ["locality", "--mesh", "dp=2,tp=4", "--hierarchy", "host=2", "--require", "tp:host"],
    ["advise", "train.yaml", "--world-size", "16", "--hierarchy", "host=2",
     "--order", "tp-cp-ep-dp-pp", "--require", "tp:host"],
    ["show", "--mesh", "dp=2,tp=4", "--ranks-per-host", "4"],
    ["show", "--mesh", "dp=2,tp=4", "--format", "svg"],
]


def run(cli, preload, args, cwd, fail_at=None, count_file=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")}
    env["LD_PRELOAD"] = preload
    if fail_at is not None:
        env["OM_FAIL_AT"] = str(fail_at)
    if count_file is not None:
        env["OM_ALLOC_COUNT_FILE"] = count_file
    p = subprocess.run([cli] + args, cwd=cwd, env=env, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def judge(rc, out, err, ref_rc, ref_out):
    """Why an injected run is wrong, or None when it is right."""
    if rc < 0:
        return "killed by signal %d" % -rc
    if rc == ref_rc and out == ref_out:
        return None
    if rc == 0:
        return "exit 0 with different output (%d bytes)" % len(out)
    if out:
        return "exit %d after writing %d bytes to stdout: %r" % (rc, len(out), out[:60])
    text = err.decode("utf-8", "replace")
    if rc != 1:
        return "exit %d: %s" % (rc, text.strip()[:120])
    if not text.startswith("offline-mesh: error: ") or text.count("\n") != 1:
        return "stderr is not one error line: %r" % text[:160]
    if "out of memory" not in text:
        return "the error does not say out of memory: %s" % text.strip()[:160]
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cli = str(Path(sys.argv[1]).resolve())
    preload = str(Path(sys.argv[2]).resolve())
    only = sys.argv[3] if len(sys.argv) > 3 else None
    verbose = bool(os.environ.get("OM_ALLOC_FAILURE_VERBOSE"))
    work = Path(tempfile.mkdtemp(prefix="om-cli-oom-"))
    try:
        shutil.copy(ROOT / "examples" / "train.yaml", work / "train.yaml")
        (work / "m.json").write_text(MESH_JSON)
        (work / "h.json").write_text(HIERARCHY_JSON)
        (work / "hosts.txt").write_text("n0 slots=2\nn1 slots=2\n")
        rc, out, err = run(cli, preload, ["views", "--preset", "torchtitan", "--world-size", "8"], work)
        if rc != 0:
            print("cannot make world.json:", err.decode())
            return 2
        (work / "world.json").write_bytes(out)
        passed = failed = runs = crashes = partial = 0
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
        for args in COMMANDS:
            line = " ".join(args)
            if only and only not in line:
                continue
            count_file = str(work / "count")
            ref_rc, ref_out, ref_err = run(cli, preload, args, work, count_file=count_file)
            if ref_rc not in (0, 1) or not ref_out:
                print("not ok %s: fails without injection: %s" % (line, ref_err.decode().strip()))
                failed += 1
                continue
            total = int(Path(count_file).read_text())
            results = pool.map(lambda k: (k, run(cli, preload, args, work, fail_at=k)), range(total))
            problems = []
            for k, (rc, out, err) in results:
                runs += 1
                why = judge(rc, out, err, ref_rc, ref_out)
                if why:
                    crashes += rc < 0
                    partial += rc > 0 and bool(out)
                    problems.append("allocation %d of %d: %s" % (k + 1, total, why))
            for p in problems[: None if verbose else 3]:
                print("FAIL %s, %s" % (line, p))
            if len(problems) > 3 and not verbose:
                print("FAIL %s: %d failing runs in all (first 3 shown)" % (line, len(problems)))
            print("%s offline-mesh %s: %d allocations failed in turn"
                  % ("not ok" if problems else "ok", line, total))
            if problems:
                failed += 1
            else:
                passed += 1
        print("cli allocation failures: %d injected runs, %d crashed, %d partial outputs"
              % (runs, crashes, partial))
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
