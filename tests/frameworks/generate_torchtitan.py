#!/usr/bin/env python3
"""Record random torchtitan configurations by running torchtitan's ParallelDims.

    /work/torch-venv/bin/python tests/frameworks/generate_torchtitan.py \\
        > tests/frameworks/torchtitan.json
    /work/torch-venv/bin/python tests/frameworks/generate_torchtitan.py \\
        --check-shared /work/shared/vectors/torchtitan.json

Needs torch 2.15.0 and torchtitan 0.3.0 (the versions of VIEWS.md); the
tests never install them, they read the JSON this prints. The first form
draws CASES random configurations from a fixed seed and writes them in the
format of shared/vectors/torchtitan.json (see its README); the second runs
every case of that file through the same recorder and reports any case
whose record differs (exit status 1), ignoring the `library` annotation.

What runs: torchtitan/distributed/parallel_dims.py from the installed
torchtitan, `ParallelDims(...)` then `build_mesh()`, once per rank under
torch's fake process group, as a real job would. The wheel's other
dependencies are not installed in that venv: spmd_types is only used by
SpmdLayout (never by the mesh building), and torchtitan.config.configs
(which needs tyro) only for a type in `from_config`, so empty stand-ins are
imported in their place; spmd_types is removed again after the import so
torch itself sees it absent.

Recorded per case: `resolved.dp_shard` (after -1 is resolved), every
global mesh of `_global_meshes` (names, shape, normal-form layout, every
instance, the groups of each axis over the world in torch's enumeration,
each rank's get_coordinate()), `single_axis` (each `_single_axis_meshes`
key: its torch axis name, size, the global mesh it was sliced from,
`fake_backed`, whether `get_optional_mesh` returns None, its groups) and
`one_dimensional_active` (the keys of `get_all_one_dimensional_meshes()`).
`fake_backed` is read from the process group itself: the default backend
here is registered under another name ("real") than the one torchtitan
asks for on disabled axes ("fake"). An exception of ParallelDims or of
build_mesh is recorded with its type and message. Every rank must agree on
all of it, and each rank's own group of every axis must be one listed.

Where the library follows a documented decision instead of 0.3.0
(VIEWS.md section 4: `ep` must divide dp_shard*cp*tp, checked up front),
both fail, so no `library` field is needed. Left out of the draws: an
spmd_backend outside the three ParallelDims declares (its Literal type;
0.3.0 itself does not check it and builds the partial_dtensor meshes,
the library refuses it); see draw().
"""
import importlib.util
import json
import math
import os
import random
import sys
import types
import warnings

os.environ.setdefault("TORCH_CPP_LOG_LEVEL", "ERROR")  # one warning per rank otherwise

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.distributed.device_mesh import DeviceMesh  # noqa: E402
from torch.testing._internal.distributed.fake_pg import FakeStore, _create_fake_pg  # noqa: E402

from recording import draws, normal_form, options, write_cases  # noqa: E402

SEED = 20261202
CASES = 200
WIDE_CASES = 30
# The degrees a draw takes its five sizes from, and the largest world.
NARROW = {"sizes": [1, 1, 1, 2, 2, 2, 3, 4, 4, 5, 6, 8, 12], "max_world": 72}
WIDE = {"sizes": [1, 1, 1, 2, 2, 3, 4, 5, 7, 8, 9, 16], "max_world": 160}
BACKENDS = ("spmd_types", "partial_dtensor", "full_dtensor")
REAL = "real"  # the default backend's name, so that "fake" means torchtitan's override
PARAM_ORDER = ("dp_replicate", "dp_shard", "cp", "tp", "pp", "ep", "world_size", "spmd_backend")


def import_parallel_dims():
    """torchtitan's ParallelDims, imported from the installed package."""
    stand_ins = {}
    if importlib.util.find_spec("spmd_types") is None:
        stand_ins["spmd_types"] = types.ModuleType("spmd_types")
    if importlib.util.find_spec("tyro") is None:
        configs = types.ModuleType("torchtitan.config.configs")
        configs.ParallelismConfig = object
        stand_ins["torchtitan.config.configs"] = configs
    sys.modules.update(stand_ins)
    from torchtitan.distributed.parallel_dims import ParallelDims
    for name in stand_ins:
        del sys.modules[name]
    return ParallelDims


