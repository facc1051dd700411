"""The offline-mesh command line: outputs, exit codes and messages.

Runs the built binary (OFFLINE_MESH_CLI) as a user would, with a clean
environment so the world-size variables are under the test's control.
"""
import json
import os
import subprocess
import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
EXAMPLES = os.environ.get("OFFLINE_MESH_EXAMPLES", "examples")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def run(*args, env=None, stdin=None):
    base = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    base.update(env or {})
    return subprocess.run([CLI, *args], capture_output=True, text=True,
                          env=base, input=stdin, timeout=120)


def ok(*args, env=None):
    r = run(*args, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    return r.stdout[:-1]


def fails(code, *args, env=None, match=None):
    r = run(*args, env=env)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("offline-mesh: error: ")
    if match:
        assert match in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def config(tmp_path):
    def write(text, name="train.yaml", mode="w"):
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        return str(path)
    return write


# ---- dims and mesh on the bundled example ----

EXAMPLE = os.path.join(EXAMPLES, "train.yaml")


def test_example_dims():
    assert ok("dims", EXAMPLE, "--world-size", "8") == (
        '{"cp_size":2,"dp_size":2,"ep_size":2,"loss_parallel":true,'
        '"pp_size":1,"sequence_parallel":true,"tp_size":2}')


def test_example_mesh():
    assert ok("mesh", EXAMPLE, "--world-size", "8") == (
        '{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}')


def test_example_mesh_world_16_doubles_dp():
    assert json.loads(ok("mesh", EXAMPLE, "--world-size", "16")) == {
        "mesh_dim_names": ["dp", "cp", "tp"], "mesh_shape": [4, 2, 2]}


# ---- projection rules ----

@pytest.mark.parametrize("text,world,expected", [
    ("", 4, ["dp", "cp", "tp"], ),
])
def test_empty_config_is_defaults(config, text, world, expected):
    # Defaults, with a warning (tests/cli/test_strict.py checks them all).
    r = run("mesh", config(text), "--world-size", str(world))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"mesh_dim_names": expected, "mesh_shape": [4, 1, 1]}
    assert r.stderr.endswith(": the config is empty: every size takes its default\n")


def test_missing_and_null_accelerator(config):
    # Defaults, with a warning (tests/cli/test_strict.py checks them all).
    for text in ("model: {a: 1}\n", "accelerator:\n", "accelerator: null\n", "accelerator: ~\n"):
        r = run("dims", config(text), "--world-size", "3")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout) == {
            "cp_size": 1, "dp_size": 3, "ep_size": 1, "loss_parallel": False,
            "pp_size": 1, "sequence_parallel": False, "tp_size": 1}
        assert r.stderr.startswith("offline-mesh: warning: ")
        assert r.stderr.endswith("every size takes its default\n")


def test_pp_axis_appended_last_and_ep_never(config):
    path = config("accelerator: {tp_size: 2, pp_size: 2, ep_size: 4}\n")
    assert json.loads(ok("mesh", path, "--world-size", "16")) == {
        "mesh_dim_names": ["dp", "cp", "tp", "pp"], "mesh_shape": [4, 1, 2, 2]}


def test_explicit_dp_checked_against_world(config):
    path = config("accelerator:\n  dp_size: 2\n  tp_size: 2\n")
    assert json.loads(ok("dims", path, "--world-size", "4"))["dp_size"] == 2
    fails(1, "dims", path, "--world-size", "8", match="does not equal the world size 8")
    # Without any world size source, an explicit dp stands.
    assert json.loads(ok("dims", path))["dp_size"] == 2


def test_explicit_null_dp_is_derived(config):
    path = config("accelerator:\n  dp_size: null\n  tp_size: 2\n")
    assert json.loads(ok("dims", path, "--world-size", "8"))["dp_size"] == 4


def test_indivisible_world_size_names_both_numbers(config):
    path = config("accelerator: {tp_size: 2, cp_size: 2}\n")
    fails(1, "dims", path, "--world-size", "6",
          match="world size 6 is not divisible by tp*cp*pp = 4")


