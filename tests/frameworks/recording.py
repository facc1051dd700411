"""The command line every tests/frameworks/generate_<stem>.py shares.

    generate_<stem>.py                      prints the recorded cases (JSON)
    generate_<stem>.py --check-shared PATH  re-records PATH's cases, compares
    generate_<stem>.py --seed N --cases N   other draws than the committed
                                            file's (to hunt for disagreements)
    generate_<stem>.py --wide-cases N       how many draws from the wide
                                            ranges follow (0: none)

A generator gives its stem, seed, number of cases, `draw(rng, ranges)` (a
case's params, or None for a draw to skip; ranges is the generator's NARROW
or WIDE table of sizes and world limit), `record(params)` (the case, in the
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


def options(stem, seed, count, wide_count):
    """The command line. The committed file is recorded with the defaults
    (the generator's SEED, CASES and WIDE_CASES): CASES draws from the
    narrow ranges, then WIDE_CASES from the wide ones (sizes 7, 9 and 16,
    worlds of hundreds to thousands of ranks), drawn after them from
    the same generator so that the narrow cases stay the same; --seed,
    --cases and --wide-cases draw other cases, to replay through the
    library in search of disagreements."""
    parser = argparse.ArgumentParser(prog=f"generate_{stem}.py")
    parser.add_argument("--check-shared", metavar="VECTORS.json")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--cases", type=int, default=count)
    parser.add_argument("--wide-cases", type=int, default=wide_count)
    return parser.parse_args()


def draws(args, narrow, wide):
    """The ranges of each draw: args.cases narrow ones, then the wide ones."""
    return [narrow] * args.cases + [wide] * args.wide_cases


def main(stem, seed, counts, draw, record, versions, answer, ranges):
    """Run the generator's command line; the exit status. counts: CASES
    and WIDE_CASES; ranges: NARROW and WIDE."""
    args = options(stem, seed, *counts)
    if args.check_shared:
        return check_shared(args.check_shared, record, answer)
    rng = random.Random(args.seed)
    cases, seen = [], set()
    for limits in draws(args, *ranges):
        params = None
        while params is None or json.dumps(params) in seen:
            params = draw(rng, limits)
        seen.add(json.dumps(params))
        cases.append(record(params))
    write_cases(stem, args.seed, versions, cases)
    return 0


def layout_options(script, seed, count, max_world):
    """The command line of tests/torch_layout/generate*.py: [CASES],
    --seed and --max-world (the committed file's by default; others, to
    hunt for disagreements)."""
    parser = argparse.ArgumentParser(prog=script)
    parser.add_argument("cases", nargs="?", type=int, default=count)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--max-world", type=int, default=max_world)
    return parser.parse_args()


def write_layout(script, seed, torch_version, cases):
    """Prints a torch layout document (tests/torch_layout/)."""
    json.dump({"preset": "layout", "versions": {"torch": torch_version,
                                                "python": platform.python_version()},
               "generator": f"tests/torch_layout/{script}, seed {seed}", "cases": cases},
              sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


def write_cases(stem, seed, versions, cases):
    """Prints the recorded document: the versions that ran (and Python's),
    the generator with its seed, the cases."""
    json.dump({"preset": stem,
               "versions": dict(versions, python=platform.python_version()),
               "generator": f"tests/frameworks/generate_{stem}.py, seed {seed}",
               "cases": cases}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
