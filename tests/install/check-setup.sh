# The common start of the install checks that run a build in the clean root
# file system (tests/install/jar.sh, tests/install/wheel.sh), sourced as
#
#   source "$here/check-setup.sh" NAME "$@"
#
# It takes BUILD_DIR (the first argument, else $OM_BUILD_DIR: a built meson
# build dir with the CLI) and sets repo, build, cli (that CLI), tmp (a new
# directory removed on exit) and start ($SECONDS), plus the bookkeeping:
# passed/failed counted by ok WHAT, bad WHAT and expect_eq WHAT ACTUAL
# EXPECTED. Exits 2 on a missing build dir or when not root (chroot).

check_name=$1
shift
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-${OM_BUILD_DIR:-}}
if [ -z "$build" ] || [ ! -x "$build/src/cli/offline-mesh" ]; then
    echo "usage: $0 BUILD_DIR (a built meson build dir with the CLI)" >&2
    exit 2
fi
cli=$(cd "$build" && pwd)/src/cli/offline-mesh
[ "$(id -u)" = 0 ] || { echo "$check_name: run as root (chroot)" >&2; exit 2; }

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*" >&2; }
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") >&2 || true
    fi
}
tmp=$(mktemp -d "/tmp/om-$check_name-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
