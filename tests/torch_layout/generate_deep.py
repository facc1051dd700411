#!/usr/bin/env python3
"""Regenerate tests/torch_layout/deep.json: longer chains on bigger meshes
than layout.json, recorded from torch's DeviceMesh.

    python3 -m venv /tmp/torch-venv && /tmp/torch-venv/bin/pip install torch
    /tmp/torch-venv/bin/python tests/torch_layout/generate_deep.py > tests/torch_layout/deep.json

layout.json (generate.py) covers 1-4 operations on meshes of 1-6 axes and
at most 64 ranks. This file keeps the envelope beyond it checked: meshes of
1 to 8 axes (sizes 1 to 16, size-1 axes and primes up to 13 frequent) of
up to MAX_WORLD ranks, and chains of MIN_OPS to MAX_OPS operations:
flatten (out-of-order axes now and then, flatten of a flattened axis),
unflatten (into parts of size 1 too), slice, and slicing the root by its own
and its flattened names. Each operation is drawn from the mesh torch holds
at that point (so sizes always fit, apart from the few wrong on purpose),
and a chain ends at torch's first error.

Running every rank of a 4096-rank case would take hours, so each case runs
as rank 0 of the `fake` process group, and the record is taken from the
layout machinery DeviceMesh itself uses: the groups of an axis are torch's
enumeration (`remap_to_tensor` of its layout), the instances those of the
whole view, and a rank's coordinate its position in the instance holding it
(what `get_coordinate` computes on that rank). Then the chain runs again as
a few other ranks (the last and two drawn ones) and their get_coordinate,
get_local_rank and process group ranks must match the record, or the
generator stops. The output has layout.json's format; what it leaves out,
and the `library` field of lenient slices, are as in generate.py.
"""
import math
import os
import random
import sys
import warnings

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.testing._internal.distributed.fake_pg import FakeStore

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "frameworks"))
from generate import LENIENT, apply, factorizations, repeats_ranks, same_rule  # noqa: E402
from recording import layout_options, normal_form, write_layout  # noqa: E402

SEED = 20261202
CASES = 100
MAX_WORLD = 4096
MIN_OPS, MAX_OPS = 5, 8
NAMES = ["dp", "cp", "tp", "pp", "ep", "sp", "a", "b", "c", "d"]
SIZES = [1, 1, 1, 2, 2, 2, 3, 4, 5, 7, 8, 11, 13, 16]


def draw_op(rng, mesh, names, flat, fresh):
    """One operation on torch's current mesh (names: the root's axes,
    flat: the names the root has flattened)."""
    current = list(mesh.mesh_dim_names)
    kind = rng.choice(["flatten", "flatten", "unflatten", "unflatten", "slice", "slice_root"])
    if kind in ("flatten", "slice"):
        axes = sorted(rng.sample(current, rng.randint(1, len(current))), key=current.index)
        if len(axes) > 1 and rng.random() < 0.1:
            rng.shuffle(axes)
        if kind == "slice":
            return {"kind": "slice", "axes": axes}
        name = None if rng.random() < 0.6 else next(fresh) if rng.random() < 0.6 else \
            rng.choice(NAMES + flat + current)
        if not same_rule(name or "_".join(axes), axes, current, names, flat):
            name = next(fresh)
        return {"kind": "flatten", "axes": axes, "name": name}
    if kind == "unflatten":
        axis = rng.randrange(len(current))
        ways = factorizations(mesh.size(axis), rng.choice([2, 2, 3, 3, 4]))
        proper = [w for w in ways if 1 not in w]
        parts = rng.choice(proper if proper and rng.random() < 0.6 else ways)
        if rng.random() < 0.03:
            parts = parts[:-1] + (parts[-1] + 1,)
        return {"kind": "unflatten", "axis": axis, "sizes": list(parts),
                "names": [next(fresh) for _ in parts]}
    pool = names + flat
    axes = sorted(rng.sample(pool, rng.randint(1, min(4, len(pool)))), key=pool.index)
    if len(axes) > 1 and rng.random() < 0.1:
        rng.shuffle(axes)
    return {"kind": "slice_root", "axes": axes}


def record_of(mesh):
    """The view record from torch's layout machinery, every rank's
    coordinate its position in the instance holding it."""
    layout, names = mesh._layout, list(mesh.mesh_dim_names)
    shape = [mesh.size(i) for i in range(len(names))]
    full = layout.remap_to_tensor(mesh._rank_map)
    instances = full.reshape(full.shape[0], -1).tolist()
    coords = [None] * mesh._rank_map.numel()
    for members in instances:
        for index, rank in enumerate(members):
            coord = []
            for size in reversed(shape):
                coord.append(index % size)
                index //= size
            coords[rank] = coord[::-1]
    return {"dim_names": names, "shape": shape,
            "layout": [normal_form(layout[i]) for i in range(len(names))],
            "instances": instances,
            "groups": {name: [g.flatten().tolist() for g in
                              type(layout)([layout[i]]).remap_to_tensor(mesh._rank_map)]
                       for i, name in enumerate(names)},
            "coords": coords}


