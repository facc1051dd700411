"""A hostile-input sweep of offline-mesh, as the CI jobs and shell launchers
that call it can get things wrong: options missing their value or given
twice, numbers in odd spellings, odd files, empty strings, huge meshes,
closed pipes and full disks.

The contract: a bad input exits non-zero with one line on stderr naming
the offending value and nothing on stdout; a good input exits 0 with the
exact output; a write that fails is reported and exits 1. The cases marked
"fixed" failed on the code before this sweep.
"""
import json
import os
import resource
import signal
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
EXAMPLE = os.path.join(os.environ.get("OFFLINE_MESH_EXAMPLES", "examples"),
                       "train.yaml")  # dp derived, cp=2, tp=2, ep=2
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")
INT32_MAX = 2**31 - 1


def run(*args, env=None, stdout=subprocess.PIPE, cwd=None):
    base = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    base.update(env or {})
    argv = [CLI.encode()] + [a if isinstance(a, bytes) else a.encode() for a in args]
    r = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, env=base,
                       cwd=cwd, timeout=60)
    return r


def fails(code, *args, match, **kw):
    """One error line naming `match`, nothing on stdout, exit `code`."""
    r = run(*args, **kw)
    err = r.stderr.decode()
    assert r.returncode == code, (r.returncode, err)
    assert not r.stdout, r.stdout[:200]
    assert err.count("\n") == 1 and err.startswith("offline-mesh: error: "), err
    assert match in err, err
    return err


def ok(*args, **kw):
    r = run(*args, **kw)
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return r.stdout.decode()


def mesh_shape(*args, **kw):
    return json.loads(ok("mesh", *args, **kw))["mesh_shape"]


# ---- numbers ----

@pytest.mark.parametrize("text,dp", [("8", 2), ("08", 2), ("+8", 2), ("0016", 4)])
def test_world_size_decimal_spellings(text, dp):
    """Decimal digits with an optional '+', leading zeros ignored (08 is 8,
    not an octal error)."""
    assert mesh_shape(EXAMPLE, "--world-size", text) == [dp, 2, 2]


@pytest.mark.parametrize("text", ["0x10", "1e3", " 4", "4 ", "4abc", "", "4.0",
                                  "\u0664", "--", "1_000"])
def test_world_size_not_an_integer(text):
    fails(2, "mesh", EXAMPLE, "--world-size", text,
          match='--world-size needs an integer, got "%s" (from 1 to 2147483647)'
          % text.replace("\u0664", "\u0664"))


@pytest.mark.parametrize("text,message", [
    ("0", "--world-size must be >= 1, got 0"),
    ("-0", "--world-size must be >= 1, got -0"),
    ("-1", "--world-size must be >= 1, got -1"),
    (str(2**31), "--world-size 2147483648 exceeds 2147483647"),
    (str(2**63), "--world-size 9223372036854775808 exceeds 2147483647"),
    (str(2**64), "--world-size 18446744073709551616 exceeds 2147483647"),
    ("9" * 60, "--world-size " + "9" * 40 + "... exceeds 2147483647"),
])
def test_world_size_out_of_range(text, message):
    fails(1, "mesh", EXAMPLE, "--world-size", text, match=message)


def test_world_size_at_int32_max_is_checked_not_refused():
    fails(1, "mesh", EXAMPLE, "--world-size", str(INT32_MAX),
          match="world size 2147483647 is not divisible by tp*cp*pp = 4")


@pytest.mark.parametrize("text,coord", [("-0", 0), ("+1", 1), ("01", 1)])
def test_rank_spellings(text, coord):
    assert json.loads(ok("coord", "--mesh", "dp=2", "--rank", text)) == {"dp": coord}


def test_rank_with_leading_zero_is_decimal():
    fails(1, "coord", "--mesh", "dp=2", "--rank", "010",
          match="rank 10 is outside the mesh of 2 ranks")


@pytest.mark.parametrize("port", ["0", "-1", "65536", "70000", str(2**31)])
def test_master_port_range_is_one_error(port):
    """fixed: 0 and -1 were exit 1 "must be >= 1", 65536 exit 2."""
    fails(1, "launch", "--mesh", "dp=2", "--nnodes", "1", "--nproc-per-node", "2",
          "--master-port", port, match="--master-port must be 1..65535, got " + port)


def test_master_port_bounds_accepted():
    for port in ("1", "65535"):
        out = json.loads(ok("launch", "--mesh", "dp=2", "--nnodes", "1",
                            "--nproc-per-node", "2", "--master-port", port))
        env = out["nodes"][0]["processes"][1]["env"]
        assert env["MASTER_PORT"] == port and env["RANK"] == "1"