def test_yaml_features(config):
    text = ("# comment\r\nbase: &b {tp_size: 4, cp_size: 1}\r\n"
            "more: &m\r\n  cp_size: 2\r\n  sequence_parallel: On\r\n"
            "accelerator:\r\n  <<: [*m, *b]   # earlier merge wins\r\n"
            "  loss_parallel: YES\r\nmeta:\r\n  nom: \"réseau ✓\"\r\n")
    d = json.loads(ok("dims", config(text.encode("utf-8")), "--world-size", "16"))
    assert d == {"cp_size": 2, "dp_size": 2, "ep_size": 1, "loss_parallel": True,
                 "pp_size": 1, "sequence_parallel": True, "tp_size": 4}


def test_explicit_key_overrides_merge(config):
    text = "b: &b {tp_size: 4}\naccelerator:\n  tp_size: 2\n  <<: *b\n"
    assert json.loads(ok("dims", config(text), "--world-size", "2"))["tp_size"] == 2


@pytest.mark.parametrize("value,code,fragment", [
    ('"2"', 1, 'tp_size must be an integer, got string "2"'),
    ("2.0", 1, "tp_size must be an integer, got float"),
    ("true", 1, "tp_size must be an integer, got boolean"),
    ("0", 1, "tp_size must be >= 1, got 0"),
    ("-2", 1, "tp_size must be >= 1"),
    ("2147483648", 1, "tp_size must be at most 2147483647"),
    ("9223372036854775808", 1, "tp_size must be at most 2147483647"),
    ("[2]", 1, "tp_size must be an integer, got a list"),
])
def test_bad_size_values(config, value, code, fragment):
    path = config(f"accelerator:\n  tp_size: {value}\n")
    msg = fails(code, "dims", path, "--world-size", "8", match=fragment)
    assert "line 2" in msg and path in msg


def test_bad_flag_value(config):
    fails(1, "dims", config("accelerator:\n  loss_parallel: 1\n"), "--world-size", "1",
          match="loss_parallel must be a boolean, got integer 1")


def test_malformed_yaml(config):
    fails(1, "dims", config("accelerator: {tp_size: 2\n"), "--world-size", "2",
          match="line")


def test_top_level_must_be_mapping(config):
    fails(1, "dims", config("- a\n- b\n"), "--world-size", "2",
          match="top level of the config must be a mapping")


def test_missing_file_and_directory(tmp_path):
    fails(1, "dims", str(tmp_path / "nope.yaml"), match="cannot open")
    fails(1, "dims", str(tmp_path), match="is a directory")


def test_alias_bomb_is_fast(config):
    lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for i in range(1, 30):
        prev = f"*a{i-1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    lines.append("accelerator: {tp_size: 2}")
    path = config("\n".join(lines) + "\n")
    assert json.loads(ok("dims", path, "--world-size", "2"))["tp_size"] == 2


# ---- world size sources and precedence ----

def test_world_size_precedence(config):
    path = config("accelerator: {tp_size: 1}\n")
    dp = lambda env, *extra: json.loads(ok("dims", path, *extra, env=env))["dp_size"]
    assert dp({}) == 1
    assert dp({"SLURM_NTASKS": "5"}) == 5
    assert dp({"SLURM_NTASKS": "5", "PMI_SIZE": "6"}) == 6
    assert dp({"SLURM_NTASKS": "5", "PMI_SIZE": "6", "OMPI_COMM_WORLD_SIZE": "7"}) == 7
    assert dp({"SLURM_NTASKS": "5", "OMPI_COMM_WORLD_SIZE": "7", "WORLD_SIZE": "8"}) == 8
    assert dp({"WORLD_SIZE": "8"}, "--world-size", "9") == 9


@pytest.mark.parametrize("var", WORLD_VARS)
@pytest.mark.parametrize("value", ["abc", "0", "-4", "", "3.5"])
def test_bad_environment_value_names_variable(config, var, value):
    fails(1, "dims", config("accelerator: {tp_size: 1}\n"), env={var: value}, match=var)


# ---- topology ----

