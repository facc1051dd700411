#!/usr/bin/env bash
# Python binding tests, as tools/test.sh runs them:
#   bash bindings/python/run-tests.sh [<meson build dir>]
# 1. installs what is missing (swig, libyaml/jansson headers via apt; pytest,
#    mypy via pip), quietly and only when missing;
# 2. builds and installs the package with `pip install .` (meson-python,
#    exactly what users run) into a virtual environment that sees the
#    system site-packages, so the user's Python is left alone;
# 3. builds the extension once more with the library's allocation-failure
#    injection (its own meson build dir) for the MemoryError tests;
# 4. runs the pytest suite against the installed package, the parity check
#    (bindings/parity.tsv against the library's exports and the three
#    bindings) and mypy.stubtest on the stubs.
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
if ((${#pip_missing[@]})); then
    step "pip install ${pip_missing[*]}"
    "$vpy" -m pip install --quiet "${pip_missing[@]}"
fi

# ---- 2. pip install . ---------------------------------------------------------
step "pip install $root"
"$vpy" -m pip install --quiet --force-reinstall --no-deps "$root"

# ---- 3. allocation-failure build ----------------------------------------------
inject=$work/inject-build
if [[ ! -f $inject/build.ninja ]]; then
    step "meson setup $inject (alloc_failure_injection)"
    rm -rf "$inject"
    meson setup "$inject" "$root" -Dtests=false -Dbench=false \
        -Dcli=false -Djava=disabled -Dpython=enabled -Dpython_static=true \
        -Dalloc_failure_injection=true >/dev/null
fi
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
step "pytest"
OM_PY_INJECT_PATH=$inject/bindings/python OM_LIBRARY=$library \
    "$vpy" -m pytest -p no:cacheprovider -q -rs "$here/tests"
step "parity ($library)"
"$vpy" "$root/bindings/parity_check.py" "$library" "${java_generated[@]}"
step "mypy.stubtest"
"$vpy" -m mypy.stubtest --allowlist "$here/stubtest-allowlist.txt" \
    offline_mesh
