#!/usr/bin/env bash
# Regenerates the SWIG layer internal/omswig/{omswig.go,omswig_wrap.c} from
# offline_mesh_go.i (which includes the shared ../offline_mesh.i).
#
#   ./regen.sh          rewrite the committed files
#   ./regen.sh --check  regenerate into a temporary folder and fail (exit 1)
#                       when the committed files differ
#
# The output is pinned to one SWIG version so it is byte-identical on every
# machine: SWIG records its version in the files, and other versions generate
# different code. A different or missing SWIG exits with status 77 ("skip").
# SWIG runs from this folder with relative paths only, so no absolute path
# leaks into the output. Override the program with SWIG=/path/to/swig.
set -euo pipefail

PINNED_SWIG_VERSION=4.1.0

cd "$(dirname "$0")"
swig=${SWIG:-swig}
if ! command -v "$swig" >/dev/null 2>&1; then
    echo "regen.sh: $swig not found (need SWIG $PINNED_SWIG_VERSION)" >&2
    exit 77
fi
version=$("$swig" -version | sed -n 's/^SWIG Version //p')
if [ "$version" != "$PINNED_SWIG_VERSION" ]; then
    echo "regen.sh: SWIG $version found, the committed files come from SWIG $PINNED_SWIG_VERSION" >&2
    exit 77
fi

check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

generate() { # $1: output folder, relative to this one
    "$swig" -go -cgo -intgosize 64 -DSWIGWORDSIZE64 -Wextra -Werror \
        -I.. -I../../include \
        -outdir "$1" -o "$1/omswig_wrap.c" offline_mesh_go.i
}

if ! $check; then
    generate internal/omswig
    echo "regen.sh: wrote internal/omswig/omswig.go and omswig_wrap.c"
    exit 0
fi

tmp=.regen-check.$$
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp"
generate "$tmp"
status=0
for f in omswig.go omswig_wrap.c; do
    if ! cmp -s "$tmp/$f" "internal/omswig/$f"; then
        echo "regen.sh: internal/omswig/$f is out of date; run bindings/go/regen.sh" >&2
        diff -u "internal/omswig/$f" "$tmp/$f" | head -40 >&2 || true
        status=1
    fi
done
[ $status -eq 0 ] && echo "regen.sh: generated files are up to date (SWIG $version)"
exit $status