def test_groups_domain_examples():
    assert ok("groups", "--mesh", "dp=2,cp=2,tp=2", "--dims", "tp") == "[[0,1],[2,3],[4,5],[6,7]]"
    assert ok("groups", "--mesh", "dp=2,cp=2,tp=2", "--dims", "cp") == "[[0,2],[1,3],[4,6],[5,7]]"
    assert ok("groups", "--mesh", "dp=2,cp=2,tp=2", "--dims", "dp") == "[[0,4],[1,5],[2,6],[3,7]]"
    assert ok("groups", "--mesh", "dp=2,cp=2,tp=2", "--dims", "dp,cp") == "[[0,2,4,6],[1,3,5,7]]"
    assert ok("groups", "--mesh", "dp=2,cp=2,tp=2", "--dims", "cp,dp") == "[[0,2,4,6],[1,3,5,7]]"


def test_groups_from_config_with_runtime_order(config):
    path = config("accelerator: {tp_size: 2, pp_size: 2}\n")
    # Offline mesh (dp=2, cp=1, tp=2, pp=2): pp innermost.
    assert ok("groups", path, "--world-size", "8", "--dims", "pp") == "[[0,1],[2,3],[4,5],[6,7]]"
    # Runtime order pp outermost.
    assert ok("groups", path, "--world-size", "8", "--order", "pp,dp,cp,tp",
              "--dims", "pp") == "[[0,4],[1,5],[2,6],[3,7]]"
    # The same layout in Megatron's fastest-first spelling.
    assert ok("groups", path, "--world-size", "8", "--order", "tp-cp-dp-pp",
              "--dims", "pp") == "[[0,4],[1,5],[2,6],[3,7]]"


def test_order_command():
    assert ok("order", "tp-cp-ep-dp-pp") == '["pp","dp","ep","cp","tp"]'
    assert ok("order", "pp,dp,cp,tp") == '["pp","dp","cp","tp"]'
    fails(1, "order", "tp-xx", match='unknown axis "xx"')
    fails(1, "order", "tp,tp", match="appears twice")
    fails(1, "order", "tp,cp-dp", match="mixes")


def test_order_must_place_large_axes(config):
    path = config("accelerator: {tp_size: 2, cp_size: 2}\n")
    fails(1, "mesh", path, "--world-size", "8", "--order", "dp,tp",
          match="does not place axis cp of size 2")


def test_coord():
    assert json.loads(ok("coord", "--mesh", "dp=2,cp=2,tp=2", "--rank", "5")) == {
        "dp": 1, "cp": 0, "tp": 1}
    assert ok("coord", "--mesh", "dp=2,cp=2,tp=2", "--rank", "5") == '{"cp":0,"dp":1,"tp":1}'
    fails(1, "coord", "--mesh", "dp=2,cp=2,tp=2", "--rank", "8", match="rank 8 is outside")


def test_mesh_json_file(tmp_path):
    path = tmp_path / "mesh.json"
    path.write_text('{"mesh_dim_names":["a","b"],"mesh_shape":[3,2]}')
    assert ok("groups", "--mesh", str(path), "--dims", "a") == "[[0,2,4],[1,3,5]]"
    path.write_text('{"mesh_dim_names":["a"],"mesh_shape":[3]} x')
    fails(1, "mesh", "--mesh", str(path), match="mesh JSON")


def test_experts_domain_example():
    assert json.loads(ok("experts", "--mesh", "dp=4,tp=2", "--ep", "4")) == {
        "edp": 2, "ep": 4, "ep_groups": [[0, 1, 2, 3], [4, 5, 6, 7]],
        "edp_groups": [[0, 4], [1, 5], [2, 6], [3, 7]]}


def test_experts_errors():
    fails(1, "experts", "--mesh", "dp=4,pp=2", "--ep", "2", match="pp_size 2 > 1")
    fails(1, "experts", "--mesh", "dp=3,tp=2", "--ep", "4", match="does not divide")
    fails(1, "experts", "--mesh", "dp=4,tp=2", "--ep", "4", "--num-experts", "6",
          match="num_experts 6 is not divisible by ep_size 4")


def test_experts_default_ep_from_config():
    out = json.loads(ok("experts", EXAMPLE, "--world-size", "8"))
    assert out["ep"] == 2 and out["edp"] == 4
    assert out["ep_groups"] == [[0, 1], [2, 3], [4, 5], [6, 7]]


