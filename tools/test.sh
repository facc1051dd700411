#!/usr/bin/env bash
# The README's test command: set everything up on a fresh machine, build
# with -Werror, and run every test suite (C, CLI, then each binding, the
# install/ABI and hardening checks, the Debian package build and install
# test, and the wheel and the fat jar run in a clean Debian root file
# system, when present).
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
tools/setup.sh || exit 1
build="$root/build-test"
tools/build.sh "$build" || { echo "test.sh: build failed"; exit 1; }

passed=0
failed=0
failures=()
run() { # name command...
  local name="$1"; shift
  echo
  echo "=================== $name ==================="
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
    echo "--- $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "--- $name: FAILED ($((SECONDS - start)) s)"
  fi
}

# -v shows each CUnit run summary; the CLI suites print theirs on failure.
run "C suites (CUnit, meson test --suite c)" \
  meson test -C "$build" --suite c -v --num-processes 2
run "CLI suites (pytest, meson test --suite cli)" \
  meson test -C "$build" --suite cli --print-errorlogs --num-processes 2

export OM_BUILD_DIR="$build"
for script in bindings/python/run-tests.sh bindings/go/run-tests.sh \
              bindings/java/run-tests.sh tests/install/run-tests.sh \
              tests/hardening/run-tests.sh tests/install/debian.sh \
              tests/install/wheel.sh tests/install/jar.sh tests/install/prefix.sh \
              tests/install/go-install.sh tests/docs/run-tests.sh; do
  if [ -f "$script" ]; then
    run "$script" bash "$script" "$build"
  fi
done

echo
if [ "$failed" -gt 0 ]; then
  echo "failed: ${failures[*]}"
fi
echo "test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
