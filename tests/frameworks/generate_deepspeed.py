#!/usr/bin/env python3
"""Record random deepspeed preset cases from the real DeepSpeed.

    python3 -m venv /tmp/dsv && /tmp/dsv/bin/pip install torch deepspeed==0.19.8
    /tmp/dsv/bin/python tests/frameworks/generate_deepspeed.py > tests/frameworks/deepspeed.json
    /tmp/dsv/bin/python tests/frameworks/generate_deepspeed.py \
        --check-shared tests/vectors/deepspeed.json

Needs an interpreter with deepspeed 0.19.8 (and its dependencies) installed;
the tests never install it: they read the JSON this prints. It takes a few
seconds (most of it importing deepspeed).

What it records, in the format of tests/vectors/deepspeed.json (see
shared/vectors/README.md): for each configuration, what
deepspeed.utils.groups._get_expert_parallel_ranks returns (`groups.ep`,
`groups.expt_dp`, in DeepSpeed's order) or the exception it raises (type and
message verbatim). The function is pure Python: it reads only its arguments
(no process group, no mesh), so it is called directly. `views.expert` is the
row-major view (pp, edp, ep, tp), or (pp, ep, edp, tp) with
use_data_before_expert_parallel_, laid out by torch (torch.arange(world)
.reshape(shape) gives its strides and coordinates); the generator checks
that its ep and edp groups are DeepSpeed's groups as sets (members in the
same order) and stops if not, so a recorded view always has DeepSpeed's
groups.

Configurations are drawn from a fixed seed: tp, pp, ep and the expert
data-parallel size from awkward sizes (3, 5, 6, 12, not only powers of
two), world sizes up to NARROW's max_world, then WIDE_CASES draws from the
WIDE ranges (7, 9, 16, 32, worlds up to 2048), both topologies; some draws take a random
world size (mostly refused: not divisible), and some a tp, ep or pp of 0
(DeepSpeed fails dividing by it: ZeroDivisionError). Where pp or
use_data_before_expert_parallel_ is at its default, some draws leave it out
of the call, so the library's defaults are checked against DeepSpeed's.

Left out, because no case could say what is right (VIEWS.md does not decide):
- negative sizes and world sizes: DeepSpeed does not refuse them, Python's %
  and range() make it return two empty lists (tp -1, W 8: `([], [])`); the
  library refuses them as a mistake ("tensor_parallel_size_ must be >= 1,
  got -1").
- world size 0: DeepSpeed fails on it (ValueError "range() arg 3 must not be
  zero") and so does the library, but as an argument error before any preset
  rule (0 means "not given" to om_preset_new, so `check` prints no verdict).
- calls without expert_parallel_size_ or tensor_parallel_size_ (required by
  DeepSpeed, a TypeError; the library defaults them to 1) and values of other
  types (DeepSpeed takes any truthy value for the flag, the library true or
  false only).

--check-shared PATH re-records every case of a vector file from its params
and compares (the steering team's `library` annotation aside): it prints
the count and exits 1 on the first difference.
"""
import contextlib
import sys

import torch

import recording

# DeepSpeed logs its accelerator choice on stdout while it imports; the
# JSON owns stdout.
with contextlib.redirect_stdout(sys.stderr):
    import deepspeed
    from deepspeed.utils import groups as ds_groups

SEED = 20261202
CASES = 240
WIDE_CASES = 120
# The sizes a draw takes tp (sizes), ep, pp and the expert data-parallel
# size from, and its largest world.
NARROW = {"sizes": [1, 1, 2, 2, 3, 4, 5, 6, 8, 12], "ep": [1, 2, 2, 3, 4, 5, 6, 8, 12, 16],
          "pp": [1, 1, 1, 2, 3, 4], "edp": [1, 1, 2, 3, 4, 5, 6, 8], "max_world": 128}
