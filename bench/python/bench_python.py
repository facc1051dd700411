#!/usr/bin/env python3
"""Speed of the offline_mesh Python package against what it replaces.

  python3 bench/python/bench_python.py [--instructions] [--quick]
                                                (pip install . numpy first)

Prints, from one run:
  * the per-call time of OfflineMesh's hot paths next to a plain frozen
    dataclass doing the same work in pure Python (the original
    implementation's shape), and their ratio, which must be <= 1.0;
  * the time to build all process groups of a 2**20-rank mesh
    (dp=2048, cp=8, tp=8, pp=8) as one (ngroups, group_size) table with
    groups_buffer(), next to the cheapest fair NumPy recipe: the int32
    rank grid np.arange(n, dtype=np.int32).reshape(shape) built ONCE,
    outside the timing, then per call grid.swapaxes(k, -1).reshape(-1, m)
    (moveaxis for several axes), which copies the table; and the speed-up.
    Both sides allocate their table there. The "into" columns time the
    same tables written into a prepared int32 array by both sides, with no
    allocation: groups_buffer(dims, out=array) against
    np.copyto(out.reshape(moved.shape), moved), moved being
    np.moveaxis(grid, axes, last) (one strided copy); every table of both
    sides is checked equal to the expected one after the timing.
    The "into" speed-up must be >= 10 for the single-axis DP, CP and TP
    groups of the 2**20-rank mesh (the strided tables that recipe is
    written for). Then the same for an awkward mesh (a prime and odd axis
    lengths) and an in-cache one (2**16 ranks), reported, not required.
    Under each mesh: the floor of a table of its size, writing that many
    int32 into new memory (np.ones) and into a prepared array (fill).
    Per row, "bound" is NumPy's "into" time over a fill of the same
    prepared array (timed alternating with both sides): no writer of the
    table can beat NumPy by more than that on this machine. The other rows are reported as measured: where NumPy's copy is (close to)
    sequential both sides are memory-bound; for the last axis NumPy's
    allocating recipe is a free view of the prebuilt grid.
With --instructions, also the instructions per call of the required
per-call rows on both sides, counted with valgrind's callgrind (the same
on a busy machine and a quiet one); not a pass criterion.
Exits 1 when a required ratio does not hold. Timings are the best of
several repeats (timeit), the repeats of the two sides of a ratio
alternating, so a busy machine inflates both sides alike.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import platform
import re
import subprocess
import sys
import timeit
from typing import Tuple

import offline_mesh
from offline_mesh import OfflineMesh, ParallelDimsSpec, build_offline_mesh

# ---- the pure-Python reference: what planners used before -----------------


@dataclasses.dataclass(frozen=True)
class RefMesh:
    """The frozen dataclass the package replaces, reduced to its logic."""

    mesh_dim_names: Tuple[str, ...] = ()
    mesh_shape: Tuple[int, ...] = ()

    @property
    def ndim(self) -> int:
        return len(self.mesh_dim_names)

    def size(self, dim=None) -> int:
        if dim is None:
            return math.prod(self.mesh_shape)
        if dim in self.mesh_dim_names:
            return self.mesh_shape[self.mesh_dim_names.index(dim)]
        return 1

    def __getitem__(self, dim: str) -> "RefMesh":
        if dim not in self.mesh_dim_names:
            return RefMesh()
        return RefMesh((dim,), (self.mesh_shape[self.mesh_dim_names.index(dim)],))


@dataclasses.dataclass(frozen=True)
class CheckedRefMesh(RefMesh):
    """The same, also validating what OfflineMesh validates (types,
    lengths, empty/duplicate names, sizes >= 1, total <= 2**31-1)."""

    def __post_init__(self):
        names = tuple(self.mesh_dim_names)
        shape = tuple(self.mesh_shape)
        if not all(isinstance(n, str) for n in names):
            raise TypeError("mesh_dim_names must be str")
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
            raise TypeError("mesh_shape must be int")
        if len(names) != len(shape):
            raise ValueError("length mismatch")
        if "" in names or len(set(names)) != len(names):
            raise ValueError("empty or duplicate name")
        if any(s < 1 for s in shape) or math.prod(shape) > 2**31 - 1:
            raise ValueError("bad size")
        object.__setattr__(self, "mesh_dim_names", names)
        object.__setattr__(self, "mesh_shape", shape)


def ref_build_offline_mesh(spec) -> RefMesh:
    names, shape = [], []
    for name, size in (("dp", spec.dp_size), ("cp", spec.cp_size),
                       ("tp", spec.tp_size)):
        if size >= 1:
            names.append(name)
            shape.append(size)
    if spec.pp_size > 1:
        names.append("pp")
        shape.append(spec.pp_size)
    return RefMesh(tuple(names), tuple(shape))


# ---- measurement ------------------------------------------------------------


def best_of(timers, number: int, repeat: int):
    """Per timer, its best time per call (s): the repeats of the timers
    alternate, so a busy machine slows both sides of a ratio alike."""
    best = [math.inf] * len(timers)
    for _ in range(repeat):
        for i, timer in enumerate(timers):
            best[i] = min(best[i], timer.timeit(number) / number)
    return best


def per_call_ns(ours: str, theirs: str, env: dict, number: int, repeat: int):
    timers = [timeit.Timer(stmt, globals=env) for stmt in (ours, theirs)]
    return [t * 1e9 for t in best_of(timers, number, repeat)]


def per_call_us(*funcs, number: int, repeat: int):
    return [t * 1e6 for t in best_of([timeit.Timer(f) for f in funcs], number, repeat)]


def scalar_cases():
    """The environment of the per-call statements and the cases:
    (label, ours, reference, required)."""
    spec = ParallelDimsSpec(dp_size=8, cp_size=2, tp_size=4, pp_size=2)
    mesh = build_offline_mesh(spec)
    ref = ref_build_offline_mesh(spec)
    assert mesh.mesh_dim_names == ref.mesh_dim_names
    assert mesh.mesh_shape == ref.mesh_shape
    env = {"mesh": mesh, "ref": ref, "spec": spec, "OfflineMesh": OfflineMesh,
           "RefMesh": RefMesh, "CheckedRefMesh": CheckedRefMesh,
           "build_offline_mesh": build_offline_mesh,
           "ref_build_offline_mesh": ref_build_offline_mesh}
    # (label, ours, reference, required)
    cases = [
        ("mesh.mesh_dim_names", "mesh.mesh_dim_names", "ref.mesh_dim_names", True),
        ("mesh.mesh_shape", "mesh.mesh_shape", "ref.mesh_shape", True),
        ("mesh.size()", "mesh.size()", "ref.size()", True),
        ('mesh.size("tp")', 'mesh.size("tp")', 'ref.size("tp")', True),
        ('mesh["tp"]', 'mesh["tp"]', 'ref["tp"]', True),
        ("build_offline_mesh(spec)", "build_offline_mesh(spec)",
         "ref_build_offline_mesh(spec)", True),
        ("OfflineMesh(names, shape)", 'OfflineMesh(("dp", "tp"), (2, 4))',
         'RefMesh(("dp", "tp"), (2, 4))', True),
        ("  ... vs a validating dataclass", 'OfflineMesh(("dp", "tp"), (2, 4))',
         'CheckedRefMesh(("dp", "tp"), (2, 4))', False),
        ('mesh.size("ep")  (absent axis)', 'mesh.size("ep")', 'ref.size("ep")', False),
        ('mesh["dp", "tp"]', 'mesh["dp", "tp"]', 'RefMesh(("dp", "tp"), (8, 4))', False),
        ("mesh.ndim", "mesh.ndim", "ref.ndim", False),
        ("hash(mesh)", "hash(mesh)", "hash(ref)", False),
        ("mesh == mesh", "mesh == mesh", "ref == ref", False),
    ]
    return env, cases


def scalar_rows(number: int, repeat: int):
    env, cases = scalar_cases()
    for label, ours, theirs, required in cases:
        a, b = per_call_ns(ours, theirs, env, number, repeat)
        yield label, a, b, required


# (title, spec, rows required): the 2**20-rank mesh of the requirement; an
# awkward one (a prime and odd axis lengths, 1,027,656 ranks); an in-cache
# one (2**16 ranks: a 256 KiB table).
SHAPES = [
    ("dp=2048,cp=8,tp=8,pp=8", ParallelDimsSpec(dp_size=2048, cp_size=8, tp_size=8, pp_size=8), True),
    ("dp=2039,cp=7,tp=9,pp=8", ParallelDimsSpec(dp_size=2039, cp_size=7, tp_size=9, pp_size=8), False),
    ("dp=128,cp=8,tp=8,pp=8", ParallelDimsSpec(dp_size=128, cp_size=8, tp_size=8, pp_size=8), False),
]
# (dims, required): single axes and two multi-axis sets
BULK_CASES = [(("dp",), True), (("cp",), True), (("tp",), True),
              (("pp",), False), (("dp", "cp"), False), (("cp", "tp"), False)]


def bulk_rows(spec, number: int, repeat: int):
    """Per axis set: (dims, table shape, NumPy's recipe is a free view,
    ours and NumPy's time allocating the table, ours and NumPy's time
    writing it into a prepared int32 array)."""
    import numpy as np

    mesh = build_offline_mesh(spec)
    names, shape = mesh.mesh_dim_names, mesh.mesh_shape
    world = mesh.size()
    grid = np.arange(world, dtype=np.int32).reshape(shape)  # built once
    for dims, required in BULK_CASES:
        axes = [names.index(d) for d in dims]
        n = math.prod(shape[k] for k in axes)
        last = list(range(len(shape) - len(axes), len(shape)))

        def ours(dims=dims):
            return mesh.groups_buffer(dims)

        if len(axes) == 1:
            def numpy_recipe(k=axes[0], n=n):
                return grid.swapaxes(k, -1).reshape(-1, n)
        else:
            def numpy_recipe(axes=axes, last=last, n=n):
                return np.moveaxis(grid, axes, last).reshape(-1, n)

        # The same table with the other axes kept in mesh order (moveaxis;
        # swapaxes permutes them, at the same cost).
        expected = np.moveaxis(grid, axes, last).reshape(-1, n)
        assert (np.asarray(ours()) == expected).all(), dims
        # (swapaxes lists the other axes' groups in another order)
        assert np.array_equal(np.unique(numpy_recipe(), axis=0),
                              np.unique(expected, axis=0)), dims
        t_ours, t_numpy = per_call_us(ours, numpy_recipe, number=number, repeat=repeat)
        view = np.shares_memory(numpy_recipe(), grid)  # a free view of the grid

        # Without allocation: both sides write the table into a prepared
        # int32 array (NumPy: one strided copy, np.copyto from the moved
        # view of the grid into the destination seen in that shape).
        out_ours = np.full(expected.shape, -1, dtype=np.int32)
        out_numpy = np.full(expected.shape, -1, dtype=np.int32)

        def ours_into(dims=dims, out=out_ours):
            return mesh.groups_buffer(dims, out=out)

        def numpy_into(axes=axes, last=last, out=out_numpy):
            moved = np.moveaxis(grid, axes, last)
            np.copyto(out.reshape(moved.shape), moved)
            return out

        # The fastest any writer of this table can be: a fill of the same
        # prepared array, no value computed (timed alternating with both).
        out_fill = np.empty(expected.shape, dtype=np.int32)
        t_ours_into, t_numpy_into, t_fill = per_call_us(ours_into, numpy_into,
                                                        lambda: out_fill.fill(1),
                                                        number=number, repeat=repeat)
        assert np.array_equal(out_ours, expected) and np.array_equal(out_numpy, expected), dims
        assert (out_fill == 1).all()
        yield (",".join(dims), expected.shape, required, view,
               t_ours, t_numpy, t_ours_into, t_numpy_into, t_fill)


def instruction_rows(calls: int = 100_000):
    """Per required case, the instructions per call of both sides, counted
    by valgrind's callgrind (load does not change them): the count of a
    run looping `calls` times over the statement minus that of the same
    loop over `pass`, over `calls` (a fixed hash seed, so both runs start
    alike)."""
    def count(stmt: str) -> int:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, __file__, "--loop", stmt, str(calls)],
                             capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONHASHSEED="0"))
        return int(re.search(r"Collected : (\d+)", run.stderr).group(1))

    empty = count("pass")
    for label, ours, theirs, required in scalar_cases()[1]:
        if required:
            a, b = ((count(stmt) - empty) / calls for stmt in (ours, theirs))
            yield label, a, b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer iterations (a smoke run, noisier)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions per call of the required "
                             "per-call rows (valgrind's callgrind; load-independent)")
    parser.add_argument("--loop", nargs=2, metavar=("STMT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.loop:  # (the program callgrind counts for --instructions)
        env = scalar_cases()[0]
        exec(compile(f"for _ in range({int(args.loop[1])}):\n    {args.loop[0]}\n", "loop", "exec"), env)
        return 0
    number, repeat = (20_000, 3) if args.quick else (200_000, 7)
    bulk_number, bulk_repeat = (3, 3) if args.quick else (10, 7)

    print(f"offline_mesh {offline_mesh.__version__} "
          f"({os.path.dirname(offline_mesh.__file__)})")
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs")
    failures = 0

    print()
    print(f"{'per call':34s} {'offline_mesh':>12s} {'dataclass':>10s} {'ratio':>7s}")
    for label, ours, theirs, required in scalar_rows(number, repeat):
        ratio = ours / theirs
        verdict = ""
        if required:
            verdict = "ok (<= 1.0)" if ratio <= 1.0 else "FAIL (> 1.0)"
            failures += ratio > 1.0
        print(f"{label:34s} {ours:9.1f} ns {theirs:7.1f} ns {ratio:7.2f}  {verdict}")

    if args.instructions:
        print()
        print(f"{'instructions per call':34s} {'offline_mesh':>12s} {'dataclass':>10s} {'ratio':>7s}")
        for label, ours, theirs in instruction_rows():
            print(f"{label:34s} {ours:12.0f} {theirs:10.0f} {ours / theirs:7.2f}")

    print()
    try:
        import numpy as np
    except ImportError:
        print("bulk groups: skipped (pip install numpy)")
        return 1 if failures else 0
    print(f"bulk groups, numpy {np.__version__}: groups_buffer(dims) against the NumPy recipe, "
          "both allocating the table;")
    print("'into': groups_buffer(dims, out=array) against np.copyto into a prepared array, "
          "both writing without allocation;")
    print("'bound': NumPy's 'into' time over a fill of the same array, the most any writer "
          "of the table could gain")
    for title, spec, shape_required in SHAPES:
        print()
        print(f"{title} ({math.prod(build_offline_mesh(spec).mesh_shape)} ranks"
              f"{'' if shape_required else ', reported, not required'})")
        print(f"{'groups over':26s} {'groups_buffer':>13s} {'numpy':>8s} {'speed-up':>9s}"
              f" {'into':>9s} {'numpy':>8s} {'speed-up':>9s} {'bound':>6s}")
        for (dims, (g, m), required, view, ours, theirs, ours_into,
             theirs_into, fill) in bulk_rows(spec, bulk_number, bulk_repeat):
            speedup, speedup_into, bound = theirs / ours, theirs_into / ours_into, theirs_into / fill
            if required and shape_required:
                verdict = "ok (into >= 10x)" if speedup_into >= 10 else "FAIL (into < 10x)"
                if speedup_into < 10 and bound < 10:
                    verdict += "; a plain fill is only the bound faster than NumPy"
                failures += speedup_into < 10
            elif view:
                verdict = "info: NumPy's recipe is a free view here"
            else:
                verdict = "info"
            label = f'"{dims}" ({g} x {m})'
            print(f"{label:26s} {ours:10.0f} us {theirs:5.0f} us {speedup:8.1f}x"
                  f" {ours_into:6.0f} us {theirs_into:5.0f} us {speedup_into:8.1f}x {bound:5.1f}x"
                  f"  {verdict}")
        # The floor of a fresh table of this size: writing it into new
        # memory (what an allocating call must do at least), timed the same way.
        world = math.prod(build_offline_mesh(spec).mesh_shape)
        warm = np.empty(world, dtype=np.int32)
        floor, fill = per_call_us(lambda: np.ones(world, dtype=np.int32), lambda: warm.fill(1),
                                  number=bulk_number, repeat=bulk_repeat)
        print(f"{'(floor: np.ones, new memory)':26s} {floor:10.0f} us"
              f"   (into: fill of a prepared array {fill:.0f} us)")

    print()
    print("all required ratios hold" if not failures
          else f"{failures} required ratio(s) do not hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