# ---- the world size from the environment ----

@pytest.mark.parametrize("value,message", [
    ("", 'environment variable WORLD_SIZE="" is not a positive integer'),
    ("abc", 'environment variable WORLD_SIZE="abc" is not a positive integer'),
    ("-1", 'environment variable WORLD_SIZE="-1" is not a positive integer'),
    ("0", 'environment variable WORLD_SIZE="0" is not a positive integer'),
    ("0x8", 'environment variable WORLD_SIZE="0x8" is not a positive integer'),
    ("2147483648", 'environment variable WORLD_SIZE="2147483648" exceeds 2147483647'),
    ("9" * 30, 'environment variable WORLD_SIZE="%s" exceeds 2147483647' % ("9" * 30)),
])
def test_bad_world_size_variable(value, message):
    fails(1, "mesh", EXAMPLE, env={"WORLD_SIZE": value}, match=message)


@pytest.mark.parametrize("value", [" 8", "8\n", "08", "+8"])
def test_world_size_variable_read_as_python_int(value):
    """Documented (dims.h): the variables are read as Python's int() reads
    them, as torchrun writes and reads them."""
    assert mesh_shape(EXAMPLE, env={"WORLD_SIZE": value}) == [2, 2, 2]


def test_first_set_variable_wins_even_when_bad():
    fails(1, "mesh", EXAMPLE, env={"WORLD_SIZE": "x", "SLURM_NTASKS": "8"},
          match='WORLD_SIZE="x"')
    assert mesh_shape(EXAMPLE, env={"PMI_SIZE": "16", "SLURM_NTASKS": "x"}) == [4, 2, 2]
    # --world-size wins, and the variables are then not read at all.
    assert mesh_shape(EXAMPLE, "--world-size", "8", env={"WORLD_SIZE": "x"}) == [2, 2, 2]


# ---- options: missing values, repeats, wrong command, order, "--" ----

COMMANDS = ["dims", "mesh", "groups", "coord", "experts", "check", "locality",
            "dump", "views", "launch", "advise", "show"]
FLAGS = {"--strict", "--examples", "--single-axes", "--layouts"}


def options_of(command):
    """The options of `command` as its parser lists them (test_help.py checks
    that the list equals the --help text)."""
    r = run(command, "--no-such-option")
    line = r.stderr.decode().strip()
    return line[line.index("(it takes ") + 10:-1].split(", ")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_missing_its_value(command):
    for option in options_of(command):
        if option in FLAGS:
            continue
        fails(2, command, option, match="%s needs a value" % option)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_given_twice(command):
    """Every option is refused twice, but --dims of dump and locality and
    --param, which repeat; a flag twice too (fixed: --single-axes)."""
    repeatable = {"--param"} | ({"--dims"} if command in ("dump", "locality") else set())
    for option in options_of(command):
        if option in repeatable:
            continue
        args = [option] if option in FLAGS else [option + "=1"]
        fails(2, command, *args, *args, match="%s given twice" % option)


@pytest.mark.parametrize("args,option", [
    (["dims", EXAMPLE, "--rank", "1"], "--rank"),
    (["mesh", EXAMPLE, "--dims", "dp"], "--dims"),
    (["experts", EXAMPLE, "--order", "tp-cp-dp"], "--order"),
    (["advise", "--mesh", "dp=2"], "--mesh"),
    (["views", "--preset", "megatron", "--mesh", "dp=2"], "--mesh"),
    (["check", "--preset", "megatron", "--num-experts", "8"], "--num-experts"),
    (["groups", "--mesh", "dp=2", "-d", "dp"], "-d"),
])
def test_option_of_another_command(args, option):
    fails(2, *args, match='unknown option "%s" for \'%s\' (it takes ' % (option, args[0]))


def test_option_to_a_command_without_options():
    fails(2, "order", "tp-dp", "--world-size", "8",
          match='unknown option "--world-size": \'order\' takes no options')


def test_views_lists_its_own_options():
    """fixed: views named only --world-size and --strict (its --preset,
    --param and --single-axes were taken out before the parser ran)."""
    err = fails(2, "views", "--preset", "torchtitan", "--single-axes=1",
                match="--single-axes takes no value")
    fails(2, "views", "--preset", "torchtitan", "--single-axes", "--single-axes",
          match="--single-axes given twice")
    err = fails(2, "views", "--bogus", match="unknown option")
    for option in ("--preset", "--param", "--single-axes", "--layouts", "--world-size"):
        assert option in err, err


