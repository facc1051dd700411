#!/usr/bin/env bash
# ABI guard of liboffline_mesh. Usage:
#   abi/check.sh BUILD_DIR                    # all checks on the built library
#   abi/check.sh --abidiff OLD NEW            # only abidiff, of two .so/.abi
# Checks, each failing the script on any problem:
#   1. every exported symbol is om_-prefixed and versioned with a node of
#      src/offline_mesh.map (nm -D --defined-only);
#   2. the released version nodes recorded in the baseline hold exactly the
#      same symbols (new API must go into a new node);
#   3. the exports equal the OM_API declarations of the public headers;
#   4. abidiff of the baseline against the library reports no change other
#      than added functions (any non-zero exit status fails: libabigail sets
#      only the "change" bit for some incompatible changes, e.g. a struct
#      that changes size).
# The library is checked against every baseline of its SONAME's major
# version, abi/offline_mesh-<major>.*.abi (one per release that added API).
# Environment: OM_ABI_BASELINE=FILE checks against that baseline only.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# run_abidiff OLD NEW [HEADER_DIR...]: headers are given for the new side
# only (libabigail 2.2 can crash when a saved baseline is combined with
# header options for both sides). Added functions are not reported
# (--no-added-syms): adding API is compatible, and check 2 makes sure it
# goes into a new version node. Everything else that abidiff reports, even
# a change it cannot classify, fails.
run_abidiff() {
    local old=$1 new=$2; shift 2
    local args=(--fail-no-debug-info --no-added-syms --no-show-locs)
    local d
    for d in "$@"; do args+=(--headers-dir2 "$d"); done
    local rc=0 out
    out=$(abidiff "${args[@]}" "$old" "$new" 2>&1) || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "$out" >&2
        local what="ABI change"
        [ $((rc & 1)) -ne 0 ] && what="abidiff error"
        [ $((rc & 8)) -ne 0 ] && what="incompatible ABI change"
        echo "abi: FAIL: abidiff $(basename "$old") $(basename "$new"): $what (exit $rc)" >&2
        return 1
    fi
    echo "abi: ok: abidiff $(basename "$old") vs $(basename "$new"): no ABI change"
}

abi_need_tools

if [ "${1:-}" = "--abidiff" ]; then
    [ $# -eq 3 ] || abi_die "usage: $0 --abidiff OLD NEW"
    run_abidiff "$2" "$3"
    exit
fi

[ $# -eq 1 ] || abi_die "usage: $0 BUILD_DIR | --abidiff OLD NEW"
build=$(cd "$1" && pwd)
lib=$(abi_library "$build")
mapfile -t headers < <(abi_headers "$build")
mapfile -t hdirs < <(abi_header_dirs "$build")
# Every release of the current SONAME has a baseline; the library must stay
# compatible with each of them.
if [ -n "${OM_ABI_BASELINE:-}" ]; then
    baselines=("$OM_ABI_BASELINE")
else
    soname_major=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\.so\.\([0-9]*\)\].*/\1/p')
    mapfile -t baselines < <(ls "$abi_repo"/abi/offline_mesh-"$soname_major".*.abi 2>/dev/null | sort -V)
fi
[ ${#baselines[@]} -gt 0 ] || abi_die "no baseline for $(basename "$lib") in $abi_repo/abi (abi/update-baseline.sh makes one)"

nm_out=$(mktemp)
trap 'rm -f "$nm_out"' EXIT
nm -D --defined-only "$lib" > "$nm_out"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')

fail=0
header_args=()
for h in "${headers[@]}"; do header_args+=(--header "$h"); done
for baseline in "${baselines[@]}"; do
    [ -f "$baseline" ] || abi_die "baseline $baseline is missing"
    echo "abi: against $(basename "$baseline")"
    python3 "$abi_repo/abi/abicheck.py" all --nm "$nm_out" \
        --map "$abi_repo/src/offline_mesh.map" --baseline "$baseline" \
        --soname "$soname" "${header_args[@]}" || fail=1
    run_abidiff "$baseline" "$lib" "${hdirs[@]}" || fail=1
done

if [ "$fail" -ne 0 ]; then
    echo "abi: FAILED (see above; rules in docs/install.md)" >&2
    exit 1
fi
echo "abi: all ABI checks passed against ${#baselines[@]} baseline(s)"
