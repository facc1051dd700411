"""Megatron and DeepSpeed presets against restatements of the frameworks'
group algorithms, on many configurations the vectors do not hold.

The restatements below follow the published algorithms (Megatron's
RankGenerator / masked orthogonal rank groups and create_hierarchical_groups;
DeepSpeed's _get_expert_parallel_ranks), written independently of the C
code, so a disagreement points at one of the two.
"""
import itertools
import json
import math
import os
import random
import subprocess

import pytest

CLI = os.environ.get("OFFLINE_MESH_CLI", "offline-mesh")


def views(preset, world, **params):
    args = [CLI, "views", "--preset", preset, "--world-size", str(world)]
    for key, value in params.items():
        args += ["--param", f"{key}={json.dumps(value)}"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        assert r.returncode == 1 and r.stdout == "", r.stderr
        return None
    return json.loads(r.stdout)


# ---- Megatron ----

def mixed_radix(index, sizes):
    """Digits of index, first size fastest."""
    digits = []
    for s in sizes:
        digits.append(index % s)
        index //= s
    return digits


def orthogonal_groups(world, sizes, mask):
    """Groups over the masked tokens: every combination of the unmasked
    digits (first token fastest) picks a group; the masked digits (first
    token fastest) enumerate its members."""
    strides = [math.prod(sizes[:i]) for i in range(len(sizes))]
    inside = [i for i, m in enumerate(mask) if m]
    outside = [i for i, m in enumerate(mask) if not m]
    size = math.prod(sizes[i] for i in inside)
    groups = []
    for g in range(world // size):
        base = sum(d * strides[i] for d, i in
                   zip(mixed_radix(g, [sizes[i] for i in outside]), outside))
        groups.append([base + sum(d * strides[i] for d, i in
                                  zip(mixed_radix(m, [sizes[i] for i in inside]),
                                      inside))
                       for m in range(size)])
    return groups


class Generator:
    def __init__(self, order, **sizes):
        order = order.lower()
        for name in ("tp", "pp", "dp", "ep", "cp"):
            if name not in order:
                if sizes[name] != 1:
                    raise ValueError(name)
                order += "-" + name
        self.tokens = order.split("-")
        self.sizes = [sizes[t] for t in self.tokens]
        self.world = math.prod(self.sizes)

    def ranks(self, token):
        wanted = token.split("-")
        return orthogonal_groups(self.world, self.sizes,
                                 [t in wanted for t in self.tokens])


def hierarchical(ranks, sizes):
    levels = []
    done = 1
    for s in sizes:
        acc = done * s
        levels.append([[ranks[j + i * done + k * acc] for i in range(s)]
                       for k in range(len(ranks) // acc) for j in range(done)])
        done = acc
    return levels


def megatron_groups(world, tp, pp, cp, ep, etp, order, n, hcp):
    if world % (tp * pp * cp):
        return None
    dp = world // (tp * pp * cp)
    etp = tp if etp is None else etp
    try:
        dense = Generator(order, tp=tp, ep=1, dp=dp, pp=pp, cp=cp)
        if world % (etp * ep * pp):
            return None
        edp = world // (etp * ep * pp)
        expert = Generator(order, tp=etp, ep=ep, dp=edp, pp=pp, cp=1)
    except ValueError:
        return None
    if not (order.endswith("pp") or pp == 1 or edp == dp):
        return None
    if dense.ranks("pp") != expert.ranks("pp"):
        return None
    if (dp * cp) % n or edp % n or (hcp and math.prod(hcp) != cp):
        return None
    g = {"dp_cp": dense.ranks("dp-cp")}
    if n > 1:
        size = dp * cp // n
        g["intra_dp_cp"] = [r[i * size:(i + 1) * size]
                            for r in g["dp_cp"] for i in range(n)]
    g["dp"] = dense.ranks("dp")
    g["cp"] = dense.ranks("cp")
    if hcp:
        per_group = [hierarchical(r, hcp) for r in g["cp"]]
        for level in range(len(hcp)):
            g[f"hcp[{level}]"] = [x for p in per_group for x in p[level]]
    g["mp"] = dense.ranks("tp-pp")
    g["tp"] = dense.ranks("tp")
    g["pp"] = dense.ranks("pp")
    g["embd"] = [[r[0], r[-1]] if len(r) > 1 else r for r in g["pp"]]
    g["pos_embd"] = [[r[0]] for r in g["pp"]]
    g["tp_dp_cp"] = dense.ranks("tp-dp-cp")
    g["tp_dp"] = dense.ranks("tp-dp")
    g["tp_cp"] = dense.ranks("tp-cp")
    g["ep"] = expert.ranks("ep")
    g["expt_tp"] = expert.ranks("tp")
    g["tp_ep"] = expert.ranks("tp-ep")
    g["tp_ep_pp"] = expert.ranks("tp-ep-pp")
    g["expt_dp"] = expert.ranks("dp")
    if n > 1:
        per_group = [hierarchical(r, [edp // n, n]) for r in g["expt_dp"]]
        g["intra_expt_dp"] = [x for p in per_group for x in p[0]]
        g["inter_dist_opt"] = [x for p in per_group for x in p[1]]
    joined = edp // n
    tep = g["tp_ep_pp"]
    g["intra_dist_opt"] = [sum(tep[i:i + joined], []) for i in range(0, len(tep), joined)]
    return g


ORDERS = ["tp-cp-ep-dp-pp", "tp-ep-cp-dp-pp", "tp-dp-pp", "tp-pp-dp",
          "tp-cp-ep-pp-dp", "tp-cp-dp-ep-pp", "cp-tp-dp-ep-pp", "tp-cp-pp-ep-dp"]


def megatron_configs():
    rng = random.Random(20261201)
    configs = []
    while len(configs) < 120:
        tp, pp, cp, ep = (rng.choice([1, 1, 2, 3, 4]) for _ in range(4))
        etp = rng.choice([None, None, 1, 2])
        dp = rng.choice([1, 2, 3, 4])
        world = tp * pp * cp * dp * rng.choice([1, 1, 1, 2])
        n = rng.choice([1, 1, 2])
        hcp = [2, cp // 2] if cp == 4 and rng.random() < 0.5 else None
        order = rng.choice(ORDERS)
        configs.append((world, tp, pp, cp, ep, etp, order, n, hcp))
    return configs


@pytest.mark.parametrize("config", megatron_configs())
def test_megatron_against_restatement(config):
    world, tp, pp, cp, ep, etp, order, n, hcp = config
    want = megatron_groups(*config)
    got = views("megatron", world, tensor_model_parallel_size=tp,
                pipeline_model_parallel_size=pp, context_parallel_size=cp,
                expert_model_parallel_size=ep, expert_tensor_parallel_size=etp,
                order=order, num_distributed_optimizer_instances=n,
                hierarchical_context_parallel_sizes=hcp)
    if want is None:
        assert got is None
        return
    assert got is not None
    assert got["groups"] == want
    # Each generator view's axis groups are Megatron's single-token groups.
    dp, edp = world // (tp * pp * cp), world // ((etp or tp) * ep * pp)
    generators = {"dense": Generator(order, tp=tp, ep=1, dp=dp, pp=pp, cp=cp),
                  "expert": Generator(order, tp=etp or tp, ep=ep, dp=edp, pp=pp, cp=1)}
    for name, generator in generators.items():
        view = got["views"][name]
        assert view["dim_names"] == list(reversed(generator.tokens))
        assert view["shape"] == list(reversed(generator.sizes))
        for token in generator.tokens:
            assert view["groups"][token] == generator.ranks(token)


# ---- DeepSpeed ----

def deepspeed_groups(world, tp, ep, pp, data_first):
    if world % (tp * pp) or (world // (tp * pp)) % ep:
        return None
    dp_world = world // (tp * pp)
    stage = world // pp
    dp_groups = []
    for start in range(0, world, stage):
        for i in range(tp):
            if data_first:
                stride = world // ep // tp // pp
                members = []
                for d in range(stride):
                    members += list(range(start + i + d * tp, start + stage, stride * tp))
                dp_groups.append(members)
            else:
                dp_groups.append(list(range(start + i, start + stage, tp)))
    ep_groups, edp_groups = [], []
    for members in dp_groups:
        parts = [members[i:i + ep] for i in range(0, dp_world, ep)]
        ep_groups += parts
        edp_groups += [list(x) for x in zip(*parts)]
    return {"ep": ep_groups, "expt_dp": edp_groups}


@pytest.mark.parametrize("world,tp,ep,pp,data_first", [
    c for c in itertools.product([4, 8, 12, 16, 24, 36], [1, 2, 3], [1, 2, 3, 4],
                                 [1, 2, 3], [False, True])
    if (c[0] * c[1] * c[2] * c[3]) % 5 != 1][::3])
def test_deepspeed_against_restatement(world, tp, ep, pp, data_first):
    want = deepspeed_groups(world, tp, ep, pp, data_first)
    got = views("deepspeed", world, tensor_parallel_size_=tp, expert_parallel_size_=ep,
                pipeline_parallel_size_=pp, use_data_before_expert_parallel_=data_first)
    if want is None:
        assert got is None
        return
    assert got["groups"] == want
