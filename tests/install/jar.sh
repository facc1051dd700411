#!/usr/bin/env bash
# The jar carries its native library and runs where nothing was built:
#
#   bash tests/install/jar.sh BUILD_DIR        (as root; or OM_BUILD_DIR=...)
#
# 1. tools/build-jar.sh builds the jar and `mvn install`s it;
# 2. checks the bundled org/offlinemesh/native/linux-x86_64/
#    liboffline_mesh_jni.so: it needs glibc alone and exports only Java_*;
# 3. compiles a Maven consumer (tests/install/jar-consumer: the dependency
#    org.offlinemesh:offline-mesh and no other setup) with MeshFromYaml and
#    WhichJni against the installed artifact;
# 4. in the clean root file system (tools/in-clean-rootfs.sh: Debian 12 with
#    a JRE and no libyaml, jansson, JDK or compiler, checked first) runs
#    `java -cp offline-mesh-1.3.0.jar:. MeshFromYaml ...` with no other flag
#    and compares every answer with the CLI of BUILD_DIR; checks that the
#    library was loaded from a temporary copy that is gone afterwards, that
#    -Dofflinemesh.jni.path overrides the bundled copy (and a wrong path
#    names itself in the error);
# 5. stages a meson install of the same build under /opt/om-prefix-test and
#    checks that the installed <libdir>/jni/liboffline_mesh_jni.so finds
#    liboffline_mesh.so.1 without LD_LIBRARY_PATH (RUNPATH $ORIGIN/..).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/check-setup.sh" jar "$@"

# --- 1. build and mvn install ---------------------------------------------
if jar=$("$repo/tools/build-jar.sh" 2>"$tmp/build.log" | tail -1) && [ -f "$jar" ]; then
    ok "tools/build-jar.sh built and installed $(basename "$jar")"
else
    bad "tools/build-jar.sh failed"; tail -30 "$tmp/build.log" >&2
    # --- 5. the installed JNI library finds liboffline_mesh.so.1 by RUNPATH -----
# A meson install of the jar's native build dir under an unusual prefix, no
# LD_LIBRARY_PATH: <libdir>/jni/liboffline_mesh_jni.so has RUNPATH $ORIGIN/..
stage="$tmp/stage"
meson_prefix=/opt/om-prefix-test
if (meson configure "$repo/build-jar/native" -Dprefix="$meson_prefix" >/dev/null &&
        DESTDIR="$stage" meson install -C "$repo/build-jar/native" --quiet >/dev/null 2>&1); then
    jni=$(find "$stage" -path '*/jni/liboffline_mesh_jni.so' | head -1)
    if [ -n "$jni" ]; then
        expect_eq "installed JNI library resolves liboffline_mesh.so.1 next to it (no LD_LIBRARY_PATH)" \
            "$(env -u LD_LIBRARY_PATH ldd "$jni" | awk '/liboffline_mesh\.so/ {print $3}')" \
            "$(dirname "$jni")/../liboffline_mesh.so.1"
        out=$(cd "$tmp/in" && env -u LD_LIBRARY_PATH java -Dofflinemesh.jni.path="$jni" \
            -cp "offline-mesh-1.3.0.jar:." WhichJni 2>&1 | sed -n 's/^mapped //p')
        expect_eq "a Java program loads the installed JNI library from $meson_prefix" "$out" "$jni"
    else
        bad "meson install put no jni/liboffline_mesh_jni.so under $stage"
    fi
else
    bad "meson install of build-jar/native failed"
fi

echo "jar: $passed passed, $failed failed"; exit 1
fi

# --- 2. the bundled library -----------------------------------------------
entry=org/offlinemesh/native/linux-x86_64/liboffline_mesh_jni.so
mkdir "$tmp/x"
if (cd "$tmp/x" && python3 -m zipfile -e "$jar" . && [ -f "$entry" ]); then
    ok "the jar holds $entry"
    so="$tmp/x/$entry"
    # glibc only: libc and its dynamic loader (thread-local storage needs it)
    expect_eq "the bundled library needs glibc alone" \
        "$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux')" "libc.so.6"
    expect_eq "the bundled library exports only JNI entry points" \
        "$(nm -D --defined-only "$so" | awk '$3 !~ /^Java_org_offlinemesh_/' )" ""
    expect_eq "the bundled library has no RUNPATH" "$(readelf -d "$so" | grep -c PATH || true)" "0"
else
    bad "the jar lacks $entry"
fi

# --- 3. a Maven consumer ----------------------------------------------------
cp -r "$here/jar-consumer" "$tmp/consumer"
cp "$repo/bindings/java/examples/MeshFromYaml.java" "$tmp/consumer/src/main/java/"
if (cd "$tmp/consumer" && mvn -B -ntp -q compile) >"$tmp/consumer.log" 2>&1; then
    ok "a Maven project depending on org.offlinemesh:offline-mesh:1.3.0 compiles"
else
    bad "the Maven consumer does not compile"; cat "$tmp/consumer.log" >&2
fi
installed="$HOME/.m2/repository/org/offlinemesh/offline-mesh/1.3.0/offline-mesh-1.3.0.jar"
if cmp -s "$installed" "$jar"; then ok "mvn install put this jar in the local repository"; else bad "$installed differs from $jar"; fi

