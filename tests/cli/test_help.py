"""offline-mesh COMMAND --help: usage, every option the command takes with
its default, and the man page. The list is checked against what the
command really accepts (its unknown-option message names those)."""
import os
import re
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


def commands():
    r = run("--help")
    assert r.returncode == 0
    return re.findall(r"^  ([a-z]+)  ", r.stdout, re.M)


COMMANDS = commands()


def test_top_level_help_lists_commands_and_points_to_the_man_page():
    assert COMMANDS == ["dims", "mesh", "groups", "coord", "experts", "check",
                        "locality", "dump", "order", "views", "launch", "advise",
                        "show"]
    assert run("--help").stdout.endswith(
        "\nSee man offline-mesh for every command and option.\n")


def listed_options(command):
    r = run(command, "--help")
    assert r.returncode == 0 and r.stderr == ""
    head, options = r.stdout.split("\noptions:\n")
    assert head.startswith("usage: offline-mesh " + command)
    assert options.endswith("\n\nSee man offline-mesh for every command and option.\n")
    entries = {}
    for line in options.split("\n\n")[0].splitlines():
        m = re.match(r"  (\S+)(?: (\S+))?\s*(.*)$", line)
        if m and not line.startswith("   "):
            name = m.group(1).rstrip(",")
            entries[name] = (m.group(2) or "", m.group(3))
            last = name
        else:  # a wrapped text line (or the text under a long head)
            value, text = entries[last]
            entries[last] = (value, (text + " " + line.strip()).strip())
    for line in options.splitlines():
        assert len(line) <= 79, line
    return entries


def accepted_options(command):
    """The options the command's parser accepts, from its own message."""
    r = run(command, "--no-such-option")
    assert r.returncode == 2
    m = re.search(r"\(it takes (.*)\)$", r.stderr.strip())
    taken = set(m.group(1).split(", ")) if m else set()
    if command in ("check", "views"):  # taken out before the parser runs
        taken |= {"--preset", "--param"}
    if command == "views":
        taken |= {"--single-axes"}
    if command == "check":  # the preflight's own options (without --preset)
        taken |= {"--num-experts"}
    return taken


@pytest.mark.parametrize("command", COMMANDS)
def test_help_lists_exactly_the_accepted_options(command):
    listed = listed_options(command)
    assert "-h" in listed  # "-h, --help"
    options = {o for o in listed if o.startswith("--")}
    assert options == accepted_options(command)
    for name, (value, text) in listed.items():
        assert text, name  # every option says what it is


@pytest.mark.parametrize("command,option,default", [
    ("experts", "--ep", "(default: the config's ep_size; 1 with --mesh)"),
    ("experts", "--num-experts", "(default: not checked)"),
    ("locality", "--dims", "(default: each axis on its own)"),
    ("dump", "--dims", "(default: each axis on its own)"),
    ("groups", "--dims", "(required)"),
    ("coord", "--rank", "(required)"),
    ("show", "--format", "(default: text)"),
    ("show", "--color-by", "(default: the innermost axis)"),
    ("show", "--ranks-per-host", "(default: none)"),
    ("launch", "--format", "(default: torchrun)"),
    ("launch", "--master-addr", "(default: 127.0.0.1)"),
    ("launch", "--master-port", "(default: 29500)"),
    ("advise", "--priority", "(default: tp>cp>ep>dp>pp)"),
    ("mesh", "--world-size", "(default: WORLD_SIZE, OMPI_COMM_WORLD_SIZE, "
     "PMI_SIZE or SLURM_NTASKS, the first set, else 1)"),
    ("views", "--param", "(default: the framework's defaults)"),
])
def test_defaults_are_stated(command, option, default):
    value, text = listed_options(command)[option]
    assert text.endswith(default), text


def test_values_are_named():
    assert listed_options("coord")["--rank"][0] == "R"
    assert listed_options("show")["--format"][0] == "text|svg"
    assert listed_options("launch")["--format"][0] == "torchrun|slurm|openmpi"
    assert listed_options("locality")["--examples"][0] == ""


def test_help_wins_over_other_arguments():
    r = run("groups", "--mesh", "bad", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: offline-mesh groups")
