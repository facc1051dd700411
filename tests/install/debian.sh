#!/usr/bin/env bash
# Debian packaging test of liboffline_mesh (slow: a full package build).
#
#   bash tests/install/debian.sh            (as root, on Debian 12)
#
# 1. installs the build dependencies from debian/control (apt-get build-dep);
# 2. copies the checkout (tracked and untracked, not ignored, files) to a
#    temporary directory and runs `dpkg-buildpackage -us -uc -b` there;
# 3. checks which files each .deb holds;
# 4. installs the six .debs with `apt-get install ./*.deb` and checks the
#    installed package: the CLI and its man page, a pkg-config build of
#    tests/install/consumer.c (shared, and fully static through
#    `pkg-config --static`), a CMake find_package build, the Python
#    module under /usr/bin/python3, and a Java program compiled against
#    /usr/share/java/offline-mesh.jar and run with `java -cp` alone (the JVM
#    finds the JNI library in /usr/lib/<triplet>/jni, which finds
#    liboffline_mesh.so.1 by its RUNPATH $ORIGIN/..), and a Go program built
#    with the Go module against liboffline-mesh-dev (docs/go.md);
# 5. purges the packages again (also on failure), so no installed copy of
#    the library can mask a missing build step in other tests.
# lintian must report no error or warning on the .debs.
# Environment: OM_DEB_KEEP=DIR copies the built .debs to DIR.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
packages=(liboffline-mesh1 liboffline-mesh-dev offline-mesh-tools python3-offline-mesh
          liboffline-mesh-jni liboffline-mesh-java)
export DEBIAN_FRONTEND=noninteractive
# Debian's own tools and interpreter only (no pyenv shims, no venv).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset PYTHONPATH VIRTUAL_ENV PYENV_VERSION PKG_CONFIG_PATH LD_LIBRARY_PATH

if [ "$(id -u)" != 0 ]; then
    echo "debian.sh: run as root (it installs and purges packages)" >&2
    exit 2
fi

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
bad() { failed=$((failed + 1)); echo "  FAIL $*" >&2; }
expect_eq() {
    if [ "$2" = "$3" ]; then ok "$1"; else
        bad "$1"; diff <(echo "$3") <(echo "$2") >&2 || true
    fi
}

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

purge() {
    local installed=() p
    for p in "${packages[@]}"; do
        if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
            installed+=("$p")
        fi
    done
    if [ ${#installed[@]} -gt 0 ]; then
        apt-get purge -y -qq "${installed[@]}" >/dev/null
    fi
}
tmp=$(mktemp -d /tmp/om-debian-test.XXXXXX)
cleanup() { purge || true; rm -rf "$tmp"; }
trap cleanup EXIT
purge   # leftovers of an interrupted run

start=$(date +%s)
# --- 1. build dependencies ------------------------------------------------
echo "debian: installing build dependencies"
if ! apt-get build-dep -y -qq "$repo" >"$tmp/build-dep.log" 2>&1; then
    apt-get update -qq >/dev/null
    apt-get build-dep -y -qq "$repo" >"$tmp/build-dep.log" 2>&1 ||
        { cat "$tmp/build-dep.log" >&2; exit 1; }
fi
for tool in cmake:cmake cc:gcc lintian:lintian man:man-db; do
    command -v "${tool%%:*}" >/dev/null || apt-get install -y -qq "${tool#*:}" >/dev/null
done

# --- 2. package build -----------------------------------------------------
version=$(cd "$repo" && dpkg-parsechangelog -S Version)
src="$tmp/offline-mesh-$version"
mkdir "$src"
copy_checkout "$src"
echo "debian: dpkg-buildpackage -us -uc -b in $src"
t0=$(date +%s)
if (cd "$src" && dpkg-buildpackage -us -uc -b -j2) >"$tmp/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b ($(( $(date +%s) - t0 )) s)"
else
    bad "dpkg-buildpackage failed; last lines of the log:"
    tail -40 "$tmp/build.log" >&2
    echo "debian: 0 passed, 1 failed"
    exit 1
fi
if grep -E "^dpkg-gensymbols: warning|^dh_missing: warning" "$tmp/build.log" >&2; then
    bad "package build warnings (symbols file or files left out)"
else
    ok "no dpkg-gensymbols or dh_missing warnings"
fi
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -q DEB_HOST_MULTIARCH)
# deb_of PACKAGE: the .deb's path (the -java package is Architecture: all)
deb_of() { case "$1" in *-java) echo "$tmp/${1}_${version}_all.deb" ;; *) echo "$tmp/${1}_${version}_${arch}.deb" ;; esac; }
debs=()
for p in "${packages[@]}"; do
    deb=$(deb_of "$p")
    if [ -f "$deb" ]; then ok "built $(basename "$deb")"; debs+=("$deb"); else bad "no $(basename "$deb")"; fi
