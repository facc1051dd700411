#!/usr/bin/env bash
# Evidence for the choice of JSON parser (docs/hardening.md, "Choosing the
# JSON parser"): the four candidates Debian 12 offers, run over
#  1. allocation-failure injection: a mesh/world-like document parsed with
#     each heap allocation of the process failing in turn (the preload
#     allocator of the cli_oom stage); each run ends as "same" (the clean
#     result), "nomem" (the parser reported out of memory), "wrong" (another
#     result or error: a silent wrong answer or a misreported failure) or
#     "crash" (a signal: SIGSEGV, or abort from std::terminate/assert);
#  2. the inputs where JSON parsers differ: duplicate keys, big integers,
#     2.0 vs 2, trailing bytes, NUL bytes, invalid UTF-8, lone surrogates,
#     depth, leading zeros, raw control characters.
# Not part of CI (it installs libjson-c-dev, libcjson-dev, libsimdjson-dev
# and g++ when missing). Usage: bash tests/hardening/json_candidates/compare.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${TMPDIR:-/tmp}/om-json-candidates"
mkdir -p "$work"
need=()
for p in gcc g++ pkg-config libjansson-dev libjson-c-dev libcjson-dev libsimdjson-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null && \
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { echo "cannot install ${need[*]}"; exit 1; }
fi
gcc -shared -fPIC -O1 -o "$work/preload.so" "$here/../fail_alloc_preload.c" || exit 1
gcc -O1 -o "$work/probe-jansson" "$here/main.c" "$here/probe_jansson.c" $(pkg-config --cflags --libs jansson) || exit 1
gcc -O1 -o "$work/probe-json-c" "$here/main.c" "$here/probe_jsonc.c" $(pkg-config --cflags --libs json-c) || exit 1
gcc -O1 -o "$work/probe-cjson" "$here/main.c" "$here/probe_cjson.c" $(pkg-config --cflags --libs libcjson) || exit 1
gcc -O1 -c -o "$work/main.o" "$here/main.c" &&
  g++ -O1 -std=c++17 -o "$work/probe-simdjson" "$work/main.o" "$here/probe_simdjson.cpp" \
    $(pkg-config --cflags --libs simdjson) || exit 1

export OM_ALLOC_WINDOWED=1 # only the parse's allocations count
doc="$work/doc.json"
printf '%s' '{"mesh_dim_names":["dp","\u00e9p","tp","a name longer than thirty-two bytes, for a bigger buffer"],"mesh_shape":[2,4,2,1],"views":{"x":{"layout":[[[2,1]],[[4,2]]],"offset":0,"t":true,"n":null}}}' >"$doc"

echo "1. allocation-failure injection (each allocation of the process fails in turn)"
printf '%-10s %6s %6s %6s %6s %6s\n' parser allocs same nomem wrong crash
for lib in jansson json-c cjson simdjson; do
  probe="$work/probe-$lib"
  ref="$(OM_ALLOC_COUNT_FILE="$work/count" LD_PRELOAD="$work/preload.so" "$probe" "$doc")"
  total="$(cat "$work/count")"
  same=0 nomem=0 wrong=0 crash=0
  for ((k = 0; k < total; k++)); do
    got="$(OM_FAIL_AT=$k LD_PRELOAD="$work/preload.so" "$probe" "$doc" 2>/dev/null)"
    rc=$?
    if [ $rc -ge 128 ]; then crash=$((crash + 1))
    elif [ "$got" = "$ref" ]; then same=$((same + 1))
    elif [ "${got%% *}" = nomem ]; then nomem=$((nomem + 1))
    else wrong=$((wrong + 1)); fi
  done
  printf '%-10s %6d %6d %6d %6d %6d\n' "$lib" "$total" "$same" "$nomem" "$wrong" "$crash"
done

echo
echo "2. inputs where parsers differ (ok = accepted, with what it read)"
cases=(
  'duplicate key|{"a":1,"a":2}'
  '2^63-1|[9223372036854775807]'
  '2^63|[9223372036854775808]'
  '2^53+1|[9007199254740993]'
  '2.0 (not an integer)|[2.0]'
  '1e400|[1e400]'
  'leading zero|[01]'
  'trailing bytes|{} x'
  'second document|{}{}'
  'escaped NUL|["a\u0000b"]'
  'raw tab in a string|["a	b"]'
  'lone surrogate escape|["\ud800"]'
)
for c in "${cases[@]}"; do
  printf '%s' "${c#*|}" >"$work/case.json"
  echo "- ${c%%|*}: ${c#*|}"
  for lib in jansson json-c cjson simdjson; do
    printf '    %-9s %s\n' "$lib" "$("$work/probe-$lib" "$work/case.json" | cut -c1-70)"
  done
done
bytes_case() { # label, printf format
  printf "$2" >"$work/case.json"
  echo "- $1"
  for lib in jansson json-c cjson simdjson; do
    printf '    %-9s %s\n' "$lib" "$("$work/probe-$lib" "$work/case.json" | cut -c1-70)"
  done
}
bytes_case 'raw NUL byte in a string' '["a\0b"]'
bytes_case 'invalid UTF-8 (0xff)' '["\377"]'
bytes_case 'overlong UTF-8 (c0 80)' '["\300\200"]'
python3 -c 'print("[" * 100000 + "]" * 100000, end="")' >"$work/case.json"
echo "- 100000-deep nesting"
for lib in jansson json-c cjson simdjson; do
  printf '    %-9s %s\n' "$lib" "$("$work/probe-$lib" "$work/case.json" | cut -c1-70)"
done
