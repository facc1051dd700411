#!/usr/bin/env bash
# Go binding tests, run by tools/test.sh as
#   bash bindings/go/run-tests.sh <absolute meson build dir>
# (OM_BUILD_DIR set to the same dir; the library is built, not installed).
#
# 1. checks that internal/omswig matches offline_mesh_go.i (when SWIG of the
#    pinned version is installed), gofmt, and `go vet` of the hand-written
#    package;
# 2. `go test -race` of the whole module (table tests, the pure-Go
#    cross-checks, runnable examples), then the tests once more under
#    GOEXPERIMENT=cgocheck2, which checks every pointer passed to C, and
#    FuzzViews (fuzz_test.go) fuzzing OM_GO_FUZZ_RUNS (150000) inputs;
# 3. builds a separate program outside the repository that imports the
#    module through a `replace` and builds a mesh from a YAML file (checked
#    against testdata/consumer/expected.txt and the CLI's answer).
# Nothing is installed: cgo finds the library through the build dir's
# uninstalled pkg-config file, the programs load it via LD_LIBRARY_PATH.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${OM_BUILD_DIR:-}}
if [ -z "$build" ]; then
    echo "usage: $0 <meson build dir> (or set OM_BUILD_DIR)" >&2
    exit 2
fi
build=$(cd "$build" && pwd)
pcdir="$build/meson-uninstalled"
if [ ! -f "$pcdir/offline_mesh-uninstalled.pc" ]; then
    echo "go: $pcdir/offline_mesh-uninstalled.pc not found; build the library first" >&2
    exit 1
fi

say() { echo "go: $*"; }
apt_updated=false
apt_install() {
    say "installing $*"
    export DEBIAN_FRONTEND=noninteractive
    $apt_updated || apt-get update -qq
    apt_updated=true
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---- dependencies -----------------------------------------------------------
# cgo needs pkg-config and a C compiler; the module needs Go >= 1.24.
command -v pkg-config >/dev/null 2>&1 || apt_install pkg-config
command -v gcc >/dev/null 2>&1 || apt_install gcc

go_ok() { # is "$1" a Go toolchain of version 1.24 or later?
    local v major minor
    v=$("$1" env GOVERSION 2>/dev/null) || return 1
    v=${v#go}
    major=${v%%.*}
    minor=${v#*.}
    minor=${minor%%[!0-9]*}
    [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "${minor:-0}" -ge 24 ]; }
}
GO=
for candidate in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && go_ok "$candidate"; then
        GO=$candidate
        break
    fi
done
if [ -z "$GO" ]; then
    # No suitable Go (Debian 12's golang-go is 1.19): fetch the official
    # toolchain, which the Go module proxy serves as golang.org/toolchain.
    gover=1.24.11
    arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
    dest=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/offline_mesh/go$gover
    GO=$(ls "$dest"/golang.org/toolchain@*/bin/go 2>/dev/null | head -n1 || true)
    if [ -z "$GO" ]; then
        command -v curl >/dev/null 2>&1 || apt_install curl
        command -v unzip >/dev/null 2>&1 || apt_install unzip
        say "fetching Go $gover from proxy.golang.org"
        mkdir -p "$dest"
        curl -fsSL -o "$dest/go.zip" \
            "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go$gover.linux-$arch.zip"
        unzip -q -o "$dest/go.zip" -d "$dest"
        rm -f "$dest/go.zip"
        GO=$(ls "$dest"/golang.org/toolchain@*/bin/go | head -n1)
        chmod +x "$(dirname "$GO")"/* "$(dirname "$GO")"/../pkg/tool/*/* 2>/dev/null || true
    fi
    go_ok "$GO" || { echo "go: no Go >= 1.24 available" >&2; exit 1; }
fi
say "using $("$GO" version) ($GO)"

export CGO_ENABLED=1
export GOTOOLCHAIN=local
export GOFLAGS="-buildvcs=false${GOFLAGS:+ $GOFLAGS}"
if [ -z "${HOME:-}" ]; then
    export GOCACHE=/tmp/offline_mesh-go/cache GOPATH=/tmp/offline_mesh-go/path
fi
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
libdir=$(pkg-config --variable=libdir offline_mesh)
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
say "library: $libdir (pkg-config $pcdir)"
# The tests compare the binding's answers with the CLI's when it is built.
if [ -x "$build/src/cli/offline-mesh" ]; then
    export OM_CLI="$build/src/cli/offline-mesh"
else
    unset OM_CLI
    say "no $build/src/cli/offline-mesh (-Dcli=false?): the CLI cross-checks are skipped"
fi

cd "$here"

# ---- 1. generated code, format, vet -------------------------------------------
set +e
./regen.sh --check
status=$?
set -e
case $status in
    0) ;;
    77) say "regeneration check skipped (SWIG $(sed -n 's/^PINNED_SWIG_VERSION=//p' regen.sh) not installed)" ;;
    *) exit 1 ;;
esac

unformatted=$("$(dirname "$GO")/gofmt" -l offlinemesh internal/omswig/types.go testdata/consumer)
if [ -n "$unformatted" ]; then
    echo "go: gofmt -l lists: $unformatted" >&2
    exit 1
fi
"$GO" vet ./offlinemesh
say "gofmt and go vet ./offlinemesh: clean"

