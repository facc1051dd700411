#!/usr/bin/env bash
# Docs that run (tools/test.sh part): runs every example of README.md and
# docs/*.md against the build, comparing what they print with the page
# (tests/docs/run_docs.py says how and documents the markers).
#   bash tests/docs/run-tests.sh <meson build dir>
# Python examples need the offline_mesh package: $OM_DOCS_PYTHON, else the
# venv bindings/python/run-tests.sh made in the build dir, else the build
# dir's own bindings/python (-Dpython=enabled), else a Python-only build
# configured in the build dir (never a copy installed elsewhere, which may
# be older than the pages).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-${OM_BUILD_DIR:-}}
if [ -z "$build" ]; then
    echo "usage: $0 <meson build dir>" >&2
    exit 2
fi
build=$(cd "$build" && pwd)

imports() { # python [DIR]: imports offline_mesh (from DIR when given)
    PYTHONPATH=${2:-} "$1" -c 'import os, sys, offline_mesh
sys.exit(not offline_mesh.__file__.startswith(os.path.realpath(sys.argv[1])))' "${2:-/}" 2>/dev/null
}
python=${OM_DOCS_PYTHON:-}
pypath=
if [ -z "$python" ] && [ -x "$build/python-tests/venv/bin/python" ] &&
        imports "$build/python-tests/venv/bin/python"; then
    python=$build/python-tests/venv/bin/python
fi
if [ -z "$python" ] && imports python3 "$build/bindings/python"; then
    python=python3 pypath=$build/bindings/python
fi
if [ -z "$python" ]; then
    pybuild=$build/docs-python
    if [ ! -f "$pybuild/build.ninja" ]; then
        meson setup "$pybuild" "$root" -Dpython=enabled -Dtests=false -Dbench=false \
            -Dcli=false -Djava=disabled >/dev/null
    fi
    ninja -C "$pybuild" >/dev/null
    python=python3 pypath=$pybuild/bindings/python
fi
export PYTHONPATH="$pypath${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$build/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The runner's own tests first (a runner that cannot fail proves nothing).
OM_BUILD_DIR=$build python3 -m pytest -q -p no:cacheprovider "$here/test_run_docs.py"
exec python3 "$here/run_docs.py" "$build" --python "$python"
