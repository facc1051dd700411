"""offline-mesh views / check --preset against the framework vectors.

Every case of tests/vectors/{torchtitan,megatron,deepspeed,hyper_parallel}.json
(computed by running the real frameworks, see tests/vectors/README.md) runs
through the CLI: the views and named groups must equal the vector exactly;
an error case must exit 1 with one error line and nothing on stdout.
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
PRESETS = {"torchtitan": "torchtitan", "megatron": "megatron",
           "deepspeed": "deepspeed", "hyper_parallel": "hyper-parallel"}
NAMED_GROUPS = {"megatron", "deepspeed"}


def run(*args, env=None):
    base = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    base.update(env or {})
    return subprocess.run([CLI, *args], capture_output=True, text=True,
                          env=base, timeout=120)


def cases():
    for stem in PRESETS:
        with open(os.path.join(VECTORS, stem + ".json")) as f:
            doc = json.load(f)
        for i, case in enumerate(doc["cases"]):
            yield pytest.param(stem, case, id=f"{stem}-{i}")


def param_args(params, spell=json.dumps):
    args = []
    for key, value in params.items():
        args += ["--param", f"{key}={spell(value)}"]
    return args


def expect_error(case):
    """The library's decision where it differs from the framework wins."""
    library = case.get("library")
    if library is not None:
        return "error" in library
    return "error" in case


@pytest.mark.parametrize("stem,case", list(cases()))
def test_vector_case(stem, case):
    r = run("views", "--preset", PRESETS[stem], *param_args(case["params"]),
            "--world-size", str(case["world_size"]))
    if expect_error(case):
        assert r.returncode == 1, r.stdout
        assert r.stdout == ""
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("offline-mesh: error: ")
        return
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    out = json.loads(r.stdout)
    # Canonical spelling: keys sorted, no spaces, one line.
    assert r.stdout == json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n"
    assert out["views"] == case["views"]
    if stem in NAMED_GROUPS:
        assert set(out) == {"views", "groups"}
        assert out["groups"] == case["groups"]
    else:
        assert set(out) == {"views"}


@pytest.mark.parametrize("stem,case", list(cases()))
def test_vector_case_check(stem, case):
    """check --preset: ok exactly when the vector has views, and then the
    views are consistent; else every violation is listed, exit 1."""
    r = run("check", "--preset", PRESETS[stem], *param_args(case["params"]),
            "--world-size", str(case["world_size"]))
    verdict = json.loads(r.stdout)
    assert verdict["preset"] == PRESETS[stem]
    if expect_error(case):
        assert r.returncode == 1
        assert verdict["ok"] is False and len(verdict["violations"]) >= 1
    else:
        assert r.returncode == 0, r.stdout
        assert verdict == {"ok": True, "preset": PRESETS[stem], "violations": []}
