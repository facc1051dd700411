#!/usr/bin/env bash
# Python binding tests, as tools/test.sh runs them:
#   bash bindings/python/run-tests.sh [<meson build dir>]
# 1. installs what is missing (swig, libyaml/jansson headers via apt; pytest,
#    mypy, numpy via pip), quietly and only when missing;
# 2. builds and installs the package with `pip install .` (meson-python,
#    exactly what users run) into a virtual environment that sees the
#    system site-packages, so the user's Python is left alone;
# 3. builds the extension once more, with the newest SWIG on PyPI (pip
#    install swig, its own venv) and the library's allocation-failure
#    injection (its own meson build dir) for the MemoryError tests;
# 4. runs the pytest suite against the installed package and again against
#    that second build, the parity check (bindings/parity.tsv against the
#    library's exports and the three bindings) and mypy.stubtest on the
#    stubs.
# Work files go to <build dir>/python-tests (or $OM_PY_WORK, or a temp dir).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
build_dir=${1:-${OM_BUILD_DIR:-}}
if [[ -n ${OM_PY_WORK:-} ]]; then
    work=$OM_PY_WORK
elif [[ -n $build_dir ]]; then
    work=$(cd "$build_dir" && pwd)/python-tests
else
    work=${TMPDIR:-/tmp}/offline-mesh-python-tests
fi
mkdir -p "$work"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

step() { printf '== python: %s\n' "$*"; }

# Fails, naming both, unless meson configured build dir $1 with swig $2: its
# log records the `$2 -version` that bindings/python/meson.build runs.
uses_swig() {
    local log=$1/meson-logs/meson-log.txt used
    grep -qxF "Running command: $2 -version" "$log" && return 0
    used=$(sed -n 's/^Running command: \(.*swig[^ ]*\) -version$/\1/p' "$log" | tail -n 1)
    echo "python: $1 was configured with ${used:-no swig in its meson log}, not $2" >&2
    return 1
}

# ---- 1. dependencies ---------------------------------------------------------
apt_missing=()
command -v swig >/dev/null 2>&1 || apt_missing+=(swig)
command -v pkg-config >/dev/null 2>&1 || apt_missing+=(pkg-config)
command -v cc >/dev/null 2>&1 || apt_missing+=(gcc)
if command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists yaml-0.1 || apt_missing+=(libyaml-dev)
    pkg-config --exists 'jansson >= 2.13' || apt_missing+=(libjansson-dev)
else
    apt_missing+=(libyaml-dev libjansson-dev)
