# Shared helpers of abi/check.sh and abi/update-baseline.sh (sourced).

# abi_repo: the checkout containing this folder.
abi_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The 1.x ABI baseline every build is compared against: the first release
# of the SONAME. Later releases add baselines beside it (see docs/install.md).
abi_baseline_default="$abi_repo/abi/offline_mesh-1.0.abi"

abi_die() { echo "abi: error: $*" >&2; exit 2; }

# abi_library_path BUILD_DIR: where BUILD_DIR builds liboffline_mesh.so.X.Y.Z.
abi_library_path() {
    local build=$1 lib
    lib=$(meson introspect --targets "$build" | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "offline_mesh" and t["type"] == "shared library":
        print(t["filename"][0])
        break
') || abi_die "cannot introspect the meson build dir $build"
    [ -n "$lib" ] || abi_die "$build builds no shared library offline_mesh"
    echo "$lib"
}

# abi_library BUILD_DIR: path of the built library (which must exist).
abi_library() {
    local lib
    lib=$(abi_library_path "$1") || exit
    [ -f "$lib" ] || abi_die "$lib is not built (run ninja -C $1)"
    echo "$lib"
}

# abi_header_dirs BUILD_DIR: the public header directories (the source
# tree's include/ and the build tree's include/ with the generated
# offline_mesh/version.h).
abi_header_dirs() {
    echo "$abi_repo/include"
    echo "$1/include"
}

# abi_headers BUILD_DIR: every public header file, one per line.
abi_headers() {
    local build=$1
    echo "$abi_repo/include/offline_mesh.h"
    local h
    for h in "$abi_repo"/include/offline_mesh/*.h; do echo "$h"; done
    [ -f "$build/include/offline_mesh/version.h" ] ||
        abi_die "$build/include/offline_mesh/version.h is missing"
    echo "$build/include/offline_mesh/version.h"
}

# abi_need_tools: install what the checks need when it is missing.
abi_need_tools() {
    local pkgs=()
    command -v abidiff >/dev/null || pkgs+=(abigail-tools)
    command -v nm >/dev/null || pkgs+=(binutils)
    command -v python3 >/dev/null || pkgs+=(python3)
    if [ ${#pkgs[@]} -gt 0 ]; then
        [ "$(id -u)" = 0 ] || abi_die "missing ${pkgs[*]}; install them"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" \
            >/dev/null || abi_die "apt-get install ${pkgs[*]} failed"
    fi
}
