#!/usr/bin/env bash
# The README's first command: set everything up on a fresh machine, build,
# and run the main job on the bundled example config.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh build
cli=build/src/cli/offline-mesh
example=examples/train.yaml
echo "== offline-mesh dims $example --world-size 8"
"$cli" dims "$example" --world-size 8
echo "== offline-mesh mesh $example --world-size 8"
"$cli" mesh "$example" --world-size 8
echo "== offline-mesh check $example --world-size 8 --num-experts 8"
"$cli" check "$example" --world-size 8 --num-experts 8
echo "== offline-mesh groups $example --world-size 8 --dims tp"
"$cli" groups "$example" --world-size 8 --dims tp
if [ -f pyproject.toml ]; then
  echo "== installing the Python package (pip install .)"
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore . >/dev/null
  python3 -c "import offline_mesh as om; print(om.build_offline_mesh(om.load_parallel_dims('$example', world_size=8)))"
fi
