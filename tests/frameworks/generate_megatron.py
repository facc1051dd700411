#!/usr/bin/env python3
"""Record random megatron cases by running megatron-core's
parallel_state.initialize_model_parallel under torch's `fake` process group.

    python3 -m venv /tmp/mv && /tmp/mv/bin/pip install torch==2.15.0 \
        megatron-core==0.16.1 packaging einops
    /tmp/mv/bin/python tests/frameworks/generate_megatron.py > tests/frameworks/megatron.json
    /tmp/mv/bin/python tests/frameworks/generate_megatron.py \
        --check-shared tests/vectors/megatron.json

Needs torch 2.15 and megatron-core 0.16.1 (the versions of VIEWS.md), with
the packaging and einops modules megatron imports (einops makes the
hierarchical groups); the tests never install them: they read the JSON
this prints. About a minute on 2 cores. It draws CASES
configurations from a fixed seed: tensor/pipeline/context/expert parallel
sizes with awkward values (3, 5, 6, 12), expert_tensor_parallel_size None
or set, the default pp-last order, the dp-last order, permutations, partial
orders (missing size-1 tokens are appended, missing others refused),
upper case, num_distributed_optimizer_instances, hierarchical context
parallel sizes, and world sizes up to NARROW's max_world; then the LONG_HCP
cases (20 to 40 hierarchical levels); then WIDE_CASES draws from the WIDE
ranges (7, 9, 16, worlds up to 1024). Some draws are wrong on
purpose (a world the sizes do not divide, an unknown or repeated order
token, hierarchical sizes that do not multiply to cp, vpp with pp = 1,
sizes of 0 or below), so errors are recorded too.

The output has the format of shared/vectors/megatron.json (its README):
`views.dense` / `views.expert` are the two RankGenerators Megatron built
(captured objects: their completed `order`, `ordered_size` and get_ranks of
every token; the layout is their prefix-product strides, coords[r] is r's
place in its group of each token); `groups` is every group Megatron passed
to torch.distributed.new_group, keyed by its ProcessGroupCollection name
(from the call's group_desc; the gloo and all-gather copies of the same
ranks are not made: create_gloo_process_groups=False, as the fake store
cannot back gloo), in creation order, members as passed. `resolved` is
the generators' dp, expert tp and expert dp. A Megatron error is recorded
with its type and message.

Every new_group call is made on every rank with the same ranks, so the
recorded lists do not depend on the rank: each case runs once per rank
(worlds up to ALL_RANKS_UP_TO; larger worlds on the first, last and two
random ranks) and the generator stops if two ranks disagree, or if a
rank's own group (ProcessGroupCollection.use_mpu_process_groups()) is not
one of the listed groups sorted (torch's new_group sorts the members).

--check-shared PATH runs the params and world_size of every case of PATH
and compares with it (the `library` annotation is not recorded, so it is
not compared); it exits 1 on the first difference.

Left out: draws Megatron accepts and the library refuses with no decision
of VIEWS.md behind it (see left_out below: a token named twice, a size
below 1 that Python's arithmetic takes); the sharp, nccl, timeout and
communication-backend options, which do not change the groups;
create_all_gather_group (a copy of dp_cp) and hybrid_context_parallel
(groups with no ProcessGroupCollection name).
"""
import json
import math
import random
import sys
import warnings

warnings.simplefilter("ignore")  # megatron warns at import that TE and Apex are absent
import torch  # noqa: E402
import torch.distributed as dist
from torch.testing._internal.distributed.fake_pg import FakeStore

import megatron.core
from megatron.core import parallel_state
from megatron.core.process_groups_config import ProcessGroupCollection

import recording

SEED = 20261201
CASES = 280
WIDE_CASES = 60
# The sizes a draw takes tp, pp, cp and dp from, the ep of a draw that
# ignores the divisors, and the largest world.
NARROW = {"tp": [1, 1, 1, 2, 2, 2, 3, 4, 4, 6, 8], "pp": [1, 1, 1, 2, 2, 3, 4, 5],
          "cp": [1, 1, 1, 2, 2, 3, 4], "dp": [1, 2, 2, 3, 4, 5, 6, 8, 12],
          "any_ep": [2, 3, 4, 5, 8], "max_world": 128}
WIDE = {"tp": [1, 1, 2, 2, 3, 4, 7, 8, 9, 16], "pp": [1, 1, 2, 3, 4, 5, 7],
        "cp": [1, 1, 2, 3, 4, 7], "dp": [1, 2, 3, 4, 5, 7, 8, 9, 12, 16],
        "any_ep": [2, 3, 7, 9, 16], "max_world": 1024}
ALL_RANKS_UP_TO = 32
PARAM_KEYS = ("tensor_model_parallel_size", "pipeline_model_parallel_size",
              "context_parallel_size", "expert_model_parallel_size",
              "expert_tensor_parallel_size", "order", "num_distributed_optimizer_instances",
              "hierarchical_context_parallel_sizes")