def test_check(config):
    out = json.loads(ok("check", EXAMPLE, "--world-size", "8", "--num-experts", "8"))
    assert out["ok"] is True and out["plan_dim_names"] == ["cp", "tp"]
    assert out["experts"] == {"edp": 4, "ep": 2}
    assert out["violations"] == []
    dense_pp = config("accelerator: {pp_size: 2}\n", name="dense.yaml")
    out = json.loads(ok("check", dense_pp, "--world-size", "8", "--num-experts", "6"))
    assert "experts" not in out and out["plan_dim_names"] == []
    # Failed verdicts: tests/cli/test_check.py.


def test_locality():
    out = json.loads(ok("locality", "--mesh", "dp=2,tp=8", "--ranks-per-host", "8"))
    assert out["hosts"] == 2 and out["ranks_per_host"] == 8
    by_axes = {tuple(r["axes"]): r for r in out["report"]}
    assert by_axes[("tp",)] == {"axes": ["tp"], "groups": 2, "local_groups": 2,
                                "cross_host_groups": 0, "max_hosts": 1}
    assert by_axes[("dp",)]["local_groups"] == 0 and by_axes[("dp",)]["max_hosts"] == 2
    out = json.loads(ok("locality", "--mesh", "dp=2,tp=8", "--ranks-per-host", "4",
                        "--dims", "tp", "--dims", "dp,tp"))
    assert [r["axes"] for r in out["report"]] == [["tp"], ["dp", "tp"]]
    assert out["report"][0]["max_hosts"] == 2 and out["report"][1]["max_hosts"] == 4


def test_dump_is_json_lines():
    r = run("dump", "--mesh", "dp=2,tp=2")
    assert r.returncode == 0
    header, *rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert header == {"groups": {"dp": [[0, 2], [1, 3]], "tp": [[0, 1], [2, 3]]}}
    assert [row["rank"] for row in rows] == [0, 1, 2, 3]
    assert rows[2] == {"coord": {"dp": 1, "tp": 0}, "group": {"dp": 0, "tp": 1},
                       "position": {"dp": 1, "tp": 0}, "rank": 2}


# ---- usage and errors ----

@pytest.mark.parametrize("args,fragment", [
    ((), "missing COMMAND"),
    (("frobnicate",), 'unknown command "frobnicate"'),
    (("dims",), "CONFIG.yaml argument is required"),
    (("dims", "a.yaml", "--world-size", "x"), "needs an integer"),
    (("dims", "a.yaml", "--world-size"), "needs a value"),
    (("dims", "a.yaml", "--bogus", "1"), 'unknown option "--bogus"'),
    (("dims", "a.yaml", "b.yaml"), "takes one argument"),
    (("groups", "--mesh", "dp=2"), "needs --dims"),
    (("coord", "--mesh", "dp=2"), "needs --rank"),
    (("groups", "--mesh", "dp=2", "a.yaml", "--dims", "dp"), "cannot be combined"),
    (("locality", "--mesh", "dp=2"), "needs --ranks-per-host"),
    (("mesh",), "give a CONFIG.yaml or --mesh"),
])
def test_usage_errors_exit_2(args, fragment):
    fails(2, *args, match=fragment)


# Integers out of range are bad values (exit 1, like --rank 4 on a 4-rank
# mesh); text that is no integer stays a usage error (exit 2).
@pytest.mark.parametrize("args,fragment", [
    (("dims", "a.yaml", "--world-size", "0"), "--world-size must be >= 1, got 0"),
    (("dims", "a.yaml", "--world-size", "-8"), "--world-size must be >= 1, got -8"),
    (("coord", "--mesh", "dp=2", "--rank", "-1"), "--rank must be >= 0, got -1"),
    (("coord", "--mesh", "dp=2", "--rank", "2"), "rank 2 is outside the mesh"),
    (("coord", "--mesh", "dp=2", "--rank", "99999999999"), "exceeds 2147483647"),
    (("coord", "--mesh", "dp=2", "--rank", "-99999999999"), "--rank must be >= 0"),
    (("locality", "--mesh", "dp=2", "--ranks-per-host", "-1"),
     "--ranks-per-host must be >= 1, got -1"),
    (("experts", "--mesh", "dp=2", "--ep", "-2"), "--ep must be >= 1, got -2"),
])
def test_out_of_range_values_exit_1(args, fragment):
    fails(1, *args, match=fragment)


