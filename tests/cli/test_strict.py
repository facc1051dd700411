"""Config diagnostics on the command line (issue 15): every command that
reads a CONFIG.yaml prints each likely mistake as a warning (stdout and exit
status unchanged); --strict makes them one error line, exit 1, no output.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")
KNOWN = ("(known keys: dp_size, tp_size, cp_size, ep_size, pp_size, "
         "sequence_parallel, loss_parallel)")
DEFAULT = "every size takes its default"


def run(*args):
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.fixture
def config(tmp_path):
    def write(text, name="train.yaml"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


# (config text, the diagnostics after "PATH: ")
CASES = {
    "misspelled key": (
        "accelerator:\n  tpsize: 4\n",
        ['line 2: unknown key "tpsize" in accelerator (did you mean "tp_size"?)']),
    "several keys": (
        "accelerator:\n  tp: 2\n  foo: 1\n",
        ['line 2: unknown key "tp" in accelerator (did you mean "tp_size"?)',
         f'line 3: unknown key "foo" in accelerator {KNOWN}']),
    "misspelled section": (
        "acclerator:\n  tp_size: 4\n",
        ['line 1: unknown section "acclerator" (did you mean "accelerator"?): '
         f'there is no accelerator section, so {DEFAULT}']),
    "no section": ("model: {layers: 2}\n", [f"no accelerator section: {DEFAULT}"]),
    "empty section": ("accelerator:\n", [f"line 1: the accelerator section is empty: {DEFAULT}"]),
    "empty file": ("", [f"the config is empty: {DEFAULT}"]),
    "mesh JSON": (
        '{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,2]}\n',
        ['line 1: this is a mesh JSON (it has "mesh_dim_names"), not a training '
         "config: read it as a mesh (CLI: --mesh FILE)"]),
    # Since 1.3: the last value counts (as in PyYAML), with a word.
    "duplicate key": (
        "accelerator:\n  tp_size: 2\n  tp_size: 1\n",
        ['line 3: key "tp_size" appears again in accelerator (line 2\'s value 2 is '
         "replaced by 1)"]),
    "duplicate section": (
        "accelerator: {tp_size: 2, tp_size: 4}\naccelerator: {cp_size: 1}\n",
        ['line 2: section "accelerator" appears again at the top level: it replaces '
         "the one at line 1"]),
    "override beside a merge and a duplicate in the merged mapping": (
        "base: &b {tp_size: 2, tp_size: 4}\naccelerator:\n  <<: *b\n  tp_size: 1\n",
        ['line 1: key "tp_size" appears again in a mapping accelerator merges (line 1\'s '
         "value 2 is replaced by 4)"]),
    # Since 1.3 too: both merges apply (the later wins tp_size: 1, as in
    # PyYAML), with a word.
    "two merge keys": (
        "a: &a {tp_size: 2}\nb: &b {tp_size: 1}\naccelerator: {<<: *a, <<: *b}\n",
        ['line 3: merge key "<<" appears again in accelerator (line 3 has one): both '
         "merge, this one winning shared keys (say <<: [*this, *earlier])"]),
    # The preset loader's keys repeat in the tree too; the dims read none,
    # so only the unknown keys are reported, as before 1.3.
    "the preset's keys repeated": (
        "accelerator:\n  dp_shard_size: 1\n  dp_shard_size: 2\n"
        "fsdp_config: {edp_shard_size: 1}\nfsdp_config: {edp_shard_size: 2}\n",
        [f'line 2: unknown key "dp_shard_size" in accelerator {KNOWN}',
         f'line 3: unknown key "dp_shard_size" in accelerator {KNOWN}']),
}


@pytest.mark.parametrize("case", CASES)
def test_warnings_then_the_same_output(config, case):
    text, messages = CASES[case]
    path = config(text)
    r = run("mesh", path, "--world-size", "8")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"mesh_dim_names": ["dp", "cp", "tp"],
                                    "mesh_shape": [8, 1, 1]}
    assert r.stderr.splitlines() == [f"offline-mesh: warning: {path}: {m}"
                                     for m in messages]


@pytest.mark.parametrize("case", CASES)
def test_strict_is_one_error(config, case):
    text, messages = CASES[case]
    path = config(text)
    r = run("mesh", path, "--world-size", "8", "--strict")
    assert r.returncode == 1
    assert r.stdout == ""
    more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
    assert r.stderr.splitlines() == [f"offline-mesh: error: {path}: {messages[0]}{more}"]


# Every command that reads a config, with what else it needs.
COMMANDS = [
    ("dims",), ("mesh",), ("check",), ("experts", "--ep", "2"),
    ("groups", "--dims", "tp"), ("coord", "--rank", "0"), ("dump",),
    ("locality", "--ranks-per-host", "2"), ("show",), ("views",),
    ("advise", "--hierarchy", "host=2"),
    ("launch", "--nnodes", "1", "--nproc-per-node", "2"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_every_config_command(config, command):
    path = config("accelerator:\n  tp_size: 2\n  tpsize: 2\n")
    warning = (f"offline-mesh: warning: {path}: line 3: unknown key \"tpsize\" "
               "in accelerator (did you mean \"tp_size\"?)")
    clean = run(command[0], config("accelerator: {tp_size: 2}\n", "clean.yaml"),
                *command[1:], "--world-size", "2")
    assert clean.returncode == 0, clean.stderr
    assert clean.stderr == ""
    lenient = run(command[0], path, *command[1:], "--world-size", "2")
    assert lenient.returncode == 0, lenient.stderr
    assert lenient.stdout == clean.stdout
    assert lenient.stderr.splitlines() == [warning]
    strict = run(command[0], path, *command[1:], "--world-size", "2", "--strict")
    assert strict.returncode == 1
    assert strict.stdout == ""
    assert strict.stderr.splitlines() == [warning.replace("warning", "error")]
    # A clean config passes --strict untouched.
    clean_strict = run(command[0], config("accelerator: {tp_size: 2}\n", "clean.yaml"),
                       *command[1:], "--world-size", "2", "--strict")
    assert (clean_strict.returncode, clean_strict.stdout, clean_strict.stderr) == (
        0, clean.stdout, "")


def test_strict_without_a_config_is_refused():
    r = run("order", "dp,tp", "--strict")
    assert r.returncode == 2
    assert r.stderr == "offline-mesh: error: unknown option \"--strict\": 'order' takes no options\n"
    r = run("dims", "x.yaml", "--strict=yes")
    assert r.returncode == 2
    assert r.stderr == "offline-mesh: error: --strict takes no value\n"


def test_strict_with_mesh_is_accepted_and_moot():
    r = run("mesh", "--mesh", "dp=2,tp=2", "--strict")
    assert (r.returncode, r.stderr) == (0, "")
    assert json.loads(r.stdout) == {"mesh_dim_names": ["dp", "tp"], "mesh_shape": [2, 2]}


def test_errors_stay_errors(config):
    path = config("accelerator: {tpsize: 2, tp_size: \"2\"}\n")
    for extra in ((), ("--strict",)):
        r = run("dims", path, *extra)
        assert r.returncode == 1
        assert r.stdout == ""
        assert r.stderr == (f"offline-mesh: error: {path}: line 1: tp_size must be "
                            "an integer, got string \"2\"\n")


def test_warning_then_world_size_error(config):
    path = config("accelerator: {tp_size: 4, tpsize: 4}\n")
    r = run("dims", path, "--world-size", "6")
    assert r.returncode == 1
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0] == (f"offline-mesh: warning: {path}: line 1: unknown key \"tpsize\" "
                        "in accelerator (did you mean \"tp_size\"?)")
    assert lines[1].startswith("offline-mesh: error: world size 6")
    assert len(lines) == 2
