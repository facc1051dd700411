#!/usr/bin/env bash
# Records the ABI baseline of a release with abidw:
#   abi/update-baseline.sh BUILD_DIR NODE   e.g.  abi/update-baseline.sh /tmp/b 1.0
# writes abi/offline_mesh-NODE.abi from the library built in BUILD_DIR
# (configure it with -Dbuildtype=debugoptimized: abidw needs debug info).
# A baseline is the frozen record of a release: the script refuses to
# overwrite an existing one unless --force is given (only ever right before
# the release it describes is tagged). Only types defined in the public
# headers are recorded. Source locations are kept as bare file names
# (--short-locs): abidiff's public-header filter treats a baseline type
# without a location as private and would hide every change to it (a
# struct changing size, an enumerator changing value).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

force=0
if [ "${1:-}" = "--force" ]; then force=1; shift; fi
[ $# -eq 2 ] || abi_die "usage: $0 [--force] BUILD_DIR NODE (e.g. 1.0)"
build=$(cd "$1" && pwd)
node=$2
[[ "$node" =~ ^[0-9]+\.[0-9]+$ ]] || abi_die "NODE must look like 1.0, got '$node'"
out="$abi_repo/abi/offline_mesh-$node.abi"
if [ -e "$out" ] && [ "$force" -ne 1 ]; then
    abi_die "$out exists; a released baseline is never rewritten (--force overrides)"
fi
abi_need_tools
lib=$(abi_library "$build")
args=()
while read -r d; do args+=(--headers-dir "$d"); done < <(abi_header_dirs "$build")
abidw "${args[@]}" --drop-private-types --drop-undefined-syms \
    --no-corpus-path --no-comp-dir-path \
    --short-locs --out-file "$out.tmp" "$lib"
# Translation-unit paths are relative to the build dir; reduce them to the
# path inside the checkout so the file does not depend on where it was made.
sed -i "s#<abi-instr \\(.*\\) path='[^']*/src/#<abi-instr \\1 path='src/#" "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out ($(grep -c '<elf-symbol ' "$out") symbols)"