# ---- 2. the test suite ----------------------------------------------------------
"$GO" test -race -count=1 ./...
say "again with GOEXPERIMENT=cgocheck2:"
GOEXPERIMENT=cgocheck2 "$GO" test -count=1 -run '^Test' ./offlinemesh
# FuzzViews' seeds ran above; then new inputs (a finding is written to
# offlinemesh/testdata/fuzz/FuzzViews/ and fails the suite). A count, about
# 10 s here, not a duration: Go 1.26's fuzz coordinator can fail a -fuzztime
# duration at its end with "context deadline exceeded" and no finding
# (golang/go#75804, fixed in Go 1.27).
"$GO" test -run '^$' -fuzz '^FuzzViews$' -fuzztime "${OM_GO_FUZZ_RUNS:-150000}x" ./offlinemesh

# ---- 3. a program outside the repository -------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp testdata/consumer/main.go testdata/consumer/train.yaml "$tmp/"
module=$(sed -n 's/^module //p' go.mod)
cat > "$tmp/go.mod" <<MOD
module example.com/meshjob

go 1.24

require $module v0.0.0

replace $module => $here
MOD
(cd "$tmp" && "$GO" build -o meshjob . && ./meshjob train.yaml 16 > out.txt)
if ! diff -u testdata/consumer/expected.txt "$tmp/out.txt"; then
    echo "go: the external program's output differs from testdata/consumer/expected.txt" >&2
    exit 1
fi
if [ -n "${OM_CLI:-}" ]; then
    cli_mesh=$(env -u WORLD_SIZE "$OM_CLI" mesh testdata/consumer/train.yaml --world-size 16)
    if [ "$cli_mesh" != "$(head -n1 "$tmp/out.txt")" ]; then
        echo "go: the external program's mesh differs from the CLI's: $cli_mesh" >&2
        exit 1
    fi
fi
say "ok  external module example.com/meshjob (replace => $here) built $(head -n1 "$tmp/out.txt") from YAML"

# The program of docs/go.md ("Usage") as written, and the output shown there.
doc_block() { # marker: the fenced block after <!-- marker --> in docs/go.md
    awk -v m="<!-- $1 -->" '$0 == m { on = 1; next } on && /^```/ { if (in_block) exit; in_block = 1; next } in_block' "$here/../../docs/go.md"
}
mkdir "$tmp/doc"
doc_block example-program > "$tmp/doc/main.go"
doc_block example-output > "$tmp/doc/expected.txt"
sed 's/example.com\/meshjob/example.com\/doc/' "$tmp/go.mod" > "$tmp/doc/go.mod"
(cd "$tmp/doc" && "$GO" run . > out.txt)
if ! diff -u "$tmp/doc/expected.txt" "$tmp/doc/out.txt"; then
    echo "go: the program of docs/go.md prints something else than the page shows" >&2
    exit 1
fi
say "ok  docs/go.md: the example program prints what the page shows ($(wc -l < "$tmp/doc/out.txt") lines)"

# The hierarchy program of docs/go.md: reads a hierarchy, checks rules and
# prints a launch plan, built as a module outside the repository.
mkdir "$tmp/hdoc"
doc_block hierarchy-program > "$tmp/hdoc/main.go"
doc_block hierarchy-output > "$tmp/hdoc/expected.txt"
sed 's/example.com\/meshjob/example.com\/hdoc/' "$tmp/go.mod" > "$tmp/hdoc/go.mod"
(cd "$tmp/hdoc" && "$GO" run . > out.txt)
if ! diff -u "$tmp/hdoc/expected.txt" "$tmp/hdoc/out.txt"; then
    echo "go: the hierarchy program of docs/go.md prints something else than the page shows" >&2
    exit 1
fi
say "ok  docs/go.md: the hierarchy program prints what the page shows ($(wc -l < "$tmp/hdoc/out.txt") lines)"

# The views program of docs/go.md (views, worlds, presets, the world-size
# step, strict configs, order advice), built outside the repository too.
mkdir "$tmp/vdoc"
doc_block views-program > "$tmp/vdoc/main.go"
doc_block views-output > "$tmp/vdoc/expected.txt"
sed 's/example.com\/meshjob/example.com\/vdoc/' "$tmp/go.mod" > "$tmp/vdoc/go.mod"
(cd "$tmp/vdoc" && env -u WORLD_SIZE -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u SLURM_NTASKS "$GO" run . > out.txt)
if ! diff -u "$tmp/vdoc/expected.txt" "$tmp/vdoc/out.txt"; then
    echo "go: the views program of docs/go.md prints something else than the page shows" >&2
    exit 1
fi
say "ok  docs/go.md: the views program prints what the page shows ($(wc -l < "$tmp/vdoc/out.txt") lines)"

# Every exported C function has a Go entry in bindings/parity.tsv.
nm -D --defined-only "$libdir/liboffline_mesh.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/exported"
awk -F'\t' '!/^#/ && $1 ~ /^om_/ && $3 != "" { print $1 }' "$here/../parity.tsv" | sort -u > "$tmp/listed"
missing=$(comm -23 "$tmp/exported" "$tmp/listed")
if [ -n "$missing" ]; then
    echo "go: exported but without a Go entry in bindings/parity.tsv:" $missing >&2
    exit 1
fi
say "ok  bindings/parity.tsv has a Go entry for all $(wc -l < "$tmp/exported") exported functions"
