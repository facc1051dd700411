#!/usr/bin/env bash
# Java binding tests, run by tools/test.sh as
#   bash bindings/java/run-tests.sh <lead build dir>     (OM_BUILD_DIR set too)
# 1. installs what is missing (JDK 17, Maven, SWIG, meson toolchain);
# 2. builds liboffline_mesh_jni.so and the offline-mesh CLI in its own meson
#    build dir (-Djava=enabled -Dwerror=true), never touching the lead's;
# 3. runs the JUnit 5 suite and packages the jar (mvn package: "Tests run:");
# 4. compiles a program outside the repository (a temp dir) against the jar
#    alone, builds meshes from YAML files with it, and compares every answer
#    with the CLI's.
# Environment: OM_JAVA_BUILD_DIR overrides the native build dir
# (default bindings/java/build-native, git-ignored).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${OM_JAVA_BUILD_DIR:-$here/build-native}"

log() { echo "java: $*"; }

# ---- 1. dependencies ------------------------------------------------------
missing=()
need_pkg() { # package [command]
  local pkg="$1" cmd="${2:-}"
  if [ -n "$cmd" ]; then
    command -v "$cmd" >/dev/null 2>&1 && return 0
  else
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" && return 0
  fi
  missing+=("$pkg")
}
need_pkg openjdk-17-jdk-headless javac
need_pkg maven mvn
need_pkg swig swig
need_pkg meson meson
need_pkg ninja-build ninja
need_pkg gcc gcc
need_pkg pkg-config pkg-config
need_pkg libyaml-dev
need_pkg libjansson-dev
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# meson finds the JDK (and jni.h) through javac; follow the alternatives link.
if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  export JAVA_HOME
fi

# ---- 2. native build -------------------------------------------------------
if [ ! -f "$build/build.ninja" ]; then
  log "configuring $build"
  rm -rf "$build" # a setup that failed half-way
  meson setup "$build" "$root" -Djava=enabled -Dtests=false -Dbench=false \
    -Dwerror=true >/dev/null
fi
ninja -C "$build" -j2 bindings/java/liboffline_mesh_jni.so src/cli/offline-mesh >/dev/null
native="$build/bindings/java"
cli="$build/src/cli/offline-mesh"
log "JNI library: $native/liboffline_mesh_jni.so"