TOKENS = ("tp", "cp", "ep", "dp", "pp")

# new_group's group_desc -> ProcessGroupCollection name (None: a copy of
# another group's ranks on another backend, not recorded).
DESC_NAMES = {
    "DATA_PARALLEL_GROUP_WITH_CP": "dp_cp", "DATA_PARALLEL_GROUP_WITH_CP_GLOO": None,
    "DATA_PARALLEL_GROUP_WITH_CP_AG": None,
    "INTRA_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP": "intra_dp_cp",
    "INTRA_PARTIAL_DATA_PARALLEL_GROUP_WITH_CP_GLOO": None,
    "DATA_PARALLEL_GROUP": "dp", "DATA_PARALLEL_GROUP_GLOO": None,
    "CONTEXT_PARALLEL_GROUP": "cp", "MODEL_PARALLEL_GROUP": "mp",
    "TENSOR_MODEL_PARALLEL_GROUP": "tp", "PIPELINE_MODEL_PARALLEL_GROUP": "pp",
    "EMBEDDING_GROUP": "embd", "POSITION_EMBEDDING_GROUP": "pos_embd",
    "TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP": "tp_dp_cp",
    "TENSOR_AND_DATA_PARALLEL_GROUP": "tp_dp", "TENSOR_AND_CONTEXT_PARALLEL_GROUP": "tp_cp",
    "EXPERT_MODEL_PARALLEL_GROUP": "ep", "EXPERT_TENSOR_PARALLEL_GROUP": "expt_tp",
    "EXPERT_TENSOR_AND_MODEL_PARALLEL_GROUP": "tp_ep",
    "EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP": "tp_ep_pp",
    "EXPERT_DATA_PARALLEL_GROUP": "expt_dp", "EXPERT_DATA_PARALLEL_GROUP_GLOO": None,
    "HIERARCHICAL_EXPERT_DATA_PARALLEL_GROUP_L0": "intra_expt_dp",
    "HIERARCHICAL_EXPERT_DATA_PARALLEL_GROUP_L1": "inter_dist_opt",
    "HIERARCHICAL_EXPERT_DATA_PARALLEL_GROUP_GLOO_L0": None,
    "HIERARCHICAL_EXPERT_DATA_PARALLEL_GROUP_GLOO_L1": None,
    "INTRA_DISTRIBUTED_OPTIMIZER_INSTANCE_GROUP": "intra_dist_opt",
}


def group_name(desc):
    if desc.startswith("HIERARCHICAL_CONTEXT_PARALLEL_GROUP_L"):
        return "hcp[%d]" % int(desc.rsplit("L", 1)[1])
    if desc not in DESC_NAMES:
        raise SystemExit(f"unknown group_desc {desc!r}: add it to DESC_NAMES")
    return DESC_NAMES[desc]


class Recorder:
    """Wraps torch.distributed.new_group and RankGenerator.__init__ to keep
    what Megatron passes and builds."""

    def __init__(self):
        self.groups, self.generators = {}, []
        self._new_group = dist.new_group
        self._init = parallel_state.RankGenerator.__init__

    def __enter__(self):
        recorder = self

        def new_group(*args, **kwargs):
            ranks = kwargs["ranks"] if "ranks" in kwargs else args[0]
            name = group_name(kwargs.get("group_desc") or "")
            if name is not None:
                recorder.groups.setdefault(name, []).append(list(ranks))
            return recorder._new_group(*args, **kwargs)

        def init(gen, *args, **kwargs):
            recorder._init(gen, *args, **kwargs)
            recorder.generators.append(gen)

        dist.new_group = new_group
        parallel_state.RankGenerator.__init__ = init
        return self

    def __exit__(self, *exc):
        dist.new_group = self._new_group
        parallel_state.RankGenerator.__init__ = self._init


def view_of(gen, world):
    """A RankGenerator as a view record: axes reversed(order), row-major."""
    tokens = gen.order.split("-")
    strides = [math.prod(gen.ordered_size[:i]) for i in range(len(tokens))]
    groups = {t: gen.get_ranks(t) for t in reversed(tokens)}
    coords = []
    for r in range(world):
        coords.append([next(g.index(r) for g in groups[t] if r in g) for t in groups])
    return {"order": gen.order, "dim_names": list(reversed(tokens)),
            "shape": list(reversed(gen.ordered_size)),
            "layout": [[[s, d]] for s, d in reversed(list(zip(gen.ordered_size, strides)))],
            "groups": groups, "coords": coords}


