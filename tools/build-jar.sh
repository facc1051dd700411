#!/usr/bin/env bash
# Builds the jar that carries its native library and installs it into the
# local Maven repository (org.offlinemesh:offline-mesh):
#
#   tools/build-jar.sh          prints the jar's path as its last line
#
# 1. a PIC static jansson (Debian 12's libjansson.a is not PIC: its load.o
#    refers to stdin PC-relatively): Debian's own source package, fetched
#    with apt-get source through a private deb-src list and built with
#    CMake into build-jar/jansson-pic (once; reused while present);
# 2. meson build dir build-jar/native with -Djava=enabled -Djar_native=true:
#    bindings/java/jar/liboffline_mesh_jni.so links the static PIC copy of
#    liboffline_mesh, libyaml.a (PIC in Debian) and that jansson, exports
#    only the JNI entry points and needs glibc alone (libc and its loader) (checked here);
# 3. `mvn install -DskipTests` of a copy of bindings/java (pom.xml and
#    src/main) in build-jar/maven, so bindings/java/target is never touched:
#    the pom copies the library into the jar at
#    org/offlinemesh/native/linux-x86_64/ (bindings/java/run-tests.sh runs
#    the JUnit suite).
# Build tools are installed with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/build-jar"
mkdir -p "$work"
say() { echo "build-jar: $*" >&2; }

need=()
for pair in javac:openjdk-17-jdk-headless mvn:maven swig:swig meson:meson ninja:ninja-build \
            gcc:gcc pkg-config:pkgconf cmake:cmake dpkg-source:dpkg-dev readelf:binutils; do
    command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
done
dpkg-query -W -f='${Status}' libyaml-dev 2>/dev/null | grep -q "ok installed" || need+=(libyaml-dev)
if [ ${#need[@]} -gt 0 ]; then
    say "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi
if [ -z "${JAVA_HOME:-}" ]; then
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    export JAVA_HOME
fi

# --- 1. PIC jansson from Debian's source package ---------------------------
pic="$work/jansson-pic"
if [ ! -f "$pic/prefix/lib/libjansson.a" ]; then
    say "building a PIC libjansson.a from Debian's jansson source package"
    rm -rf "$pic"
    mkdir -p "$pic/lists/partial"
    echo "deb-src ${OM_DEBIAN_MIRROR:-http://deb.debian.org/debian} bookworm main" > "$pic/sources.list"
    apt_src=(-o "Dir::Etc::SourceList=$pic/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$pic/lists" -o APT::Sandbox::User=root)
    apt-get -qq "${apt_src[@]}" update
    (cd "$pic" && apt-get -qq "${apt_src[@]}" source --download-only jansson >/dev/null)
    # (apt checked the files against the signed Sources index; the .dsc's
    # own signature cannot be checked without the uploader's key)
    (cd "$pic" && dpkg-source -q -x jansson_*.dsc src >"$pic/dpkg-source.log" 2>&1) ||
        { cat "$pic/dpkg-source.log" >&2; exit 1; }
    cmake -S "$pic/src" -B "$pic/build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DJANSSON_BUILD_SHARED_LIBS=OFF \
        -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF \
        -DCMAKE_INSTALL_PREFIX="$pic/prefix" >"$pic/cmake.log" 2>&1 ||
        { cat "$pic/cmake.log" >&2; exit 1; }
    cmake --build "$pic/build" -j2 >/dev/null
    cmake --install "$pic/build" >/dev/null
fi

# --- 2. the self-contained JNI library --------------------------------------
native="$work/native"
if [ ! -f "$native/build.ninja" ]; then
    rm -rf "$native"
    say "configuring $native"
    PKG_CONFIG_PATH="$pic/prefix/lib/pkgconfig" meson setup "$native" "$repo" \
        -Djava=enabled -Djar_native=true -Dtests=false -Dbench=false -Dcli=false \
        -Dwerror=true >/dev/null
fi
ninja -C "$native" -j2 bindings/java/liboffline_mesh_jni.so \
    bindings/java/jar/liboffline_mesh_jni.so >/dev/null
lib="$native/bindings/java/jar/liboffline_mesh_jni.so"
# glibc's own parts only: libc, and the dynamic loader that resolves the
# thread-local storage of src/json_read.c (__tls_get_addr).
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux' | tr '\n' ' ')
if [ "$needed" != "libc.so.6 " ]; then
    say "$lib needs more than libc: $needed"
    exit 1
fi
if nm -D --defined-only "$lib" | awk '{print $3}' | grep -qv '^Java_'; then
    say "$lib exports more than the JNI entry points:"
    nm -D --defined-only "$lib" | grep -v ' Java_' >&2
    exit 1
fi

# --- 3. the jar --------------------------------------------------------------
maven="$work/maven"
rm -rf "$maven"
mkdir -p "$maven/src"
cp bindings/java/pom.xml "$maven/"
cp -r bindings/java/src/main "$maven/src/"
say "mvn install (jar with org/offlinemesh/native/linux-x86_64/liboffline_mesh_jni.so)"
(cd "$maven" && mvn -B -ntp -q -DskipTests -Dom.native.dir="$native/bindings/java" install) >&2
version=$(meson introspect --projectinfo "$native" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
jar="$maven/target/offline-mesh-$version.jar"
[ -f "$jar" ] || { say "no $jar"; exit 1; }
echo "$jar"
