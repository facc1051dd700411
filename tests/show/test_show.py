"""offline-mesh show: golden pictures, their meaning, the SVG and bad options.

Runs the built binary (OFFLINE_MESH_CLI) with a controlled environment.
Golden files live in tests/show/golden/: NAME.txt (plain) and NAME.ansi
(OFFLINE_MESH_COLOR=always). After a deliberate change of the picture,
regenerate them with OFFLINE_MESH_UPDATE_GOLDEN=1 and review the diff.

Besides the goldens, every picture is checked against an independent model
of the mesh written here (row-major ranks, groups, hosts), so a golden
recorded from a wrong picture would still fail.
"""
import os
import pathlib
import pty
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
HERE = pathlib.Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
ROOT = HERE.parent.parent
UPDATE = os.environ.get("OFFLINE_MESH_UPDATE_GOLDEN") == "1"
SVG_NS = {"s": "http://www.w3.org/2000/svg"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")
CLEARED = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
           "NO_COLOR", "OFFLINE_MESH_COLOR")


def env_with(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(extra or {})
    return env


def run(*args, env=None):
    return subprocess.run([CLI, "show", *args], capture_output=True,
                          text=True, env=env_with(env), timeout=60)


def ok(*args, env=None):
    r = run(*args, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    return r.stdout


# ---- an independent model of the mesh ----------------------------------

class Mesh:
    def __init__(self, spec):
        self.names, self.sizes = [], []
        for item in filter(None, spec.split(",")):
            name, size = item.split("=")
            self.names.append(name)
            self.sizes.append(int(size))
        self.size = 1
        for s in self.sizes:
            self.size *= s

    def coord(self, rank):
        out = []
        for s in reversed(self.sizes):
            out.append(rank % s)
            rank //= s
        return list(reversed(out))

    def rank(self, coord):
        r = 0
        for c, s in zip(coord, self.sizes):
            r = r * s + c
        return r

    def group(self, axes, rank):
        """(index, members) of the group over `axes` holding `rank`."""
        c = self.coord(rank)
        inside = [i for i, n in enumerate(self.names) if n in axes]
        outside = [i for i in range(len(self.names)) if i not in inside]
        index = 0
        for i in outside:
            index = index * self.sizes[i] + c[i]
        members = []
        for r in range(self.size):
            rc = self.coord(r)
            if all(rc[i] == c[i] for i in outside):
                members.append(r)
        return index, members


def letters(n):
    s = ""
    n += 1
    while n:
        n -= 1
        s = chr(ord("a") + n % 26) + s
        n //= 26
    return s


CELL = re.compile(r"(\d+)([a-z]+)(!?)")


def grid_cells(text):
    """(rank, tag, mark) of every cell in a plain picture, in order."""
    cells = []
    for line in text.splitlines():
        m = re.match(r"^  +(\d+|\.\.)? ", line)
        if not line.startswith("  ") or "group" in line or "\\" in line:
            continue
        body = re.sub(r"  hosts? [\d-]+$", "", line)
        if m and re.fullmatch(r"[\s\d a-z!|.]*", body):
            found = CELL.findall(body)
            # The row label is a bare number without letters: skipped.
            cells.extend((int(r), t, mk == "!") for r, t, mk in found)
    return cells


def check_meaning(text, spec, color_by, ranks_per_host=None):
    """Every rank once in row-major order, letters = its group, '!' exactly
    on groups that cross a host."""
    mesh = Mesh(spec)
    cells = grid_cells(text)
    assert [c[0] for c in cells] == list(range(mesh.size))
    for rank, tag, mark in cells:
        index, members = mesh.group(color_by, rank)
        assert tag == letters(index), (rank, tag, index)
        crosses = (ranks_per_host is not None and
                   members[0] // ranks_per_host != members[-1] // ranks_per_host)
        assert mark == crosses, rank


# ---- golden pictures ----------------------------------------------------

CASES = {
    "dp2_cp2_tp2": ["--mesh", "dp=2,cp=2,tp=2"],
    "tp_crosses_hosts": ["--mesh", "dp=2,cp=2,tp=4", "--ranks-per-host", "3"],
    "tp_on_hosts": ["--mesh", "pp=2,dp=2,cp=2,tp=8", "--color-by", "tp",
                    "--ranks-per-host", "8"],
    "color_by_two_axes": ["--mesh", "dp=2,cp=2,tp=4", "--color-by", "dp,cp",
                          "--ranks-per-host", "4"],
    "one_axis": ["--mesh", "tp=4"],
    "no_axes": ["--mesh", ""],
    "config_offline": [str(HERE / "train.yaml"), "--world-size", "32"],
    "config_runtime": [str(HERE / "train.yaml"), "--world-size", "32",
                       "--order", "pp,dp,cp,tp", "--color-by", "tp",
                       "--ranks-per-host", "8"],
    "mesh_2p20": ["--mesh", "dp=16,pp=16,cp=16,tp=256",
                  "--ranks-per-host", "8"],
    "mesh_2p20_square": ["--mesh", "x=1024,y=1024", "--color-by", "x"],
}
COLOR_CASES = ["dp2_cp2_tp2", "tp_crosses_hosts", "tp_on_hosts"]


def golden(name, text):
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing {path}: run with OFFLINE_MESH_UPDATE_GOLDEN=1"
    assert text == path.read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_plain_golden(name):
    text = ok(*CASES[name])
    assert "\x1b" not in text
    golden(name + ".txt", text)


@pytest.mark.parametrize("name", COLOR_CASES)
def test_color_golden(name):
    text = ok(*CASES[name], env={"OFFLINE_MESH_COLOR": "always"})
    assert "\x1b[38;5;16;48;5;" in text
    golden(name + ".ansi", text)
    # Color only wraps cells: the layout is the plain picture's.
    assert ANSI.sub("", text) == ok(*CASES[name])


@pytest.mark.parametrize("name,spec,color_by,rph", [
    ("dp2_cp2_tp2", "dp=2,cp=2,tp=2", "tp", None),
    ("tp_crosses_hosts", "dp=2,cp=2,tp=4", "tp", 3),
    ("tp_on_hosts", "pp=2,dp=2,cp=2,tp=8", "tp", 8),
    ("color_by_two_axes", "dp=2,cp=2,tp=4", "dp,cp", 4),
    ("one_axis", "tp=4", "tp", None),
    ("config_offline", "dp=2,cp=2,tp=4,pp=2", "pp", None),
    ("config_runtime", "pp=2,dp=2,cp=2,tp=4", "tp", 8),
])
def test_picture_meaning(name, spec, color_by, rph):
    text = ok(*CASES[name])
    assert text.startswith(f"mesh {spec}: ")
    check_meaning(text, spec, color_by.split(","), rph)


@pytest.mark.parametrize("spec,color_by,rph", [
    ("a=3,b=5,c=7", "b", 4),
    ("a=2,b=3,c=2,d=5", "a,c", 6),
    ("a=6", "", 4),
    ("dp=4,tp=12", "dp", 5),
])
def test_meaning_more_meshes(spec, color_by, rph):
    text = ok("--mesh", spec, "--color-by", color_by, "--ranks-per-host",
              str(rph))
    check_meaning(text, spec, [a for a in color_by.split(",") if a], rph)


def test_host_summary_tells_whether_tp_crosses():
    crossing = ok("--mesh", "dp=2,tp=8,cp=2", "--color-by", "tp",
                  "--ranks-per-host", "8").splitlines()
    assert crossing[-1] == (
        "hosts: 8 ranks per host, 4 hosts; 4 of 4 tp groups CROSS a host "
        "boundary (up to 2 hosts each); their ranks are marked !")
    assert sum("CROSSES HOSTS" in line for line in crossing) == 4
    local = ok("--mesh", "dp=2,cp=2,tp=8", "--color-by", "tp",
               "--ranks-per-host", "8").splitlines()
    assert local[-1] == ("hosts: 8 ranks per host, 4 hosts; no tp group "
                         "crosses a host boundary")
    assert not any("CROSS" in line or "!" in line for line in local)


def test_host_boundaries_drawn():
    lines = ok("--mesh", "a=2,b=6", "--ranks-per-host", "4").splitlines()
    rows = [l for l in lines if re.match(r"^\s+[01] ", l)]
    # Hosts are ranks 0-3, 4-7, 8-11: a bar between 3 and 4 and 7 and 8.
    # Both b groups span two hosts, so every cell carries the '!' mark.
    assert rows[0].split() == ["0", "0a!", "1a!", "2a!", "3a!|", "4a!", "5a!",
                               "hosts", "0-1"]
    assert rows[1].split() == ["1", "6b!", "7b!|", "8b!", "9b!", "10b!",
                               "11b!", "hosts", "1-2"]
    # Every rank of row 1 is on another host than the one above it.
    sep = lines[lines.index(rows[0]) + 1]
    assert sep.strip() == "-" * (6 * 4 + 5)
    assert sep.index("-") == rows[0].index(" 0a!")


def test_default_color_is_innermost_axis():
    assert ok("--mesh", "a=2,b=3") == ok("--mesh", "a=2,b=3", "--color-by",
                                         "b")


# ---- large meshes -------------------------------------------------------

def test_2p20_is_brief():
    text = ok(*CASES["mesh_2p20"])
    lines = text.splitlines()
    assert len(lines) <= 60, len(lines)
    assert lines[0] == ("mesh dp=16,pp=16,cp=16,tp=256: 1048576 ranks in "
                        "256 blocks (dp,pp) of 16 rows (cp) x 256 columns (tp)")
    assert "... 253 blocks not shown (dp=0 pp=2 to dp=15 pp=14) ..." in lines
    blocks = [l for l in lines if re.match(r"^dp=\d+ pp=\d+  ranks", l)]
    assert blocks == [
        "dp=0 pp=0  ranks 0-4095  hosts 0-511",
        "dp=0 pp=1  ranks 4096-8191  hosts 512-1023",
        "dp=15 pp=15  ranks 1044480-1048575  hosts 130560-131071"]
    # The last rank is shown, with its tp group's letters and the mark.
    mesh = Mesh("dp=16,pp=16,cp=16,tp=256")
    index, _ = mesh.group(["tp"], 1048575)
    assert index == 4095
    assert f"1048575{letters(index)}!" in text


def test_largest_mesh_prints_briefly():
    text = ok("--mesh", "x=2147483647", "--ranks-per-host", "8")
    assert len(text.splitlines()) <= 20
    assert "2147483646a!" in text


# ---- SVG ----------------------------------------------------------------

def svg_cells(text):
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root, [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                  if g.get("class", "").split()[0] == "rank"]


def expected_title(mesh, rank, color_by, rph):
    c = mesh.coord(rank)
    lines = [f"rank {rank}",
             " ".join(f"{n}={v}" for n, v in zip(mesh.names, c))]

    def group_line(axes, label):
        index, members = mesh.group(axes, rank)
        listed = ",".join(map(str, members))
        if len(members) > 8:
            listed = (",".join(map(str, members[:6])) +
                      f",...,{members[-1]} ({len(members)} ranks)")
        word = "rank" if len(members) == 1 else "ranks"
        return f"{label} group {index}: {word} {listed}"

    lines.append(group_line(color_by, ",".join(color_by) or "rank"))
    for name in mesh.names:
        if [name] != color_by:
            lines.append(group_line([name], name))
    if rph:
        _, members = mesh.group(color_by, rank)
        host = f"host {rank // rph}"
        first, last = members[0] // rph, members[-1] // rph
        if first != last:
            host += f"; its {','.join(color_by)} group crosses hosts {first}-{last}"
        lines.append(host)
    return "\n".join(lines)


@pytest.mark.parametrize("spec,color_by,rph", [
    ("dp=2,cp=2,tp=4", "tp", 3),
    ("pp=2,dp=2,cp=2,tp=8", "tp", 8),
    ("a=3,b=2,c=2", "a,c", None),
    ("x=5", "x", 2),
    ("dp=2,tp=10", "dp", None),  # groups larger than 8 ranks are shortened
])
def test_svg_one_cell_per_rank_with_titles(spec, color_by, rph):
    args = ["--mesh", spec, "--color-by", color_by, "--format", "svg"]
    if rph:
        args += ["--ranks-per-host", str(rph)]
    text = ok(*args)
    root, cells = svg_cells(text)
    mesh = Mesh(spec)
    assert sorted(int(g.get("data-rank")) for g in cells) == list(
        range(mesh.size))
    axes = color_by.split(",")
    for g in cells:
        rank = int(g.get("data-rank"))
        title = g.find("s:title", SVG_NS)
        assert title.text == expected_title(mesh, rank, axes, rph)
        rect = g.find("s:rect", SVG_NS)
        assert re.fullmatch(r"#[0-9a-f]{6}", rect.get("fill"))
        label = g.find("s:text", SVG_NS).text
        index, members = mesh.group(axes, rank)
        crosses = bool(rph) and members[0] // rph != members[-1] // rph
        assert label == f"{rank}{letters(index)}{'!' if crosses else ''}"
        assert ("crosses" in g.get("class").split()) == crosses
    # Cells of one group share a color; neighbouring groups differ.
    fills = {}
    for g in cells:
        index, _ = mesh.group(axes, int(g.get("data-rank")))
        fills.setdefault(index, set()).add(g.find("s:rect", SVG_NS).get("fill"))
    assert all(len(f) == 1 for f in fills.values())
    ordered = [fills[i].pop() for i in sorted(fills)]
    assert all(a != b for a, b in zip(ordered, ordered[1:]))


def test_svg_is_standalone():
    text = ok("--mesh", "dp=2,cp=2,tp=4", "--ranks-per-host", "3", "--format",
              "svg")
    root, _ = svg_cells(text)
    for element in root.iter():
        tag = element.tag.split("}")[1]
        assert tag not in ("script", "image", "foreignObject", "use", "a")
        for attr in element.attrib:
            assert "href" not in attr
    assert "@import" not in text and "url(" not in text
    assert "@font-face" not in text
    assert int(root.get("width")) > 0 and int(root.get("height")) > 0
    # Host boundaries are drawn: hosts of 3 ranks in rows of 4.
    lines = root.findall(".//s:line[@class='host']", SVG_NS)
    assert len(lines) > 0


def test_svg_escapes_axis_names():
    text = ok("--mesh", "a<&\">=2,b=2", "--format", "svg")
    _, cells = svg_cells(text)
    assert len(cells) == 4
    assert cells[0].find("s:title", SVG_NS).text.splitlines()[1] == \
        'a<&">=0 b=0'


def test_svg_2p20_is_summarised():
    text = ok(*CASES["mesh_2p20"], "--format", "svg")
    assert len(text) < 400_000
    root, cells = svg_cells(text)
    ranks = [int(g.get("data-rank")) for g in cells]
    # The same cells as the terminal picture.
    assert ranks == [c[0] for c in grid_cells(ok(*CASES["mesh_2p20"]))]
    assert 1048575 in ranks and 0 in ranks
    mesh = Mesh("dp=16,pp=16,cp=16,tp=256")
    assert mesh.coord(1048575) == [15, 15, 15, 255]
    last = [g for g in cells if g.get("data-rank") == "1048575"][0]
    title = last.find("s:title", SVG_NS).text.splitlines()
    assert title[:3] == [
        "rank 1048575", "dp=15 pp=15 cp=15 tp=255",
        "tp group 4095: ranks 1048320,1048321,1048322,1048323,1048324,"
        "1048325,...,1048575 (256 ranks)"]
    assert any("253 blocks not shown" in (t.text or "")
               for t in root.iter("{http://www.w3.org/2000/svg}text"))


# ---- color choice -------------------------------------------------------

def run_on_tty(args, env):
    try:
        master, slave = pty.openpty()
    except OSError as e:  # a container without /dev/pts
        pytest.skip(f"no pseudo-terminal here: {e}")
    try:
        p = subprocess.Popen([CLI, "show", *args], stdout=slave,
                             stderr=subprocess.PIPE, env=env_with(env))
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO once the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert p.wait(timeout=60) == 0
        return b"".join(chunks).decode()
    finally:
        os.close(master)


@pytest.mark.parametrize("env,colored", [
    ({}, True),
    ({"NO_COLOR": "1"}, False),
    ({"NO_COLOR": ""}, True),  # empty NO_COLOR does not count
    ({"OFFLINE_MESH_COLOR": "never"}, False),
    ({"OFFLINE_MESH_COLOR": "auto"}, True),
    ({"OFFLINE_MESH_COLOR": "always", "NO_COLOR": "1"}, True),
])
def test_color_on_a_terminal(env, colored):
    text = run_on_tty(["--mesh", "dp=2,tp=2"], env)
    assert ("\x1b[" in text) == colored


@pytest.mark.parametrize("env,colored", [
    ({}, False),
    ({"OFFLINE_MESH_COLOR": "auto"}, False),
    ({"OFFLINE_MESH_COLOR": "always"}, True),
])
def test_color_into_a_pipe(env, colored):
    assert ("\x1b[" in ok("--mesh", "dp=2,tp=2", env=env)) == colored


def test_svg_ignores_color_settings():
    plain = ok("--mesh", "dp=2,tp=2", "--format", "svg")
    assert ok("--mesh", "dp=2,tp=2", "--format", "svg",
              env={"OFFLINE_MESH_COLOR": "always"}) == plain
    assert "\x1b" not in plain


def test_control_characters_in_names_do_not_reach_the_terminal():
    text = ok("--mesh", "a\x1b[31m=2,b=2", env={"OFFLINE_MESH_COLOR": "never"})
    assert "\x1b" not in text
    assert "a?[31m=2" in text


# ---- bad options --------------------------------------------------------

@pytest.mark.parametrize("args,env,code,message", [
    (["--mesh", "dp=2,tp=2", "--color-by", "ep"], None, 1,
     '--color-by: axis "ep" is not in the mesh (dp, tp)'),
    (["--mesh", "dp=2,tp=2", "--color-by", "tp,tp"], None, 1,
     '--color-by: axis "tp" is named twice'),
    (["--mesh", "dp=2,tp=2", "--color-by", "dp,,tp"], None, 1, "--color-by: "),
    (["--mesh", "dp=2,tp=2", "--format", "png"], None, 2,
     '--format must be text or svg, got "png"'),
    (["--mesh", "dp=2,tp=2", "--format", ""], None, 2,
     '--format must be text or svg, got ""'),
    (["--mesh", "dp=2,tp=2", "--format"], None, 2, "--format needs a value"),
    (["--mesh", "dp=2,tp=2", "--format", "svg", "--format", "text"], None, 2,
     "--format given twice"),
    (["--mesh", "dp=2,tp=2", "--ranks-per-host", "0"], None, 1,
     "--ranks-per-host must be >= 1, got 0"),
    (["--mesh", "dp=2,tp=2", "--ranks-per-host", "x"], None, 2,
     '--ranks-per-host needs an integer, got "x"'),
    (["--mesh", "dp=2,tp=2", "--dims", "tp"], None, 2,
     "unknown option \"--dims\" for 'show'"),
    (["--mesh", "dp=2,tp=2"], {"OFFLINE_MESH_COLOR": "yes"}, 2,
     'OFFLINE_MESH_COLOR must be always, never or auto, got "yes"'),
    ([], None, 2, "give a CONFIG.yaml or --mesh SPEC"),
    (["--mesh", "dp=0"], None, 1, '--mesh: axis "dp" has size 0'),
    ([str(HERE / "train.yaml"), "--world-size", "6"], None, 1,
     "not divisible"),
    ([str(HERE / "train.yaml"), "--world-size", "32", "--order", "pp,dp,xx"],
     None, 1, None),
    ([str(HERE / "train.yaml"), "--mesh", "a=2"], None, 2,
     "--mesh cannot be combined"),
])
def test_bad_options(args, env, code, message):
    r = run(*args, env=env)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("offline-mesh: error: ")
    if message:
        assert message in lines[0], lines[0]


def test_help_names_the_options():
    r = subprocess.run([CLI, "show", "--help"], capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stdout.startswith("usage: offline-mesh show SOURCE [--color-by "
                               "AXES] [--ranks-per-host K] [--format text|svg]")
    top = subprocess.run([CLI, "--help"], capture_output=True, text=True)
    assert re.search(r"^  show +a picture", top.stdout, re.M)


# ---- the documented picture stays current -------------------------------

def test_docs_picture_is_current():
    doc = (ROOT / "docs" / "show.md").read_text()
    m = re.search(r"^\$ offline-mesh show (.+)$", doc, re.M)
    assert m, "docs/show.md names the command of its picture"
    args = m.group(1).split()
    capture = (ROOT / "docs" / "images" / "show-terminal.ansi").read_text()
    # The screenshot's capture is this command's colored output.
    assert "\x1b[" in capture
    strip = [l.rstrip() for l in ANSI.sub("", capture).rstrip("\n").splitlines()]
    shown = strip[strip.index("$ offline-mesh show " + m.group(1)) + 1:]
    while shown and shown[-1] == "":
        shown.pop()
    if shown and shown[-1].startswith("$"):
        shown.pop()
    assert shown == ok(*args).rstrip("\n").splitlines()
    svg = (ROOT / "docs" / "images" / "show.svg").read_text()
    assert svg == ok(*args, "--format", "svg")