done
if lintian --allow-root --fail-on error,warning "${debs[@]}" >"$tmp/lintian.log" 2>&1; then
    ok "lintian: no errors or warnings"
else
    bad "lintian:"; cat "$tmp/lintian.log" >&2
fi
if [ -n "${OM_DEB_KEEP:-}" ]; then mkdir -p "$OM_DEB_KEEP" && cp "${debs[@]}" "$OM_DEB_KEEP/"; fi

# --- 3. contents ----------------------------------------------------------
contents() { dpkg-deb -c "$(deb_of "$1")" | awk '{print $6}' | sed 's#^\./#/#'; }
has() {  # has PACKAGE PATH-REGEX
    if contents "$1" | grep -qE "^$2\$"; then ok "$1 holds $2"; else bad "$1 lacks $2"; fi
}
lacks() {
    if contents "$1" | grep -qE "$2"; then bad "$1 holds $2"; else ok "$1 does not hold $2"; fi
}
L="/usr/lib/$multiarch"
# The real file carries the project version (meson.build), e.g. .so.1.1.0.
project_version=$(sed -n "s/^  version: '\([0-9.]*\)',\$/\1/p" "$repo/meson.build")
has liboffline-mesh1 "$L/liboffline_mesh\.so\.${project_version//./\\.}"
has liboffline-mesh1 "$L/liboffline_mesh\.so\.1"
lacks liboffline-mesh1 "(\.so|\.a|\.h|\.pc)\$"
has liboffline-mesh-dev "/usr/include/offline_mesh\.h"
has liboffline-mesh-dev "/usr/include/offline_mesh/version\.h"
has liboffline-mesh-dev "$L/liboffline_mesh\.so"
has liboffline-mesh-dev "$L/liboffline_mesh\.a"
has liboffline-mesh-dev "$L/pkgconfig/offline_mesh\.pc"
has liboffline-mesh-dev "$L/cmake/offline_mesh/offline_meshConfig\.cmake"
has liboffline-mesh-dev "$L/cmake/offline_mesh/offline_meshConfigVersion\.cmake"
has offline-mesh-tools "/usr/bin/offline-mesh"
has offline-mesh-tools "/usr/share/man/man1/offline-mesh\.1\.gz"
has python3-offline-mesh "/usr/lib/python3/dist-packages/offline_mesh/__init__\.py"
has python3-offline-mesh "/usr/lib/python3/dist-packages/offline_mesh/_core\..*\.so"
lacks python3-offline-mesh "liboffline_mesh\.so"
has liboffline-mesh-jni "$L/jni/liboffline_mesh_jni\.so"
lacks liboffline-mesh-jni "liboffline_mesh\.so"
has liboffline-mesh-java "/usr/share/java/offline-mesh-$version\.jar"
has liboffline-mesh-java "/usr/share/java/offline-mesh\.jar"
lacks liboffline-mesh-java "\.so\$"
mkdir "$tmp/java-deb"
dpkg-deb -x "$(deb_of liboffline-mesh-java)" "$tmp/java-deb"
jar_entries=$(python3 -m zipfile -l "$tmp/java-deb/usr/share/java/offline-mesh-$version.jar" | awk 'NR > 1 {print $1}')
if echo "$jar_entries" | grep -qx 'org/offlinemesh/OfflineMesh.class'; then ok "the packaged jar holds org.offlinemesh.OfflineMesh"; else bad "the packaged jar lacks OfflineMesh.class"; fi
if echo "$jar_entries" | grep -q '\.so$'; then bad "the packaged jar carries a native library"; else ok "the packaged jar carries no native library (liboffline-mesh-jni does)"; fi
deps=$(dpkg-deb -f "$(deb_of offline-mesh-tools)" Depends)
case "$deps" in *"liboffline-mesh1 (>= 1.2.0)"*) ok "offline-mesh-tools depends on liboffline-mesh1 (>= 1.2.0), the node its 1.2 calls need (strict configs)" ;;
    *) bad "offline-mesh-tools Depends: $deps" ;; esac