@pytest.mark.parametrize("args,match", [
    # fixed: the next option was taken for the value, and the message then
    # blamed what followed it
    (["groups", "--mesh", "--dims", "tp"], '--mesh needs a value, got the option "--dims"'),
    (["groups", "--dims", "--mesh", "dp=2"], '--dims needs a value, got the option "--mesh"'),
    (["mesh", EXAMPLE, "--order", "--world-size=8"],
     '--order needs a value, got the option "--world-size=8"'),
])
def test_option_taken_for_a_missing_value(args, match):
    fails(2, *args, match=match)


def test_value_starting_with_dashes_that_names_no_option():
    out = json.loads(ok("launch", "--mesh", "dp=2", "--nnodes", "1",
                        "--nproc-per-node", "2", "--master-addr", "--head-0"))
    assert out["nodes"][0]["processes"][0]["env"]["MASTER_ADDR"] == "--head-0"


def test_value_starting_with_dashes_by_equals():
    fails(1, "groups", "--mesh=--dims", "--dims", "tp",
          match='--mesh: --dims: cannot open')


def test_options_before_and_after_the_argument():
    assert mesh_shape("--world-size", "8", EXAMPLE) == mesh_shape(EXAMPLE, "--world-size", "8")
    assert mesh_shape("--world-size=8", "--", EXAMPLE) == [2, 2, 2]


def test_double_dash_ends_the_options():
    fails(2, "mesh", "--", EXAMPLE, "--world-size", "8",
          match='\'mesh\' takes one argument; extra "--world-size"')
    fails(1, "dims", "--", "--strict", match="--strict: cannot open")
    assert json.loads(ok("order", "--", "tp-dp")) == ["dp", "tp"]


def test_double_dash_before_a_preset_option():
    """fixed: views and check --preset took --preset/--param out of the
    arguments before "--" was seen (this printed torchtitan's views)."""
    fails(2, "views", "--", "--preset", "torchtitan",
          match='\'views\' takes one argument; extra "torchtitan"')
    fails(1, "check", "--", "--preset=torchtitan", match="--preset=torchtitan: cannot open")


def test_help_command_and_extra_arguments():
    """fixed: "help groups" printed the top-level help, and an argument
    after --help or --version was ignored."""
    assert ok("help", "groups") == ok("groups", "--help")
    assert ok("--help", "coord") == ok("coord", "--help")
    assert ok("help", "help") == ok("--help")
    fails(2, "help", "nope", match='unknown command "nope"')
    fails(2, "help", "groups", "x", match="'help' takes at most a COMMAND, got \"x\"")
    fails(2, "--version", "x", match="'--version' takes no argument, got \"x\"")
    assert ok("--version").startswith("offline-mesh ")


def test_help_summaries_stay_in_their_column():
    """fixed: the second line of check's summary started at column 0."""
    out = ok("--help")
    commands = out.split("commands:\n")[1].split("\n\n")[0].splitlines()
    assert all(line.startswith("  ") for line in commands), commands
    assert any(line.startswith("            when one breaks); with --preset")
               for line in commands), commands


# ---- empty strings ----

def test_empty_master_addr():
    """fixed: --master-addr "" (an unset shell variable) was taken as
    127.0.0.1 without a word."""
    fails(1, "launch", "--mesh", "dp=4", "--nnodes", "2", "--nproc-per-node", "2",
          "--master-addr", "", match="--master-addr is empty (leave it out for 127.0.0.1)")


@pytest.mark.parametrize("args,match", [
    (["dims", ""], '"": cannot open: No such file or directory'),
    (["views", "--preset", ""], 'unknown preset ""'),
    (["mesh", EXAMPLE, "--world-size", "8", "--order", ""], 'axis order "" has an empty item'),
    (["show", "--mesh", "dp=2", "--format", ""], 'got ""'),
    (["launch", "--mesh", "dp=2", "--nnodes", "1", "--nproc-per-node", "2",
      "--hosts", ""], 'host 0 ("") is not a plain host name'),
    (["locality", "--mesh", "dp=2", "--hierarchy", ""], '--hierarchy "": not a level=size list'),
    (["coord", "--mesh", "dp=2", "--rank", ""], '--rank needs an integer, got ""'),
    (["views", "--preset", "megatron", "--param", "world_size="],
     'parameter world_size must be an integer, got ""'),
])
def test_empty_values(args, match):
    code = 2 if args[0] in ("show", "coord") else 1
    fails(code, *args, match=match)


def test_empty_sets_and_mesh_are_values():
    """Documented: "" is the empty axis set, and --mesh "" the empty mesh."""
    assert json.loads(ok("groups", "--mesh", "dp=2,tp=2", "--dims", "")) == [[0], [1], [2], [3]]
    assert json.loads(ok("mesh", "--mesh", "")) == {"mesh_dim_names": [], "mesh_shape": []}


