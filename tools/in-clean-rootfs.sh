#!/usr/bin/env bash
# Runs a command inside the clean root file system of tools/clean-rootfs.sh
# (Debian 12 minbase + Python 3 + a headless JRE; no libyaml, jansson or
# build tools), on a throw-away overlay so the cached root stays clean:
#
#   tools/in-clean-rootfs.sh DIR COMMAND [ARGS...]
#
# DIR (a host directory) is copied to /work inside, COMMAND runs there as
# root with an empty environment (PATH, HOME=/root, LANG=C.UTF-8 only) and
# no name resolution unless OM_ROOTFS_NETWORK=1; its exit status is
# returned. /proc and /dev are mounted
# for the JVM. Needs root (overlayfs, chroot).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 DIR COMMAND [ARGS...]" >&2
    exit 2
fi
dir=$(cd "$1" && pwd)
shift
lower=$("$(dirname "$0")/clean-rootfs.sh")

tmp=$(mktemp -d /tmp/om-clean-root.XXXXXX)
merged="$tmp/root"
mkdir "$tmp/upper" "$tmp/work" "$merged"
cleanup() {
    local m
    for m in "$merged/var/cache/apt/archives" "$merged/dev" "$merged/proc" "$merged"; do
        if mountpoint -q "$m"; then umount "$m" || umount -l "$m"; fi
    done
    # Never into a mount that is still there (/dev is the host's own).
    rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
mount -t overlay overlay \
    -o "lowerdir=$lower,upperdir=$tmp/upper,workdir=$tmp/work" "$merged"
mount -t proc proc "$merged/proc"
mount --bind /dev "$merged/dev"
cp -a "$dir" "$merged/work"
# OM_ROOTFS_NETWORK=1: name resolution for apt-get inside (Debian's archive
# is the only place it goes).
# The .debs it downloads are kept between runs in the cache beside the root.
if [ "${OM_ROOTFS_NETWORK:-0}" = 1 ]; then
    cp -L /etc/resolv.conf "$merged/etc/resolv.conf"
    archives="$(dirname "$lower")/apt-archives"
    mkdir -p "$archives/partial"
    mount --bind "$archives" "$merged/var/cache/apt/archives"
fi

status=0
chroot "$merged" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin \
    HOME=/root LANG=C.UTF-8 /bin/sh -c 'cd /work && exec "$@"' sh "$@" || status=$?
exit "$status"
