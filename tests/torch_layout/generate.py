#!/usr/bin/env python3
"""Regenerate tests/torch_layout/layout.json by running torch's DeviceMesh.

    python3 -m venv /tmp/torch-venv && /tmp/torch-venv/bin/pip install torch
    /tmp/torch-venv/bin/python tests/torch_layout/generate.py > tests/torch_layout/layout.json

Needs an interpreter with torch installed (the tests never install it: they
read the JSON this prints). It draws random cases from a fixed seed: a
row-major base mesh of 1 to 6 axes (sizes 1 to 6, awkward ones included,
at most MAX_WORLD ranks) and a chain of 1 to 4 layout operations on it:
flatten (`mesh[axes]._flatten(name)`), unflatten (`_unflatten`), slice
(`mesh[axes]`) and slice_root (the base mesh sliced by its own or its
flattened names). Some draws are wrong on purpose (axes out of order, a
product that does not match, a name already used), so errors are recorded
too.

Each case runs once per rank under torch's `fake` process group, as a real
job would: rank r's result gives coords[r] (its get_coordinate()) and its
own group of every axis (get_process_group_ranks), which must be one of the
groups listed for the axis. The output has the format of
shared/vectors/layout.json (see its README): the groups of an axis are
torch's enumeration of them (the list DeviceMesh builds its process groups
from), `layout` is torch's _MeshLayout in normal form, `instances` every
instance of the view. A torch error is recorded with its type and message;
where VIEWS.md section 4 decides differently (slicing is lenient about
order), the case says so in `library`, as the shared vectors do.

Two kinds of draw are left out because they would only record a known,
documented difference: duplicate unflatten names (torch accepts them, the
library refuses them, VIEWS.md section 1; unflatten names here are always
fresh), and flatten names the two check differently (see same_rule).
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "frameworks"))
from recording import layout_options, normal_form, write_layout  # noqa: E402  (the vectors' layout of an axis)

SEED = 20261201
CASES = 800
MAX_WORLD = 64
NAMES = ["dp", "cp", "tp", "pp", "ep", "sp", "a", "b"]
LENIENT = ("accepted: VIEWS.md section 4 makes slicing lenient; the sub-view has its axes in "
           "the order named")


def factorizations(n, parts):
    """Every ordered way to write n as a product of `parts` factors >= 1."""
    if parts == 1:
        return [(n,)]
    return [(d,) + rest for d in range(1, n + 1) if n % d == 0
            for rest in factorizations(n // d, parts - 1)]


def same_rule(name, axes, current, root, flat):
    """False for a flatten name on which torch and the library follow
    different documented rules: the library refuses a name of the source
    view (VIEWS.md 1) and knows no other flattened views, torch refuses a
    name of the root mesh or one flattened before with another layout."""
    if len(axes) == 1 and name == axes[0]:
        return True  # flattening one axis into its own name: mesh[axes] in both
    return (name in current) == (name in root) and name not in flat


def draw_case(rng, max_world):
    """A base mesh of at most max_world ranks and a chain of ops, as the
    vectors write them."""
    while True:
        ndim = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6])
        shape = [rng.choice([1, 1, 2, 2, 2, 3, 4, 5, 6]) for _ in range(ndim)]
        if 2 <= math.prod(shape) <= max_world:
            break
    names = rng.sample(NAMES[:6], ndim)
    current, flat, ops, fresh = list(names), [], [], iter(f"u{i}" for i in range(100))
    sizes = dict(zip(names, shape))
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["flatten", "flatten", "unflatten", "unflatten", "slice", "slice_root"])
        if kind == "flatten":
            axes = sorted(rng.sample(current, rng.randint(1, len(current))), key=current.index)
            if len(axes) > 1 and rng.random() < 0.15:
                rng.shuffle(axes)
            name = None if rng.random() < 0.7 else rng.choice(NAMES + flat)
            if not same_rule(name or "_".join(axes), axes, current, names, flat):
                name = None
            new = name or "_".join(axes)
            if not same_rule(new, axes, current, names, flat):
                continue
            ops.append({"kind": "flatten", "axes": axes, "name": name})
            if not (len(axes) == 1 and new == axes[0]):  # else torch returns mesh[axes] itself
                flat.append(new)
            sizes[new] = math.prod(sizes.get(a, 1) for a in axes)
            current = [new]
        elif kind == "unflatten":
            axis = rng.randrange(len(current))
            size = sizes.get(current[axis], 1)
            ways = factorizations(size, rng.randint(2, 3))
            proper = [w for w in ways if 1 not in w]
            parts = rng.choice(proper if proper and rng.random() < 0.7 else ways)
            if rng.random() < 0.1:
                parts = parts[:-1] + (parts[-1] + 1,)
            new = [next(fresh) for _ in parts]
            ops.append({"kind": "unflatten", "axis": axis, "sizes": list(parts), "names": new})
            sizes.update(zip(new, parts))
            current = current[:axis] + new + current[axis + 1:]
        elif kind == "slice":
            axes = sorted(rng.sample(current, rng.randint(1, len(current))), key=current.index)
            if len(axes) > 1 and rng.random() < 0.3:
                rng.shuffle(axes)
            ops.append({"kind": "slice", "axes": axes})
            current = axes
        else:
            pool = names + flat
            axes = sorted(rng.sample(pool, rng.randint(1, min(3, len(pool)))), key=pool.index)
            ops.append({"kind": "slice_root", "axes": axes})
            current = axes
    return {"preset": "layout", "base": {"dim_names": names, "shape": shape},
            "world_size": math.prod(shape), "ops": ops}


def apply(root, op, mesh):
    """The mesh after one op, as torch's API spells it."""
    if op["kind"] == "flatten":
        return mesh[tuple(op["axes"])]._flatten(op["name"])
    if op["kind"] == "unflatten":
        return mesh._unflatten(op["axis"], tuple(op["sizes"]), tuple(op["names"]))
    return (root if op["kind"] == "slice_root" else mesh)[tuple(op["axes"])]


