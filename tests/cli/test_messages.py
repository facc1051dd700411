"""Error messages of offline-mesh: what the user gave is quoted and escaped
the same way everywhere (control characters and bytes that are not UTF-8
as \\xNN), shortened only after a whole UTF-8 character, on one line, and
the message says what would be valid.

Runs the built binary (OFFLINE_MESH_CLI) with byte arguments, so values
that are not UTF-8 reach it exactly as a shell would pass them.
"""
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
EXAMPLES = os.environ.get("OFFLINE_MESH_EXAMPLES", "examples")
EXAMPLE = os.path.join(EXAMPLES, "train.yaml")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")

TITLE = b"\x1b]0;pwned\x07"          # sets the terminal's title
TITLE_SHOWN = "\\x1B]0;pwned\\x07"   # how every message spells it


def run(*args, env=None):
    base = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    base.update(env or {})
    argv = [CLI.encode()] + [a if isinstance(a, bytes) else a.encode() for a in args]
    return subprocess.run(argv, capture_output=True, env=base, timeout=60)


def error_line(r, code):
    """The one stderr line of a failed run, decoded strictly as UTF-8."""
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout == b""
    text = r.stderr.decode("utf-8")  # raises on a cut or invalid sequence
    assert text.endswith("\n") and text.count("\n") == 1, text
    line = text[:-1]
    assert line.startswith("offline-mesh: error: ")
    assert all(c >= " " and c != "\x7f" for c in line), repr(line)
    return line


# ---- a hostile value reaches no terminal raw, wherever it is reported ----

HOSTILE = [
    # (arguments, exit status); TITLE is the value the user gave
    ((TITLE,), 2),                                        # unknown command
    (("groups", "--mesh", "dp=2", b"--x" + TITLE), 2),    # unknown option
    (("groups", "--mesh", b"n" + TITLE + b"l=2", "--dims", "zz"), 1),
    (("groups", "--mesh", "dp=2", "--dims", TITLE), 1),
    (("show", "--mesh", "dp=2", "--format", TITLE), 2),
    (("show", "--mesh", "dp=2", "--color-by", TITLE), 1),
    (("launch", "--mesh", "dp=2", "--nnodes", "1", "--nproc-per-node", "2",
      "--format", TITLE), 2),
    (("coord", "--mesh", "dp=2", "--rank", TITLE), 2),
    (("views", "--preset", TITLE), 1),
    (("views", "--preset", "megatron", "--param", TITLE), 2),
    (("groups", "--mesh", "dp=2", "--param", TITLE), 2),
    (("mesh", "--mesh", TITLE), 1),
    (("dims", TITLE), 1),
    (("mesh", EXAMPLE, "--world-size", "8", "--order", TITLE), 1),
    (("order", TITLE), 1),
    (("dims", EXAMPLE, TITLE), 2),                        # extra argument
    (("mesh", "--mesh", "dp=2", TITLE), 2),               # --mesh with a config
    (("groups", "--mesh", "dp=2", "--dims", "dp", TITLE), 2),
    (("locality", "--mesh", "dp=2", "--hierarchy", b"/nonexistent/" + TITLE), 1),
    (("advise", EXAMPLE, "--world-size", "8", "--hierarchy", "host=8",
      "--order", TITLE), 1),
]


@pytest.mark.parametrize("args,code", HOSTILE,
                         ids=lambda v: repr(v)[:40] if isinstance(v, tuple) else None)
def test_control_characters_are_escaped(args, code):
    line = error_line(run(*args), code)
    assert TITLE_SHOWN in line, line


def test_environment_value_is_escaped():
    line = error_line(run("show", "--mesh", "dp=2", env={"OFFLINE_MESH_COLOR": "\x1b[2J"}), 2)
    assert 'OFFLINE_MESH_COLOR must be always, never or auto, got "\\x1B[2J"' in line


def test_invalid_utf8_argument_is_shown_escaped():
    line = error_line(run(b"\xff"), 2)
    assert 'unknown command "\\xFF"' in line
    line = error_line(run("show", "--mesh", "dp=2", "--format", b"sv\xffg"), 2)
    assert line.endswith('--format must be text or svg, got "sv\\xFFg"')
    line = error_line(run("groups", "--mesh", "dp=2", "--dims", b"d\xc3p"), 1)
    assert '"d\\xC3p"' in line


def test_newline_in_a_value_stays_on_one_line():
    line = error_line(run("show", "--mesh", "dp=2", "--format", "a\nb"), 2)
    assert line == 'offline-mesh: error: --format must be text or svg, got "a\\x0Ab"'
    line = error_line(run("launch", "--mesh", "dp=2", "--nnodes", "1",
                          "--nproc-per-node", "2", "--format", "x\r\ny"), 2)
    assert '"x\\x0D\\x0Ay"' in line


