#!/usr/bin/env bash
# Install, downstream-consumer and ABI tests of liboffline_mesh.
#
#   bash tests/install/run-tests.sh BUILD_DIR     (or OM_BUILD_DIR=...)
#
# BUILD_DIR is a configured and built meson build dir of this checkout
# (-Dbuildtype=debugoptimized or debug: the ABI check needs debug info).
# The script
#   1. installs it with `meson install --destdir` into a temporary stage and
#      checks the layout (versioned library and symlinks, SONAME, headers,
#      offline_mesh.pc, CMake package, CLI and man page, no build RUNPATH);
#   2. builds tests/install/consumer.c outside the source tree with
#      `pkg-config --cflags --libs offline_mesh` against the staged tree, runs
#      it and compares its output; the same against the build tree through
#      <builddir>/meson-uninstalled/offline_mesh-uninstalled.pc;
#   3. builds it again with CMake find_package(offline_mesh) and probes the
#      package's version and component handling;
#   4. runs the ABI guard abi/check.sh (exports, frozen version nodes, header
#      drift, abidiff against abi/offline_mesh-1.0.abi), and proves that the
#      guard fails on a removed function, a changed function type, a changed
#      struct, a symbol added to the released node and an unversioned or
#      unprefixed export.
# Nothing is installed outside the temporary directory, which is removed at
# the end. Exit status 0 only when every check passed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${1:-${OM_BUILD_DIR:-}}
if [ -z "$build" ]; then
    echo "usage: $0 BUILD_DIR (or set OM_BUILD_DIR)" >&2
    exit 2
fi
build=$(cd "$build" && pwd)