def repeats_ranks(source, root, axes):
    """True when the named axes of a slice give some rank twice (torch may
    refuse such a slice for its order first; the library refuses it for
    the repeat, VIEWS.md section 4)."""
    flattened = root._flatten_mapping
    layouts = [source._layout[source.mesh_dim_names.index(a)] if a in source.mesh_dim_names
               else flattened[a]._layout[0] for a in axes]
    ranks = type(source._layout)(layouts).collapse().all_ranks_from_zero()
    return len(set(ranks)) != len(ranks)


def on_rank(case, rank):
    """(torch's error as (type, message, failing op), or what rank `rank` sees of the mesh it ends with)."""
    dist.init_process_group("fake", store=FakeStore(), rank=rank, world_size=case["world_size"])
    try:
        base = case["base"]
        root = init_device_mesh("cpu", tuple(base["shape"]), mesh_dim_names=tuple(base["dim_names"]))
        mesh, step = root, -1
        for step, op in enumerate(case["ops"]):
            mesh = apply(root, op, mesh)
    except Exception as e:  # torch's own exception, recorded as it is
        repeats = step >= 0 and case["ops"][step]["kind"] in ("slice", "slice_root") and \
            repeats_ranks(root if case["ops"][step]["kind"] == "slice_root" else mesh, root,
                          case["ops"][step]["axes"])
        dist.destroy_process_group()
        return (type(e).__name__, str(e), step, repeats), None
    try:
        return None, seen(mesh)
    finally:
        dist.destroy_process_group()


def seen(mesh):
    """The view record of a mesh (the same on every rank), with this rank's
    coordinate, instance and group of every axis."""
    layout, names = mesh._layout, list(mesh.mesh_dim_names)
    coord = mesh.get_coordinate()
    view = {"dim_names": names, "shape": [mesh.size(i) for i in range(len(names))],
            "layout": [normal_form(layout[i]) for i in range(len(names))],
            "instances": [t.flatten().tolist() for t in
                          layout.remap_to_tensor(mesh._rank_map).reshape(-1, mesh.size())],
            "groups": {name: [g.flatten().tolist() for g in
                              type(layout)([layout[i]]).remap_to_tensor(mesh._rank_map)]
                       for i, name in enumerate(names)}}
    own = {"coord": None if coord is None else list(coord), "instance": mesh.mesh.flatten().tolist(),
           "groups": {name: dist.get_process_group_ranks(mesh.get_group(i))
                      for i, name in enumerate(names) if coord is not None}}
    return view, own


def record(case):
    """The case with torch's result or error, checked on every rank."""
    results = [on_rank(case, r) for r in range(case["world_size"])]
    errors = {e for e, _ in results}
    if len(errors) != 1:
        raise SystemExit(f"ranks disagree on whether {case} fails: {errors}")
    error = errors.pop()
    if error:
        kind, message, step, repeats = error
        case["error"] = {"type": kind, "message": message}
        if kind == "KeyError" and "ascending order" in message and not repeats and \
                case["ops"][step]["kind"] in ("slice", "slice_root"):
            del case["ops"][step + 1:]  # the library goes on with the sub-view: end there
            case["library"] = LENIENT
        return case
    view = dict(results[0][1][0], coords=[])
    for rank, (_, (other, own)) in enumerate(results):
        if other != results[0][1][0]:
            raise SystemExit(f"rank {rank} sees another view than rank 0 in {case}")
        view["coords"].append(own["coord"])
        if own["coord"] is not None and own["instance"] not in view["instances"]:
            raise SystemExit(f"rank {rank}'s mesh is not an instance in {case}")
        for name, members in own["groups"].items():
            if members not in view["groups"][name]:
                raise SystemExit(f"rank {rank}'s {name} group {members} is not listed in {case}")
    case["result"] = view
    return case


def main():
    warnings.simplefilter("ignore")
    args = layout_options("generate.py", SEED, CASES, MAX_WORLD)
    rng = random.Random(args.seed)
    cases = [record(draw_case(rng, args.max_world)) for _ in range(args.cases)]
    write_layout("generate.py", args.seed, torch.__version__, cases)


if __name__ == "__main__":
    main()
