#!/usr/bin/env bash
# The Python wheel installs and runs where nothing was built:
#
#   bash tests/install/wheel.sh BUILD_DIR       (as root; or OM_BUILD_DIR=...)
#
# 1. tools/build-wheel.sh builds the wheel and repairs it with auditwheel;
# 2. checks the wheel: a manylinux tag, libyaml and jansson bundled in
#    offline_mesh.libs/, no liboffline_mesh.so inside, and an extension that
#    exports PyInit__core alone and needs only the bundled copies and libc;
# 3. in the clean root file system (tools/in-clean-rootfs.sh: Debian 12 with
#    Python, no libyaml, jansson or build tools, which it checks first):
#    `python3 -m venv`, `pip install --no-index` of the wheel, and a job
#    (tests/install/wheel_job.py) that loads examples/train.yaml and prints
#    the mesh, process groups and expert layout; every answer is compared
#    with the CLI of BUILD_DIR, and the bundled libyaml/jansson symbols must
#    not be visible to the rest of the process.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/check-setup.sh" wheel "$@"

# --- 1. build -------------------------------------------------------------
if wheel=$("$repo/tools/build-wheel.sh" "$tmp/dist" 2>"$tmp/build.log" | tail -1) && [ -f "$wheel" ]; then
    ok "tools/build-wheel.sh built $(basename "$wheel")"
else
    bad "tools/build-wheel.sh failed"; tail -30 "$tmp/build.log" >&2
    echo "wheel: $passed passed, $failed failed"; exit 1
fi

# --- 2. what the wheel holds ----------------------------------------------
case "$(basename "$wheel")" in
    offline_mesh-*-cp3*-cp3*-manylinux_*_x86_64.whl) ok "manylinux x86_64 tag" ;;
    *) bad "unexpected wheel name $(basename "$wheel")" ;;
esac
mkdir "$tmp/unzip"
python3 -m zipfile -e "$wheel" "$tmp/unzip"
files=$(cd "$tmp/unzip" && find . -type f | sed 's#^\./##' | sort)
for want in 'offline_mesh/__init__\.py' 'offline_mesh/_core\.cpython-.*\.so' \
        'offline_mesh\.libs/libyaml-0-[0-9a-f]{8}\.so\.2.*' \
        'offline_mesh\.libs/libjansson-[0-9a-f]{8}\.so\.4.*'; do
    if echo "$files" | grep -qxE "$want"; then ok "wheel holds $want"; else bad "wheel lacks $want"; fi
done
if echo "$files" | grep -q 'liboffline_mesh'; then bad "wheel holds a liboffline_mesh library"; else ok "no liboffline_mesh.so inside (static copy in the extension)"; fi
core=$(ls "$tmp"/unzip/offline_mesh/_core.*.so)
expect_eq "the extension exports PyInit__core alone" \
    "$(nm -D --defined-only "$core" | awk '{print $3}')" "PyInit__core"
# glibc's loader (ld-linux, for __tls_get_addr of the JSON reader's
# thread-local pool) is part of glibc and allowed by every manylinux policy.
needed=$(readelf -d "$core" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux' | sed -E 's/-[0-9a-f]{8}\./-HASH./' | sort | tr '\n' ' ')
expect_eq "the extension needs the bundled copies and glibc only" "$needed" \
    "libc.so.6 libjansson-HASH.so.4.14.0 libyaml-0-HASH.so.2.0.9 "
expect_eq "the extension finds them through RPATH \$ORIGIN/../offline_mesh.libs" \
    "$(readelf -d "$core" | sed -n 's/.*(RPATH).*\[\(.*\)\]/\1/p')" '$ORIGIN/../offline_mesh.libs'

# --- 3. install and run in the clean root ---------------------------------
mkdir "$tmp/in"
cp "$wheel" "$here/wheel_job.py" "$repo/examples/train.yaml" "$tmp/in/"
cat > "$tmp/in/run.sh" <<'SH'
set -eu
# What the root must lack: libyaml, jansson, a compiler, pkg-config.
for lib in libyaml-0.so.2 libjansson.so.4; do
    if [ -n "$(find / -xdev -name "$lib*" 2>/dev/null | head -1)" ]; then echo "root has $lib"; exit 3; fi
done
for tool in cc gcc pkg-config swig meson; do
    if command -v "$tool" >/dev/null; then echo "root has $tool"; exit 3; fi
done
echo "clean: no libyaml, jansson or build tools"
python3 -m venv /tmp/venv
/tmp/venv/bin/pip install --quiet --no-index --disable-pip-version-check ./*.whl
cd /
/tmp/venv/bin/python /work/wheel_job.py /work/train.yaml
SH
if "$repo/tools/in-clean-rootfs.sh" "$tmp/in" sh run.sh >"$tmp/job.out" 2>"$tmp/job.err"; then
    ok "pip install in a fresh venv of the clean root, job ran"
else
    bad "the job in the clean root failed:"; cat "$tmp/job.out" "$tmp/job.err" >&2
fi
expect_eq "the clean root has no libyaml, jansson or build tools" \
    "$(sed -n 1p "$tmp/job.out")" "clean: no libyaml, jansson or build tools"
expect_eq "the module was imported from the venv" "$(sed -n 's/^module //p' "$tmp/job.out")" \
    "/tmp/venv/lib/python3.11/site-packages/offline_mesh/__init__.py"
expect_eq "bundled libyaml/jansson symbols stay out of the global scope" \
    "$(sed -n 's/^global //p' "$tmp/job.out")" "yaml_parser_initialize=absent json_loads=absent"
expect_eq "the job's mesh for train.yaml at 16 ranks" "$(grep '^mesh train.yaml --world-size 16|' "$tmp/job.out" | cut -d'|' -f2)" \
    '{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[4,2,2]}'
# Every answer of the job against the CLI built from the same tree.
agree=0
while IFS='|' read -r args answer; do
    # shellcheck disable=SC2086  # the CLI arguments are space-separated
    expected=$(cd "$repo/examples" && "$cli" $args 2>&1) || true
    if [ "$answer" = "$expected" ]; then agree=$((agree + 1)); else
        bad "offline-mesh $args: wheel says $answer, CLI says $expected"
    fi
done < <(grep -E '^(mesh|groups|experts) ' "$tmp/job.out")
if [ "$agree" -ge 8 ]; then ok "the wheel's $agree answers equal the CLI's"; else bad "only $agree answers agreed"; fi

echo "wheel: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" -eq 0 ]
