#!/usr/bin/env bash
# Hardening checks of liboffline_mesh (docs/hardening.md):
#   oom       allocation-failure injection, every allocation of every call
#   cli_oom   the same over every offline-mesh command (whole output or none)
#   tsan      the public API from 8 threads on shared handles, ThreadSanitizer
#   asan      the C and CLI suites and the bad-input table, ASan + UBSan
#   valgrind  the C suite and the CLI suite under valgrind memcheck
#   fuzz      each libFuzzer target for OM_FUZZ_SECONDS (default 30) seconds
#
# Usage: bash tests/hardening/run-tests.sh [LEAD-BUILD-DIR]
# The lead's build dir (also $OM_BUILD_DIR) is only used by the valgrind
# stage, which runs its already built tests; the other stages configure
# their own build dirs under $OM_HARDENING_WORK (default: /tmp/om-hardening-
# <hash of the checkout path>), kept between runs so reruns are incremental.
# OM_HARDENING_STAGES picks stages (default "oom tsan asan valgrind fuzz").
# Exit status: 0 when every stage passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
lead_build="${1:-${OM_BUILD_DIR:-}}"
stages="${OM_HARDENING_STAGES:-oom cli_oom tsan asan valgrind fuzz}"
fuzz_seconds="${OM_FUZZ_SECONDS:-30}"
work="${OM_HARDENING_WORK:-/tmp/om-hardening-$(printf '%s' "$root" | md5sum | cut -c1-8)}"
mkdir -p "$work"
export CI="${CI:-true}"

say() { echo "hardening: $*"; }

# ---- dependencies (installed only when missing) ----
need_apt=()
for p in meson ninja-build gcc clang pkg-config libyaml-dev libjansson-dev \
         libcunit1-dev valgrind python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || need_apt+=("$p")
done
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null && \
    $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing ${need_apt[*]}"
  apt_install "${need_apt[@]}" || { say "apt-get install failed"; exit 1; }
fi
# The sanitizer and libFuzzer runtimes are only "recommended" by clang.
clang_major="$(clang -dumpversion | cut -d. -f1)"
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; return (int)n * 0; }' \
     | clang -x c - -fsanitize=fuzzer,address,undefined -o "$work/probe" >/dev/null 2>&1; then
  say "installing libclang-rt-$clang_major-dev"
  apt_install "libclang-rt-$clang_major-dev" || { say "cannot install the clang runtimes"; exit 1; }
fi
python3 -m pytest --version >/dev/null 2>&1 \
  || python3 -m pip install --quiet --disable-pip-version-check pytest

export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
yaml_jansson_libs="$(pkg-config --libs yaml-0.1 jansson)"