WIDE = {"sizes": [1, 1, 2, 3, 4, 7, 8, 9, 16], "ep": [1, 2, 3, 4, 7, 8, 9, 16, 32],
        "pp": [1, 1, 2, 3, 5, 7], "edp": [1, 2, 3, 5, 7, 9, 16], "max_world": 2048}


def expert_view(params, ep_groups, edp_groups):
    """The (pp, edp, ep, tp) or (pp, ep, edp, tp) view of the world, checked
    to have DeepSpeed's ep and expt_dp groups."""
    world = params["world_size"]
    tp, ep = params["tensor_parallel_size_"], params["expert_parallel_size_"]
    pp = params.get("pipeline_parallel_size_", 1)
    data_first = params.get("use_data_before_expert_parallel_", False)
    edp = world // (tp * pp * ep)
    sizes = {"pp": pp, "edp": edp, "ep": ep, "tp": tp}
    names = ["pp", "ep", "edp", "tp"] if data_first else ["pp", "edp", "ep", "tp"]
    shape = [sizes[n] for n in names]
    ranks = torch.arange(world).reshape(shape)
    for axis, framework in (("ep", ep_groups), ("edp", edp_groups)):
        dim = names.index(axis)
        ours = ranks.movedim(dim, -1).reshape(-1, shape[dim]).tolist()
        if sorted(ours) != sorted(framework):
            raise SystemExit(f"{params}: the view {names} {shape} does not have "
                             f"DeepSpeed's {axis} groups {framework}")
    strides = ranks.stride()
    return {
        "dim_names": names,
        "shape": shape,
        "layout": [[[size, stride]] for size, stride in zip(shape, strides)],
        "coords": [[r // stride % size for size, stride in zip(shape, strides)]
                   for r in range(world)],
    }


def record(params):
    """The case of one call: DeepSpeed's groups and their view, or its error."""
    case = {"preset": "deepspeed", "params": params, "world_size": params["world_size"]}
    try:
        with contextlib.redirect_stdout(sys.stderr):
            ep_groups, edp_groups = ds_groups._get_expert_parallel_ranks(**params)
    except Exception as e:  # the framework's refusal is the recorded answer
        case["error"] = {"type": type(e).__name__, "message": str(e)}
        return case
    case["views"] = {"expert": expert_view(params, ep_groups, edp_groups)}
    case["groups"] = {"ep": ep_groups, "expt_dp": edp_groups}
    return case


def draw(rng, ranges):
    """One call's keyword arguments, in the vectors' key order."""
    max_world = ranges["max_world"]

    def sizes():
        return rng.choice(ranges["sizes"]), rng.choice(ranges["pp"]), rng.choice(ranges["ep"])

    tp, pp, ep = sizes()
    kind = rng.random()
    if kind < 0.06:  # a size of 0: DeepSpeed divides by it
        which = rng.choice(["tp", "ep", "pp"])
        world = rng.randint(1, max_world)
        tp, ep, pp = (0 if which == "tp" else tp), (0 if which == "ep" else ep), \
            (0 if which == "pp" else pp)
    elif kind < 0.22:  # any world size: mostly not divisible
        world = rng.randint(1, max_world)
    else:
        while tp * pp * ep * (edp := rng.choice(ranges["edp"])) > max_world:
            tp, pp, ep = sizes()
        world = tp * pp * ep * edp
    data_first = rng.random() < 0.5
    params = {"world_size": world, "tensor_parallel_size_": tp, "expert_parallel_size_": ep}
    if pp != 1 or rng.random() < 0.7:
        params["pipeline_parallel_size_"] = pp
    if data_first or rng.random() < 0.7:
        params["use_data_before_expert_parallel_"] = data_first
    return params


def main():
    return recording.main("deepspeed", SEED, (CASES, WIDE_CASES), draw, record,
                          {"torch": torch.__version__, "deepspeed": deepspeed.__version__},
                          f"deepspeed {deepspeed.__version__}", (NARROW, WIDE))


if __name__ == "__main__":
    sys.exit(main())