# ---- 3. JUnit suite and the jar ---------------------------------------------
# The artifact's version is the library's (meson.build): a jar that calls
# 1.3 API must not be published as an older version. The jar consumer of
# tests/install depends on that version too.
version=$(meson introspect --projectinfo "$build" | python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
for pom in "$here/pom.xml" "$root/tests/install/jar-consumer/pom.xml"; do
  pom_version=$(python3 - "$pom" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
root = ET.parse(sys.argv[1]).getroot()
own = root.find("m:artifactId", ns).text == "offline-mesh"
node = root if own else root.find("m:dependencies/m:dependency[m:artifactId='offline-mesh']", ns)
print(node.find("m:version", ns).text)
PY
)
  if [ "$pom_version" != "$version" ]; then
    log "FAIL: $pom gives org.offlinemesh:offline-mesh $pom_version, the library is $version"
    exit 1
  fi
done
log "org.offlinemesh:offline-mesh $version, as meson.build"
cd "$here"
mvn -B -ntp -Dom.native.dir="$native" package
echo # Maven ends its output with colour resets but no newline
jar="$here/target/offline-mesh-$version.jar"
[ -f "$jar" ] || { log "missing $jar"; exit 1; }

# ---- 4. a program outside the repository, checked against the CLI ----------
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$here/examples/MeshFromYaml.java" "$tmp/"
cat > "$tmp/moe.yaml" <<'YAML'
# outside the repository: merge keys, flow style, YAML 1.1 booleans
defaults: &d {tp_size: 2, cp_size: 2}
accelerator:
  <<: *d
  ep_size: 4
  sequence_parallel: on
YAML
printf 'accelerator:\r\n  tp_size: 2\r\n  pp_size: 2\r\n  cp_size: 1\r\n' > "$tmp/pipeline.yaml"

(cd "$tmp" && javac -cp "$jar" -d classes MeshFromYaml.java)
ask_java() { # config world_size order
  (cd "$tmp" && java -cp "$jar:classes" -Djava.library.path="$native" MeshFromYaml "$@")
}
ask_java moe.yaml 16 tp-cp-ep-dp-pp > "$tmp/moe.txt"
ask_java pipeline.yaml 8 pp,dp,cp,tp > "$tmp/pipeline.txt"

# The same program against a staged install (no build-dir rpath): the JNI
# library found through java.library.path, liboffline_mesh.so.1 through the
# dynamic linker.
DESTDIR="$tmp/stage" meson install -C "$build" --quiet >/dev/null
jni_installed="$(find "$tmp/stage" -name liboffline_mesh_jni.so | head -n 1)"
[ -n "$jni_installed" ] || { log "meson install did not install liboffline_mesh_jni.so"; exit 1; }
libdir="$(dirname "$jni_installed")"
(cd "$tmp" && LD_LIBRARY_PATH="$libdir" java -cp "$jar:classes" -Djava.library.path="$libdir" \
  MeshFromYaml moe.yaml 16 tp-cp-ep-dp-pp) > "$tmp/moe-installed.txt"
cmp -s "$tmp/moe.txt" "$tmp/moe-installed.txt" \
  || { log "the installed library answers differently"; diff "$tmp/moe.txt" "$tmp/moe-installed.txt"; exit 1; }
log "installed JNI library ($libdir) gives the same $(wc -l < "$tmp/moe-installed.txt") answers"

# Fixed expectations first, then every line against the CLI.
grep -qxF 'mesh moe.yaml --world-size 16|{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[4,2,2]}' "$tmp/moe.txt" \
  || { log "unexpected mesh for moe.yaml:"; cat "$tmp/moe.txt"; exit 1; }
grep -qxF 'mesh pipeline.yaml --world-size 8|{"mesh_dim_names":["dp","cp","tp","pp"],"mesh_shape":[2,1,2,2]}' "$tmp/pipeline.txt" \
  || { log "unexpected mesh for pipeline.yaml:"; cat "$tmp/pipeline.txt"; exit 1; }
grep -qxF 'experts moe.yaml --world-size 16 --ep 4|{"edp":4,"edp_groups":[[0,4,8,12],[1,5,9,13],[2,6,10,14],[3,7,11,15]],"ep":4,"ep_groups":[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15]]}' "$tmp/moe.txt" \
  || { log "unexpected expert layout for moe.yaml:"; cat "$tmp/moe.txt"; exit 1; }

# The program of docs/java.md ("Using it") as written, and the output shown there.
doc_block() { # marker: the fenced block after <!-- marker --> in docs/java.md
  awk -v m="<!-- $1 -->" '$0 == m { on = 1; next } on && /^```/ { if (in_block) exit; in_block = 1; next } in_block' "$root/docs/java.md"
}
mkdir "$tmp/doc"
doc_block example-program > "$tmp/doc/Example.java"
doc_block example-output > "$tmp/doc/expected.txt"
(cd "$tmp/doc" && javac -cp "$jar" -d . Example.java && java -cp "$jar:." -Djava.library.path="$native" Example > out.txt)
diff -u "$tmp/doc/expected.txt" "$tmp/doc/out.txt" \
  || { log "the program of docs/java.md prints something else than the page shows"; exit 1; }
log "docs/java.md: the example program prints what the page shows ($(wc -l < "$tmp/doc/out.txt") lines)"

# Every exported C function has a Java entry in bindings/parity.tsv, and
# each Java name it gives exists in the sources (SWIG's included).
python3 "$root/bindings/parity_check.py" "$build/src/liboffline_mesh.so" --language Java \
  --java-generated "$native/java-src"

# methods.py (the Java methods, derived at build time) refuses what it
# cannot derive: a Java name for a function no header declares, and a
# function whose outputs give no single Java result (two handles or texts;
# a bulk output beside another output).
gen_fails() { # expected-message row [header text]
  local dir="$tmp/gen"
  rm -rf "$dir" && mkdir "$dir"
  { cat "$root/bindings/parity.tsv"; printf '%s\n' "$2"; } > "$dir/parity.tsv"
  printf '%s\n' "${3:-}" > "$dir/extra.h"
  if python3 "$here/methods.py" "$dir/parity.tsv" "$root"/include/offline_mesh/*.h \
      "$root/include/offline_mesh/version.h.in" "$dir/extra.h" "$dir/names.i" "$dir/methods.i" 2> "$dir/err"; then
    log "methods.py accepted: $2"; exit 1
  fi
  grep -qF "$1" "$dir/err" || { log "methods.py said: $(cat "$dir/err")"; exit 1; }
}
gen_fails "om_mesh_frobnicate is in" "$(printf 'om_mesh_frobnicate\tx\tx\tOfflineMesh.frobnicate')"
gen_fails "no Java return kind for the outputs of om_mesh_twice" \
  "$(printf 'om_mesh_twice\tx\tx\tOfflineMesh.twice')" \
  "OM_API om_status om_mesh_twice(const om_mesh *mesh, om_mesh **out, char **text, om_error *err);"
gen_fails "no Java return kind for the outputs of om_mesh_thrice" \
  "$(printf 'om_mesh_thrice\tx\tx\tOfflineMesh.thrice')" \
  "OM_API om_status om_mesh_thrice(const om_mesh *mesh, int64_t *out, size_t out_len, size_t *needed, int64_t *extra, om_error *err);"
gen_fails "no count for the index of om_frob_name" "$(printf 'om_frob_name\tx\tx\tOfflineMeshes.frobName')" \
  "OM_API const char *om_frob_name(size_t index);"
# and what it derives for one function of each shape
for line in '%rename(groupOfNamed) om_mesh::om_mesh_group_of_named;' \
    '%newobject om_hierarchy::om_hierarchy_locality;' \
    '%rename(buildOfflineMesh) om_dims::om_mesh_from_dims;' \
    'om_java_ints om_mesh_group_of_named(om_java_array *r, const char *const *axes, size_t naxes, int64_t rank, om_error *err) const { if (om_java_room(r, sizeof(int32_t), om_mesh_group_of_named($self, axes, naxes, rank, 0, 0, &r->n, err), err) && om_mesh_group_of_named($self, axes, naxes, rank, r->values, r->n, &r->n, err) != OM_OK) r->n = 0; return r; }' \
    'om_locality *om_hierarchy_locality(const om_mesh *mesh, const char *const *vaxes, size_t nvaxes, om_error *err) const { om_locality *out = 0; return om_hierarchy_locality(mesh, $self, vaxes, nvaxes, &out, err) == OM_OK ? out : 0; }' \
    'char *om_hierarchy_check(const om_mesh *mesh, const char *rules, om_error *err) const { char *violations = 0; size_t count = 0; return om_hierarchy_check(mesh, $self, rules, &violations, &count, err) == OM_OK ? violations : 0; }' \
    'static om_java_size omj_world_size_resolve(om_java_array *r, int64_t explicit_size, om_error *err) { int64_t world_size = 0; om_world_size_source source = 0; if (om_world_size_resolve(explicit_size, &world_size, &source, err) == OM_OK) { r->n = 2; r->stack[0] = world_size; r->stack[1] = source; } return r; } %}' \
    'size_t om_diagnostics_count(void) const { return om_diagnostics_count($self); }' \
    'const char *om_mesh_name(size_t index, om_error *err) const { if (!om_java_index(index, om_mesh_ndim($self), "axis", "axes of the mesh", err)) return 0; return om_mesh_name($self, index); }' \
    'om_java_groups om_preset_group_list(om_java_array *r, const char *name, om_error *err) const { if (om_java_room(r, sizeof(int32_t), om_preset_group_list($self, name, 0, 0, &r->n, &r->group_size, err), err) && om_preset_group_list($self, name, r->values, r->n, &r->n, &r->group_size, err) != OM_OK) r->n = 0; return r; }' \
    'static om_java_longs omj_world_size_from_env(om_java_array *r, om_error *err) { int64_t world_size = 0; bool found = 0; if (om_world_size_from_env(&world_size, &found, err) == OM_OK) { r->n = 2; r->stack[0] = world_size; r->stack[1] = found; } return r; } %}' \
    'bool om_dims_dp_given(om_error *err) const { bool given = 0; return om_dims_dp_given($self, &given, err) == OM_OK ? given : 0; }' \
    'void om_dims_set(om_dim dim, int64_t value, om_error *err) { if (om_dims_set($self, dim, value, err) != OM_OK) return; }' \
    '%javaexception("java.io.IOException") om_dims::om_dims_read_yaml %{ $action %}'; do
  grep -qF "$line" "$native/offline_mesh_java_methods.i" || { log "methods.py did not derive: $line"; exit 1; }
done
log "methods.py: derived declarations as expected, refuses what it cannot derive"

agree=0
differ=0
while IFS='|' read -r cli_args java_answer; do
  # shellcheck disable=SC2086  # the arguments are space-separated on purpose
  cli_answer="$(cd "$tmp" && "$cli" $cli_args 2>&1)" || true
  if [ "$cli_answer" = "$java_answer" ]; then
    agree=$((agree + 1))
  else
    differ=$((differ + 1))
    log "differs from the CLI: offline-mesh $cli_args"
    log "  java: $java_answer"
    log "  cli : $cli_answer"
  fi
done < <(cat "$tmp/moe.txt" "$tmp/pipeline.txt")
log "outside program agrees with the CLI on $agree answers, differs on $differ"
[ "$differ" -eq 0 ] && [ "$agree" -ge 40 ]