# ---- --order and presets ----

@pytest.mark.parametrize("order,match", [
    ("tp-tp-dp", 'axis "tp" appears twice in axis order "tp-tp-dp"'),
    ("dp,cp,dp,tp", 'axis "dp" appears twice'),
    ("zz,dp", 'unknown axis "zz" in axis order "zz,dp" (known: dp, cp, tp, pp, ep)'),
    ("DP,CP,TP", 'unknown axis "DP"'),
    ("dp,,tp", 'axis order "dp,,tp" has an empty item'),
    ("dp-", 'axis order "dp-" has an empty item'),
    (",", 'axis order "," has an empty item'),
    ("dp,cp-tp", "mixes ',' and '-' separators"),
    ("dp tp", 'unknown axis "dp tp"'),
    ("dp", 'axis order "dp" does not place axis cp of size 2'),
])
def test_bad_orders(order, match):
    fails(1, "mesh", EXAMPLE, "--world-size", "8", "--order", order, match=match)


def test_orders_that_are_good():
    assert json.loads(ok("order", " pp , dp,cp,tp")) == ["pp", "dp", "cp", "tp"]
    assert json.loads(ok("order", "tp-cp-ep-dp-pp")) == ["pp", "dp", "ep", "cp", "tp"]
    out = json.loads(ok("mesh", EXAMPLE, "--world-size", "16", "--order", "tp-cp-dp"))
    assert out == {"mesh_dim_names": ["dp", "cp", "tp"], "mesh_shape": [4, 2, 2]}


@pytest.mark.parametrize("args,code,match", [
    (["views", "--preset", "Megatron"], 1, 'unknown preset "Megatron"; presets: '
     "torchtitan, megatron, deepspeed, hyper-parallel"),
    (["check", "--preset", "nope"], 1, 'unknown preset "nope"'),
    (["groups", "--preset", "nope", "--view", "tp", "--dims", "tp"], 1,
     'unknown preset "nope"'),
    (["groups", "--preset", "megatron", "--view", "nope", "--dims", "tp"], 1,
     "no view 'nope' in the world (dense, expert)"),
    (["views", "--preset", "megatron", "--param", "nope=1"], 1,
     'unknown megatron parameter "nope"'),
    (["views", "--preset", "megatron", "--param", "world_size=8",
      "--param", "world_size=8"], 1, "parameter world_size given twice"),
    (["views", "--preset", "megatron", "--param", "world_size=0x8"], 1,
     'parameter world_size must be an integer, got "0x8"'),
    (["views", "--preset", "megatron", "--param", "=1"], 2,
     '--param needs KEY=VALUE, got "=1"'),
    (["views", "--preset", "megatron", "--preset", "megatron"], 2, "--preset given twice"),
])
def test_bad_presets(args, code, match):
    fails(code, *args, match=match)


# ---- files ----

@pytest.fixture
def odd_files(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"directory": (str(tmp_path), "is a directory, not a file"),
            "fifo": (str(fifo), "is a FIFO, not a regular file"),
            "null": ("/dev/null", "is a character device, not a regular file"),
            "missing": (str(tmp_path / "none.yaml"), "cannot open: No such file or directory")}


@pytest.mark.parametrize("kind", ["directory", "fifo", "null", "missing"])
def test_odd_files_everywhere(odd_files, kind):
    """Never read (a FIFO would block), named in the message."""
    path, why = odd_files[kind]
    fails(1, "dims", path, match="%s: %s" % (path, why))
    fails(1, "mesh", "--mesh", path, match="--mesh: %s: %s" % (path, why))
    fails(1, "groups", "--view", "dense", "--world", path, "--dims", "tp",
          match="--world %s: %s" % (path, why))
    fails(1, "locality", "--mesh", "dp=2", "--hierarchy", path,
          match='--hierarchy "%s": not a level=size list' % path)


def test_unreadable_file(tmp_path):
    """Mode 000; as root the run drops to uid/gid 65534, whom it stops."""
    path = tmp_path / "secret.yaml"
    path.write_text("accelerator: {tp_size: 2}\n")
    path.chmod(0)

    def drop():
        if os.geteuid() == 0:
            os.setgid(65534)
            os.setuid(65534)
    for args, match in [
            (["dims", str(path)], "%s: cannot open: Permission denied" % path),
            (["mesh", "--mesh", str(path)], "--mesh: %s: cannot open: Permission denied" % path),
            (["groups", "--view", "dense", "--world", str(path), "--dims", "tp"],
             "--world %s: cannot open: Permission denied" % path)]:
        try:
            r = subprocess.run([CLI, *args], capture_output=True, preexec_fn=drop, timeout=60)
        except PermissionError:
            pytest.skip("uid 65534 cannot run the binary")
        err = r.stderr.decode()
        assert r.returncode == 1 and r.stdout == b"" and err.count("\n") == 1, err
        assert match in err, err


