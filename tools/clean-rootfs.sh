#!/usr/bin/env bash
# A clean root file system for the "installs anywhere" checks: Debian 12
# (bookworm, debootstrap --variant=minbase, from Debian's own archive) with
# Python 3 (+ venv/ensurepip) and a headless JRE, and nothing else: no
# libyaml, no jansson, no compiler, no pkg-config.
#
#   tools/clean-rootfs.sh            prints the root's path (builds it once)
#   tools/clean-rootfs.sh --rebuild  throws the cached copy away first
#
# The root is cached under /var/cache/offline-mesh/ and reused while its
# stamp file matches the package list below; a missing or half-built root
# is built again (about 2-3 minutes, ~300 MB). Tests never write to it:
# tools/in-clean-rootfs.sh runs commands in a throw-away overlay of it.
# Needs root (debootstrap, chroot).
set -euo pipefail

suite=bookworm
mirror=${OM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# python3-venv brings ensurepip (pip's own wheel), so a venv needs no index.
packages=python3,python3-venv,openjdk-17-jre-headless
cache=/var/cache/offline-mesh
root="$cache/rootfs-$suite"
stamp="$root/.offline-mesh-rootfs"
want="suite=$suite variant=minbase include=$packages"

if [ "$(id -u)" != 0 ]; then
    echo "clean-rootfs: run as root (debootstrap and chroot need it)" >&2
    exit 2
fi
mkdir -p "$cache"
# One builder at a time (several checkouts on one machine share the cache).
exec 9>"$cache/.lock"
flock 9
[ "${1:-}" = "--rebuild" ] && rm -rf "$root"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "$root"
    exit 0
fi
if ! command -v debootstrap >/dev/null; then
    echo "clean-rootfs: installing debootstrap" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
fi
rm -rf "$root" "$root.tmp"
echo "clean-rootfs: debootstrap --variant=minbase $suite into $root (once)" >&2
start=$SECONDS
if ! debootstrap --variant=minbase --include="$packages" "$suite" "$root.tmp" "$mirror" \
        >"$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    # debootstrap leaves /proc (and friends) mounted on failure.
    for m in proc sys dev/pts dev; do umount "$root.tmp/$m" 2>/dev/null || true; done
    echo "clean-rootfs: debootstrap failed (log: $cache/debootstrap.log)" >&2
    exit 1
fi
# The package cache is not needed to run anything.
rm -rf "$root.tmp"/var/cache/apt/archives/*.deb "$root.tmp"/var/lib/apt/lists/*
mv "$root.tmp" "$root"
echo "$want" > "$stamp"
echo "clean-rootfs: built in $((SECONDS - start)) s" >&2
echo "$root"
