"""Shared helpers of the offline_mesh test suite: pure-Python reference
computations the library's answers are cross-checked against."""

import itertools
import math
import random

import pytest


def pytest_configure(config):
    # A ConfigWarning a test did not ask for (pytest.warns) means its input
    # is not what the test says: fail instead of printing a summary line.
    config.addinivalue_line("filterwarnings", "error::offline_mesh.ConfigWarning")


class Index:
    """An int-like object (like numpy.int64): has __index__, is not an int."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def ref_rank(shape, coord):
    rank = 0
    for size, c in zip(shape, coord):
        rank = rank * size + c
    return rank


def ref_coordinate(shape, rank):
    coord = []
    for size in reversed(shape):
        coord.append(rank % size)
        rank //= size
    return tuple(reversed(coord))


def ref_groups(shape, selected):
    """Groups over the axis indices `selected`: ranks agreeing on every other
    axis; groups row-major over the other axes, members row-major over the
    selected ones (both in mesh order)."""
    outside = [i for i in range(len(shape)) if i not in selected]
    inside = [i for i in range(len(shape)) if i in selected]
    groups = []
    for out in itertools.product(*(range(shape[i]) for i in outside)):
        members = []
        for ins in itertools.product(*(range(shape[i]) for i in inside)):
            coord = [0] * len(shape)
            for i, c in zip(outside, out):
                coord[i] = c
            for i, c in zip(inside, ins):
                coord[i] = c
            members.append(ref_rank(shape, coord))
        groups.append(tuple(members))
    return groups


def ref_expert_groups(dense, ep):
    ep_groups = [tuple(range(g * ep, (g + 1) * ep)) for g in range(dense // ep)]
    edp_groups = [tuple(range(j, dense, ep)) for j in range(ep)]
    return ep_groups, edp_groups


def ref_locality(groups, ranks_per_host):
    hosts = [len({r // ranks_per_host for r in g}) for g in groups]
    return len(groups), sum(1 for h in hosts if h == 1), max(hosts)


def random_shapes(seed, count, max_ranks=4096, max_ndim=5):
    """Random (names, shape) pairs with at most max_ranks ranks."""
    rng = random.Random(seed)
    pool = ["dp", "cp", "tp", "ep", "pp", "x", "y"]
    out = []
    while len(out) < count:
        ndim = rng.randint(0, max_ndim)
        names = rng.sample(pool, ndim)
        shape = [rng.choice([1, 1, 2, 2, 3, 4, 5, 8]) for _ in range(ndim)]
        if math.prod(shape) <= max_ranks:
            out.append((tuple(names), tuple(shape)))
    return out


@pytest.fixture
def rng():
    return random.Random(20240611)
