#!/usr/bin/env bash
# Configures (once) and builds the project in the build directory given as
# $1 (default: build), with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build}"
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" -Dwerror=true >/dev/null
fi
ninja -C "$dir" >/dev/null