ParallelDims = import_parallel_dims()
dist.Backend.register_backend(REAL, _create_fake_pg, extended_api=True, devices=["cpu", "cuda"])

# Which mesh a submesh was sliced from (mesh[names]), to name a single
# axis's source view as torchtitan built it.
SLICED_FROM = {}
_getitem = DeviceMesh.__getitem__


def _recording_getitem(self, names):
    sub = _getitem(self, names)
    SLICED_FROM[id(sub)] = (sub, self)
    return sub


DeviceMesh.__getitem__ = _recording_getitem


def axis_groups(mesh, i):
    """Every group of axis i over the world, as torch enumerates them."""
    layout = mesh._layout
    return [g.flatten().tolist() for g in type(layout)([layout[i]]).remap_to_tensor(mesh._rank_map)]


def view_record(mesh):
    """The view record of a mesh (the same on every rank) and this rank's
    coordinate, instance and own group of every axis."""
    layout, names = mesh._layout, list(mesh.mesh_dim_names)
    view = {"dim_names": names, "shape": [mesh.size(i) for i in range(len(names))],
            "layout": [normal_form(layout[i]) for i in range(len(names))],
            "instances": [t.flatten().tolist() for t in
                          layout.remap_to_tensor(mesh._rank_map).reshape(-1, mesh.size())],
            "groups": {name: axis_groups(mesh, i) for i, name in enumerate(names)}}
    coord = mesh.get_coordinate()
    own = {"coord": None if coord is None else list(coord),
           "instance": mesh.mesh.flatten().tolist(),
           "groups": {} if coord is None else
           {name: dist.get_process_group_ranks(mesh.get_group(i)) for i, name in enumerate(names)}}
    return view, own


def source_view(pd, mesh):
    """The name of the global mesh a single-axis mesh is, or was sliced from."""
    for name, g in pd._global_meshes.items():
        if g is mesh or (id(mesh) in SLICED_FROM and SLICED_FROM[id(mesh)][1] is g):
            return name
    raise SystemExit(f"single-axis mesh {mesh.mesh_dim_names} comes from no global mesh")


def on_rank(params, world, rank):
    """(error as (type, message), None) or (None, what rank `rank` sees)."""
    args = {k: v for k, v in params.items() if k != "world_size"}
    dist.init_process_group(REAL, store=FakeStore(), rank=rank, world_size=world)
    try:
        try:
            pd = ParallelDims(world_size=params["world_size"], **args)
            pd.build_mesh()
        except Exception as e:  # torchtitan's (or torch's) own exception, as it is
            return (type(e).__name__, str(e)), None
        views, own = {}, {}
        for name, mesh in pd._global_meshes.items():
            views[name], own[name] = view_record(mesh)
        single = {}
        for key, mesh in pd._single_axis_meshes.items():
            single[key] = {"mesh_dim_name": mesh.mesh_dim_names[0], "size": mesh.size(),
                           "from_view": source_view(pd, mesh),
                           "fake_backed": dist.get_backend(mesh.get_group()) == "fake",
                           "get_optional_mesh_is_none": pd.get_optional_mesh(key) is None,
                           "groups": axis_groups(mesh, 0)}
        shared = {"resolved": {"dp_shard": pd.dp_shard}, "views": views, "single_axis": single,
                  "one_dimensional_active": list(pd.get_all_one_dimensional_meshes())}
        return None, (shared, own)
    finally:
        SLICED_FROM.clear()
        dist.destroy_process_group()


