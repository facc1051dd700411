"""offline-mesh locality --hierarchy / --require: the contract for scripts.

Runs the built binary (OFFLINE_MESH_CLI) as a user would.
"""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")


def run(*args):
    env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def ok(*args):
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    return json.loads(r.stdout)


def fails(code, *args, match=None):
    r = run(*args)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("offline-mesh: error: ")
    if match:
        assert match in lines[0], lines[0]
    return lines[0]


def brute(groups, k):
    """Per-level values of groups (lists of ranks) for domains of k ranks."""
    inside = crossing = most = 0
    lo, hi = None, 0
    for g in groups:
        counts = {}
        for r in g:
            counts[r // k] = counts.get(r // k, 0) + 1
        if len(counts) == 1:
            inside += 1
        else:
            crossing += 1
        most = max(most, len(counts))
        lo = min(counts.values()) if lo is None else min(lo, min(counts.values()))
        hi = max(hi, max(counts.values()))
    return {"groups_crossing": crossing, "groups_inside": inside,
            "max_domains": most, "ppn_max": hi, "ppn_min": lo}


def test_contract_shape():
    out = ok("locality", "--mesh", "dp=2,tp=8", "--hierarchy", "host=8,nvl=12")
    assert out["levels"] == [{"name": "host", "ranks_per_domain": 8},
                             {"name": "nvl", "ranks_per_domain": 12}]
    assert [e["axes"] for e in out["report"]] == [["dp"], ["tp"]]
    tp = out["report"][1]
    assert tp["groups"] == 2
    assert tp["levels"]["host"] == {"groups_crossing": 0, "groups_inside": 2,
                                    "max_domains": 1, "ppn_max": 8, "ppn_min": 8}
    # [8..15] is split 4 + 4 by the domains of 12: [0,12), [12,24).
    assert tp["levels"]["nvl"] == {"groups_crossing": 1, "groups_inside": 1,
                                   "max_domains": 2, "ppn_max": 8, "ppn_min": 4}


@pytest.mark.parametrize("mesh,dims,spec", [
    ("dp=3,cp=2,tp=5", "cp,tp", "host=4,nvl=9,rack=20"),
    ("pp=2,dp=4,tp=3", "dp", "host=8,nvl=16"),
    ("dp=6,tp=4", "tp", "host=3,nvl=7"),
    ("dp=2,ep=3,tp=2", "dp,tp", "host=5"),
])
def test_matches_brute_force(mesh, dims, spec):
    out = ok("locality", "--mesh", mesh, "--hierarchy", spec, "--dims", dims)
    groups = json.loads(run("groups", "--mesh", mesh, "--dims", dims).stdout)
    entry = out["report"][0]
    assert entry["groups"] == len(groups)
    for level in out["levels"]:
        want = brute(groups, level["ranks_per_domain"])
        assert entry["levels"][level["name"]] == want, level


def test_config_source_and_order(tmp_path):
    cfg = tmp_path / "train.yaml"
    cfg.write_text("accelerator:\n  tp_size: 4\n  pp_size: 2\n")
    out = ok("locality", str(cfg), "--world-size", "16", "--order", "pp,dp,tp",
             "--hierarchy", "host=8", "--dims", "tp", "--dims", "pp")
    tp, pp = out["report"]
    assert tp["levels"]["host"]["groups_inside"] == 4
    assert pp["axes"] == ["pp"] and pp["levels"]["host"]["groups_crossing"] == 8


def test_require_holds():
    out = ok("locality", "--mesh", "dp=4,tp=8", "--hierarchy", "host=8,nvl=32",
             "--require", "tp:host,dp+tp:nvl")
    assert out["report"][1]["levels"]["host"]["groups_crossing"] == 0


def test_require_broken_prints_report_and_names_group():
    r = run("locality", "--mesh", "dp=4,cp=2,tp=4", "--hierarchy", "host=8,nvl=72",
            "--require", "tp:host,dp:host,cp+tp:nvl")
    assert r.returncode == 1
    report = json.loads(r.stdout)
    assert report["report"][0]["levels"]["host"]["groups_crossing"] == 8
    lines = r.stderr.splitlines()
    assert lines == ["offline-mesh: error: dp:host broken: dp group 0 (ranks 0, 8, "
                     "16, 24) crosses host domains: rank 8 is in host 1, rank 0 "
                     "in host 0 (groups span up to 4 domains)"]


def test_require_every_broken_rule_listed():
    r = run("locality", "--mesh", "dp=2,tp=4", "--hierarchy", "host=2",
            "--require", "tp:host,dp:host")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("offline-mesh: error: tp:host broken: tp group 0 "
                               "(ranks 0, 1, 2, 3) crosses host domains: rank 2")
    assert lines[1].startswith("offline-mesh: error: dp:host broken: dp group 0")


def test_examples_flag():
    out = ok("locality", "--mesh", "dp=3,tp=5", "--hierarchy", "host=4,nvl=6",
             "--dims", "dp", "--examples")
    nvl = out["report"][0]["levels"]["nvl"]
    assert nvl["worst_group"] == 2 and nvl["worst_ranks"] == [2, 7, 12]


def test_explicit_json_and_hostfile(tmp_path):
    hj = tmp_path / "h.json"
    ranks = [{"rank": r, "host": f"n{r // 2}", "nvl": "a" if r < 4 else "b"}
             for r in range(8)]
    hj.write_text(json.dumps({"levels": ["host", "nvl"], "ranks": ranks}))
    out = ok("locality", "--mesh", "dp=2,tp=4", "--hierarchy", str(hj))
    assert out["levels"] == [{"domains": 4, "name": "host"},
                             {"domains": 2, "name": "nvl"}]
    assert out["report"][1]["levels"]["nvl"]["groups_inside"] == 2
    hf = tmp_path / "hosts"
    hf.write_text("node8 slots=4\nnode10 slots=4\n")
    r = run("locality", "--mesh", "dp=2,tp=4", "--hierarchy", str(hf),
            "--require", "dp:host")
    assert r.returncode == 1
    assert "rank 4 is in host node10, rank 0 in host node8" in r.stderr
    # 1.3: ids 3 and "3" of one level used to be merged into one host
    ranks = [{"rank": r, "host": "3" if r == 6 else r // 2, "nvl": 0} for r in range(8)]
    hj.write_text(json.dumps({"levels": ["host", "nvl"], "ranks": ranks}))
    fails(1, "locality", "--mesh", "dp=2,tp=4", "--hierarchy", str(hj),
          match='ranks[7].host is the integer 3 and ranks[6].host the string "3"')


@pytest.mark.parametrize("args,code,match", [
    (["--hierarchy", "host=8,nvl=8"], 1, "must increase"),
    (["--hierarchy", "host=8", "--require", "tp:rack"], 1, "unknown level \"rack\""),
    (["--hierarchy", "host=8", "--require", "ep:host"], 1, "axis \"ep\" is not in"),
    (["--hierarchy", "host=8", "--require", "tp"], 1, "is not AXES:LEVEL"),
    (["--hierarchy", "host=8", "--dims", "zz"], 1, "axis \"zz\" is not in"),
    (["--hierarchy", "/nonexistent"], 1, "not a readable file"),
    (["--hierarchy", "host=8", "--ranks-per-host", "8"], 2, "cannot be combined"),
    (["--require", "tp:host"], 2, "need --hierarchy"),
    (["--hierarchy", "host=8", "--examples=1"], 2, "takes no value"),
])
def test_errors(args, code, match):
    fails(code, "locality", "--mesh", "dp=2,tp=8", *args, match=match)


def test_explicit_size_mismatch(tmp_path):
    hf = tmp_path / "hosts"
    hf.write_text("a slots=8\n")
    fails(1, "locality", "--mesh", "dp=2,tp=8", "--hierarchy", str(hf),
          match="the hierarchy describes 8 ranks but the mesh has 16")


def test_world_views_in_a_hostfile(tmp_path):
    # A view of a world (torchtitan's loss mesh: a flatten with 2 instances
    # of 8 ranks) in the job's 16-rank hostfile. Before 1.3 this was
    # refused ("describes 16 ranks but the mesh has 8"); views with an
    # offset or interleaved strides got wrong counts.
    world = tmp_path / "world.json"
    r = run("views", "--preset", "torchtitan", "--world-size", "16", "--param", "dp_shard=4",
            "--param", "cp=2", "--param", "tp=2", "--param", "ep=4")
    assert r.returncode == 0, r.stderr
    world.write_text(r.stdout)
    hf = tmp_path / "hosts"
    hf.write_text("a slots=3 rack=r0\nb slots=5 rack=r0\nc slots=4 rack=r1\nd slots=4 rack=r1\n")
    host = [0] * 3 + [1] * 5 + [2] * 4 + [3] * 4
    rack = [0] * 8 + [1] * 8
    for view, dims in [("loss", "loss_mesh"), ("dataloading", "batch"), ("sparse", "efsdp,ep")]:
        groups = json.loads(run("groups", "--world", str(world), "--view", view,
                                "--dims", dims).stdout)
        got = ok("locality", "--world", str(world), "--view", view, "--dims", dims,
                 "--hierarchy", str(hf))
        levels = got["report"][0]["levels"]
        for name, table in (("host", host), ("rack", rack)):
            counts = [{} for _ in groups]
            for c, g in zip(counts, groups):
                for rank in g:
                    c[table[rank]] = c.get(table[rank], 0) + 1
            assert levels[name] == {
                "groups_inside": sum(len(c) == 1 for c in counts),
                "groups_crossing": sum(len(c) > 1 for c in counts),
                "max_domains": max(len(c) for c in counts),
                "ppn_min": min(min(c.values()) for c in counts),
                "ppn_max": max(max(c.values()) for c in counts)}, (view, name)
    assert ok("locality", "--world", str(world), "--view", "loss", "--dims", "loss_mesh",
              "--hierarchy", str(hf))["report"][0]["levels"]["rack"]["max_domains"] == 2


@pytest.mark.parametrize("text,match", [
    ("a slots=4 slots=8\nb slots=4\n",
     'hostfile line 1: key "slots" is given twice ("slots=4" and "slots=8")'),
    ("a:8\nb:4 slots=4\n", 'line 2: key "slots" is given twice ("b:4" and "slots=4")'),
    ("a slots=8 rack=r0 rack=r1\n", 'line 1: key "rack" is given twice'),
])
def test_hostfile_key_given_twice(tmp_path, text, match):
    # 1.3 bug fix: these used to keep the last value without a word
    hf = tmp_path / "hosts"
    hf.write_text(text)
    fails(1, "locality", "--mesh", "dp=2,tp=8", "--hierarchy", str(hf), match=match)


def test_old_output_unchanged():
    r = run("locality", "--mesh", "dp=2,tp=8", "--ranks-per-host", "8")
    assert r.stdout == ('{"hosts":2,"ranks_per_host":8,"report":[{"axes":["dp"],'
                        '"cross_host_groups":8,"groups":8,"local_groups":0,'
                        '"max_hosts":2},{"axes":["tp"],"cross_host_groups":0,'
                        '"groups":2,"local_groups":2,"max_hosts":1}]}\n')


# ---- show --hierarchy ----

def test_show_draws_level_boundaries():
    r = run("show", "--mesh", "pp=2,tp=8,dp=4", "--color-by", "tp",
            "--hierarchy", "host=4,nvl=12")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "pp=0  ranks 0-31  hosts 0-7  nvl 0-2" in lines
    # Host boundaries are '-', NVLink-domain boundaries '=': after ranks
    # 8..11 (row 2) and 20..23 (row 5) of stage 0.
    grid = lines[lines.index("pp=0  ranks 0-31  hosts 0-7  nvl 0-2"):]
    seps = [ln.strip() for ln in grid[:17] if set(ln.strip()) <= set("-=+|")
            and ln.strip()]
    assert seps == ["-" * 15, "-" * 15, "=" * 15, "-" * 15, "-" * 15, "=" * 15,
                    "-" * 15]
    assert lines[-1] == ("nvl: 12 ranks per domain, 6 domains (boundaries drawn "
                         "=); 8 of 8 tp groups CROSS a nvl boundary (up to 4 "
                         "domains each)")


def test_show_hierarchy_svg_has_level_line():
    r = run("show", "--mesh", "dp=2,tp=8", "--hierarchy", "host=8,nvl=16",
            "--format", "svg")
    assert r.returncode == 0, r.stderr
    assert "nvl: 16 ranks per domain, 1 domain" in r.stdout


def test_show_hierarchy_of_a_view_with_an_offset(tmp_path):
    # ranks 5, 7, 9 / 8, 10, 12 (a: stride 2, b: stride 3, offset 5): the
    # b groups (5,8), (7,10), (9,12) cross racks of 8 twice, and the view
    # reaches 4 hosts of 4. Before 1.3 the offset was ignored (no group
    # crossed a rack) and hosts were counted from the view's 6 ranks.
    world = tmp_path / "world.json"
    world.write_text('{"views":{"v":{"dim_names":["a","b"],"layout":[[[3,2]],[[2,3]]],'
                     '"offset":5,"shape":[3,2]}},"world_size":13}')
    r = run("show", "--world", str(world), "--view", "v", "--hierarchy", "host=4,rack=8")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-2] == ("hosts: 4 ranks per host, 4 hosts; 3 of 3 b groups CROSS a host "
                         "boundary (up to 2 hosts each); their ranks are marked !")
    assert lines[-1] == ("rack: 8 ranks per domain, 2 domains (boundaries drawn =); 2 of 3 "
                         "b groups CROSS a rack boundary (up to 2 domains each)")


@pytest.mark.parametrize("args,code,match", [
    (["--hierarchy", "host=4", "--ranks-per-host", "4"], 2, "cannot be combined"),
    (["--hierarchy", "host=4,nvl=4"], 1, "must increase"),
])
def test_show_hierarchy_errors(args, code, match):
    fails(code, "show", "--mesh", "dp=2,tp=8", *args, match=match)


def test_show_explicit_hierarchy_refused(tmp_path):
    hf = tmp_path / "hosts"
    hf.write_text("a slots=8\nb slots=8\n")
    fails(1, "show", "--mesh", "dp=2,tp=8", "--hierarchy", str(hf),
          match="show --hierarchy draws uniform levels")


# ---- advise ----

def moe_config(tmp_path):
    cfg = tmp_path / "moe.yaml"
    cfg.write_text("accelerator:\n  tp_size: 4\n  ep_size: 8\n  pp_size: 4\n")
    return str(cfg)


def test_advise_ranks_orders(tmp_path):
    out = ok("advise", moe_config(tmp_path), "--world-size", "1152",
             "--hierarchy", "host=4,nvl=72", "--require", "tp:host,ep:nvl")
    best = out["orders"][0]
    assert best["megatron"] == "ep-tp-dp-pp" and best["torch"] == "pp,dp,tp,ep"
    assert best["broken"] == []
    assert best["crossings"]["tp"] == {"host": 0, "nvl": 0}
    assert best["crossings"]["ep"]["nvl"] == 0
    # ep 8 != cp 1 and pp 4 > 1: every order without pp last is rejected.
    assert len(out["orders"]) == 6 and len(out["rejected"]) == 18
    assert all(o["megatron"].endswith("pp") for o in out["orders"])
    assert all("Megatron needs pp last" in r["reason"] for r in out["rejected"])
    # Orders that break a rule come after those that break none.
    flags = [bool(o["broken"]) for o in out["orders"]]
    assert flags == sorted(flags)


def test_advise_one_order(tmp_path):
    cfg = moe_config(tmp_path)
    r = run("advise", cfg, "--world-size", "1152", "--hierarchy", "host=4,nvl=72",
            "--require", "tp:host,ep:nvl", "--order", "tp-dp-ep-pp")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["order"] == "pp,ep,dp,tp"
    assert len(out["broken"]) == 1 and out["broken"][0].startswith("ep:nvl broken")
    assert r.stderr == "offline-mesh: error: order \"tp-dp-ep-pp\" breaks 1 rule\n"
    out = ok("advise", cfg, "--world-size", "1152", "--hierarchy", "host=4,nvl=72",
             "--require", "tp:host,ep:nvl", "--order", "pp,dp,tp,ep")
    assert out == {"broken": [], "order": "pp,dp,tp,ep"}


@pytest.mark.parametrize("args,code,match", [
    ([], 2, "needs --hierarchy"),
    (["--hierarchy", "host=4", "--priority", "tp>zz"], 1, "not one of tp"),
    (["--hierarchy", "host=4", "--order", "pp,tp"], 1, "omits"),
])
def test_advise_errors(tmp_path, args, code, match):
    fails(code, "advise", moe_config(tmp_path), "--world-size", "1152", *args,
          match=match)
