# Sourced by the install tests that build Go programs: om_find_go prints a
# Go toolchain >= 1.24 (the module's minimum), or nothing. It looks where
# bindings/go/run-tests.sh finds or puts one (PATH, /usr/local/go, the
# toolchain it fetches into ~/.cache/offline_mesh), so after that suite it
# always finds one.
om_go_ok() {
    local v major minor
    v=$("$1" env GOVERSION 2>/dev/null) || return 1
    v=${v#go}
    major=${v%%.*}
    minor=${v#*.}
    minor=${minor%%[!0-9]*}
    [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "${minor:-0}" -ge 24 ]; }
}
om_find_go() {
    local candidate
    for candidate in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go \
            "${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}"/offline_mesh/go*/golang.org/toolchain@*/bin/go; do
        if [ -n "$candidate" ] && [ -x "$candidate" ] && om_go_ok "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
}