def test_non_utf8_path():
    fails(1, "dims", b"/nonexistent/\xff\xfe.yaml",
          match="/nonexistent/\\xFF\\xFE.yaml: cannot open")


@pytest.mark.parametrize("args,match", [
    (["dims", "-"], '"-": standard input is not read'),
    (["check", "-"], '"-": standard input is not read'),
    (["views", "-"], '"-": standard input is not read'),
    (["mesh", "--mesh", "-"], '--mesh "-": standard input is not read'),
    (["groups", "--view", "dense", "--world", "-", "--dims", "tp"],
     '--world "-": standard input is not read'),
    (["locality", "--mesh", "dp=2", "--hierarchy", "-"],
     '--hierarchy "-": standard input is not read'),
])
def test_dash_is_not_stdin(args, match, tmp_path):
    """fixed: "-" gave "-: cannot open: No such file or directory"; a file
    named "-" is still read."""
    fails(1, *args, match=match, cwd=str(tmp_path))


def test_a_file_named_dash_is_read(tmp_path):
    (tmp_path / "-").write_text("accelerator:\n  tp_size: 2\n")
    out = json.loads(ok("dims", "-", "--world-size", "4", cwd=str(tmp_path)))
    assert out["tp_size"] == 2 and out["dp_size"] == 2


@pytest.fixture
def documents(tmp_path):
    world = tmp_path / "world.json"
    world.write_bytes(run("views", "--preset", "megatron", "--param",
                          "world_size=4").stdout)
    mesh = tmp_path / "mesh.json"
    mesh.write_text('{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,2]}')
    array = tmp_path / "array.json"
    array.write_text("[1,2]")
    return {"world": str(world), "mesh": str(mesh), "array": str(array)}


def test_json_of_another_kind(documents):
    fails(1, "mesh", "--mesh", documents["world"], match='mesh JSON lacks "mesh_dim_names"')
    fails(1, "mesh", "--mesh", documents["array"], match="mesh JSON must be an object")
    fails(1, "groups", "--view", "dense", "--world", documents["mesh"], "--dims", "tp",
          match="world document has unknown key 'mesh_dim_names'")
    fails(1, "locality", "--mesh", "dp=2,tp=2", "--hierarchy", documents["mesh"],
          match='hierarchy JSON has unknown key "mesh_dim_names"')
    fails(1, "dims", documents["mesh"], "--strict",
          match="this is a mesh JSON (it has \"mesh_dim_names\"), not a training config")
    fails(1, "dims", documents["world"], "--strict", match="no accelerator section")


def test_hosts_file_errors_name_hosts(tmp_path):
    """fixed: a --hosts file that cannot be read was reported as
    '--hierarchy "...": not a level=size list'."""
    fails(1, "launch", "--mesh", "dp=4", "--nnodes", "2", "--nproc-per-node", "2",
          "--hosts", str(tmp_path), match='--hosts "%s": is a directory' % tmp_path)
    fails(1, "launch", "--mesh", "dp=4", "--nnodes", "2", "--nproc-per-node", "2",
          "--hosts", "/dev/null", match='--hosts "/dev/null": is a character device')


def test_hostfile_with_equals_in_its_name(tmp_path):
    """fixed: a hostfile whose name holds '=' (and no '/') was parsed as a
    level=size list."""
    (tmp_path / "rack=a").write_text("node-a slots=2\nnode-b slots=2\n")
    out = json.loads(ok("launch", "--mesh", "dp=4", "--nnodes", "2",
                        "--nproc-per-node", "2", "--hosts", "rack=a", cwd=str(tmp_path)))
    assert [n["host"] for n in out["nodes"]] == ["node-a", "node-b"]


# ---- output: repeated keys, huge meshes, pipes, full disks ----

def test_dump_refuses_a_repeated_axis_set():
    """fixed: dump --dims dp --dims dp wrote {"dp":...,"dp":...}, JSON with
    a repeated key."""
    fails(2, "dump", "--mesh", "dp=2", "--dims", "dp", "--dims", "dp",
          match="--dims \"dp\" given twice (dump's keys are the --dims values)")
    lines = ok("dump", "--mesh", "dp=2,tp=2", "--dims", "tp,dp", "--dims", "dp,tp").splitlines()
    first = json.loads(lines[0])
    assert first == {"groups": {"dp,tp": [[0, 1, 2, 3]], "tp,dp": [[0, 1, 2, 3]]}}
    assert len(lines) == 5


