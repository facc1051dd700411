#!/usr/bin/env python3
"""Record random hyper-parallel preset cases: its rules as read, its meshes
built by torch's DeviceMesh on the equivalent layout.

    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install torch
    /tmp/tv/bin/python tests/frameworks/generate_hyper_parallel.py \
        > tests/frameworks/hyper_parallel.json
    /tmp/tv/bin/python tests/frameworks/generate_hyper_parallel.py \
        --check-shared tests/vectors/hyper_parallel.json

Needs an interpreter with torch installed (the tests never install it: they
read the JSON this prints); about 90 s on a quiet 2-core machine.

hyper-parallel itself cannot run here (it needs its own platform layer), so,
as for the shared vectors (VIEWS.md section 3.4, `source:
derived-from-reading`), its rules are restated from reading
hyper_parallel/distributed/mesh.py at commit cdacc60
(create_distributed_setup_from_config, then MeshContext.build_meshs): every
size clamped with max(1, .), then the four divisibility checks with its
ValueError messages. What is run is the layout: each of its meshes is
hyper-parallel's init_device_mesh(mesh_shape, rank_list=the ranks of the
rank's pipeline stage), a row-major mesh over [s*D, (s+1)*D) with
D = dp*cp*tp; the torch equivalent is torch's init_device_mesh over the whole
world with shape (pp, *mesh_shape), sliced to mesh_shape's names, and
dp_cp_mesh is device[("dp", "cp")]._flatten("dp_cp"), as the property builds
it. Each case runs once per rank under torch's `fake` process group, as a
real job would: rank r gives coords[r] (get_coordinate()), its local ranks
(MeshContext's dp/cp/tp from the device mesh, pp = r // D, ep from the
expert mesh or 0) and its own group of every axis, which must be one of the
groups listed; device["tp"] and fsdp_non_moe["tp"] must have the same
groups (hyper-parallel's _validate_dense_tp_rank_layout).

Output: the format of tests/vectors/hyper_parallel.json (see
shared/vectors/README.md). Draws come from a fixed seed: sizes 0 to 6
(awkward ones and 0, which hyper-parallel clamps to 1), world sizes up to
NARROW's max_world (then WIDE_CASES from the WIDE ranges: 7, 9, 16, worlds
up to 256), with and without expert parallelism; some world sizes are random,
so every rule's refusal is recorded. Left out: null or negative sizes
(max(1, None) is a TypeError in hyper-parallel while the library reads null
as the default; negative sizes only exercise the same clamp as 0).

--check-shared PATH re-records every case of a vector file from its params
and compares: it prints the count and exits 1 on the first difference.
"""
import sys
import warnings

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.testing._internal.distributed.fake_pg import FakeStore

import recording

SEED = 20261203
CASES = 200
WIDE_CASES = 40
# The sizes (0 stands for "not given") and the largest world of a draw.
NARROW = {"sizes": [0, 1, 1, 1, 2, 2, 3, 4, 5, 6], "max_world": 64}
WIDE = {"sizes": [0, 1, 1, 2, 3, 4, 7, 8, 9, 16], "max_world": 256}
KEYS = ["accelerator.tp_size", "accelerator.cp_size", "accelerator.pp_size",
        "accelerator.ep_size", "fsdp_config.dp_shard_size", "fsdp_config.edp_shard_size"]


def resolve(params):
    """hyper-parallel's sizes, or its ValueError message (rules as read)."""
    tp, cp, pp, ep, dp_shard, edp_shard = (max(1, params[k]) for k in KEYS)
    world = params["world_size"]
    if world % (tp * cp * pp):
        return None, f"world_size {world} is not divisible by non-DP size {tp * cp * pp}"
    dp = world // (tp * cp * pp)
    if (dp * cp) % dp_shard:
        return None, (f"DP+CP size {dp * cp} is not divisible by FSDP shard size "
                      f"{dp_shard}")
    sizes = {"tp": tp, "cp": cp, "pp": pp, "ep": ep, "dp": dp, "dp_shard": dp_shard,
             "dp_replicate": dp * cp // dp_shard, "edp_shard": edp_shard,
             "stage": dp * cp * tp}
    if ep > 1:
        if sizes["stage"] % ep:
            return None, (f"expert domain size ({sizes['stage']}) must be divisible "
                          f"by ep_size ({ep})")
        edp = sizes["stage"] // ep
        if edp % edp_shard:
            return None, (f"expert data-parallel size ({edp}) must be divisible by "
                          f"edp_shard_size ({edp_shard})")
        sizes["edp_replicate"] = edp // edp_shard
    return sizes, None


def mesh_shapes(s):
    """Each view's (names, sizes) as hyper-parallel's init_device_mesh gets them."""
    shapes = {"device": (("dp", "cp", "tp"), (s["dp"], s["cp"], s["tp"])),
              "fsdp_non_moe": (("fsdp_replicate", "fsdp_shard", "tp"),
                               (s["dp_replicate"], s["dp_shard"], s["tp"]))}
    if s["ep"] > 1:
        if s["edp_replicate"] > 1:
            shapes["fsdp_moe"] = (("edp_replicate", "edp_shard", "ep"),
                                  (s["edp_replicate"], s["edp_shard"], s["ep"]))
        else:
            shapes["fsdp_moe"] = (("edp_shard", "ep"), (s["edp_shard"], s["ep"]))
    return shapes