def own_groups_listed(groups):
    """This rank's process group of every recorded name is a listed group."""
    pgc = ProcessGroupCollection.use_mpu_process_groups()
    for name, lists in groups.items():
        pg = getattr(pgc, name.split("[")[0], None)
        if name.startswith("hcp["):
            pg = pg[int(name[4:-1])] if pg else None
        if pg is None:
            continue
        own = dist.get_process_group_ranks(pg)
        if own not in [sorted(g) for g in lists]:
            raise SystemExit(f"rank {dist.get_rank()}'s {name} group {own} is not listed")


def on_rank(params, world, rank):
    """(error as (type, message), or (resolved, views, groups)) on one rank."""
    dist.init_process_group("fake", store=FakeStore(), rank=rank, world_size=world)
    try:
        with Recorder() as rec:
            try:
                # Gloo groups cannot be made on the fake store; they repeat
                # the ranks of the groups recorded.
                parallel_state.initialize_model_parallel(**params,
                                                         create_gloo_process_groups=False)
            except Exception as e:  # Megatron's own exception, recorded as it is
                return (type(e).__name__, str(e)), None
        dense, expert = rec.generators
        if min(dense.ordered_size + expert.ordered_size) < 1:
            return None, None  # a size below 1 accepted: left out (see left_out)
        own_groups_listed(rec.groups)
        resolved = {"dp": dense.dp, "expert_tensor_parallel_size": expert.tp,
                    "expert_dp": expert.dp}
        views = {"dense": view_of(dense, world), "expert": view_of(expert, world)}
        return None, (resolved, views, rec.groups)
    finally:
        parallel_state.destroy_model_parallel()
        dist.destroy_process_group()


def record(params, world, rng=None):
    """The case with Megatron's result or error, the same on every rank run."""
    ranks = list(range(world))
    if world > ALL_RANKS_UP_TO:
        ranks = sorted({0, world - 1, *(rng or random.Random(world)).sample(ranks, 2)})
    results = [on_rank(params, world, r) for r in ranks]
    if any(res != results[0] for res in results):
        raise SystemExit(f"ranks disagree on {params} (world {world})")
    case = {"preset": "megatron", "params": params, "world_size": world}
    error, result = results[0]
    if error:
        case["error"] = {"type": error[0], "message": error[1]}
    elif result is None:
        case["accepted_size_below_1"] = True
    else:
        case["resolved"], case["views"], case["groups"] = result
    return case


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def factorization(rng, n, parts):
    """A random ordered product of `parts` factors equal to n."""
    out = []
    for _ in range(parts - 1):
        d = rng.choice(divisors(n))
        out.append(d)
        n //= d
    return out + [n]


def draw_order(rng):
    kind = rng.random()
    if kind < 0.5:
        return "tp-cp-ep-dp-pp"
    if kind < 0.65:
        return "tp-cp-ep-pp-dp"
    if kind < 0.8:
        return "-".join(rng.sample(TOKENS, 5))
    if kind < 0.92:  # a partial order: Megatron appends the missing size-1 tokens
        return "-".join(rng.sample(TOKENS, rng.randint(2, 4)))
    if kind < 0.97:
        return rng.choice(["TP-CP-EP-DP-PP", "Tp-Cp-Ep-Pp-Dp", "tp-cp-ep-dp-PP"])
    if kind < 0.985:
        return rng.choice(["tp-cp-ep-xp-pp", "tp-cp-ep-dp-pp-", "tp cp ep dp pp", ""])
    tokens = list(TOKENS)  # a token twice
    tokens.insert(rng.randint(0, 5), rng.choice(TOKENS))
    return "-".join(tokens)


def complete(rng, order, sizes):
    """A partial order, most often given its tokens of size > 1 (the others
    Megatron appends), at random places."""
    tokens = order.split("-")
    if len(tokens) < 5 and rng.random() < 0.7:
        for t in TOKENS:
            if t not in tokens and sizes[t] > 1:
                tokens.insert(rng.randint(0, len(tokens)), t)
    return "-".join(tokens)