def test_locality_examples_without_hierarchy():
    """fixed: the message blamed --hierarchy, which was not given."""
    fails(2, "locality", "--mesh", "dp=2", "--ranks-per-host", "2", "--examples",
          match="--require and --examples need --hierarchy LEVELS")


@pytest.mark.parametrize("args,expected", [
    (["coord", "--mesh", "dp=%d" % INT32_MAX, "--rank", str(INT32_MAX - 1)],
     {"dp": INT32_MAX - 1}),
    (["coord", "--mesh", "dp=46341,tp=46340", "--rank", str(46341 * 46340 - 1)],
     {"dp": 46340, "tp": 46339}),
    (["locality", "--mesh", "dp=%d" % INT32_MAX, "--ranks-per-host", "8"],
     {"hosts": 268435456, "ranks_per_host": 8,
      "report": [{"axes": ["dp"], "cross_host_groups": 1, "groups": 1,
                  "local_groups": 0, "max_hosts": 268435456}]}),
])
def test_huge_meshes_answer_at_once(args, expected):
    assert json.loads(ok(*args)) == expected


def test_huge_mesh_refused_with_its_size():
    fails(1, "mesh", "--mesh", "dp=65536,tp=32768",
          match="mesh size exceeds 2^31-1 ranks at axis 1 (size 32768)")
    fails(1, "coord", "--mesh", "dp=%d" % INT32_MAX, "--rank", str(INT32_MAX),
          match="rank 2147483647 is outside the mesh of 2147483647 ranks")


def test_examples_of_billions_are_refused():
    """fixed: locality --examples on a group of 2^31-1 ranks built its
    report in memory (16 GB after a minute, still growing)."""
    fails(1, "locality", "--mesh", "dp=%d" % INT32_MAX, "--hierarchy", "host=8",
          "--examples", match="--examples would list 2147483647 ranks (the worst "
          "group of each level, for each axis set), over the 16777216 one report holds")
    fails(1, "locality", "--mesh", "dp=8388609", "--hierarchy", "host=8,rack=64",
          "--examples", match="--examples would list 16777218 ranks")
    out = json.loads(ok("locality", "--mesh", "dp=4096", "--hierarchy", "host=8,rack=64",
                        "--examples"))
    levels = out["report"][0]["levels"]
    assert levels["host"]["worst_ranks"] == list(range(4096))
    assert levels["rack"]["worst_group"] == 0 and levels["rack"]["max_domains"] == 64
    # Without --examples the same huge group is answered at once.
    out = json.loads(ok("locality", "--mesh", "dp=%d" % INT32_MAX, "--hierarchy", "host=8"))
    assert out["report"][0]["levels"]["host"]["max_domains"] == 268435456


def test_launch_plan_of_billions_is_refused():
    """fixed: launch built a plan of 2^31-1 processes in memory (about a
    terabyte) until it ran out of memory."""
    fails(1, "launch", "--mesh", "dp=%d" % INT32_MAX, "--nnodes", str(INT32_MAX),
          "--nproc-per-node", "1",
          match="a launch plan of 2147483647 processes (--nnodes 2147483647 x "
          "--nproc-per-node 1) is over the limit of 4194304")
    fails(1, "launch", "--mesh", "dp=4194305", "--nnodes", "1",
          "--nproc-per-node", "4194305", match="over the limit of 4194304")


def first_bytes(args, count, ignore_sigpipe=False):
    """Reads `count` bytes of the output, then closes the pipe."""
    def child():
        if ignore_sigpipe:
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    p = subprocess.Popen([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=child)
    head = p.stdout.read(count)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=60)
    return head, p.returncode, err


@pytest.mark.parametrize("args,start", [
    (["groups", "--mesh", "dp=%d" % INT32_MAX, "--dims", ""], b"[[0],[1],[2],"),
    (["dump", "--mesh", "dp=46341,tp=46340", "--dims", ""], b'{"groups":{"":[[0],[1],'),
    (["views", "--preset", "megatron", "--param", "world_size=%d" % INT32_MAX],
     b'{"groups":{"cp":[[0],[1],'),
    (["experts", "--mesh", "dp=1048576,tp=2", "--ep", "4"], b'{"edp":524288,"edp_groups":[[0,4,'),
])
def test_billions_stream_and_stop_quietly_at_a_closed_pipe(args, start):
    """Huge outputs start at once (streamed, not built first) and end by
    SIGPIPE when the reader goes, with nothing on stderr."""
    head, code, err = first_bytes(args, 1 << 16)
    assert head.startswith(start), head[:80]
    assert code == -signal.SIGPIPE and err == b"", (code, err)


