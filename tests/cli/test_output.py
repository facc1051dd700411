"""The CLI's large outputs: the linear dump format and its 1.0 migration,
the buffered writer (canonical spelling, write errors noticed at once), and
the axis-name sort. Runs the built binary (OFFLINE_MESH_CLI).
"""
import itertools
import json
import os
import signal
import subprocess
import sys

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "cli", "golden")
MIGRATE = os.path.join(ROOT, "tools", "dump-1.0.py")


def run(*args, **kw):
    kw.setdefault("timeout", 120)
    return subprocess.run([CLI, *args], capture_output=True, text=True, **kw)


def ok(*args):
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    return r.stdout


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def spec_axes(spec):
    return [(name, int(size)) for name, size in (p.split("=") for p in spec.split(","))]


def naive_groups(axes, selected):
    """Groups over `selected`: outside coordinates row-major, members
    row-major over the selected axes, ranks row-major over all axes."""
    sizes = [s for _, s in axes]
    strides = [1] * len(axes)
    for i in range(len(axes) - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    inside = [i for i, (n, _) in enumerate(axes) if n in selected]
    outside = [i for i in range(len(axes)) if i not in inside]
    groups = []
    for oc in itertools.product(*(range(sizes[i]) for i in outside)):
        base = sum(c * strides[i] for c, i in zip(oc, outside))
        groups.append([base + sum(c * strides[i] for c, i in zip(ic, inside))
                       for ic in itertools.product(*(range(sizes[i]) for i in inside))])
    return groups


# ---- dump: one line of groups, then one line per rank ----

@pytest.mark.parametrize("spec,dims", [
    ("dp=2,tp=2", []),
    ("dp=2,cp=3,tp=2", []),
    ("pp=3,dp=5,tp=7", ["dp,tp", "pp", ""]),
    ("a=1,b=13,c=1,d=2", ["b", "d,a", "a,b,c,d"]),
    ("x=5", []),
])
def test_dump_lines(spec, dims):
    args = ["dump", "--mesh", spec] + [a for d in dims for a in ("--dims", d)]
    lines = ok(*args).splitlines()
    axes = spec_axes(spec)
    size = 1
    for _, s in axes:
        size *= s
    assert len(lines) == 1 + size
    labels = dims or [n for n, _ in axes]
    header = json.loads(lines[0])
    assert lines[0] == canonical(header)
    assert sorted(header) == ["groups"] and sorted(header["groups"]) == sorted(labels)
    for label in labels:
        selected = {n.strip() for n in label.split(",") if n.strip()}
        want = naive_groups(axes, selected)
        assert header["groups"][label] == want
        assert ok("groups", "--mesh", spec, "--dims", label) == canonical(want) + "\n"
    for r, line in enumerate(lines[1:]):
        row = json.loads(line)
        assert line == canonical(row)  # keys sorted, no spaces
        assert sorted(row) == ["coord", "group", "position", "rank"]
        assert row["rank"] == r
        assert canonical(row["coord"]) + "\n" == ok("coord", "--mesh", spec, "--rank", str(r))
        for label in labels:
            members = header["groups"][label][row["group"][label]]
            assert members[row["position"][label]] == r


def test_dump_small_example():
    lines = ok("dump", "--mesh", "dp=2,tp=2").splitlines()
    assert lines[0] == '{"groups":{"dp":[[0,2],[1,3]],"tp":[[0,1],[2,3]]}}'
    assert lines[3] == ('{"coord":{"dp":1,"tp":0},"group":{"dp":0,"tp":1},'
                        '"position":{"dp":1,"tp":0},"rank":2}')


@pytest.mark.parametrize("golden,dims", [
    ("dump-1.0-dp2-cp3-tp2.jsonl", []),
    ("dump-1.0-dp2-cp3-tp2-sets.jsonl", ["tp,dp", "cp", ""]),
])
def test_dump_migration_gives_the_1_0_lines(golden, dims):
    """tools/dump-1.0.py turns the new output into the 1.0 lines, byte for
    byte (the golden files were written by offline-mesh 1.0)."""
    args = ["dump", "--mesh", "dp=2,cp=3,tp=2"] + [a for d in dims for a in ("--dims", d)]
    new = ok(*args)
    old = subprocess.run([sys.executable, MIGRATE], input=new, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    with open(os.path.join(GOLDEN, golden)) as f:
        assert old == f.read()


def test_dump_golden_files_are_the_1_0_definition():
    """The frozen 1.0 lines themselves agree with the definition of a group."""
    axes = spec_axes("dp=2,cp=3,tp=2")
    with open(os.path.join(GOLDEN, "dump-1.0-dp2-cp3-tp2.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    assert [row["rank"] for row in rows] == list(range(12))
    for name, _ in axes:
        for row in rows:
            members = row["groups"][name]
            assert row["rank"] in members and members in naive_groups(axes, {name})


def test_dump_grows_linearly():
    """Output per rank per axis set stays small (1.0 wrote whole groups)."""
    spec = "dp=64,cp=4,tp=256"  # 65536 ranks, dp groups of 64, tp of 256
    out = ok("dump", "--mesh", spec)
    per_rank_per_set = len(out) / 65536 / 3
    assert per_rank_per_set < 60, per_rank_per_set


def test_dump_mesh_json_names(tmp_path):
    mesh = tmp_path / "m.json"
    mesh.write_text(json.dumps({"mesh_dim_names": ["\u00e9t\u00e9", "a\"b", "\U0001f600"],
                                "mesh_shape": [2, 1, 2]}))
    lines = ok("dump", "--mesh", str(mesh)).splitlines()
    for line in lines:
        assert line == canonical(json.loads(line))  # ASCII, \u escapes
    assert '"\\u00e9t\\u00e9":' in lines[0] and '"\\ud83d\\ude00":' in lines[0]
    assert '"a\\"b":' in lines[1]


# ---- write errors: noticed at the first failed write, reported once ----

BIG = ["--mesh", "a=1024,b=2097151"]  # 2^31-1024 ranks: minutes of output


@pytest.mark.parametrize("args", [
    ["groups", *BIG, "--dims", "a"],
    ["dump", *BIG],
    ["experts", "--mesh", "dp=4096,tp=8", "--ep", "8"],
    ["coord", "--mesh", "dp=2", "--rank", "1"],
])
def test_write_error_dev_full(args):
    with open("/dev/full", "w") as full:
        r = subprocess.run([CLI, *args], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr == "offline-mesh: error: cannot write the output: No space left on device\n"


def test_write_error_broken_pipe_with_sigpipe_ignored():
    proc = subprocess.Popen([CLI, "groups", *BIG, "--dims", "b"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    first = proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert first.startswith(b"[[0,")
    assert err == "offline-mesh: error: cannot write the output: Broken pipe\n"


def test_groups_output_is_the_definition_on_awkward_shapes():
    for spec, dims in [("dp=7,tp=13", "dp"), ("a=3,b=5,c=4097", "a,c"), ("dp=1,tp=1", "")]:
        want = naive_groups(spec_axes(spec), {d for d in dims.split(",") if d})
        assert ok("groups", "--mesh", spec, "--dims", dims) == canonical(want) + "\n"


def test_experts_output():
    out = json.loads(ok("experts", "--mesh", "dp=4,tp=2", "--ep", "4"))
    assert out == {"edp": 2, "edp_groups": [[0, 4], [1, 5], [2, 6], [3, 7]],
                   "ep": 4, "ep_groups": [[0, 1, 2, 3], [4, 5, 6, 7]]}


# ---- axis names sorted in O(n log n), same order as before ----

def test_coord_many_axes_sorted(tmp_path):
    names = [f"n{(i * 7919) % 3001:05d}" for i in range(3001)] + ["\u00e9", "Z", "a"]
    mesh = tmp_path / "m.json"
    mesh.write_text(json.dumps({"mesh_dim_names": names, "mesh_shape": [1] * len(names)}))
    out = ok("coord", "--mesh", str(mesh), "--rank", "0")
    keys = list(json.loads(out))
    assert keys == sorted(names)  # code point order = UTF-8 byte order
    assert out == canonical({n: 0 for n in names}) + "\n"


# ---- show --format svg: a cell's title does not grow with the axes ----

def svg_titles(text):
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(text)
    return [g.find(ns + "title").text for g in root.iter(ns + "g")
            if g.get("class", "").split()[0] == "rank"]


def test_svg_titles_bounded_on_wide_meshes(tmp_path):
    long = "x" * 300
    names = [f"{long}{i:05d}" for i in range(5000)]
    sizes = [1] * len(names)
    sizes[0], sizes[1], sizes[2] = 2, 3, 4
    mesh = tmp_path / "wide.json"
    mesh.write_text(json.dumps({"mesh_dim_names": names, "mesh_shape": sizes}))
    out = ok("show", "--mesh", str(mesh), "--format", "svg", "--color-by", names[2])
    titles = svg_titles(out)
    assert len(titles) >= 3  # the picture is summarised: a few cells
    for title in titles:
        assert len(title.encode()) < 2000
    lines = titles[0].splitlines()
    cut = "x" * 48 + "..."
    assert lines[0] == "rank 0"
    assert lines[1] == f"{cut}=0 {cut}=0 {cut}=0 (4997 axes of size 1 not listed)"
    assert lines[2] == f"{names[2]} group 0: ranks 0,1,2,3"
    assert lines[3:] == [f"{cut} group 0: ranks 0,12", f"{cut} group 0: ranks 0,4,8"]
    # 1.0 repeated every axis in every title: 24 x 1.5 MB here.
    assert len(out) < 12 * mesh.stat().st_size


def test_svg_titles_keep_size_1_axes_on_small_meshes():
    titles = svg_titles(ok("show", "--mesh", "dp=2,ep=1,tp=2", "--format", "svg"))
    assert titles[3].splitlines()[:2] == ["rank 3", "dp=1 ep=0 tp=1"]
    assert "ep group 3: rank 3" in titles[3].splitlines()


def layout_cases():
    with open(os.path.join(ROOT, "tests", "vectors", "layout.json")) as f:
        return [c for c in json.load(f)["cases"] if "result" in c]


def test_dump_on_views_places_every_rank_in_its_group(tmp_path):
    """On views (instances, interleaved layouts) the group index comes from
    the library: groups[S][group][position] is the rank for every case."""
    checked = 0
    for i, case in enumerate(layout_cases()):
        result = case["result"]
        record = {k: result[k] for k in ("dim_names", "shape", "layout", "instances")}
        world = tmp_path / f"world{i}.json"
        world.write_text(json.dumps({"views": {"v": record},
                                     "world_size": case["world_size"]}))
        lines = [json.loads(x) for x in
                 ok("dump", "--world", str(world), "--view", "v").splitlines()]
        groups = lines[0]["groups"]
        for row in lines[1:]:
            for axis, g in row["group"].items():
                assert groups[axis][g][row["position"][axis]] == row["rank"], (i, row)
                checked += 1
    assert checked > 100
