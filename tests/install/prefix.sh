#!/usr/bin/env bash
# docs/install.md's prerequisites and prefix install, run as written:
#
#   bash tests/install/prefix.sh            (as root)
#
# In a throw-away overlay of the clean root file system (Debian 12 minbase,
# tools/clean-rootfs.sh; no compiler, no CUnit) it runs the blocks of
# docs/install.md marked "tested: tests/install/prefix.sh": first the
# apt-get line of the build prerequisites (after apt-get update: the cached
# root has no package lists), then the prefix install from a copy of the
# checkout, and checks what the doc promises: CUnit is not installed,
# -Dtests=false builds, the RUNPATH, LD_LIBRARY_PATH and fully static
# consumers print the expected mesh, and without either the plain consumer
# fails to find liboffline_mesh.so.1.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "prefix: run as root (chroot)" >&2; exit 2; }

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*" >&2; }
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") >&2 || true
    fi
}
tmp=$(mktemp -d /tmp/om-prefix-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

# block N: the Nth ```sh block after a "tested: tests/install/prefix.sh" marker.
block() {
    awk -v want="$1" '
        /<!-- tested: tests\/install\/prefix\.sh/ { marked = 1; next }
        marked && /^```sh$/ { n++; inside = (n == want); marked = 0; next }
        inside && /^```$/ { exit }
        inside { print }' "$repo/docs/install.md"
}
block 1 > "$tmp/prerequisites.sh"
block 2 > "$tmp/prefix-install.sh"
for f in prerequisites prefix-install; do
    if [ -s "$tmp/$f.sh" ]; then ok "docs/install.md has the $f block"; else bad "no $f block in docs/install.md"; fi
done

mkdir "$tmp/in"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$tmp/in" -xf -
cp "$tmp/prerequisites.sh" "$tmp/prefix-install.sh" "$tmp/in/"
cat > "$tmp/in/run.sh" <<'SH'
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
bash -e prerequisites.sh >/tmp/apt.log 2>&1 || { tail -20 /tmp/apt.log; exit 4; }
if dpkg -s libcunit1-dev >/dev/null 2>&1; then echo "cunit installed"; else echo "cunit absent"; fi
bash -ex prefix-install.sh > /tmp/prefix.out 2>/tmp/prefix.err || { cat /tmp/prefix.out /tmp/prefix.err; exit 5; }
sed 's/^/doc /' /tmp/prefix.out
echo "runpath $(readelf -d consumer | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
echo "static-needed $(readelf -d consumer-static | grep -c NEEDED || true)"
./consumer-plain >/dev/null 2>/tmp/plain.err && echo "plain runs" || echo "plain fails: $(cat /tmp/plain.err)"
SH
if OM_ROOTFS_NETWORK=1 "$repo/tools/in-clean-rootfs.sh" "$tmp/in" sh run.sh >"$tmp/out" 2>"$tmp/err"; then
    ok "the doc's prerequisites and prefix-install blocks ran in the clean root"
else
    bad "the doc's blocks failed in the clean root:"; cat "$tmp/out" "$tmp/err" >&2
fi
expect_eq "CUnit is not among the prerequisites (and the build needs none with -Dtests=false)" \
    "$(grep '^cunit ' "$tmp/out")" "cunit absent"
mesh='offline_mesh VERSION
mesh {"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}
spec dp=2,cp=2,tp=2
size 8
tp groups: {0,1} {2,3} {4,5} {6,7}'
version=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" "$repo/meson.build" | head -1)
expected=$(for i in 1 2 3; do echo "${mesh/VERSION/$version}"; done; echo "offline-mesh $version")
expect_eq "the RUNPATH, LD_LIBRARY_PATH and static consumers and the CLI print what they should" \
    "$(sed -n 's/^doc //p' "$tmp/out" | awk '
        # the lines of the consumers and the CLI version; the summary of
        # meson also starts with "offline_mesh VERSION", but no mesh line follows
        prev ~ /^offline_mesh / && /^mesh \{/ { print prev }
        /^(mesh |spec |size |tp groups: |offline-mesh )/ { print }
        { prev = $0 }')" "$expected"
expect_eq "-Wl,-rpath gives the consumer a RUNPATH to the prefix" \
    "$(sed -n 's/^runpath //p' "$tmp/out")" "/root/.local/lib"
expect_eq "the static consumer needs no shared library" "$(sed -n 's/^static-needed //p' "$tmp/out")" "0"
case "$(grep '^plain ' "$tmp/out")" in
    "plain fails: "*"liboffline_mesh.so.1"*) ok "without RUNPATH or LD_LIBRARY_PATH the consumer cannot find liboffline_mesh.so.1 (as the doc says)" ;;
    *) bad "plain consumer: $(grep '^plain ' "$tmp/out")" ;;
esac

echo "prefix: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" -eq 0 ]