def record(params, world):
    """The case for `params` on `world` ranks, checked on every rank."""
    case = {"preset": "torchtitan", "params": params, "world_size": world}
    results = [on_rank(params, world, r) for r in range(world)]
    errors = {e for e, _ in results}
    if len(errors) != 1:
        raise SystemExit(f"ranks disagree on whether {params} fails: {errors}")
    error = errors.pop()
    if error:
        case["error"] = {"type": error[0], "message": error[1]}
        return case
    first = results[0][1][0]
    shared = json.loads(json.dumps(first))  # a copy to add the coordinates to
    for view in shared["views"].values():
        view["coords"] = []
    for rank, (_, (other, own)) in enumerate(results):
        if other != first:
            raise SystemExit(f"rank {rank} sees other meshes than rank 0 for {params}")
        for name, view in shared["views"].items():
            mine = own[name]
            view["coords"].append(mine["coord"])
            if mine["coord"] is not None and mine["instance"] not in view["instances"]:
                raise SystemExit(f"rank {rank}'s {name} mesh is not an instance for {params}")
            for axis, members in mine["groups"].items():
                if members not in view["groups"][axis]:
                    raise SystemExit(f"rank {rank}'s {name}.{axis} group {members} "
                                     f"is not listed for {params}")
    case.update(shared)
    return case


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def draw(rng, ranges):
    """Random params and world size: mostly valid, some refused on purpose.

    Degrees come from awkward sizes too (3, 5, 6, 12; the WIDE ranges: 7,
    9, 16, worlds up to 160). About one case in
    five is wrong on purpose: a world size that does not fit, a degree < 1,
    a dp_shard other than -1 below 1, a dp_shard of -1 that resolves to 0,
    or an ep that does not divide dp_shard*cp*tp. spmd_backend is always
    one of BACKENDS (see the module docstring).
    """
    while True:
        sizes = [rng.choice(ranges["sizes"]) for _ in range(5)]
        dr, ds, cp, tp, pp = sizes
        if 1 <= math.prod(sizes) <= ranges["max_world"]:
            break
    world = math.prod(sizes)
    domain = ds * cp * tp
    ep = rng.choice(divisors(domain)) if rng.random() < 0.6 else 1
    params = {"dp_replicate": dr, "dp_shard": ds, "cp": cp, "tp": tp, "pp": pp, "ep": ep}
    if rng.random() < 0.25:
        params["dp_shard"] = -1
    wrong = rng.random()
    if wrong < 0.06:
        world = rng.choice([n for n in range(1, min(2 * world + 3, ranges["max_world"] + 1)) if n != world])
    elif wrong < 0.09:
        params[rng.choice(["dp_replicate", "cp", "tp", "pp", "ep"])] = rng.choice([0, -1, -2])
    elif wrong < 0.11:
        params["dp_shard"] = rng.choice([0, -2, -3])
    elif wrong < 0.13 and world // ds > 1:  # dp_shard -1 resolves to 0
        params["dp_shard"], world = -1, rng.randrange(1, world // ds)
    elif wrong < 0.21:  # mostly below dp_shard*cp*tp, so that efsdp is not 0
        below = [e for e in range(2, domain) if domain % e]
        above = list(range(domain + 1, 2 * domain + 3))
        params["ep"] = rng.choice(below if below and rng.random() < 0.7 else above)
    params["world_size"] = world
    params["spmd_backend"] = rng.choices(BACKENDS, weights=(2, 1, 1))[0]
    return {k: params[k] for k in PARAM_ORDER}, world


def check_shared(path):
    """Record every case of a shared vector file; 0 when all are equal."""
    with open(path) as f:
        doc = json.load(f)
    differ = 0
    for i, want in enumerate(doc["cases"]):
        want = {k: v for k, v in want.items() if k != "library"}
        got = record(want["params"], want["world_size"])
        same = json.dumps(got) == json.dumps(want)  # key order too
        if not same:
            differ += 1
            keys = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
            print(f"case {i} {want['params']}: differs in {keys or 'key order'}", file=sys.stderr)
    print(f"{len(doc['cases']) - differ} of {len(doc['cases'])} cases of {path} recorded equal",
          file=sys.stderr)
    return 1 if differ else 0


def main():
    warnings.simplefilter("ignore")
    import logging
    logging.disable(logging.CRITICAL)  # torchtitan logs every build_mesh
    args = options("torchtitan", SEED, CASES, WIDE_CASES)
    if args.check_shared:
        sys.exit(check_shared(args.check_shared))
    rng = random.Random(args.seed)
    cases = [record(*draw(rng, ranges)) for ranges in draws(args, NARROW, WIDE)]
    import torchtitan
    write_cases("torchtitan", args.seed, {"torch": torch.__version__,
                                     "torchtitan": torchtitan.__version__}, cases)


if __name__ == "__main__":
    main()
