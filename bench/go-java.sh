#!/usr/bin/env bash
# Runs bench/go and bench/java/MeshBench.java back to back on one meson
# build dir (configured with -Djava=enabled and built) and prints, per call,
# the Java/Go ratio of the ns/call figures of this one run.
#
#   bench/go-java.sh BUILD_DIR [ms per measurement, default 300]
#
# Needs Go >= 1.24, a JDK and Maven (the jar is packaged with -DskipTests).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
ms=${2:-300}
export PKG_CONFIG_PATH="$build/meson-uninstalled" LD_LIBRARY_PATH="$build/src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$here/../bindings/java" && mvn -B -ntp -Dom.native.dir="$build/bindings/java" package -DskipTests >"$tmp/mvn.log") \
    || { cat "$tmp/mvn.log"; exit 1; }
jar=$(ls "$here"/../bindings/java/target/offline-mesh-*.jar | head -n1)
javac -cp "$jar" -d "$tmp" "$here/java/MeshBench.java"

(cd "$here/go" && go run . -time "${ms}ms") | tee "$tmp/go.txt"
java -cp "$jar:$tmp" -Djava.library.path="$build/bindings/java" MeshBench "$ms" | tee "$tmp/java.txt"

echo
echo "Java / Go per call (same run):"
# lines: "<lang> <name...> <value> ns/call"
awk 'FNR == 1 { file++ }
     / ns\/call$/ { name = $2; for (i = 3; i < NF - 1; i++) name = name " " $i
                    if (file == 1) go[name] = $(NF - 1); else java[name] = $(NF - 1); order[name] = NR }
     END { for (n in java) if (n in go)
             printf "  %-30s java %8.1f  go %8.1f  ratio %.2fx\n", n, java[n], go[n], java[n] / go[n] }' \
    "$tmp/go.txt" "$tmp/java.txt" | sort
