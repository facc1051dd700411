#!/usr/bin/env bash
# Regenerates the pictures of docs/show.md from a build of offline-mesh:
#   docs/images/make-images.sh BUILD_DIR
# The command is the "$ offline-mesh show ..." line of docs/show.md. It runs
# in a real terminal (a detached tmux pane, so color comes from isatty, not
# from an override), the pane is captured with its colors
# (show-terminal.ansi), drawn as a terminal window by ansi2svg.py and turned
# into show-terminal.png; show.svg is the command's --format svg output and
# show-svg.png its rendering. tests/show/test_show.py checks that the
# capture and show.svg still match the command's output.
# Needs tmux, rsvg-convert and DejaVu Sans Mono:
#   apt-get install tmux librsvg2-bin fonts-dejavu-core
set -euo pipefail
cd "$(dirname "$0")/../.."
build="$(cd "${1:?usage: make-images.sh BUILD_DIR}" && pwd)"
out=docs/images
args="$(sed -n 's/^\$ offline-mesh show //p' docs/show.md | head -n 1)"
[ -n "$args" ] || { echo "no '\$ offline-mesh show' line in docs/show.md" >&2; exit 1; }

for tool in tmux rsvg-convert; do
  command -v "$tool" >/dev/null || { echo "make-images.sh: needs $tool" >&2; exit 1; }
done

session="om-show-$$"
tmux new-session -d -s "$session" -x 120 -y 60 \
  "env -u NO_COLOR -u OFFLINE_MESH_COLOR PATH='$build/src/cli:$PATH' sh -c '
     printf \"\$ offline-mesh show %s\n\" \"$args\"
     offline-mesh show $args
     printf \"\$ \"; sleep 60'"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
sleep 1
tmux capture-pane -t "$session" -e -p > "$out/show-terminal.ansi.tmp"
# Drop the blank lines of the pane below the output.
python3 - "$out/show-terminal.ansi.tmp" "$out/show-terminal.ansi" <<'EOF'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
while lines and lines[-1].strip() == "":
    lines.pop()
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines) + "\n")
EOF
rm -f "$out/show-terminal.ansi.tmp"

python3 "$out/ansi2svg.py" "$out/show-terminal.ansi" > "$out/show-terminal.tmp.svg"
rsvg-convert -o "$out/show-terminal.png" "$out/show-terminal.tmp.svg"
rm -f "$out/show-terminal.tmp.svg"

# shellcheck disable=SC2086 # the documented arguments split like a shell's
"$build/src/cli/offline-mesh" show $args --format svg > "$out/show.svg"
rsvg-convert -o "$out/show-svg.png" "$out/show.svg"
ls -l "$out"/show-terminal.png "$out"/show-svg.png "$out"/show.svg