def stage_mesh(pp, names, sizes):
    """torch's equivalent of init_device_mesh(sizes, rank_list=this stage)."""
    root = init_device_mesh("cpu", (pp, *sizes), mesh_dim_names=("pp", *names))
    return root[names]


def describe(mesh):
    """What every rank sees of a mesh, and what only this rank sees."""
    layout, names = mesh._layout, list(mesh.mesh_dim_names)
    whole = {
        "dim_names": names,
        "shape": [mesh.size(i) for i in range(len(names))],
        "layout": [recording.normal_form(layout[i]) for i in range(len(names))],
        "instances": [t.flatten().tolist() for t in
                      layout.remap_to_tensor(mesh._rank_map).reshape(-1, mesh.size())],
        "groups": {n: [g.flatten().tolist() for g in
                       type(layout)([layout[i]]).remap_to_tensor(mesh._rank_map)]
                   for i, n in enumerate(names)}}
    own = {"coord": list(mesh.get_coordinate()),
           "groups": {n: dist.get_process_group_ranks(mesh.get_group(i))
                      for i, n in enumerate(names)}}
    return whole, own


def on_rank(world, sizes, rank):
    """Rank `rank`'s meshes (as describe() gives them) and local ranks."""
    dist.init_process_group("fake", store=FakeStore(), rank=rank, world_size=world)
    try:
        meshes = {name: stage_mesh(sizes["pp"], *shape)
                  for name, shape in mesh_shapes(sizes).items()}
        if meshes["device"]["tp"].mesh.tolist() != meshes["fsdp_non_moe"]["tp"].mesh.tolist():
            raise SystemExit(f"device and fsdp_non_moe tp groups differ: {sizes}")
        device = meshes["device"]
        meshes["dp_cp"] = device[("dp", "cp")]._flatten("dp_cp")
        local = {"dp_rank": device.get_local_rank("dp"),
                 "cp_rank": device.get_local_rank("cp"),
                 "tp_rank": device.get_local_rank("tp"),
                 "pp_rank": rank // sizes["stage"] if sizes["pp"] > 1 else 0,
                 "ep_rank": meshes["fsdp_moe"].get_local_rank("ep")
                 if "fsdp_moe" in meshes else 0}
        return {name: describe(mesh) for name, mesh in meshes.items()}, local
    finally:
        dist.destroy_process_group()


def record(params):
    """The case of one configuration, in the vectors' key order."""
    world = params["world_size"]
    case = {"preset": "hyper_parallel", "params": params, "world_size": world,
            "source": "derived-from-reading"}
    sizes, error = resolve(params)
    if error:
        case["error"] = {"type": "ValueError", "message": error}
        return case
    case["resolved"] = {"dp_size": sizes["dp"], "dp_replicate_size": sizes["dp_replicate"],
                        "pp_stage_size": sizes["stage"]}
    ranks = [on_rank(world, sizes, r) for r in range(world)]
    views = {name: dict(whole, coords=[]) for name, (whole, _) in ranks[0][0].items()}
    for rank, (seen, _) in enumerate(ranks):
        for name, (whole, own) in seen.items():
            if whole != ranks[0][0][name][0]:
                raise SystemExit(f"rank {rank} sees another {name} than rank 0: {params}")
            views[name]["coords"].append(own["coord"])
            for axis, members in own["groups"].items():
                if members not in whole["groups"][axis]:
                    raise SystemExit(f"rank {rank}'s {axis} group {members} of {name} "
                                     f"is not listed: {params}")
    order = ["device", "fsdp_non_moe", "fsdp_moe", "dp_cp"]
    case["views"] = {name: views[name] for name in order if name in views}
    case["local_ranks"] = [local for _, local in ranks]
    return case


def draw(rng, ranges):
    """One configuration, in the vectors' key order."""
    sizes, max_world = ranges["sizes"], ranges["max_world"]
    tp, cp, pp = (rng.choice(sizes) for _ in range(3))
    ep = rng.choice([1, 1, 1] + sizes[2:] + [8])
    dp_shard, edp_shard = rng.choice(sizes), rng.choice(sizes[:8])
    if rng.random() < 0.2:
        world = rng.randint(1, max_world)
    else:
        non_dp = max(1, tp) * max(1, cp) * max(1, pp)
        dps = list(range(1, max_world // non_dp + 1))
        if not dps:
            return None
        dp = rng.choice(dps[:8])
        world = non_dp * dp
        if rng.random() < 0.6:  # a dp_shard that divides dp*cp, most of the time
            dp_shard = rng.choice([d for d in range(1, dp * max(1, cp) + 1)
                                   if dp * max(1, cp) % d == 0])
        if ep > 1 and rng.random() < 0.6:
            stage = dp * max(1, cp) * max(1, tp)
            ep = rng.choice([d for d in range(2, stage + 1) if stage % d == 0] or [1])
            if ep > 1:
                edp_shard = rng.choice([d for d in range(1, stage // ep + 1)
                                        if stage // ep % d == 0])
    values = [tp, cp, pp, ep, dp_shard, edp_shard]
    return {"world_size": world, **dict(zip(KEYS, values))}


def main():
    warnings.simplefilter("ignore")
    return recording.main(
        "hyper_parallel", SEED, (CASES, WIDE_CASES), draw, record,
        {"torch": torch.__version__, "hyper_parallel": "mindspore-ai/hyper-parallel "
         "distributed/mesh.py @ cdacc60 (read, not run)"},
        f"torch {torch.__version__}'s DeviceMesh, with the rules as read,", (NARROW, WIDE))


if __name__ == "__main__":
    sys.exit(main())