def draw(rng, ranges):
    """Params and world size of one case, as the vectors write them."""
    order = draw_order(rng)
    while True:
        tp, pp, cp, dp = (rng.choice(ranges[k]) for k in ("tp", "pp", "cp", "dp"))
        world = tp * pp * cp * dp
        if 2 <= world <= ranges["max_world"]:
            break
    if not order.lower().endswith("pp") and pp > 1 and rng.random() < 0.75:
        # Megatron needs expert dp == dp here: etp * ep == tp * cp.
        etp = rng.choice(divisors(tp * cp))
        ep = tp * cp // etp
        etp = None if etp == tp and rng.random() < 0.5 else etp
    else:
        etp = None if rng.random() < 0.6 else rng.choice(divisors(world // pp) + [3, 4])
        fits = world % (pp * (etp or tp)) == 0
        base = world // (pp * (etp or tp)) if fits else 1
        ep = rng.choice(divisors(base)) if rng.random() < 0.92 else rng.choice(ranges["any_ep"])
    edp = world // ((etp or tp) * ep * pp) or 1
    instances = 1
    if rng.random() < 0.25:
        shared = divisors(math.gcd(dp * cp, edp))[1:]
        instances = rng.choice(shared) if shared and rng.random() < 0.8 else 3
    hcp = None
    if rng.random() < 0.15:
        hcp = factorization(rng, cp, rng.randint(1, 3))
        if rng.random() < 0.2:
            hcp[0] += 1
        if rng.random() < 0.05:
            hcp = []
    order = complete(rng, order, {"tp": tp, "pp": pp, "cp": cp, "dp": dp, "ep": ep})
    if rng.random() < 0.08:
        world += rng.choice([-1, 1, 2])
    params = dict(zip(PARAM_KEYS, (tp, pp, cp, ep, etp, order, instances, hcp)))
    if rng.random() < 0.03:  # sizes Python takes arithmetically and Megatron does not check
        params[rng.choice(PARAM_KEYS[:5] + PARAM_KEYS[6:7])] = rng.choice([0, -1, -2])
    if rng.random() < 0.06:
        params["virtual_pipeline_model_parallel_size"] = rng.choice([0, 1, 2, 3])
    return params, world


# Draws left out after running them: Megatron accepts them and the library
# refuses them, a difference VIEWS.md decides nothing about (the report
# lists them). A token named twice ("tp-cp-ep-dp-pp-tp"): RankGenerator
# keeps both in ordered_size (get_mask finds the first), so the record
# would have a view with a repeated axis; the library says "names 'tp'
# twice". num_distributed_optimizer_instances < 0: Python's % and // take
# it (-1 behaves as 1), the library says it must be >= 1. Any other size
# below 1 that Megatron accepts (expert_tensor_parallel_size -1 on 56
# ranks: Python's % and // take it, and its RankGenerators leave ranks
# out of every group, so there is no view to record; on_rank stops there):
# the library says it must be >= 1.
def left_out(case):
    if "error" in case:
        return False
    if case.get("accepted_size_below_1"):
        return True
    tokens = case["params"]["order"].lower().split("-")
    return len(set(tokens)) < len(tokens) or \
        case["params"]["num_distributed_optimizer_instances"] < 0


# Fixed cases recorded after the random draws: hierarchical context
# parallel sizes with more levels than a draw makes (Megatron takes any
# number; levels of size 1 make groups of one rank), so more group lists
# than the other names together, and one that does not multiply to cp.
def long_hcp_case(tp, cp, world, hcp):
    return dict(zip(PARAM_KEYS, (tp, 1, cp, 1, None, "tp-cp-ep-dp-pp", 1, hcp))), world


LONG_HCP = [
    long_hcp_case(2, 4, 16, [2] + [1] * 18 + [2]),
    long_hcp_case(1, 6, 12, [1, 3, 1, 1, 2] + [1] * 20),
    long_hcp_case(1, 2, 4, [1] * 39 + [2]),
    long_hcp_case(1, 2, 4, [1] * 17),
]


def check_shared(path):
    with open(path) as f:
        doc = json.load(f)
    for i, want in enumerate(doc["cases"]):
        got = record(dict(want["params"]), want["world_size"])
        want = {k: v for k, v in want.items() if k != "library"}
        if got != want:
            for key in want:
                if got.get(key) != want[key]:
                    print(f"case {i}: {key} differs:\n got  {got.get(key)}\n want {want[key]}",
                          file=sys.stderr)
            raise SystemExit(1)
    print(f"{path}: all {len(doc['cases'])} cases equal", file=sys.stderr)


def drawn_cases(rng, count, ranges):
    """count recorded cases drawn from ranges, and the draws left out."""
    cases, skipped = [], 0
    while len(cases) < count:
        case = record(*draw(rng, ranges), rng)
        if left_out(case):
            skipped += 1
        else:
            cases.append(case)
    return cases, skipped


def main():
    warnings.simplefilter("ignore")
    args = recording.options("megatron", SEED, CASES, WIDE_CASES)
    if args.check_shared:
        return check_shared(args.check_shared)
    rng = random.Random(args.seed)
    narrow, skipped = drawn_cases(rng, args.cases, NARROW)
    wide, skipped_wide = drawn_cases(rng, args.wide_cases, WIDE)
    cases = narrow + [record(params, world) for params, world in LONG_HCP] + wide
    skipped += skipped_wide
    errors = sum("error" in c for c in cases)
    print(f"{len(cases)} cases ({len(cases) - errors} results, {errors} errors), "
          f"{skipped} draws left out", file=sys.stderr)
    recording.write_cases("megatron", args.seed, {"torch": torch.__version__,
                                              "megatron_core": megatron.core.__version__}, cases)


if __name__ == "__main__":
    main()