# --- dependencies ---------------------------------------------------------
need=()
command -v pkg-config >/dev/null || need+=(pkgconf)
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v cc >/dev/null || need+=(gcc)
command -v abidiff >/dev/null || need+=(abigail-tools)
command -v readelf >/dev/null || need+=(binutils)
command -v groff >/dev/null || need+=(groff-base)
if [ ${#need[@]} -gt 0 ]; then
    echo "install tests: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq "${need[@]}" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null
        apt-get install -y -qq "${need[@]}" >/dev/null
    fi
fi

# --- bookkeeping ----------------------------------------------------------
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*" >&2; }
# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") >&2 || true
    fi
}

tmp=$(mktemp -d /tmp/om-install-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# copy_checkout DEST: the checkout's files as a fresh clone plus local edits
# has them (tracked and untracked files that are not ignored, leaving out
# meson build directories inside the checkout); outside git, the whole tree
# without version control and build directories.
copy_checkout() {
    if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do
                [ -e "$f" ] || continue
                [ -d "${f%%/*}/meson-private" ] && continue
                printf '%s\0' "$f"
            done |
            tar --null -T - -cf -) | tar -C "$1" -xf -
    else
        tar -C "$repo" --exclude-vcs --exclude=./build --exclude=./builddir \
            --exclude='./obj-*' -cf - . | tar -C "$1" -xf -
    fi
}

opt() {  # value of a meson option of the build dir
    meson introspect --buildoptions "$build" | python3 -c '
import json, sys
v = next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1])
print(str(v).lower() if isinstance(v, bool) else v)' "$1"
}
version=$(meson introspect --projectinfo "$build" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
major=${version%%.*}
prefix=$(opt prefix)
libdir=$(opt libdir)
includedir=$(opt includedir)
bindir=$(opt bindir)
mandir=$(opt mandir)
cli=$(opt cli)
abs() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
root="$tmp/stage$prefix"
L="$tmp/stage$(abs "$libdir")"
I="$tmp/stage$(abs "$includedir")"
B="$tmp/stage$(abs "$bindir")"
M="$tmp/stage$(abs "$mandir")"

expected_output() {  # what consumer.c prints for this version
    cat <<EOF
offline_mesh $version
mesh {"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}
spec dp=2,cp=2,tp=2
size 8
tp groups: {0,1} {2,3} {4,5} {6,7}
EOF
}

# --- 1. install and layout ----------------------------------------------
echo "install tests: staging meson install of $build (version $version)"
if ! ninja -C "$build" -j2 >"$tmp/ninja.log" 2>&1; then
    tail -30 "$tmp/ninja.log" >&2
    echo "install tests: FAIL: ninja -C $build does not build" >&2
    exit 1
fi
if ! meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/stage" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log" >&2
    echo "install tests: FAIL: meson install --destdir failed" >&2
    exit 1
fi

lib="$L/liboffline_mesh.so.$version"
if [ -f "$lib" ] && [ ! -L "$lib" ]; then ok "library $(basename "$lib")"; else bad "no $lib"; fi
expect_eq "symlink liboffline_mesh.so.$major" \
    "$(readlink "$L/liboffline_mesh.so.$major" || true)" "liboffline_mesh.so.$version"
expect_eq "symlink liboffline_mesh.so" \
    "$(readlink "$L/liboffline_mesh.so" || true)" "liboffline_mesh.so.$major"
expect_eq "SONAME" \
    "$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" "liboffline_mesh.so.$major"

want_headers=$( (echo offline_mesh.h; echo offline_mesh/version.h
    cd "$repo/include" && ls offline_mesh/*.h) | sort)
got_headers=$(cd "$I" && find offline_mesh.h offline_mesh -type f 2>/dev/null | sort)
expect_eq "installed headers = include/ + generated version.h" "$got_headers" "$want_headers"
same=yes
for h in offline_mesh.h $(cd "$repo/include" && ls offline_mesh/*.h); do
    if ! cmp -s "$repo/include/$h" "$I/$h"; then same=no; bad "installed $h differs from the source"; fi
done
if [ "$same" = yes ]; then ok "installed headers are the source headers"; fi

for f in "$L/pkgconfig/offline_mesh.pc" \
         "$L/cmake/offline_mesh/offline_meshConfig.cmake" \
         "$L/cmake/offline_mesh/offline_meshConfigVersion.cmake"; do
    if [ -f "$f" ]; then ok "installed ${f#"$tmp/stage"}"; else bad "missing ${f#"$tmp/stage"}"; fi
done
if grep -q "$build" "$L/pkgconfig/offline_mesh.pc" "$L/cmake/offline_mesh/"*.cmake; then
    bad "installed pkg-config/CMake files mention the build dir"
else
    ok "installed pkg-config/CMake files do not mention the build dir"
fi

if [ "$cli" = "true" ]; then
    if [ -x "$B/offline-mesh" ]; then ok "installed bin/offline-mesh"; else bad "missing $B/offline-mesh"; fi
    for f in "$lib" "$B/offline-mesh"; do
        if readelf -d "$f" | grep -E 'R(UN)?PATH' | grep -q "$build"; then
            bad "$(basename "$f") keeps a RUNPATH into the build dir"
        else
            ok "$(basename "$f") has no RUNPATH into the build dir"
        fi
    done
    help=$(LD_LIBRARY_PATH="$L" "$B/offline-mesh" --help 2>&1) && ok "installed CLI runs --help" ||
        bad "installed CLI --help failed: $help"
    ldd_cli=$(LD_LIBRARY_PATH="$L" ldd "$B/offline-mesh" | awk '/liboffline_mesh/ {print $3}')
    expect_eq "installed CLI loads the staged library" "$ldd_cli" "$L/liboffline_mesh.so.$major"
    man="$M/man1/offline-mesh.1"
    if [ -f "$man" ]; then ok "installed man1/offline-mesh.1"; else bad "missing $man"; fi
    if [ -f "$man" ]; then
        warnings=$(groff -man -ww -z -Tutf8 "$man" 2>&1)
        expect_eq "man page formats without groff warnings" "$warnings" ""
        # Every subcommand the CLI lists in --help is documented in the man
        # page, and the man page documents no other.
        cmds_help=$(echo "$help" | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | sort -u)
        cmds_man=$(sed -n 's/^\.SS \\fB\([a-z][a-z-]*\)\\fR.*/\1/p' "$man" | sort -u)
        if [ -z "$cmds_help" ]; then bad "no subcommands found in offline-mesh --help"; fi
        expect_eq "man page documents exactly the CLI's subcommands" "$cmds_man" "$cmds_help"
        # Every option a COMMAND --help lists has an entry under OPTIONS.
        opts_help=$(for c in $cmds_help; do
            LD_LIBRARY_PATH="$L" "$B/offline-mesh" "$c" --help |
                sed -n 's/^  \(--[a-z][a-z-]*\).*/\1/p'
        done | sort -u)
        opts_man=$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man" |
            sed -n 's/^\.B[IR]* \(\\-\\-[a-z\\-]*\).*/\1/p' | sed 's/\\//g' | sort -u)
        if [ -z "$opts_help" ]; then bad "no options found in offline-mesh COMMAND --help"; fi
        missing=$(comm -23 <(echo "$opts_help") <(echo "$opts_man") | tr '\n' ' ')
        expect_eq "man page OPTIONS lists every option of every COMMAND --help" "$missing" ""
    fi
fi

# Bindings the build dir enables install with the library.
if [ "$(opt python)" = "enabled" ]; then
    pkg_init=$(find "$tmp/stage" -path '*/offline_mesh/__init__.py' | head -1)
    if [ -n "$pkg_init" ]; then
        ok "installed the Python package ${pkg_init#"$tmp/stage"}"
        # Interpreter meson itself runs on (it found the Python the
        # extension was built for); Debian's /usr/bin/python3 as a fallback.
        py=$(sed -n '1s/^#! *//p' "$(command -v meson)" | awk '{print $1}')
        [ -x "${py:-}" ] || py=/usr/bin/python3
        pyout=$(cd "$tmp" && PYTHONPATH="$(dirname "$(dirname "$pkg_init")")" LD_LIBRARY_PATH="$L" "$py" -c '
import offline_mesh as om
print(om.build_offline_mesh(om.ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=2)))' 2>&1) || true
        expect_eq "staged Python package imports and builds a mesh" "$pyout" \
            "OfflineMesh(mesh_dim_names=('dp', 'cp', 'tp'), mesh_shape=(2, 2, 2))"
    else
        bad "the build enables python but installs no offline_mesh package"
    fi
fi
if [ "$(opt java)" = "enabled" ]; then
    jni="$L/jni/liboffline_mesh_jni.so"
    if [ -f "$jni" ]; then
        ok "installed jni/liboffline_mesh_jni.so"
        expect_eq "the JNI library's RUNPATH is \$ORIGIN/.." \
            "$(readelf -d "$jni" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" '$ORIGIN/..'
        # No LD_LIBRARY_PATH: the RUNPATH finds the staged library.
        expect_eq "the JNI library loads the staged liboffline_mesh (RUNPATH, any prefix)" \
            "$(ldd "$jni" | awk '/liboffline_mesh\.so/ {print $3}')" \
            "$L/jni/../liboffline_mesh.so.$major"
    else
        bad "the build enables java but installs no $jni"
    fi
fi

# --- 2. pkg-config consumers --------------------------------------------
echo "install tests: pkg-config consumer against the staged tree"
mkdir "$tmp/pc"
cp "$here/consumer.c" "$tmp/pc/"
pc() { PKG_CONFIG_PATH="$L/pkgconfig" pkg-config --define-variable=prefix="$root" "$@"; }
expect_eq "pkg-config finds the staged offline_mesh.pc" \
    "$(pc --variable=pcfiledir offline_mesh)" "$L/pkgconfig"
expect_eq "pkg-config --modversion" "$(pc --modversion offline_mesh)" "$version"
cflags=$(pc --cflags offline_mesh)
libs=$(pc --libs offline_mesh)
case " $cflags " in *" -I$I "*) ok "--cflags has -I<staged includedir>" ;; *) bad "--cflags: $cflags" ;; esac
case " $libs " in *" -L$L "*"-loffline_mesh "*) ok "--libs has -L<staged libdir> -loffline_mesh" ;; *) bad "--libs: $libs" ;; esac
case " $libs " in *" -lyaml "*|*" -ljansson "*) bad "--libs leaks the private libyaml/jansson: $libs" ;;
    *) ok "--libs keeps libyaml and jansson private" ;; esac