def test_stray_argument_after_dims_is_named(tmp_path):
    # "--dims dp tp": the stray "tp" is neither a config nor silently dropped.
    fails(2, "groups", "--mesh", "dp=2,tp=2", "--dims", "dp", "tp",
          match='stray "tp" after --dims "dp": an axis set is one comma-separated '
                'value (--dims "dp,tp")')
    config = tmp_path / "c.yaml"
    config.write_text("accelerator: {tp_size: 2}\n")
    fails(2, "groups", str(config), "--world-size", "4", "--dims", "dp", "tp",
          match='extra "tp" after --dims "dp"')


def test_mesh_file_names(tmp_path):
    # A mesh file whose path holds '=' is still a file, not a spec.
    path = tmp_path / "a=b.json"
    path.write_text('{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,3]}')
    r = run("mesh", "--mesh", str(path))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"mesh_dim_names": ["dp", "tp"], "mesh_shape": [2, 3]}
    fails(1, "mesh", "--mesh", str(tmp_path / "missing.json"),
          match="missing.json: cannot open")
    fails(1, "mesh", "--mesh", str(tmp_path / "missing"),
          match="(and not a name=size list)")
    fails(1, "mesh", "--mesh", str(tmp_path), match="is a directory")


def test_mesh_file_over_64_mib_is_an_error(tmp_path):
    # It used to stop reading at 64 MiB and accept the file.
    path = tmp_path / "big.json"
    text = '{"mesh_dim_names":["dp"],"mesh_shape":[2]}'
    with open(path, "w") as f:
        f.write(text)
        f.write(" " * ((64 << 20) - len(text)))
        f.write("GARBAGE")
    fails(1, "mesh", "--mesh", str(path), match="larger than 64 MiB")


def test_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in (("mesh", "--mesh", str(fifo)), ("dims", str(fifo), "--world-size", "2")):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=20)
        assert r.returncode == 1, r.stderr
        assert "is a FIFO, not a regular file" in r.stderr


def test_world_size_source_in_errors(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("accelerator: {tp_size: 4}\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")}
    r = subprocess.run([CLI, "dims", str(config)], capture_output=True, text=True, env=env)
    assert r.returncode == 1
    assert ("world size 1 (the default: no --world-size and none of WORLD_SIZE, "
            "OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is set) is not divisible "
            "by tp*cp*pp = 4") in r.stderr
    r = subprocess.run([CLI, "dims", str(config)], capture_output=True, text=True,
                       env={**env, "SLURM_NTASKS": "6"})
    assert r.returncode == 1
    assert "world size 6 (from SLURM_NTASKS) is not divisible by tp*cp*pp = 4" in r.stderr


@pytest.mark.parametrize("spec,fragment", [
    ("dp=0", "sizes must be >= 1"),
    ("dp=2,dp=2", "duplicate axis name"),
    ("=2", "empty name"),
    ("dp", "not a name=size list"),
    ("dp=x", "not a decimal integer"),
    ("a=65536,b=65536", "exceeds 2^31-1"),
])
def test_bad_mesh_specs_exit_1(spec, fragment):
    fails(1, "mesh", "--mesh", spec, match=fragment)


def test_help_and_version():
    r = run("--help")
    assert r.returncode == 0 and "usage: offline-mesh" in r.stdout
    for command in ("dims", "mesh", "groups", "coord", "experts", "check", "locality", "dump"):
        assert command in r.stdout
        h = run(command, "--help")
        assert h.returncode == 0 and h.stdout.startswith(f"usage: offline-mesh {command}")
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("offline-mesh 1.")


def test_large_mesh_groups_stream():
    r = run("groups", "--mesh", "dp=1024,tp=1024", "--dims", "tp")
    assert r.returncode == 0
    groups = json.loads(r.stdout)
    assert len(groups) == 1024 and groups[-1][-1] == 1024 * 1024 - 1
    assert groups[5] == list(range(5 * 1024, 6 * 1024))
