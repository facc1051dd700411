#!/usr/bin/env bash
# Installs the system packages the build and the tests need, only when one
# is missing (Debian/Ubuntu, run as root or with sudo available).
set -euo pipefail

packages=(meson ninja-build gcc pkg-config libyaml-dev libjansson-dev
          libcunit1-dev swig python3 python3-dev python3-pip abigail-tools valgrind
          clang libclang-rt-14-dev cmake
          debootstrap python3-venv dpkg-dev)  # the clean-root wheel/jar checks
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# pytest runs the CLI suite (and the Python binding's).
python3 -m pytest --version >/dev/null 2>&1 \
  || python3 -m pip install --quiet --disable-pip-version-check pytest