fi
"$python" -c 'import sysconfig, os, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    || apt_missing+=(python3-dev)
"$python" -c 'import venv, ensurepip' 2>/dev/null || apt_missing+=(python3-venv)
if ((${#apt_missing[@]})); then
    step "apt-get install ${apt_missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
fi

venv=$work/venv
if [[ ! -x $venv/bin/python ]]; then
    step "virtual environment $venv"
    "$python" -m venv --system-site-packages "$venv"
fi
vpy=$venv/bin/python
pip_missing=()
"$vpy" -c 'import pytest' 2>/dev/null || pip_missing+=(pytest)
"$vpy" -c 'import mypy.stubtest' 2>/dev/null || pip_missing+=(mypy)
# numpy: the tests of groups_buffer() into numpy arrays (skipped without it)
"$vpy" -c 'import numpy' 2>/dev/null || pip_missing+=(numpy)
if ((${#pip_missing[@]})); then
    step "pip install ${pip_missing[*]}"
    "$vpy" -m pip install --quiet "${pip_missing[@]}"
fi

# ---- 2. pip install . ---------------------------------------------------------
step "pip install $root"
"$vpy" -m pip install --quiet --force-reinstall --no-deps "$root"

# ---- 3. allocation-failure build, with the newest SWIG on PyPI ----------------
# The extension must build unchanged with Debian's SWIG (step 2) and with
# the newest SWIG on PyPI: this second build uses the latter (pip install
# swig into its own venv, named to meson by a native file), and the whole
# suite runs against both builds.
swig_venv=$work/swig-pypi
if [[ ! -x $swig_venv/bin/swig ]]; then
    step "pip install swig (the newest on PyPI) into $swig_venv"
    "$python" -m venv "$swig_venv"
    "$swig_venv/bin/python" -m pip install --quiet --upgrade swig
fi
pypi_swig=$("$swig_venv/bin/swig" -version | sed -n 's/^SWIG Version //p')
inject=$work/inject-build
if [[ ! -f $inject/build.ninja ]]; then
    step "meson setup $inject (alloc_failure_injection, SWIG $pypi_swig from PyPI)"
    rm -rf "$inject"
    printf "[binaries]\nswig = '%s'\n" "$swig_venv/bin/swig" >"$work/swig-pypi.ini"
    meson setup "$inject" "$root" --native-file "$work/swig-pypi.ini" -Dtests=false \
        -Dbench=false -Dcli=false -Djava=disabled -Dpython=enabled -Dpython_static=true \
        -Dalloc_failure_injection=true >/dev/null
fi
uses_swig "$inject" "$swig_venv/bin/swig" || exit 1
# The guard's failing path: the same log, as if meson had found the swig on PATH.
path_swig=$(command -v swig)
other=$work/other-swig-build
mkdir -p "$other/meson-logs"
sed "s|$swig_venv/bin/swig|$path_swig|g" "$inject/meson-logs/meson-log.txt" >"$other/meson-logs/meson-log.txt"
if said=$(uses_swig "$other" "$swig_venv/bin/swig" 2>&1); then
    echo "python: the swig guard accepted a build configured with $path_swig" >&2; exit 1
fi
[[ $said == *"$path_swig"*"$swig_venv/bin/swig"* ]] \
    || { echo "python: the swig guard does not name both swigs: $said" >&2; exit 1; }
step "the swig guard refuses a build configured with $path_swig: $said"
step "ninja -C $inject"
ninja -C "$inject" -j2 >/dev/null

# ---- 4. tests ------------------------------------------------------------------
# The library whose exports bindings/parity.tsv must cover: the build dir's
# shared library, else the static one of the injection build.
library=$inject/src/liboffline_mesh.a
if [[ -n $build_dir && -f $build_dir/src/liboffline_mesh.so ]]; then
    library=$(cd "$build_dir" && pwd)/src/liboffline_mesh.so
fi
java_generated=()
if [[ -n $build_dir && -d $build_dir/bindings/java/java-src ]]; then
    java_generated=(--java-generated "$(cd "$build_dir" && pwd)/bindings/java/java-src")
fi
# Run from $work: the source tree's offline_mesh/ (without the extension)
# must not shadow the installed package.
cd "$work"
step "pytest (the pip-installed package, SWIG $(swig -version | sed -n 's/^SWIG Version //p'))"
OM_PY_INJECT_PATH=$inject/bindings/python OM_LIBRARY=$library \
    "$vpy" -m pytest -p no:cacheprovider -q -rs "$here/tests"
step "pytest (the package of $inject, SWIG $pypi_swig from PyPI)"
PYTHONPATH=$inject/bindings/python "$vpy" -c 'import sys, offline_mesh._core as c
assert c.__file__.startswith(sys.argv[1]), c.__file__' "$inject"
PYTHONPATH=$inject/bindings/python OM_PY_INJECT_PATH=$inject/bindings/python \
    OM_LIBRARY=$library "$vpy" -m pytest -p no:cacheprovider -q -rs "$here/tests"
step "parity ($library)"
"$vpy" "$root/bindings/parity_check.py" "$library" "${java_generated[@]}"
step "mypy.stubtest"
"$vpy" -m mypy.stubtest --allowlist "$here/stubtest-allowlist.txt" \
    offline_mesh
