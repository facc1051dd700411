"""torchtitan and hyper-parallel presets against torch's mesh semantics,
restated in plain Python, on many configurations the vectors do not hold.

A torch view is a root mesh arange(W).reshape(shape) and, per view axis, the
root dims it spans (one for an unflattened or sliced axis, several for a
flattened one): the groups of a view axis are the root's groups over its
dims, a rank's coordinate is its position in that group, the instances are
the root's groups over all the view's dims.
"""
import itertools
import json
import math
import os
import random
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")


def views(preset, world, params):
    args = [CLI, "views", "--preset", preset, "--world-size", str(world)]
    for key, value in params.items():
        args += ["--param", f"{key}={value}"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        assert r.returncode == 1 and r.stdout == "", r.stderr
        return None
    return json.loads(r.stdout)["views"]


def root_groups(sizes, dims):
    """Groups of arange(prod).reshape(sizes) over `dims`, lexicographic over
    the other dims, members row-major over `dims`."""
    strides = [math.prod(sizes[i + 1:]) for i in range(len(sizes))]
    others = [i for i in range(len(sizes)) if i not in dims]
    groups = []
    for outer in itertools.product(*(range(sizes[i]) for i in others)):
        base = sum(c * strides[i] for c, i in zip(outer, others))
        groups.append([base + sum(c * strides[i] for c, i in zip(inner, dims))
                       for inner in itertools.product(*(range(sizes[i]) for i in dims))])
    return sorted(groups)


def normal(modes):
    out = []
    for size, stride in modes:
        if size == 1:
            continue
        if out and out[-1][1] == size * stride:
            out[-1] = [out[-1][0] * size, stride]
        else:
            out.append([size, stride])
    return out


def torch_view(names, sizes, axes):
    """axes: list of (view axis name, [root dim names])."""
    index = {n: i for i, n in enumerate(names)}
    strides = [math.prod(sizes[i + 1:]) for i in range(len(sizes))]
    world = math.prod(sizes)
    record = {"dim_names": [a for a, _ in axes], "groups": {}, "layout": [],
              "shape": []}
    coords = [[None] * len(axes) for _ in range(world)]
    for k, (axis, dims) in enumerate(axes):
        d = [index[x] for x in dims]
        groups = root_groups(sizes, d)
        record["groups"][axis] = groups
        record["shape"].append(math.prod(sizes[i] for i in d))
        record["layout"].append(normal([[sizes[i], strides[i]] for i in d]))
        for g in groups:
            for position, rank in enumerate(g):
                coords[rank][k] = position
    record["coords"] = coords
    record["instances"] = root_groups(sizes, sorted(index[x] for _, ds in axes for x in ds))
    return record


def plain(names, sizes):
    return torch_view(names, sizes, [(n, [n]) for n in names])


def torchtitan_views(world, dr, ds, cp, tp, pp, ep, backend):
    if min(dr, cp, tp, pp, ep) < 1 or not (ds == -1 or ds >= 1):
        return None
    if ds == -1:
        ds = world // (dr * cp * tp * pp)
    if ds < 1 or dr * ds * cp * tp * pp != world or (ds * cp * tp) % ep:
        return None
    batch, efsdp = dr * ds, ds * cp * tp // ep
    loader = (["pp", "batch", "cp", "tp"], [pp, batch, cp, tp])
    v = {"dataloading": plain(*loader),
         "loss": torch_view(*loader, [("loss_mesh", ["batch", "cp"])])}
    if backend == "partial_dtensor":
        v["dense"] = plain(["pp", "dp_replicate", "fsdp", "tp"], [pp, dr, ds * cp, tp])
    else:
        v["dense"] = plain(["pp", "dp_replicate", "dp_shard", "cp", "tp"],
                           [pp, dr, ds, cp, tp])
    sparse = (["pp", "dp_replicate", "efsdp", "ep"], [pp, dr, efsdp, ep])
    v["sparse"] = plain(*sparse)
    if backend == "spmd_types":
        v["spmd_dense_for_fwdbwd"] = torch_view(
            ["pp", "dp", "cp", "tp"], [pp, batch, cp, tp],
            [("dp", ["dp"]), ("cp", ["cp"]), ("tp", ["tp"])])
        if ep > 1:
            v["spmd_sparse_for_fwdbwd"] = torch_view(
                *sparse, [(n, [n]) for n in sparse[0][1:]])
    return v


def torchtitan_configs():
    rng = random.Random(7)
    out = []
    while len(out) < 80:
        dr, cp, tp, pp = (rng.choice([1, 1, 2, 3]) for _ in range(4))
        ds = rng.choice([-1, -1, 1, 2, 4, 3])
        ep = rng.choice([1, 2, 4, 3, 8])
        world = dr * cp * tp * pp * (abs(ds) if ds > 0 else rng.choice([1, 2, 4]))
        world *= rng.choice([1, 1, 1, 2])
        backend = rng.choice(["spmd_types", "spmd_types", "partial_dtensor",
                              "full_dtensor"])
        out.append((world, dr, ds, cp, tp, pp, ep, backend))
    return out


@pytest.mark.parametrize("config", torchtitan_configs())
def test_torchtitan_against_torch(config):
    world, dr, ds, cp, tp, pp, ep, backend = config
    want = torchtitan_views(*config)
    got = views("torchtitan", world, {"dp_replicate": dr, "dp_shard": ds, "cp": cp,
                                      "tp": tp, "pp": pp, "ep": ep,
                                      "spmd_backend": backend})
    assert got == want


def hyper_views(world, tp, cp, pp, ep, dp_shard, edp_shard):
    tp, cp, pp, ep, dp_shard, edp_shard = (max(1, x) for x in
                                           (tp, cp, pp, ep, dp_shard, edp_shard))
    if world % (tp * cp * pp):
        return None
    dp = world // (tp * cp * pp)
    if (dp * cp) % dp_shard:
        return None
    stage = dp * cp * tp
    if ep > 1 and (stage % ep or (stage // ep) % edp_shard):
        return None
    device = (["pp", "dp", "cp", "tp"], [pp, dp, cp, tp])
    v = {"device": torch_view(*device, [(n, [n]) for n in ("dp", "cp", "tp")])}
    fsdp = (["pp", "fsdp_replicate", "fsdp_shard", "tp"],
            [pp, dp * cp // dp_shard, dp_shard, tp])
    v["fsdp_non_moe"] = torch_view(*fsdp, [(n, [n]) for n in fsdp[0][1:]])
    if ep > 1:
        er = stage // ep // edp_shard
        moe = (["pp", "edp_replicate", "edp_shard", "ep"], [pp, er, edp_shard, ep])
        names = moe[0][1:] if er > 1 else moe[0][2:]
        v["fsdp_moe"] = torch_view(*moe, [(n, [n]) for n in names])
    v["dp_cp"] = torch_view(*device, [("dp_cp", ["dp", "cp"])])
    return v


def hyper_configs():
    rng = random.Random(11)
    out = []
    while len(out) < 60:
        tp, cp, pp = (rng.choice([0, 1, 1, 2, 3]) for _ in range(3))
        ep = rng.choice([1, 1, 2, 4, 3])
        world = max(tp, 1) * max(cp, 1) * max(pp, 1) * rng.choice([1, 2, 4, 6])
        out.append((world, tp, cp, pp, ep, rng.choice([1, 2, 4, 3]),
                    rng.choice([1, 2, 3])))
    return out


@pytest.mark.parametrize("config", hyper_configs())
def test_hyper_parallel_against_torch(config):
    world, tp, cp, pp, ep, dp_shard, edp_shard = config
    want = hyper_views(*config)
    got = views("hyper-parallel", world, {
        "accelerator.tp_size": tp, "accelerator.cp_size": cp,
        "accelerator.pp_size": pp, "accelerator.ep_size": ep,
        "fsdp_config.dp_shard_size": dp_shard,
        "fsdp_config.edp_shard_size": edp_shard})
    assert got == want
