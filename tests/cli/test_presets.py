"""offline-mesh views / check --preset against the framework vectors.

Every case of tests/vectors/{torchtitan,megatron,deepspeed,hyper_parallel}.json
(computed by running the real frameworks, see tests/vectors/README.md), and
of the random cases recorded from them under tests/frameworks/, runs
through the CLI: the views, named groups and (hyper-parallel) local ranks
must equal the vector exactly;
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
# Random cases recorded from the real frameworks, in the same format, by
# tests/frameworks/generate_<stem>.py (see tests/frameworks/README.md);
# OFFLINE_MESH_FRAMEWORKS names another folder of them (a hunt's draws).
FRAMEWORKS = os.environ.get("OFFLINE_MESH_FRAMEWORKS",
                            os.path.join(os.path.dirname(__file__), "..", "frameworks"))
RECORDED = ["deepspeed", "hyper_parallel", "megatron", "torchtitan"]


def run(*args, env=None):
    base = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    base.update(env or {})
    return subprocess.run([CLI, *args], capture_output=True, text=True,
                          env=base, timeout=120)


def cases():
    for folder, stems, prefix in ((VECTORS, PRESETS, ""), (FRAMEWORKS, RECORDED, "recorded-")):
        for stem in stems:
            with open(os.path.join(folder, stem + ".json")) as f:
                doc = json.load(f)
            for i, case in enumerate(doc["cases"]):
                yield pytest.param(stem, case, id=f"{prefix}{stem}-{i}")


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
    elif stem == "hyper_parallel":  # MeshContext's per-rank local ranks
        assert set(out) == {"views", "local_ranks"}
        assert out["local_ranks"] == case["local_ranks"]
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


def fails(code, *args, match=None):
    r = run(*args)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("offline-mesh: error: ")
    if match:
        assert match in lines[0], lines[0]
    return lines[0]


def test_python_spellings():
    """Values as Python's str() prints them (None, True, [2, 2]) work too."""
    with open(os.path.join(VECTORS, "megatron.json")) as f:
        case = [c for c in json.load(f)["cases"]
                if c["params"]["hierarchical_context_parallel_sizes"]][0]
    r = run("views", "--preset", "megatron", *param_args(case["params"], spell=str),
            "--world-size", str(case["world_size"]))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["groups"] == case["groups"]


def test_world_size_sources():
    a = run("views", "--preset", "deepspeed", "--param", "world_size=8",
            "--param=expert_parallel_size_=2")
    b = run("views", "--preset=deepspeed", "--param", "expert_parallel_size_=2",
            env={"WORLD_SIZE": "8"})
    assert a.returncode == 0 and a.stdout == b.stdout
    fails(1, "views", "--preset", "deepspeed", "--param", "world_size=8",
          "--world-size", "4", match="disagrees")


def test_world_size_errors_say_where_it_came_from():
    def error(*args, env=None):
        r = run(*args, env=env)
        assert r.returncode == 1 and r.stdout == "" and r.stderr.count("\n") == 1, r
        return r.stderr
    tp4 = ("views", "--preset", "torchtitan", "--param", "tp=4")
    assert error(*tp4, env={"SLURM_NTASKS": "6"}) == (
        "offline-mesh: error: Invalid parallel dims: dp_replicate(1) * dp_shard(1) * cp(1)"
        " * tp(4) * pp(1) != WORLD_SIZE(6) (world size 6 from SLURM_NTASKS)\n")
    assert error(*tp4).endswith(
        "world size 1 is smaller than dp_replicate*cp*tp*pp = 4 (world size 1, the default: no"
        " --world-size and none of WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is set)\n")
    assert error("views", "--preset", "megatron", "--param", "tensor_model_parallel_size=4",
                 env={"PMI_SIZE": "6"}).endswith(
        "world_size (6) is not divisible by 4 (world size 6 from PMI_SIZE)\n")
    # given explicitly, or a message that does not name the number: the library's own words
    assert error(*tp4, "--world-size", "6").endswith("!= WORLD_SIZE(6)\n")
    assert "world size" not in error("views", "--preset", "megatron", "--param", "bogus=1",
                                     env={"WORLD_SIZE": "16"})