def test_quotes_and_backslashes_are_escaped():
    line = error_line(run("show", "--mesh", "dp=2", "--format", 'a"b\\c'), 2)
    assert line.endswith('got "a\\"b\\\\c"')


# ---- long values are shortened after a whole character ----

LONG = "é" * 80 + "€" * 40 + "😀" * 30


@pytest.mark.parametrize("args,code", [
    ((LONG,), 2),
    (("groups", "--mesh", "dp=2", "--" + LONG), 2),
    (("show", "--mesh", "dp=2", "--format", LONG), 2),
    (("coord", "--mesh", "dp=2", "--rank", LONG), 2),
    (("mesh", "--mesh", "dp=2", LONG), 2),
    (("groups", "--mesh", "dp=2", "--dims", "dp", LONG), 2),
    (("views", "--preset", "megatron", "--param", LONG), 2),
    (("groups", "--mesh", "dp=2", "--dims", LONG), 1),
])
def test_long_values_are_cut_after_a_whole_character(args, code):
    for shift in ("", "a", "ab", "abc"):  # every cut position inside a character
        shifted = tuple(a.replace(LONG, shift + LONG) for a in args)
        line = error_line(run(*shifted), code)
        end = line.index('..."')
        shown = line[line.rindex('"', 0, end) + 1:end]
        assert len(shown) >= 20, line
        assert any(a.startswith(shown) for a in shifted), line


def test_short_values_are_not_cut():
    value = "é" * 20
    line = error_line(run("show", "--mesh", "dp=2", "--format", value), 2)
    assert line.endswith('got "%s"' % value)


# ---- the message says what would be valid ----

def test_unknown_command_lists_the_commands():
    line = error_line(run("mseh"), 2)
    assert line == ('offline-mesh: error: unknown command "mseh" (commands: dims, '
                    'mesh, groups, coord, experts, check, locality, dump, order, '
                    'views, launch, advise, show); try \'offline-mesh --help\'')


def test_unknown_option_lists_the_command_options():
    line = error_line(run("coord", "--mesh", "dp=2", "--rnak", "1"), 2)
    assert line.startswith('offline-mesh: error: unknown option "--rnak" for '
                           "'coord' (it takes ")
    taken = line[line.index("(it takes ") + 10:-1].split(", ")
    assert "--rank" in taken and "--mesh" in taken and "--world-size" in taken
    assert "--ep" not in taken
    line = error_line(run("dims", EXAMPLE, "-x"), 2)
    assert line == "offline-mesh: error: unknown option \"-x\" for 'dims' (it takes --world-size, --strict)"


def test_bad_integer_names_the_range():
    line = error_line(run("coord", "--mesh", "dp=2", "--rank", "two"), 2)
    assert line == ('offline-mesh: error: --rank needs an integer, got "two" '
                    "(from 0 to 2147483647)")
    line = error_line(run("coord", "--mesh", "dp=2", "--rank", "-1"), 1)
    assert line == "offline-mesh: error: --rank must be >= 0, got -1"


def test_positional_argument_where_none_is_taken():
    line = error_line(run("order", "pp,dp", "--", "x"), 2)
    assert line == "offline-mesh: error: 'order' takes one argument; extra \"x\""


# ---- configs in another encoding say which one ----

@pytest.mark.parametrize("data,encoding", [
    ("accelerator: {tp_size: 2}\n".encode("utf-32"), "UTF-32 (little-endian)"),
    ("accelerator: {tp_size: 2}\n".encode("utf-32-le"), "UTF-32 (little-endian)"),
    ("accelerator: {tp_size: 2}\n".encode("utf-32-be"), "UTF-32 (big-endian)"),
    (b"\x00\x00\xfe\xff" + "a: 1\n".encode("utf-32-be"), "UTF-32 (big-endian)"),
    ("accelerator: {tp_size: 2}\n".encode("utf-16-le"),
     "UTF-16 (little-endian) without a byte-order mark"),
    ("accelerator: {tp_size: 2}\n".encode("utf-16-be"),
     "UTF-16 (big-endian) without a byte-order mark"),
])
def test_config_encoding_is_named(tmp_path, data, encoding):
    path = tmp_path / "train.yaml"
    path.write_bytes(data)
    line = error_line(run("dims", str(path), "--world-size", "4"), 1)
    assert line == ("offline-mesh: error: %s: the text is %s, not UTF-8: save it as "
                    "UTF-8 (e.g. iconv -f %s -t UTF-8)"
                    % (path, encoding, encoding[:6]))


def test_utf16_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "train.yaml"
    path.write_bytes("accelerator: {tp_size: 2}\n".encode("utf-16"))
    r = run("mesh", str(path), "--world-size", "4")
    assert r.returncode == 0, r.stderr
    assert r.stdout == b'{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,1,2]}\n'