def sanitized():
    """Whether the binary is built with AddressSanitizer (which reserves
    terabytes of address space, so no address-space limit fits it)."""
    with open(CLI, "rb") as f:
        return b"__asan_init" in f.read()


def expected_members(sizes, inside, group, count):
    """The first `count` members of `group` by the definition: ranks
    row-major (last axis fastest), groups row-major over the axes outside
    the set, members row-major over those inside."""
    strides = [1] * len(sizes)
    for i in range(len(sizes) - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    base = 0
    for i in reversed([i for i in range(len(sizes)) if i not in inside]):
        base += group % sizes[i] * strides[i]
        group //= sizes[i]
    axes = sorted(inside)
    out, coord = [], [0] * len(axes)
    while len(out) < count:
        out.append(base + sum(c * strides[a] for c, a in zip(coord, axes)))
        k = len(axes) - 1
        while k >= 0:
            coord[k] += 1
            if coord[k] < sizes[axes[k]]:
                break
            coord[k] = 0
            k -= 1
    return out


@pytest.mark.parametrize("args,prefix,sizes,inside", [
    (["groups", "--mesh", "b=715827882,a=3", "--dims", "b"], b"[[", [715827882, 3], {0}),
    (["groups", "--mesh", "p=2,q=89478485,r=3,s=4", "--dims", "s,q,p"], b"[[",
     [2, 89478485, 3, 4], {0, 1, 3}),
    (["groups", "--mesh", "dp=%d" % INT32_MAX, "--dims", "dp"], b"[[", [INT32_MAX], {0}),
    (["experts", "--mesh", "dp=%d" % INT32_MAX, "--ep", "1"],
     b'{"edp":2147483647,"edp_groups":[[', [INT32_MAX], {0}),
    (["dump", "--mesh", "dp=%d" % INT32_MAX], b'{"groups":{"dp":[[', [INT32_MAX], {0}),
])
def test_a_group_of_billions_streams_in_bounded_memory(args, prefix, sizes, inside):
    """fixed: a group was computed whole before its first byte went out:
    8 GiB and half a minute for one of 2^31-1 ranks. Under a 1 GiB
    address-space limit the output now starts at once, exactly."""
    if sanitized():
        pytest.skip("AddressSanitizer needs more address space than the limit")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    p = subprocess.Popen([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=limit)
    head = p.stdout.read(1 << 16)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=60)
    assert p.returncode == -signal.SIGPIPE and err == b"", (p.returncode, err)
    assert head.startswith(prefix), head[:80]
    values = [int(v) for v in head[len(prefix):].split(b",")[:-1]]
    assert len(values) > 5000
    assert values == expected_members(sizes, inside, 0, len(values))


def mode_members(modes, count):
    """The first `count` members of the group at rank 0 over (size, stride)
    modes, row-major (the last mode fastest)."""
    out, coord = [], [0] * len(modes)
    while len(out) < count:
        out.append(sum(c * stride for c, (_, stride) in zip(coord, modes)))
        k = len(modes) - 1
        while k >= 0:
            coord[k] += 1
            if coord[k] < modes[k][0]:
                break
            coord[k] = 0
            k -= 1
    return out


HALF = INT32_MAX // 2  # 1073741823: 2 * HALF ranks
VIEW_WORLD = {"world_size": 2 * HALF, "views": {
    # one axis of two modes, the slow one of stride 1: 0, 2, 4, ... then 1, 3, ...
    "split": {"dim_names": ["h"], "shape": [2 * HALF], "layout": [[[2, 1], [HALF, 2]]]},
    # axes out of row-major order
    "swapped": {"dim_names": ["k", "g"], "shape": [2, HALF],
                "layout": [[[2, 1]], [[HALF, 2]]]}}}


@pytest.mark.parametrize("args,modes", [
    (["--world", "W.json", "--view", "split", "--dims", "h"], [(2, 1), (HALF, 2)]),
    (["--world", "W.json", "--view", "swapped", "--dims", "g"], [(HALF, 2)]),
    (["--world", "W.json", "--view", "swapped", "--dims", "g,k"], [(2, 1), (HALF, 2)]),
    # a family (one instance per pipeline stage): groups of 2^30-1 ranks
    (["--preset", "torchtitan", "--param", "pp=2", "--world-size", str(2 * HALF),
      "--view", "loss", "--dims", "loss_mesh"], [(HALF, 1)]),
])
def test_a_group_of_billions_of_a_view_streams_in_bounded_memory(tmp_path, args, modes):
    """fixed: a view's group (not a plain mesh's) was still computed whole
    by the library before its first byte: 8 GiB and 30 s for the `split`
    view, 4 GiB for torchtitan's loss family. Under a 1 GiB address-space
    limit the output now starts at once, exactly."""
    if sanitized():
        pytest.skip("AddressSanitizer needs more address space than the limit")
    (tmp_path / "W.json").write_text(json.dumps(VIEW_WORLD))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    p = subprocess.Popen([CLI, "groups", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit, cwd=tmp_path, env=env)
    head = p.stdout.read(1 << 16)
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=60)
    assert p.returncode == -signal.SIGPIPE and err == b"", (p.returncode, err)
    assert head.startswith(b"[["), head[:80]
    values = [int(v) for v in head[2:].split(b",")[:-1]]
    assert len(values) > 5000
    assert values == mode_members(modes, len(values))


@pytest.mark.parametrize("other,message", [
    # another member pattern: every rank's groups differ
    ({"dim_names": ["h"], "shape": [2 * HALF], "layout": [[[2 * HALF, 1]]]},
     "rank 0 is in a group of 2147483646 ranks in 'other' and in a group of "
     "2147483646 ranks in 'split'"),
    # the same pattern from other first members: odd ranks only
    ({"dim_names": ["h"], "shape": [HALF], "layout": [[[HALF, 2]]], "offset": 1},
     "rank 0 is in no group in 'other' and in a group of 2147483646 ranks in 'split'"),
])
def test_views_disagreeing_on_a_group_of_billions(tmp_path, other, message):
    """fixed: finding the first rank whose two groups differ wrote both
    groups of every rank up to it: 2 x 8 GiB here (and world x group
    time when that rank is far). Now a pass of decodes, under 1 GiB."""
    if sanitized():
        pytest.skip("AddressSanitizer needs more address space than the limit")
    world = {"world_size": 2 * HALF,
             "views": {"other": other, "split": VIEW_WORLD["views"]["split"]}}
    (tmp_path / "W.json").write_text(json.dumps(world))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    p = subprocess.run([CLI, "groups", "--world", "W.json", "--view", "split", "--dims", "h"],
                       capture_output=True, preexec_fn=limit, cwd=tmp_path, timeout=60)
    assert p.returncode == 1 and p.stdout == b"", (p.returncode, p.stderr)
    assert b"views 'other' and 'split' disagree on axis 'h': " + message.encode() \
        in p.stderr, p.stderr


def test_closed_pipe_with_sigpipe_ignored_is_an_error():
    """Where SIGPIPE is ignored the write fails with EPIPE: reported, exit 1."""
    head, code, err = first_bytes(["groups", "--mesh", "dp=1048576,tp=2", "--dims", "tp"],
                                  1 << 16, ignore_sigpipe=True)
    assert head.startswith(b"[[0,1],[2,3],")
    assert code == 1
    assert err == b"offline-mesh: error: cannot write the output: Broken pipe\n"


FULL_DISK = [
    ["--help"], ["--version"], ["groups", "--help"], ["dims", EXAMPLE, "--world-size", "8"],
    ["groups", "--mesh", "dp=2,tp=2", "--dims", "tp"],
    ["dump", "--mesh", "dp=2,tp=2"], ["views", "--preset", "megatron"],
    ["show", "--mesh", "dp=2,tp=2", "--format", "svg"],
    ["launch", "--mesh", "dp=2", "--nnodes", "1", "--nproc-per-node", "2"],
    # a failed verdict: its stderr line must not speak of output nobody got
    ["check", EXAMPLE, "--world-size", "8", "--num-experts", "3"],
    ["check", "--preset", "megatron", "--param", "tensor_model_parallel_size=3",
     "--world-size", "8"],
    ["locality", "--mesh", "dp=2,tp=4", "--hierarchy", "host=2", "--require", "tp:host"],
    ["advise", EXAMPLE, "--world-size", "8", "--hierarchy", "host=2",
     "--order", "tp-cp-dp-ep"],
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", FULL_DISK, ids=lambda a: " ".join(a[:2]))
def test_full_disk(args):
    """fixed: --help, --version and COMMAND --help exited 0; a failed check
    said "the verdict on stdout lists each broken rule" of a verdict lost."""
    with open("/dev/full", "wb") as full:
        r = run(*args, stdout=full)
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert err.startswith("offline-mesh: error: cannot write the output: "
                          "No space left on device\n"), err
    assert "verdict on stdout" not in err
