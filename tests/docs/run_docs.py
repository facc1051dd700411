#!/usr/bin/env python3
"""Docs that run: every shell and code example of README.md and docs/*.md
is run as written, and what it prints is compared with what the page shows.

Usage: run_docs.py BUILD_DIR [--python PYTHON] [FILE.md...]

What is run, by the block's language (the info string of a ``` fence, or
the `docs-run: LANG` marker before it; an indented code block has only the
marker):

  console     each `$ command` line (a trailing backslash continues it) is run
              with bash; the lines after it, up to the next `$`, are what it
              must print: its standard output, then its standard error. In
              those lines `...` alone matches any number of lines, and `...`
              inside a line matches any text. A command showing no output
              must exit 0. `$ cat FILE` where FILE does not exist yet
              creates FILE from the lines shown, so a page can show the file
              its next commands read.
  sh, bash    the whole block as one bash script (set -e); it must exit 0.
  python      with `>>>` lines: a doctest (ELLIPSIS on); otherwise a script
              that must exit 0. PYTHONPATH comes from --python's package.
  c           compiled against the build (headers and liboffline_mesh) and
              run; it must exit 0.
  go, java    full programs are run by the binding's own suite
              (bindings/go|java/run-tests.sh extracts the block after an
              `<!-- NAME -->` comment with `doc_block NAME` and compares its
              output); any other Go or Java block must carry a marker.
  text, json, xml, yaml, cmake, ini, toml, diff: data the page shows, not an
              example; not run.
  none        (an indented block or a bare ``` fence) fails: a command there
              would silently never run. Give it a language (`docs-run: sh`,
              `docs-run: text` for data) or a skip or tested marker.

Markers: an HTML comment on the line(s) just before a block (blank lines
between are fine):

  <!-- docs-run: skip: REASON -->   not runnable as written, and why
                                      (a network install, an install as
                                      root, an hour-long fuzz run, ...);
                                      printed as `skip PAGE:LINE: REASON`
  <!-- docs-run: LANG -->           the language of a block without one
  <!-- tested: WHERE -->            run by another test, WHERE (a path in the
                                      repository, which must exist)

Every block runs in a scratch directory of its page (shared by the page's
blocks, in order) holding links to the repository's top-level entries, with
the build's offline-mesh first on PATH and no world-size variables set.

Every failing block fails the run: there is no list of known failures.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import functools

print = functools.partial(print, flush=True)  # progress shows as it goes

# The repository whose pages are run (OM_DOCS_ROOT: another tree, for the
# runner's own tests).
ROOT = os.environ.get("OM_DOCS_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORLD_VARS = ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS")
TIMEOUT = 120
DATA_LANGS = {"text", "json", "xml", "yaml", "cmake", "ini", "toml", "diff"}
SHELL_LANGS = {"sh", "bash", "shell"}
FENCE = re.compile(r"^( {0,3})(```+|~~~+)\s*([\w+-]*)")
MARKER = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$")


class Block:
    def __init__(self, page, line, lang, text, marker):
        self.page, self.line, self.lang, self.text = page, line, lang, text
        self.marker = marker  # the comment just before, or None
        self.digest = hashlib.sha1(text.encode()).hexdigest()[:10]

    def where(self):
        return "%s:%d (%s, %s)" % (self.page, self.line, self.lang or "no language",
                                   self.digest)


def blocks_of(page):
    """Fenced and indented code blocks of a Markdown page, with markers."""
    lines = open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n")
    out = []
    i = 0
    marker = None          # last comment seen, kept across blank lines
    prev_blank = True
    in_list = False        # indented text continues a list item, not code
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
                i += 1
            out.append(Block(page, i - len(body), lang, "\n".join(body) + "\n", marker))
            marker, prev_blank = None, False
            i += 1
            continue
        if line.startswith("    ") and prev_blank and not in_list:
            start = i
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or lines[i].strip() == ""):
                body.append(lines[i][4:])
                i += 1
            while body and body[-1].strip() == "":
                body.pop()
            out.append(Block(page, start + 1, "", "\n".join(body) + "\n", marker))
            marker, prev_blank = None, True
            continue
        mm = MARKER.match(line)
        if mm:
            marker = mm.group(1)
        elif line.strip():
            marker = None
            if re.match(r"^\s*([-*+]|\d+\.)\s", line):
                in_list = True
            elif not line.startswith(" "):
                in_list = False
        prev_blank = line.strip() == ""
        i += 1
    return out


# ---- comparing what is printed with what the page shows ----

def line_matches(pattern, text):
    parts = [re.escape(p) for p in pattern.rstrip().split("...")]
    return re.fullmatch(".*".join(parts), text.rstrip()) is not None


def output_matches(expected, actual):
    """`...` alone matches any run of lines, inside a line any text."""
    exp = [e for e in expected]
    act = actual
    memo = {}

    def match(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(exp):
            result = j == len(act)
        elif exp[i].strip() == "...":
            result = any(match(i + 1, k) for k in range(j, len(act) + 1))
        else:
            result = j < len(act) and line_matches(exp[i], act[j]) and match(i + 1, j + 1)
        memo[key] = result
        return result

    return match(0, 0)


# ---- running one block ----

class Runner:
    def __init__(self, build, python):
        self.build = os.path.abspath(build)
        self.python = python
        self.env = {k: v for k, v in os.environ.items() if k not in WORLD_VARS}
        cli = os.path.join(self.build, "src", "cli")
        self.env["PATH"] = cli + os.pathsep + self.env.get("PATH", "")
        self.env["NO_COLOR"] = "1"
        self.env.pop("OFFLINE_MESH_COLOR", None)
        self.scratch = {}

    def workdir(self, page):
        if page not in self.scratch:
            d = tempfile.mkdtemp(prefix="docs-run-")
            for name in os.listdir(ROOT):
                if not name.startswith(".") and not name.startswith("build"):
                    os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
            self.scratch[page] = d
        return self.scratch[page]

    def sh(self, script, cwd, separate=False):
        return subprocess.run(["bash", "-o", "pipefail", "-c", script], cwd=cwd,
                              env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE if separate else subprocess.STDOUT,
                              text=True, timeout=TIMEOUT)

    def console(self, block, cwd):
        commands = []  # (command, expected lines)
        lines = block.text.rstrip("\n").split("\n")
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                return "text before the first `$ ` line: %r" % lines[i]
            cmd = lines[i][2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd += "\n" + lines[i]  # bash joins the lines itself
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            commands.append((cmd, shown))
        for cmd, shown in commands:
            m = re.fullmatch(r"cat (\S+)", cmd.strip())
            if m and not os.path.lexists(os.path.join(cwd, m.group(1))):
                with open(os.path.join(cwd, m.group(1)), "w") as f:
                    f.write("\n".join(shown) + "\n")
                continue
            r = self.sh(cmd, cwd, separate=True)
            # The page shows what the command writes, then its error lines.
            got = [l for out in (r.stdout, r.stderr) if out
                   for l in out.rstrip("\n").split("\n")]
            if shown and not output_matches(shown, got):
                return "$ %s\n  shows:\n    %s\n  prints (exit %d):\n    %s" % (
                    cmd, "\n    ".join(shown), r.returncode, "\n    ".join(got[:40]))
            if not shown and r.returncode != 0:
                return "$ %s\n  exits %d:\n    %s" % (cmd, r.returncode,
                                                     "\n    ".join(got[:20]))
        return None

    def script(self, block, cwd):
        r = self.sh("set -e\n" + block.text, cwd)
        if r.returncode != 0:
            return "exits %d:\n    %s" % (r.returncode, "\n    ".join(r.stdout.splitlines()[-20:]))
        return None

    def python_block(self, block, cwd):
        if not self.python:
            return "no Python with the offline_mesh package (give --python)"
        doctest = ">>>" in block.text
        path = os.path.join(cwd, "docs_block_%s.%s" % (block.digest, "txt" if doctest else "py"))
        with open(path, "w") as f:
            f.write(block.text)
        if doctest:
            cmd = [self.python, "-m", "doctest", "-o", "ELLIPSIS", path]
        else:
            cmd = [self.python, path]
        r = subprocess.run(cmd, cwd=cwd, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        os.unlink(path)
        if r.returncode != 0:
            return "python exits %d:\n    %s" % (r.returncode, "\n    ".join(r.stdout.splitlines()[:40]))
        return None

    def c_block(self, block, cwd):
        if "main(" not in block.text:
            return "a C fragment, not a program: mark it `<!-- docs-run: skip: ... -->`"
        src = os.path.join(cwd, "docs_block_%s.c" % block.digest)
        exe = src[:-2]
        with open(src, "w") as f:
            f.write(block.text)
        lib = os.path.join(self.build, "src")
        r = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", src, "-o", exe,
                            "-I" + os.path.join(ROOT, "include"),
                            "-I" + os.path.join(self.build, "include"),
                            "-L" + lib, "-loffline_mesh"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            return "does not compile:\n    %s" % "\n    ".join(r.stdout.splitlines()[:20])
        env = dict(self.env, LD_LIBRARY_PATH=lib)
        r = subprocess.run([exe], cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        os.unlink(src)
        os.unlink(exe)
        if r.returncode != 0:
            return "exits %d:\n    %s" % (r.returncode, r.stdout)
        return None

    def run(self, block):
        """('pass'|'fail'|'skip'|'data', detail)."""
        marker = block.marker or ""
        lang = block.lang
        m = re.match(r"docs-run:\s*(.*)$", marker)
        if m:
            what = m.group(1)
            if what.startswith("skip"):
                reason = what[4:].lstrip(":").strip()
                if not reason:
                    return "fail", "a skip marker needs a reason"
                return "skip", reason
            lang = what.strip().lower()
        m = re.match(r"tested:\s*(\S+)", marker)
        if m:
            if not os.path.exists(os.path.join(ROOT, m.group(1))):
                return "fail", "marked tested by %s, which does not exist" % m.group(1)
            return "skip", "run by " + m.group(1)
        if lang in ("go", "java"):
            script = os.path.join(ROOT, "bindings", lang, "run-tests.sh")
            name = marker.strip()
            if name and os.path.exists(script) and re.search(
                    r"doc_block %s\b" % re.escape(name), open(script).read()):
                return "skip", "run by bindings/%s/run-tests.sh (doc_block %s)" % (lang, name)
            return "fail", "a %s block no test runs: name it in bindings/%s/run-tests.sh " \
                           "or mark it `<!-- docs-run: skip: REASON -->`" % (lang, lang)
        if not lang:
            return "fail", ("a block without a language (indented, or a bare fence) is "
                            "never run: give it one (`<!-- docs-run: sh -->`, "
                            "`<!-- docs-run: text -->` for data) or mark it "
                            "`<!-- docs-run: skip: REASON -->`")
        if lang in DATA_LANGS:
            return "data", ""
        cwd = self.workdir(block.page)
        try:
            if lang == "console":
                error = self.console(block, cwd)
            elif lang in SHELL_LANGS:
                error = self.script(block, cwd)
            elif lang == "python":
                error = self.python_block(block, cwd)
            elif lang == "c":
                error = self.c_block(block, cwd)
            else:
                return "fail", "language %r: no rule to run it; mark it" % lang
        except subprocess.TimeoutExpired:
            error = "did not finish within %d s" % TIMEOUT
        return ("fail", error) if error else ("pass", "")

    def cleanup(self):
        for d in self.scratch.values():
            shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--python", default=None)
    ap.add_argument("--list", action="store_true",
                    help="only list the blocks and what would be done")
    ap.add_argument("pages", nargs="*")
    args = ap.parse_args()
    pages = args.pages or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
        if f.endswith(".md")) if os.path.isdir(os.path.join(ROOT, "docs")) else ["README.md"]
    runner = Runner(args.build, args.python)
    counts = {"pass": 0, "fail": 0, "skip": 0, "data": 0}
    bad = False
    try:
        for page in pages:
            for block in blocks_of(page):
                if args.list:
                    first = block.text.strip().split("\n")[0][:70]
                    print("%s marker=%r: %s" % (block.where(), block.marker, first))
                    continue
                status, detail = runner.run(block)
                if status == "fail":
                    bad = True
                    print("FAIL %s\n  %s" % (block.where(), detail.replace("\n", "\n  ")))
                elif status == "skip":
                    print("skip %s: %s" % (block.where(), detail))
                elif status == "pass":
                    print("ok   %s" % block.where())
                counts[status] += 1
    finally:
        runner.cleanup()
    print("docs: %(pass)d ran as shown, %(skip)d not run (with a reason), "
          "%(fail)d failed, %(data)d data blocks" % counts)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