def draw_case(rng, max_world):
    """A base mesh and a chain drawn and run as rank 0: the case, with
    torch's error or result."""
    # mostly up to 256 ranks (the file stays small), some up to 1024, a few
    # up to max_world; many axes often (with 8 axes, size 1 is common)
    low, high = rng.choice([(2, 256)] * 15 + [(257, 1024)] * 4 + [(1025, max_world)])
    while True:
        shape = [rng.choice(SIZES) for _ in range(rng.choice([1, 2, 3, 4, 5, 6, 7, 7, 8, 8]))]
        world = math.prod(shape)
        if low <= world <= high:
            break
    names = rng.sample(NAMES, len(shape))
    fresh = iter(f"u{i}" for i in range(100))
    case = {"preset": "layout", "base": {"dim_names": names, "shape": shape},
            "world_size": world, "ops": []}
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    try:
        root = init_device_mesh("cpu", tuple(shape), mesh_dim_names=tuple(names))
        mesh, flat = root, []
        for _ in range(rng.randint(MIN_OPS, MAX_OPS)):
            op = draw_op(rng, mesh, names, flat, fresh)
            case["ops"].append(op)
            try:
                new = apply(root, op, mesh)
            except Exception as e:  # torch's own exception, recorded as it is
                case["error"] = {"type": type(e).__name__, "message": str(e)}
                if isinstance(e, KeyError) and "ascending order" in str(e) and \
                        op["kind"] in ("slice", "slice_root") and not repeats_ranks(
                            root if op["kind"] == "slice_root" else mesh, root, op["axes"]):
                    case["library"] = LENIENT
                return case
            if op["kind"] == "flatten":
                name = new.mesh_dim_names[0]
                if name not in names and name not in flat and \
                        not (len(op["axes"]) == 1 and name == op["axes"][0]):
                    flat.append(name)
            mesh = new
        case["result"] = record_of(mesh)
        return case
    finally:
        dist.destroy_process_group()


def check_rank(case, rank):
    """Runs the case as `rank` and stops unless what it sees is the record."""
    base, result = case["base"], case["result"]
    dist.init_process_group("fake", store=FakeStore(), rank=rank, world_size=case["world_size"])
    try:
        root = init_device_mesh("cpu", tuple(base["shape"]), mesh_dim_names=tuple(base["dim_names"]))
        mesh = root
        for op in case["ops"]:
            mesh = apply(root, op, mesh)
        coord = mesh.get_coordinate()
        want = result["coords"][rank]
        if (None if coord is None else list(coord)) != want:
            raise SystemExit(f"rank {rank}: coordinate {coord}, recorded {want}: {case['ops']}")
        if coord is None:
            return
        if mesh.mesh.flatten().tolist() not in result["instances"]:
            raise SystemExit(f"rank {rank}'s mesh is not an instance: {case['ops']}")
        for i, name in enumerate(result["dim_names"]):
            members = dist.get_process_group_ranks(mesh.get_group(i))
            listed = [g for g in result["groups"][name] if rank in g]
            # new_group sorts its ranks: the group local rank is the sorted position
            if len(listed) != 1 or sorted(listed[0]) != members or \
                    mesh.get_local_rank(i) != sorted(listed[0]).index(rank) or \
                    listed[0].index(rank) != coord[i]:
                raise SystemExit(f"rank {rank}'s {name} group {members} is not the record's: {case['ops']}")
    finally:
        dist.destroy_process_group()


def main():
    warnings.simplefilter("ignore")
    args = layout_options("generate_deep.py", SEED, CASES, MAX_WORLD)
    rng = random.Random(args.seed)
    cases = []
    while len(cases) < args.cases:
        case = draw_case(rng, args.max_world)
        if "result" in case:
            world = case["world_size"]
            for rank in {0, world - 1, rng.randrange(world), rng.randrange(world)}:
                check_rank(case, rank)
        elif len(case["ops"]) < MIN_OPS and rng.random() < 0.7:
            continue  # keep mostly deep chains: most early errors are left out
        cases.append(case)
    write_layout("generate_deep.py", args.seed, torch.__version__, cases)


if __name__ == "__main__":
    main()
