#!/bin/sh
# Generates the JNI wrapper (C) and the package-private Java classes of the
# raw layer from offline_mesh_java.i. Run by meson (bindings/java/meson.build);
# nothing it writes is committed.
#
# Usage: swig-java.sh SWIG OUTPUT_C JAVA_ROOT INTERFACE [swig options...]
#   JAVA_ROOT receives org/offlinemesh/*.java (a package-shaped folder that
#   Maven adds as a source root). It is emptied first, so no stale class
#   survives an interface change, and the set of generated files is checked:
#   a new SWIGTYPE_p_* class would mean a C type without a Java typemap.
set -eu

swig=$1
out_c=$2
java_root=$3
iface=$4
shift 4

pkg_dir=$java_root/org/offlinemesh
rm -rf "$java_root"
mkdir -p "$pkg_dir"

"$swig" -java -package org.offlinemesh -Werror -Wextra "$@" \
  -outdir "$pkg_dir" -o "$out_c" "$iface"

expected='DiagnosticKind.java Diagnostics.java Dim.java Flag.java Hierarchy.java LaunchFormat.java Locality.java LocalityField.java OfflineMesh.java OfflineMeshes.java OfflineMeshesJNI.java ParallelDims.java Preset.java Status.java World.java WorldSizeSource.java'
actual=$(cd "$pkg_dir" && ls | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
expected_sorted=$(printf '%s\n' $expected | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
if [ "$actual" != "$expected_sorted" ]; then
  echo "swig-java.sh: SWIG generated [$actual], expected [$expected_sorted]" >&2
  echo "swig-java.sh: give the new C type a typemap in offline_mesh_java.i" >&2
  rm -f "$out_c"
  exit 1
fi
