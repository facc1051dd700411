#!/usr/bin/env bash
# docs/go.md's prefix install, run as written:
#
#   bash tests/install/go-install.sh
#
# Copies the checkout to a temporary folder, makes a throw-away HOME with
# ~/your-program (bindings/go/testdata/consumer with a go.mod that replaces
# the module by the copy), runs the block of docs/go.md marked "tested:
# tests/install/go-install.sh" from the copy's top, and checks that the
# program it built has a RUNPATH to $HOME/.local/lib, loads the library
# from there without LD_LIBRARY_PATH and prints
# bindings/go/testdata/consumer/expected.txt. Needs Go >= 1.24 (found as
# tests/install/go-toolchain.sh says), gcc, pkg-config, meson and ninja.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/install/go-toolchain.sh
. "$here/go-toolchain.sh"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*" >&2; }
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") >&2 || true
    fi
}
GO=$(om_find_go)
if [ -z "$GO" ]; then
    echo "go-install: no Go >= 1.24 found (bindings/go/run-tests.sh installs one)" >&2
    exit 1
fi
tmp=$(mktemp -d /tmp/om-go-install-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

awk '/<!-- tested: tests\/install\/go-install\.sh/ { marked = 1; next }
     marked && /^ *```sh$/ { inside = 1; marked = 0; next }
     inside && /^ *```$/ { exit }
     inside { sub(/^  /, ""); print }' "$repo/docs/go.md" > "$tmp/block.sh"
if [ -s "$tmp/block.sh" ]; then ok "docs/go.md has the prefix block"; else bad "no tested prefix block in docs/go.md"; fi

mkdir "$tmp/src" "$tmp/home"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$tmp/src" -xf -
program="$tmp/home/your-program"
mkdir "$program"
cp "$repo/bindings/go/testdata/consumer/main.go" "$repo/bindings/go/testdata/consumer/train.yaml" "$program/"
module=$(sed -n 's/^module //p' "$repo/bindings/go/go.mod")
cat > "$program/go.mod" <<MOD
module example.com/meshjob

go 1.24

require $module v0.0.0

replace $module => $tmp/src/bindings/go
MOD

# The Go caches stay where they are (a cold cache only costs time).
gocache=$("$GO" env GOCACHE)
gomodcache=$("$GO" env GOMODCACHE)
if (cd "$tmp/src" && env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH -u CGO_LDFLAGS HOME="$tmp/home" \
        PATH="$(dirname "$GO"):$PATH" GOCACHE="$gocache" GOMODCACHE="$gomodcache" \
        GOTOOLCHAIN=local GOFLAGS=-buildvcs=false bash -e "$tmp/block.sh") >"$tmp/block.log" 2>&1; then
    ok "the block ran as written (meson install to \$HOME/.local, go build in ~/your-program)"
else
    bad "the block failed:"; tail -30 "$tmp/block.log" >&2
fi
bin="$program/meshjob"
if [ -x "$bin" ]; then
    expect_eq "the program has a RUNPATH to \$HOME/.local/lib" \
        "$(readelf -d "$bin" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" "$tmp/home/.local/lib"
    expect_eq "it loads liboffline_mesh.so.1 from the prefix without LD_LIBRARY_PATH" \
        "$(env -u LD_LIBRARY_PATH ldd "$bin" | awk '/liboffline_mesh/ {print $3}')" "$tmp/home/.local/lib/liboffline_mesh.so.1"
    expect_eq "it prints testdata/consumer/expected.txt" \
        "$(cd "$program" && env -u LD_LIBRARY_PATH -u WORLD_SIZE ./meshjob train.yaml 16 2>&1)" \
        "$(cat "$repo/bindings/go/testdata/consumer/expected.txt")"
else
    bad "go build made no $bin"
fi

echo "go-install: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" -eq 0 ]