static_libs=$(pc --static --libs offline_mesh)
case " $static_libs " in *" -loffline_mesh "*"-lyaml "*) ok "--static --libs adds -lyaml" ;; *) bad "--static --libs: $static_libs" ;; esac
case " $static_libs " in *" -ljansson "*) ok "--static --libs adds -ljansson" ;; *) bad "--static --libs: $static_libs" ;; esac
(cd "$tmp/pc" && cc -std=c11 -Wall -Wextra -Wpedantic -Werror consumer.c $cflags $libs -o consumer) &&
    ok "pkg-config consumer compiles and links" || bad "pkg-config consumer does not build"
if [ -x "$tmp/pc/consumer" ]; then
    loaded=$(LD_LIBRARY_PATH="$L" ldd "$tmp/pc/consumer" | awk '/liboffline_mesh/ {print $3}')
    expect_eq "pkg-config consumer loads the staged library" "$loaded" "$L/liboffline_mesh.so.$major"
    out=$(LD_LIBRARY_PATH="$L" "$tmp/pc/consumer" 2>&1) || bad "pkg-config consumer exited $?"
    expect_eq "pkg-config consumer prints the mesh" "$out" "$(expected_output)"
fi

echo "install tests: pkg-config consumer against the build tree (uninstalled .pc)"
upc() { PKG_CONFIG_PATH="$build/meson-uninstalled" pkg-config "$@"; }
expect_eq "uninstalled .pc is picked for offline_mesh" \
    "$(upc --variable=pcfiledir offline_mesh)" "$build/meson-uninstalled"