def test_errors():
    fails(1, "views", "--preset", "titan", "--world-size", "8",
          match='unknown preset "titan"')
    fails(1, "views", "--preset", "megatron", "--param", "tp=2", "--world-size", "8",
          match='did you mean "tensor_model_parallel_size"?')
    fails(1, "views", "--preset", "megatron", "--param",
          "tensor_model_parallel_size=3", "--world-size", "8",
          match="world_size (8) is not divisible by 3")
    fails(2, "views", "--preset", "megatron", "--param", "tp")
    fails(2, "views", "--preset", "megatron", "--preset", "deepspeed")
    fails(2, "views", "--preset", "megatron", "--param")
    fails(2, "views")
    fails(2, "views", "--preset", "megatron", "x.yaml")
    fails(2, "views", "--preset", "megatron", "--mesh", "dp=2")


def test_yaml_views_and_check(tmp_path):
    path = tmp_path / "train.yaml"
    path.write_text("accelerator:\n  tp_size: 2\n  ep_size: 2\n"
                    "fsdp_config: {dp_shard_size: 2}\n")
    from_yaml = run("views", str(path), "--world-size", "8")
    from_params = run("views", "--preset", "hyper-parallel", "--world-size", "8",
                      "--param", "accelerator.tp_size=2",
                      "--param", "accelerator.ep_size=2",
                      "--param", "fsdp_config.dp_shard_size=2")
    assert from_yaml.returncode == 0, from_yaml.stderr
    assert from_yaml.stdout == from_params.stdout
    assert set(json.loads(from_yaml.stdout)["views"]) == {
        "device", "fsdp_non_moe", "fsdp_moe", "dp_cp"}
    r = run("check", "--preset", "hyper-parallel", str(path), "--world-size", "8")
    assert r.returncode == 0 and json.loads(r.stdout)["ok"] is True
    path.write_text("accelerator: {tp_size: 2, ep_size: 2}\n"
                    "fsdp_config: {dp_shard_size: 3, edp_shard_size: 3}\n")
    r = run("check", "--preset", "hyper-parallel", str(path), "--world-size", "8")
    assert r.returncode == 1
    assert json.loads(r.stdout)["violations"] == [
        "DP+CP size 4 is not divisible by FSDP shard size 3",
        "expert data-parallel size (4) must be divisible by edp_shard_size (3)"]
    fails(1, "views", str(path), "--world-size", "8", match="FSDP shard size 3")
    fails(1, "views", str(tmp_path / "missing.yaml"), "--world-size", "8",
          match="missing.yaml")
    fails(2, "views", str(path), "--param", "accelerator.tp_size=2")


def test_yaml_repeated_key_refused(tmp_path):
    # 1.3 bug fix: the last tp_size used to win without a word
    path = tmp_path / "train.yaml"
    path.write_text("accelerator:\n  tp_size: 2\n  ep_size: 2\n  tp_size: 4\n")
    message = (f'{path}: line 4: key "tp_size" appears again in accelerator '
               "(line 2's value 2 is replaced by 4)")
    # reading CONFIG.yaml warns as for every command, then the preset refuses
    for args in (["views"], ["check", "--preset", "hyper-parallel"]):
        r = run(*args, str(path), "--world-size", "8")
        assert (r.returncode, r.stdout) == (1, "")
        assert r.stderr.splitlines() == [f"offline-mesh: warning: {message}",
                                         f"offline-mesh: error: {message}"]
    # fsdp_config is no dims section: the error alone says it
    path.write_text("accelerator: {tp_size: 2}\n"
                    "fsdp_config:\n  dp_shard_size: 2\n  dp_shard_size: 4\n")
    fails(1, "views", str(path), "--world-size", "8",
          match='line 4: key "dp_shard_size" appears again in fsdp_config')
    # two merge keys in fsdp_config (1.3 bug fix too)
    path.write_text("accelerator: {tp_size: 2}\na: &a {dp_shard_size: 2}\n"
                    "fsdp_config:\n  <<: *a\n  <<: *a\n")
    fails(1, "check", "--preset", "hyper-parallel", str(path), "--world-size", "8",
          match='line 5: merge key "<<" appears again in fsdp_config')