# Configures a build dir once (reconfigures when the options changed).
setup() { # dir compiler options...
  local dir="$1" compiler="$2"; shift 2
  local want="$compiler $*"
  if [ -f "$dir/build.ninja" ] && [ "$(cat "$dir/.hardening-options" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  rm -rf "$dir"
  CC="$compiler" meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 \
    || { cat "$dir.setup.log"; return 1; }
  echo "$want" >"$dir/.hardening-options"
}

build() { # dir [targets...]
  local dir="$1"; shift
  ninja -C "$dir" -j2 "$@" >"$dir.build.log" 2>&1 || { tail -40 "$dir.build.log"; return 1; }
}

# ---- stages ----
stage_oom() {
  local dir="$work/oom"
  setup "$dir" gcc -Dalloc_failure_injection=true -Dtests=false -Dcli=false \
    -Dbench=false || return 1
  build "$dir" src/liboffline_mesh_static.a || return 1
  gcc -std=c11 -O1 -g -Wall -Wextra -Werror -DOM_ALLOC_FAILURE_INJECTION \
    -I include -I "$dir/include" -I src -o "$work/alloc_failure" \
    tests/hardening/alloc_failure.c "$dir/src/liboffline_mesh_static.a" \
    $yaml_jansson_libs || return 1
  "$work/alloc_failure"
}

# Every allocation of each offline-mesh command line fails in turn (an
# LD_PRELOAD allocator): no crash, and the whole output or nothing.
stage_cli_oom() {
  local dir="$work/cli-oom"
  setup "$dir" gcc -Dtests=false -Dbench=false || return 1
  build "$dir" src/cli/offline-mesh || return 1
  gcc -shared -fPIC -O1 -Wall -Wextra -Werror -o "$work/fail_alloc_preload.so" \
    tests/hardening/fail_alloc_preload.c || return 1
  python3 tests/hardening/cli_alloc_failure.py "$dir/src/cli/offline-mesh" \
    "$work/fail_alloc_preload.so"
}

stage_tsan() {
  local dir="$work/tsan"
  setup "$dir" clang -Db_sanitize=thread -Db_lundef=false -Dtests=false -Dcli=false \
    -Dbench=false || return 1
  build "$dir" src/liboffline_mesh_static.a || return 1
  clang -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=thread -pthread \
    -I include -I "$dir/include" -o "$work/threads" tests/hardening/threads.c \
    "$dir/src/liboffline_mesh_static.a" $yaml_jansson_libs || return 1
  "$work/threads"
}

asan_dir="$work/asan"
stage_asan() {
  setup "$asan_dir" clang -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dbench=false -Dtests=true || return 1
  build "$asan_dir" || return 1
  local rc=0
  meson test -C "$asan_dir" --suite c --suite cli --print-errorlogs \
    --num-processes 2 >"$asan_dir.test.log" 2>&1 || rc=1
  grep -E "^(Ok|Fail|Expected Fail|Unexpected Pass|Skipped|Timeout):" "$asan_dir.test.log"
  [ $rc -eq 0 ] || { grep -E "FAIL|ERROR|runtime error" "$asan_dir.test.log" | head -40; }
  clang -std=c11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
    -fno-sanitize-recover=all -I include -I "$asan_dir/include" \
    -o "$work/bad_inputs" tests/hardening/bad_inputs.c \
    "$asan_dir/src/liboffline_mesh_static.a" $yaml_jansson_libs || return 1
  "$work/bad_inputs" tests/hardening/bad_inputs.json || rc=1
  return $rc
}

stage_valgrind() {
  if [ -z "$lead_build" ] || [ ! -f "$lead_build/build.ninja" ]; then
    say "valgrind: no configured build dir given (argument 1 or OM_BUILD_DIR)"
    return 1
  fi
  local vg=(valgrind -q --error-exitcode=99 --leak-check=full
            --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect)
  local rc=0 c_pid
  # The C suite (meson test --wrapper) and the CLI suite run side by side.
  # valgrind runs a test 20-50x slower and a loaded machine (several full
  # runs at once) slower again: 3x the suites' 120 s per test, so a
  # timeout means a hang, not a busy machine (yaml_cost: 38 s of CPU, 172 s
  # of wall clock at load 6).
  meson test -C "$lead_build" --suite c --print-errorlogs --num-processes 1 \
    --timeout-multiplier 3 --wrapper "${vg[*]}" >"$work/valgrind-c.log" 2>&1 &
  c_pid=$!
  # The CLI suite is pytest driving the binary: valgrind wraps the binary.
  local cli="$lead_build/src/cli/offline-mesh"
  if [ -x "$cli" ] && [ -f tests/cli/test_cli.py ]; then
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${vg[*]}" "$cli" >"$work/offline-mesh-valgrind"
    chmod +x "$work/offline-mesh-valgrind"
    OFFLINE_MESH_CLI="$work/offline-mesh-valgrind" OFFLINE_MESH_EXAMPLES="$root/examples" \
      python3 -m pytest -q -p no:cacheprovider tests/cli/test_cli.py \
      >"$work/valgrind-cli.log" 2>&1 || rc=1
    echo "CLI suite under valgrind: $(tail -1 "$work/valgrind-cli.log")"
    if [ $rc -ne 0 ]; then
      grep -E "^(FAILED|E  )|==[0-9]+==" "$work/valgrind-cli.log" | head -30
    fi
  else
    say "valgrind: no CLI binary or CLI suite; skipped the CLI part"
  fi
  wait "$c_pid" || rc=1
  echo "C suite under valgrind:"
  grep -E "^(Ok|Fail|Timeout):" "$work/valgrind-c.log"
  grep -qE "^Fail: +0" "$work/valgrind-c.log" \
    || grep -E "FAIL|==[0-9]+==" "$work/valgrind-c.log" | head -40
  return $rc
}

stage_fuzz() {
  # The asan stage's build, brought up to date (it may predate a target).
  stage_asan_build_only || return 1
  local targets=(mesh_json yaml_dims mesh_new view_ops hierarchy presets launch world_json order cli_args) rc=0 pids=() t
  mkdir -p "$work/fuzz-artifacts"
  run_one() {
    local t="$1" extra=()
    [ "$t" = cli_args ] && extra=(-dict="$root/fuzz/cli_args.dict")
    mkdir -p "$work/corpus-$t"
    "$asan_dir/fuzz/fuzz_$t" "${extra[@]}" -max_total_time="$fuzz_seconds" -timeout=25 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/fuzz-artifacts/$t-" \
      "$work/corpus-$t" "$root/fuzz/corpus/$t" >"$work/fuzz-$t.log" 2>&1
  }
  # Two at a time (two cores).
  for t in "${targets[@]}"; do
    run_one "$t" & pids+=($!)
    if [ ${#pids[@]} -eq 2 ]; then
      wait "${pids[0]}" || rc=1
      pids=("${pids[1]}")
    fi
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  for t in "${targets[@]}"; do
    if grep -qE "^Done [0-9]+ runs" "$work/fuzz-$t.log"; then
      echo "fuzz_$t: $(grep -E '^Done [0-9]+ runs' "$work/fuzz-$t.log")"
    else
      rc=1
      echo "fuzz_$t: FAILED"
      grep -aE "invariant broken|ERROR|runtime error|SUMMARY|Test unit written" \
        "$work/fuzz-$t.log" | head -8
    fi
  done
  return $rc
}

stage_asan_build_only() {
  setup "$asan_dir" clang -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dbench=false -Dtests=true && build "$asan_dir"
}

passed=0
failed=0
failures=()
for s in $stages; do
  echo "--- hardening stage: $s"
  start=$SECONDS
  if "stage_$s"; then
    passed=$((passed + 1))
    echo "--- hardening stage $s: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    failures+=("$s")
    echo "--- hardening stage $s: FAILED ($((SECONDS - start)) s)"
  fi
done
[ "$failed" -eq 0 ] || say "failed stages: ${failures[*]}"
echo "hardening: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
