"""The command line every tests/frameworks/generate_<stem>.py shares.

    generate_<stem>.py                      prints the recorded cases (JSON)
    generate_<stem>.py --check-shared PATH  re-records PATH's cases, compares
    generate_<stem>.py --seed N --cases N   other draws than the committed
                                            file's (to hunt for disagreements)

A generator gives its stem, seed, number of cases, `draw(rng)` (a case's
params, or None for a draw to skip), `record(params)` (the case, in the
vectors' format) and the versions it ran; duplicate draws are skipped.
normal_form() is the vectors' "layout" of one axis of a torch mesh (used by
tests/torch_layout/generate.py too).
"""
import argparse
import json
import platform
import random
import sys


def normal_form(flat_layout):
    """An axis's (size, stride) modes (a torch _FlatLayout) in normal form:
    size-1 modes dropped, neighbours that continue each other merged."""
    modes = []
    for size, stride in flat_layout.sizes_and_strides:
        if size == 1:
            continue
        if modes and modes[-1][1] == size * stride:
            modes[-1] = [modes[-1][0] * size, stride]
        else:
            modes.append([size, stride])
    return modes


def check_shared(path, record, answer):
    """0 when every case of the vector file at `path` equals what `record`
    gives for its params (the steering team's `library` note aside)."""
    with open(path) as f:
        doc = json.load(f)
    for i, case in enumerate(doc["cases"]):
        want = {k: v for k, v in case.items() if k != "library"}
        got = record(case["params"])
        if got != want:
            print(f"case {i} differs:\n  vector: {json.dumps(want)}\n  "
                  f"recorded: {json.dumps(got)}", file=sys.stderr)
            return 1
    print(f"{len(doc['cases'])} cases of {path} equal what {answer} gives",
          file=sys.stderr)
    return 0


def options(stem, seed, count):
    """The command line. The committed file is recorded with the defaults
    (the generator's SEED and CASES); --seed and --cases draw other cases,
    to replay through the library in search of disagreements."""
    parser = argparse.ArgumentParser(prog=f"generate_{stem}.py")
    parser.add_argument("--check-shared", metavar="VECTORS.json")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--cases", type=int, default=count)
    return parser.parse_args()


def main(stem, seed, count, draw, record, versions, answer):
    """Run the generator's command line; the exit status."""
    args = options(stem, seed, count)
    if args.check_shared:
        return check_shared(args.check_shared, record, answer)
    rng = random.Random(args.seed)
    cases, seen = [], set()
    while len(cases) < args.cases:
        params = draw(rng)
        if params is None or json.dumps(params) in seen:
            continue
        seen.add(json.dumps(params))
        cases.append(record(params))
    write_cases(stem, args.seed, versions, cases)
    return 0


def write_cases(stem, seed, versions, cases):
    """Prints the recorded document: the versions that ran (and Python's),
    the generator with its seed, the cases."""
    json.dump({"preset": stem,
               "versions": dict(versions, python=platform.python_version()),
               "generator": f"tests/frameworks/generate_{stem}.py, seed {seed}",
               "cases": cases}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
