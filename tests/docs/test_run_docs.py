"""The docs runner itself (tests/docs/run_docs.py): what it runs, how it
compares, and that a page that is wrong fails it."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_docs  # noqa: E402

BUILD = os.environ.get("OM_BUILD_DIR", "")
FENCE = "```"


@pytest.mark.parametrize("expected,actual,same", [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a"], ["a", "b"], False),
    (["a", "..."], ["a", "b", "c"], True),
    (["...", "c"], ["a", "b", "c"], True),
    (["a", "...", "c"], ["a", "c"], True),
    (['{"dims":{...},"ok":true}'], ['{"dims":{"x":1},"ok":true}'], True),
    (['{"dims":{...},"ok":true}'], ['{"dims":{"x":1},"ok":false}'], False),
    (["a  "], ["a"], True),
    (["x.y"], ["xzy"], False),  # only "..." is a wildcard
])
def test_output_matches(expected, actual, same):
    assert run_docs.output_matches(expected, actual) is same


def page(tmp_path, text):
    (tmp_path / "README.md").write_text(text)
    env = dict(os.environ, OM_DOCS_ROOT=str(tmp_path))
    return subprocess.run([sys.executable, os.path.join(HERE, "run_docs.py"), BUILD],
                          capture_output=True, text=True, env=env, timeout=120)


def test_blocks_and_markers(tmp_path):
    (tmp_path / "p.md").write_text(
        "text\n\n<!-- docs-run: skip: too slow -->\n\n" + FENCE + "sh\nsleep 1000\n" + FENCE + "\n"
        "\n    indented data\n\n- a list\n\n      not code\n\n"
        "  " + FENCE + "console\n  $ echo hi\n  hi\n  " + FENCE + "\n")
    old = run_docs.ROOT
    run_docs.ROOT = str(tmp_path)
    try:
        blocks = run_docs.blocks_of("p.md")
    finally:
        run_docs.ROOT = old
    assert [(b.lang, b.marker) for b in blocks] == [
        ("sh", "docs-run: skip: too slow"), ("", None), ("console", None)]
    assert blocks[2].text == "$ echo hi\nhi\n"
    assert blocks[0].line == 5


def test_a_page_that_runs(tmp_path):
    r = page(tmp_path,
             FENCE + "console\n$ echo one; echo two >&2\none\ntwo\n$ cat made.txt\nline 1\n"
             "line 2\n$ wc -l < made.txt\n2\n$ printf 'a\\nb\\nc\\n'\na\n...\n"
             "$ echo a \\\n  b\na b\n" + FENCE + "\n\n"
             + FENCE + "sh\ntest -f made.txt\n" + FENCE + "\n\n"
             "<!-- docs-run: skip: needs a cluster -->\n" + FENCE + "sh\nexit 1\n" + FENCE + "\n\n"
             + FENCE + "text\nnot run\n" + FENCE + "\n\n"
             "indented, with markers:\n\n<!-- docs-run: sh -->\n\n    test -f made.txt\n\n"
             "<!-- docs-run: skip: a network install -->\n\n    pip install x\n\n"
             "<!-- docs-run: text -->\n\n    rank = offset + k * stride\n")
    assert r.returncode == 0, r.stdout
    assert r.stdout.endswith("docs: 3 ran as shown, 2 not run (with a reason), "
                             "0 failed, 2 data blocks\n")
    assert "skip README.md:" in r.stdout and "needs a cluster" in r.stdout
    assert "a network install" in r.stdout


@pytest.mark.parametrize("block,why", [
    (FENCE + "console\n$ echo one\ntwo\n" + FENCE, "shows:"),
    (FENCE + "console\n$ false\n" + FENCE, "exits 1"),
    (FENCE + "sh\nfalse\n" + FENCE, "exits 1"),
    ("<!-- docs-run: skip -->\n" + FENCE + "sh\ntrue\n" + FENCE, "needs a reason"),
    ("<!-- tested: no/such/file.sh -->\n" + FENCE + "sh\ntrue\n" + FENCE, "does not exist"),
    (FENCE + "go\npackage main\nfunc main() {}\n" + FENCE, "no test runs"),
    (FENCE + "c\nint x;\n" + FENCE, "a C fragment"),
    (FENCE + "rust\nfn main() {}\n" + FENCE, "no rule to run it"),
    (FENCE + "console\nhello\n" + FENCE, "before the first"),
    # a command in a block without a language would never run
    ("    pip install offline-mesh\n", "without a language"),
    (FENCE + "\n$ offline-mesh show --mesh dp=2\n" + FENCE, "without a language"),
    ("<!-- docs-run: sh -->\n\n    false\n", "exits 1"),
])
def test_a_wrong_page_fails(tmp_path, block, why):
    r = page(tmp_path, "intro\n\n" + block + "\n")
    assert r.returncode == 1, r.stdout
    assert "FAIL README.md:" in r.stdout and why in r.stdout, r.stdout