deps=$(dpkg-deb -f "$(deb_of python3-offline-mesh)" Depends)
# 1.0.0, 1.1.0 or 1.2.0: the lowest version whose symbols the binding calls.
case "$deps" in *"liboffline-mesh1 (>= 1."*"python3"*|*"python3"*"liboffline-mesh1 (>= 1."*)
    ok "python3-offline-mesh depends on python3 and liboffline-mesh1" ;;
    *) bad "python3-offline-mesh Depends: $deps" ;; esac
deps=$(dpkg-deb -f "$(deb_of liboffline-mesh-jni)" Depends)
case "$deps" in *"liboffline-mesh1 (>= 1."*) ok "liboffline-mesh-jni depends on liboffline-mesh1 ($deps)" ;;
    *) bad "liboffline-mesh-jni Depends: $deps" ;; esac
deps=$(dpkg-deb -f "$(deb_of liboffline-mesh-java)" Depends)
case "$deps" in *"liboffline-mesh-jni (>= $version)"*) ok "liboffline-mesh-java depends on liboffline-mesh-jni (>= $version)" ;;
    *) bad "liboffline-mesh-java Depends: $deps" ;; esac

# --- 4. install and use ---------------------------------------------------
echo "debian: apt-get install ./*.deb"
(cd "$tmp" && apt-get install -y -qq ./*.deb >"$tmp/install.log" 2>&1) &&
    ok "apt-get install ./*.deb" || { bad "apt-get install failed"; cat "$tmp/install.log" >&2; }

out=$(offline-mesh groups --mesh dp=2,cp=2,tp=2 --dims tp 2>&1) || true
expect_eq "installed CLI: groups over tp" "$out" "[[0,1],[2,3],[4,5],[6,7]]"
expect_eq "installed CLI: --version" "$(offline-mesh --version 2>&1 || true)" "offline-mesh $version"
# loaded LIB-USER: the file the dynamic loader picks for liboffline_mesh,
# with symlinks resolved (/lib is /usr/lib on merged-/usr systems).
loaded() { readlink -f "$(ldd "$1" | awk '/liboffline_mesh/ {print $3}')"; }
expect_eq "CLI loads the packaged library" \
    "$(loaded /usr/bin/offline-mesh)" "$L/liboffline_mesh.so.$version"
expect_eq "man -w offline-mesh" "$(man -w offline-mesh 2>&1 || true)" "/usr/share/man/man1/offline-mesh.1.gz"

expected="offline_mesh $version
mesh {\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[2,2,2]}
spec dp=2,cp=2,tp=2
size 8
tp groups: {0,1} {2,3} {4,5} {6,7}"
mkdir "$tmp/pc"
cp "$here/consumer.c" "$tmp/pc/"
cd "$tmp/pc"
expect_eq "pkg-config finds the packaged .pc" \
    "$(pkg-config --variable=pcfiledir offline_mesh 2>&1 || true)" "$L/pkgconfig"
if cc -std=c11 -Wall -Wextra -Wpedantic -Werror consumer.c \
        $(pkg-config --cflags --libs offline_mesh) -o consumer 2>&1; then
    ok "pkg-config consumer builds against the package"
    expect_eq "pkg-config consumer loads the packaged library" \
        "$(loaded ./consumer)" "$L/liboffline_mesh.so.$version"
    expect_eq "pkg-config consumer prints the mesh" "$(./consumer 2>&1 || true)" "$expected"
else
    bad "pkg-config consumer does not build"
fi
# Fully static: only what `pkg-config --static` lists may be needed.
if cc -static -std=c11 consumer.c $(pkg-config --static --cflags --libs offline_mesh) \
        -o consumer-static 2>"$tmp/static.log"; then
    ok "static consumer links with pkg-config --static"
    if ldd ./consumer-static >/dev/null 2>&1; then bad "static consumer is dynamic"; else ok "static consumer has no dynamic dependencies"; fi
    expect_eq "static consumer prints the mesh" "$(./consumer-static 2>&1 || true)" "$expected"
else
    bad "static consumer does not link"; cat "$tmp/static.log" >&2
fi

mkdir "$tmp/cm"
cp "$here/cmake/CMakeLists.txt" "$here/consumer.c" "$tmp/cm/"
if cmake -S "$tmp/cm" -B "$tmp/cm/out" >"$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm/out" >>"$tmp/cm.log" 2>&1; then
    ok "CMake consumer builds against the package"
    expect_eq "CMake found the packaged config" \
        "$(sed -n 's/^-- offline_mesh .* from //p' "$tmp/cm.log")" "$L/cmake/offline_mesh"
    expect_eq "CMake consumer loads the packaged library" \
        "$(loaded "$tmp/cm/out/consumer")" "$L/liboffline_mesh.so.$version"
    expect_eq "CMake consumer prints the mesh" "$("$tmp/cm/out/consumer" 2>&1 || true)" "$expected"
else
    bad "CMake consumer does not build"; cat "$tmp/cm.log" >&2
fi
# On merged-/usr systems CMake also finds the package through /lib (a
# symlink to /usr/lib) when /bin comes first on PATH; the paths must still
# resolve to /usr.
if [ -L /lib ]; then
    if PATH=/bin:/sbin:/usr/bin:/usr/sbin cmake -S "$tmp/cm" -B "$tmp/cm/out-lib" \
            >"$tmp/cm-lib.log" 2>&1 && cmake --build "$tmp/cm/out-lib" >>"$tmp/cm-lib.log" 2>&1; then
        ok "CMake consumer builds with the package found through /lib ($(sed -n 's/^-- offline_mesh .* from //p' "$tmp/cm-lib.log"))"
    else
        bad "CMake consumer fails when the package is found through /lib"; cat "$tmp/cm-lib.log" >&2
    fi
fi

cd /
core=$(ls /usr/lib/python3/dist-packages/offline_mesh/_core.*.so 2>/dev/null | head -1)
if [ -n "$core" ]; then
    expect_eq "Python extension loads the packaged library" "$(loaded "$core")" "$L/liboffline_mesh.so.$version"
else
    bad "no packaged Python extension"
fi
py=$(/usr/bin/python3 -c '
import offline_mesh as om
m = om.build_offline_mesh(om.ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=2))
print(om.__file__)
print(repr(m), m.size())' 2>&1) || true
expect_eq "python3 imports the packaged module and builds a mesh" "$py" \
"/usr/lib/python3/dist-packages/offline_mesh/__init__.py
OfflineMesh(mesh_dim_names=('dp', 'cp', 'tp'), mesh_shape=(2, 2, 2)) 8"

jni="$L/jni/liboffline_mesh_jni.so"
expect_eq "the JNI library's RUNPATH is \$ORIGIN/.." \
    "$(readelf -d "$jni" 2>/dev/null | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" '$ORIGIN/..'
expect_eq "the JNI library loads the packaged library" "$(loaded "$jni")" "$L/liboffline_mesh.so.$version"
# A Java program against the packaged jar, run with -cp and no other flag.
mkdir "$tmp/java"
cp "$repo/bindings/java/examples/MeshFromYaml.java" "$here/jar-consumer/src/main/java/WhichJni.java" \
    "$repo/examples/train.yaml" "$tmp/java/"
cd "$tmp/java"
jar=/usr/share/java/offline-mesh.jar
if javac -cp "$jar" -d . MeshFromYaml.java WhichJni.java 2>"$tmp/javac.log"; then
    ok "a Java program compiles against $jar"
    expect_eq "java -cp $jar:. loads the packaged JNI library" \
        "$(java -cp "$jar:." WhichJni 2>&1 | sed -n 's/^mapped //p')" "$jni"
    agree=0
    while IFS='|' read -r args answer; do
        # shellcheck disable=SC2086  # the CLI arguments are space-separated
        if [ "$answer" = "$(offline-mesh $args 2>&1)" ]; then agree=$((agree + 1)); else
            bad "offline-mesh $args differs from the Java program's $answer"
        fi
    done < <(java -cp "$jar:." MeshFromYaml train.yaml 16 tp-cp-ep-dp-pp 2>&1)
    if [ "$agree" -ge 20 ]; then ok "the Java program's $agree answers equal the installed CLI's"; else bad "only $agree Java answers agreed"; fi
else
    bad "a Java program does not compile against $jar"; cat "$tmp/javac.log" >&2
fi
cd /

# docs/go.md's Debian path: with liboffline-mesh-dev installed, `go build`
# of a program using the Go module needs no PKG_CONFIG_PATH and the program
# no LD_LIBRARY_PATH.
# shellcheck source=tests/install/go-toolchain.sh
. "$here/go-toolchain.sh"
GO=$(om_find_go)
if [ -n "$GO" ]; then
    mkdir "$tmp/go"
    cp "$repo/bindings/go/testdata/consumer/main.go" "$repo/bindings/go/testdata/consumer/train.yaml" "$tmp/go/"
    module=$(sed -n 's/^module //p' "$repo/bindings/go/go.mod")
    printf 'module example.com/meshjob\n\ngo 1.24\n\nrequire %s v0.0.0\n\nreplace %s => %s\n' \
        "$module" "$module" "$src/bindings/go" > "$tmp/go/go.mod"
    if (cd "$tmp/go" && GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=1 "$GO" build ./...) >"$tmp/go.log" 2>&1; then
        ok "go build against the packaged liboffline-mesh-dev (no PKG_CONFIG_PATH)"
        expect_eq "the Go program loads the packaged library" "$(loaded "$tmp/go/meshjob")" "$L/liboffline_mesh.so.$version"
        expect_eq "the Go program prints testdata/consumer/expected.txt" \
            "$(cd "$tmp/go" && env -u WORLD_SIZE ./meshjob train.yaml 16 2>&1)" \
            "$(cat "$repo/bindings/go/testdata/consumer/expected.txt")"
    else
        bad "go build against the packaged library failed"; cat "$tmp/go.log" >&2
    fi
else
    bad "no Go >= 1.24 for the Go check (bindings/go/run-tests.sh installs one)"
fi

# --- 5. purge ---------------------------------------------------------------
purge
left=$(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null | grep "ok installed" || true)
expect_eq "packages purged again" "$left" ""
if [ -e "$L/liboffline_mesh.so.1" ] || [ -e /usr/bin/offline-mesh ] ||
        [ -e "$L/jni/liboffline_mesh_jni.so" ] || [ -e /usr/share/java/offline-mesh.jar ]; then
    bad "files remain after the purge"
else
    ok "no packaged file remains"
fi

echo "debian: $passed passed, $failed failed ($(( $(date +%s) - start )) s)"
[ "$failed" -eq 0 ]