# --- 4. run in the clean root -------------------------------------------------
mkdir "$tmp/in"
cp "$installed" "$tmp/in/"
cp "$tmp"/consumer/target/classes/*.class "$tmp/in/"
cp "$repo/examples/train.yaml" "$tmp/in/"
mkdir "$tmp/in/alt"
[ -n "${so:-}" ] && cp "$so" "$tmp/in/alt/liboffline_mesh_jni.so"
cat > "$tmp/in/run.sh" <<'SH'
set -u
for lib in libyaml-0.so.2 libjansson.so.4 liboffline_mesh.so.1; do
    if [ -n "$(find / -xdev -name "$lib*" 2>/dev/null | head -1)" ]; then echo "root has $lib"; exit 3; fi
done
for tool in cc gcc javac mvn; do
    if command -v "$tool" >/dev/null; then echo "root has $tool"; exit 3; fi
done
echo "clean: a JRE, no libyaml, jansson, JDK or compiler"
java -cp offline-mesh-1.3.0.jar:. MeshFromYaml train.yaml 16 tp-cp-ep-dp-pp > answers16.txt || exit 4
java -cp offline-mesh-1.3.0.jar:. MeshFromYaml train.yaml 8 pp,dp,cp,tp > answers8.txt || exit 4
cat answers16.txt answers8.txt | sed 's/^/answer /'
java -cp offline-mesh-1.3.0.jar:. WhichJni | sed 's/^/bundled /'
echo "leftover $(ls /tmp | grep -c offline_mesh_jni)"
java -Dofflinemesh.jni.path=/work/alt/liboffline_mesh_jni.so -cp offline-mesh-1.3.0.jar:. WhichJni | sed 's/^/override /'
java -Dofflinemesh.jni.path=/work/alt/missing.so -cp offline-mesh-1.3.0.jar:. WhichJni | sed 's/^/wrong /'
SH
if "$repo/tools/in-clean-rootfs.sh" "$tmp/in" sh run.sh >"$tmp/run.out" 2>"$tmp/run.err"; then
    ok "java -cp offline-mesh-1.3.0.jar:. in the clean root ran"
else
    bad "the programs in the clean root failed:"; cat "$tmp/run.out" "$tmp/run.err" >&2
fi
expect_eq "the clean root has a JRE and no libyaml, jansson, JDK or compiler" \
    "$(sed -n 1p "$tmp/run.out")" "clean: a JRE, no libyaml, jansson, JDK or compiler"
version=$("$cli" --version | awk '{print $2}')
expect_eq "no flag: the bundled library loads" "$(sed -n 's/^bundled version //p' "$tmp/run.out")" "$version"
case "$(sed -n 's/^bundled mapped //p' "$tmp/run.out")" in
    "/tmp/liboffline_mesh_jni-"*".so (deleted)") ok "loaded from a temporary copy, deleted once loaded" ;;
    *) bad "bundled library mapped from: $(sed -n 's/^bundled mapped //p' "$tmp/run.out")" ;;
esac
expect_eq "no temporary copy is left in /tmp" "$(sed -n 's/^leftover //p' "$tmp/run.out")" "0"
expect_eq "-Dofflinemesh.jni.path overrides the bundled library" \
    "$(sed -n 's/^override mapped //p' "$tmp/run.out")" "/work/alt/liboffline_mesh_jni.so"
case "$(sed -n 's/^wrong error //p' "$tmp/run.out")" in
    *"offlinemesh.jni.path=/work/alt/missing.so"*) ok "a wrong -Dofflinemesh.jni.path is named in the error" ;;
    *) bad "wrong path: $(grep '^wrong' "$tmp/run.out")" ;;
esac
expect_eq "the job's mesh for train.yaml at 16 ranks" \
    "$(sed -n 's/^answer mesh train.yaml --world-size 16|//p' "$tmp/run.out")" \
    '{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[4,2,2]}'
agree=0
while IFS='|' read -r args answer; do
    # shellcheck disable=SC2086  # the CLI arguments are space-separated
    expected=$(cd "$repo/examples" && "$cli" $args 2>&1) || true
    if [ "$answer" = "$expected" ]; then agree=$((agree + 1)); else
        bad "offline-mesh $args: the jar says $answer, the CLI says $expected"
    fi
done < <(sed -n 's/^answer //p' "$tmp/run.out")
if [ "$agree" -ge 40 ]; then ok "the jar's $agree answers equal the CLI's"; else bad "only $agree answers agreed"; fi

# --- 5. the installed JNI library finds liboffline_mesh.so.1 by RUNPATH -----
# A meson install of the jar's native build dir under an unusual prefix, no
# LD_LIBRARY_PATH: <libdir>/jni/liboffline_mesh_jni.so has RUNPATH $ORIGIN/..
stage="$tmp/stage"
meson_prefix=/opt/om-prefix-test
if (meson configure "$repo/build-jar/native" -Dprefix="$meson_prefix" >/dev/null &&
        DESTDIR="$stage" meson install -C "$repo/build-jar/native" --quiet >/dev/null 2>&1); then
    jni=$(find "$stage" -path '*/jni/liboffline_mesh_jni.so' | head -1)
    if [ -n "$jni" ]; then
        expect_eq "installed JNI library resolves liboffline_mesh.so.1 next to it (no LD_LIBRARY_PATH)" \
            "$(env -u LD_LIBRARY_PATH ldd "$jni" | awk '/liboffline_mesh\.so/ {print $3}')" \
            "$(dirname "$jni")/../liboffline_mesh.so.1"
        out=$(cd "$tmp/in" && env -u LD_LIBRARY_PATH java -Dofflinemesh.jni.path="$jni" \
            -cp "offline-mesh-1.3.0.jar:." WhichJni 2>&1 | sed -n 's/^mapped //p')
        expect_eq "a Java program loads the installed JNI library from $meson_prefix" "$out" "$jni"
    else
        bad "meson install put no jni/liboffline_mesh_jni.so under $stage"
    fi
else
    bad "meson install of build-jar/native failed"
fi

echo "jar: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" -eq 0 ]