ucflags=$(upc --cflags offline_mesh)
ulibs=$(upc --libs offline_mesh)
builtlib=$(meson introspect --targets "$build" | python3 -c '
import json, sys
print(next(t["filename"][0] for t in json.load(sys.stdin)
           if t["name"] == "offline_mesh" and t["type"] == "shared library"))')
mkdir "$tmp/upc"
cp "$here/consumer.c" "$tmp/upc/"
(cd "$tmp/upc" && cc -std=c11 -Wall -Wextra -Wpedantic -Werror consumer.c $ucflags $ulibs -o consumer) &&
    ok "uninstalled consumer compiles and links" || bad "uninstalled consumer does not build ($ucflags $ulibs)"
if [ -x "$tmp/upc/consumer" ]; then
    loaded=$(LD_LIBRARY_PATH="$(dirname "$builtlib")" ldd "$tmp/upc/consumer" | awk '/liboffline_mesh/ {print $3}')
    expect_eq "uninstalled consumer loads the build tree's library" \
        "$loaded" "$(dirname "$builtlib")/liboffline_mesh.so.$major"
    out=$(LD_LIBRARY_PATH="$(dirname "$builtlib")" "$tmp/upc/consumer" 2>&1) || bad "uninstalled consumer exited $?"
    expect_eq "uninstalled consumer prints the mesh" "$out" "$(expected_output)"
fi

# --- 3. CMake consumer ---------------------------------------------------
echo "install tests: CMake find_package consumer against the staged tree"
mkdir "$tmp/cm"
cp "$here/cmake/CMakeLists.txt" "$here/consumer.c" "$tmp/cm/"
cmake_common=(-DCMAKE_PREFIX_PATH="$root" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
              -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON)
if cmake_log=$(cmake -S "$tmp/cm" -B "$tmp/cm/out" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" "${cmake_common[@]}" 2>&1); then
    ok "cmake configures with find_package(offline_mesh 1.0 REQUIRED)"
else
    bad "cmake configure failed"; echo "$cmake_log" >&2
fi
found_dir=$(echo "$cmake_log" | sed -n 's/^-- offline_mesh .* from //p')
expect_eq "CMake found the staged package" "$found_dir" "$L/cmake/offline_mesh"
if cmake --build "$tmp/cm/out" >/dev/null 2>"$tmp/cm/build.err"; then
    ok "CMake consumer builds"
    loaded=$(ldd "$tmp/cm/out/consumer" | awk '/liboffline_mesh/ {print $3}')
    expect_eq "CMake consumer loads the staged library (RUNPATH from the imported target)" \
        "$loaded" "$L/liboffline_mesh.so.$major"
    out=$("$tmp/cm/out/consumer" 2>&1) || bad "CMake consumer exited $?"
    expect_eq "CMake consumer prints the mesh" "$out" "$(expected_output)"
else
    bad "CMake consumer does not build"; cat "$tmp/cm/build.err" >&2
fi

# probe "ARGS" yes|no [REASON]: find_package(offline_mesh ARGS) must (not)
# succeed; a refusal must name REASON (so it is not just "not found").
probe() {
    local args=$1 want=$2 reason=${3:-} dir got
    dir=$(mktemp -d "$tmp/probe.XXXX")
    if cmake -S "$here/cmake/probe" -B "$dir" "${cmake_common[@]}" \
            "-DPROBE_ARGS=$args" >"$dir/log" 2>&1; then got=yes; else got=no; fi
    if [ "$got" != "$want" ]; then
        bad "find_package(offline_mesh $args): found=$got, expected $want"; cat "$dir/log" >&2
    elif [ -n "$reason" ] && ! tr -s ' \n' ' ' < "$dir/log" | grep -q -- "$reason"; then
        bad "find_package(offline_mesh $args) refused, but not because of '$reason'"; cat "$dir/log" >&2
    else
        ok "find_package(offline_mesh $args) found=$want${reason:+ ($reason)}"
    fi
}
considered="offline_meshConfig.cmake, version: $version"
probe "" yes
probe "$major.0" yes
probe "$version EXACT" yes
probe "$major.0...<$((major + 1)).0" yes
probe "$((major + 1)).0" no "$considered"
minor=$(echo "$version" | cut -d. -f2)
probe "$major.$((minor + 1))" no "$considered"
probe "$((major - 1)).0...$((major - 1)).9" no "$considered"
probe "$major.0 COMPONENTS nonexistent" no "offline_mesh has no component nonexistent"
probe "$major.0 OPTIONAL_COMPONENTS nonexistent" yes

# --- 4. ABI guard ---------------------------------------------------------
echo "install tests: ABI guard"
if bash "$repo/abi/check.sh" "$build"; then ok "abi/check.sh passes on the build"; else bad "abi/check.sh failed"; fi

# The guard must fail on breaks. Mutated copies of the baseline play the
# role of a broken new library for abidiff ...
baseline="$repo/abi/offline_mesh-1.0.abi"
mutate() { python3 "$here/mutate_abi.py" "$baseline" "$tmp/$1.abi" "$1"; }
for m in remove-function change-return-type change-struct-size; do
    mutate "$m"
    if bash "$repo/abi/check.sh" --abidiff "$baseline" "$tmp/$m.abi" >"$tmp/$m.log" 2>&1; then
        bad "abidiff guard misses: $m"; cat "$tmp/$m.log" >&2
    elif ! grep -q "FAIL: abidiff .*ABI change (exit" "$tmp/$m.log"; then
        bad "abidiff guard failed on $m for another reason"; cat "$tmp/$m.log" >&2
    else
        ok "abidiff guard catches: $m ($(sed -n 's/.*: \([a-z ]*ABI change\) (exit.*/\1/p' "$tmp/$m.log"))"
    fi
done
# ... and doctored nm listings of the real library exercise the symbol checks.
nm -D --defined-only "$builtlib" > "$tmp/nm.txt"
some=$(awk '$2 == "T" && $3 ~ /@@OFFLINE_MESH_1\.0$/ {print $3; exit}' "$tmp/nm.txt")
some=${some%%@*}
symcheck() {  # symcheck LABEL CHECK NMFILE MESSAGE: must fail with MESSAGE
    local label=$1 check=$2 file=$3 message=$4
    local headers=(--header "$repo/include/offline_mesh.h" --header "$build/include/offline_mesh/version.h")
    local h
    for h in "$repo"/include/offline_mesh/*.h; do headers+=(--header "$h"); done
    if python3 "$repo/abi/abicheck.py" "$check" --nm "$file" \
            --map "$repo/src/offline_mesh.map" --baseline "$baseline" \
            "${headers[@]}" >"$tmp/sym.log" 2>&1; then
        bad "symbol guard misses: $label"; cat "$tmp/sym.log" >&2
    elif ! grep -q -- "FAIL: $message" "$tmp/sym.log"; then
        bad "symbol guard fails on $label, but not with '$message'"; cat "$tmp/sym.log" >&2
    else
        ok "symbol guard catches: $label"
    fi
}
{ cat "$tmp/nm.txt"; echo "0000000000009999 T helper_fn@@OFFLINE_MESH_1.0"; } > "$tmp/nm-prefix.txt"
symcheck "an export without the om_ prefix" exports "$tmp/nm-prefix.txt" \
    "helper_fn: exported without the om_ prefix"
{ cat "$tmp/nm.txt"; echo "0000000000009999 T om_unversioned"; } > "$tmp/nm-unversioned.txt"
symcheck "an unversioned export" exports "$tmp/nm-unversioned.txt" \
    "om_unversioned: exported without a symbol version"
{ cat "$tmp/nm.txt"; echo "0000000000009999 T om_new_call@@OFFLINE_MESH_9.9"; } > "$tmp/nm-node.txt"
symcheck "a version node missing from the map" exports "$tmp/nm-node.txt" \
    "om_new_call: version OFFLINE_MESH_9.9 is not a node"
{ cat "$tmp/nm.txt"; echo "0000000000009999 T om_new_call@@OFFLINE_MESH_1.0"; } > "$tmp/nm-frozen.txt"
symcheck "a symbol added to the released node OFFLINE_MESH_1.0" frozen "$tmp/nm-frozen.txt" \
    "om_new_call: added to the released node OFFLINE_MESH_1.0"
symcheck "an export no header declares" drift "$tmp/nm-frozen.txt" \
    "om_new_call: exported but declared with OM_API in no public header"
grep -v " ${some}@" "$tmp/nm.txt" > "$tmp/nm-missing.txt"
symcheck "a symbol removed from OFFLINE_MESH_1.0 ($some)" frozen "$tmp/nm-missing.txt" \
    "$some: removed from the released node OFFLINE_MESH_1.0"
symcheck "an OM_API declaration that is not exported ($some)" drift "$tmp/nm-missing.txt" \
    "$some: declared OM_API in"

# ... and rebuilt variants of the real library (a copy of the checkout with
# one edit each) show that the guard catches breaks in a real binary, where
# abidiff filters types through the public headers, and lets compatible
# changes through.
echo "install tests: ABI guard on rebuilt variants of the library"
mut="$tmp/variant"
mkdir "$mut"
copy_checkout "$mut"
meson setup "$mut/b" "$mut" -Dbuildtype=debugoptimized -Dtests=false -Dbench=false \
    >"$tmp/variant-setup.log" 2>&1 || { cat "$tmp/variant-setup.log" >&2; bad "variant build dir setup"; }
variant_target=$(cd "$mut/b" && realpath --relative-to=. "$(bash -c '. "$1/abi/lib.sh"; abi_library_path "$2"' _ "$mut" "$mut/b")")
# edit FILE PYTHON-REGEX REPLACEMENT: must change the file.
edit() {
    python3 - "$mut/$1" "$2" "$3" <<'PY' || bad "variant edit of $1 did not apply (update this test)"
import re, sys
path, pattern, repl = sys.argv[1:]
text = open(path).read()
new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
if n != 1:
    sys.exit(1)
open(path, "w").write(new)
PY
}
restore() { local f; for f in "$@"; do cp "$repo/$f" "$mut/$f"; done; }
# variant LABEL pass|fail [MESSAGE]: rebuild the library, run the copy's
# abi/check.sh, compare with the expected outcome and failure message.
variant() {
    local label=$1 want=$2 message=${3:-} got
    if ! ninja -C "$mut/b" -j2 "$variant_target" >"$tmp/variant-build.log" 2>&1; then
        bad "variant '$label' does not build"; tail -20 "$tmp/variant-build.log" >&2; return
    fi
    if bash "$mut/abi/check.sh" "$mut/b" >"$tmp/variant.log" 2>&1; then got=pass; else got=fail; fi
    if [ "$got" != "$want" ]; then
        bad "ABI guard on variant '$label': $got, expected $want"; cat "$tmp/variant.log" >&2
    elif [ -n "$message" ] && ! grep -q -- "$message" "$tmp/variant.log"; then
        bad "ABI guard fails variant '$label', but not with '$message'"; cat "$tmp/variant.log" >&2
    else
        ok "ABI guard on variant '$label': $want"
    fi
}
variant "unchanged copy" pass
edit include/offline_mesh/status.h '^#define OM_ERROR_MESSAGE_SIZE 256$' '#define OM_ERROR_MESSAGE_SIZE 128'
variant "om_error.message shrinks to 128 bytes" fail "FAIL: abidiff .*ABI change (exit"
restore include/offline_mesh/status.h
edit include/offline_mesh/status.h 'OM_ERR_BUFFER_TOO_SMALL = 12' 'OM_ERR_BUFFER_TOO_SMALL = 13'
variant "a pinned status value changes" fail "FAIL: abidiff .*ABI change (exit"
restore include/offline_mesh/status.h
edit include/offline_mesh/mesh.h '\bsize_t om_mesh_ndim\(' 'int om_mesh_ndim('
edit src/mesh.c '^size_t om_mesh_ndim\(' 'int om_mesh_ndim('
variant "om_mesh_ndim returns int" fail "FAIL: abidiff .*ABI change (exit"
restore include/offline_mesh/mesh.h src/mesh.c
edit src/internal.h '^struct om_dims \{$' 'struct om_dims {\n    int added_private_field;'
variant "a field added to the opaque struct om_dims" pass
restore src/internal.h
edit include/offline_mesh/version.h.in '^OM_END_DECLS$' 'OM_API int om_test_added(void);\n\nOM_END_DECLS'
printf '\nint om_test_added(void) { return 7; }\n' >> "$mut/src/version.c"
# The map names every 1.0 symbol and lets node 1.1 take the rest; 1.1 is
# released too (abi/offline_mesh-1.1.abi), so new API needs a new node.
variant "a function added without a new version node" fail \
    "FAIL: om_test_added: added to the released node OFFLINE_MESH_1.1"
edit src/offline_mesh.map '^    om_world_size_from_env;$' '    om_world_size_from_env;\n    om_test_added;'
variant "a function added to the released node OFFLINE_MESH_1.0" fail \
    "FAIL: om_test_added: added to the released node OFFLINE_MESH_1.0"
restore src/offline_mesh.map
# Node 1.2 is released too (abi/offline_mesh-1.2.abi).
edit src/offline_mesh.map '^(OFFLINE_MESH_1\.2 \{\n  global:)$' '\1\n    om_test_added;'
variant "a function added to the released node OFFLINE_MESH_1.2" fail \
    "FAIL: om_test_added: added to the released node OFFLINE_MESH_1.2"
restore src/offline_mesh.map
# 1.3 is released too (abi/offline_mesh-1.3.abi); it added no function, so
# the map has no node of its own: a node 1.3 made now is refused as late.
printf '\nOFFLINE_MESH_1.3 {\n  global:\n    om_test_added;\n} OFFLINE_MESH_1.2;\n' >> "$mut/src/offline_mesh.map"
variant "a function added in a new node OFFLINE_MESH_1.3 after 1.3's release" fail \
    "FAIL: om_test_added: in node OFFLINE_MESH_1.3, new since the release of offline_mesh-1.3.abi"
restore src/offline_mesh.map
# Into node 1.4: how the next release adds API.
printf '\nOFFLINE_MESH_1.4 {\n  global:\n    om_test_added;\n} OFFLINE_MESH_1.2;\n' >> "$mut/src/offline_mesh.map"
variant "a function added in node OFFLINE_MESH_1.4" pass
restore include/offline_mesh/version.h.in src/version.c src/offline_mesh.map

echo "install tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