def test_check_without_preset_is_the_preflight():
    r = run("check", "--preset", "megatron", "--world-size", "8")
    assert r.returncode == 0
    assert json.loads(r.stdout) == {"ok": True, "preset": "megatron", "violations": []}
    fails(1, "check", "--preset", "torchtitan", "--param", "etp=2", "--world-size", "8",
          match="unknown torchtitan parameter")


def test_views_streams_in_bounded_memory():
    """views writes its document as it computes it: 2^21 ranks make about
    460 MB of JSON (with the per-rank local ranks), written under a 64 MiB address-space limit (a document
    built whole would need more than four times that)."""
    import resource

    import shutil

    with open(shutil.which(CLI) or CLI, "rb") as f:
        binary = f.read()
    # A 64 MiB address space leaves no room for AddressSanitizer's shadow
    # memory or for a wrapper (the hardening stages' valgrind script).
    if binary.startswith(b"#!") or b"__asan_init" in binary:
        pytest.skip("the CLI runs under a sanitizer or wrapper")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (64 << 20, 64 << 20))

    args = [CLI, "views", "--preset", "hyper-parallel", "--world-size", str(1 << 21),
            "--param", "accelerator.tp_size=8", "--param", "accelerator.pp_size=4",
            "--param", "accelerator.ep_size=16"]
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, preexec_fn=limit)
    size, head, tail = 0, b"", b""
    while True:
        block = p.stdout.read(1 << 20)
        if not block:
            break
        if not head:
            head = block[:200]
        tail = (tail + block)[-200:]
        size += len(block)
    err = p.stderr.read()
    assert p.wait(timeout=300) == 0, err
    assert size > 256 << 20
    assert head.startswith(b'{"local_ranks":[{"cp_rank":0,"dp_rank":0,"ep_rank":0,'
                           b'"pp_rank":0,"tp_rank":0},{"cp_rank":0,"dp_rank":0,'
                           b'"ep_rank":1,"pp_rank":0,"tp_rank":1},')
    assert tail.endswith(b'"layout":[[[65536,8]],[],[[8,1]]],"shape":[65536,1,8]}}}\n'), tail


def test_views_write_errors_stop_it():
    """A full disk is an error of the command (exit 1, one line), noticed at
    the first failed write."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([CLI, "views", "--preset", "torchtitan", "--world-size",
                            str(1 << 20), "--param", "tp=8"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr == ("offline-mesh: error: cannot write the output: "
                        "No space left on device\n")


def test_torchtitan_single_axes():
    """views --single-axes: torchtitan's single-axis meshes as in the
    vectors and the recorded cases (their groups are those of from_view's
    mesh_dim_name axis)."""
    docs = [os.path.join(VECTORS, "torchtitan.json")]
    if "torchtitan" in RECORDED:
        docs.append(os.path.join(FRAMEWORKS, "torchtitan.json"))
    checked = 0
    for case in (case for path in docs for case in json.load(open(path))["cases"]):
        if "single_axis" not in case:
            continue
        r = run("views", "--preset", "torchtitan", *param_args(case["params"]),
                "--world-size", str(case["world_size"]), "--single-axes")
        assert r.returncode == 0, r.stderr
        want = {k: {kk: vv for kk, vv in v.items() if kk != "groups"}
                for k, v in case["single_axis"].items()}
        assert json.loads(r.stdout) == {
            "one_dimensional_active": case["one_dimensional_active"],
            "single_axis": want}
        checked += 1
    assert checked >= 5
    fails(2, "views", "--preset", "megatron", "--single-axes", "--world-size", "8",
          match="--single-axes goes with --preset torchtitan only")
