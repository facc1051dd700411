"""A real job with the installed wheel, run by tests/install/wheel.sh in the
clean root file system: loads a training YAML, builds the mesh and prints
its process groups and expert layout, one line per answer as
``<offline-mesh CLI arguments>|<answer as the CLI prints it>`` so that the
test can ask the CLI the same questions. Also reports where the module came
from and whether the bundled libyaml/jansson leak into the global scope."""

import ctypes
import json
import os
import sys

import offline_mesh as om


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def main(config):
    print("module", om.__file__)
    process = ctypes.CDLL(None)  # the global scope: the interpreter and RTLD_GLOBAL libraries
    print("global", " ".join(
        f"{name}={'present' if hasattr(process, name) else 'absent'}"
        for name in ("yaml_parser_initialize", "json_loads")))
    name = os.path.basename(config)
    for world in (8, 16):
        src = f"{name} --world-size {world}"
        mesh = om.build_offline_mesh(om.load_parallel_dims(config, world_size=world))
        print(f"mesh {src}|" + compact({"mesh_dim_names": list(mesh.mesh_dim_names),
                                         "mesh_shape": list(mesh.mesh_shape)}))
        for dims in ("tp", "cp", "dp", "dp,cp", "cp,tp"):
            groups = mesh.groups(dims.split(","))
            print(f"groups {src} --dims {dims}|" + compact([list(g) for g in groups]))
        layout = om.expert_layout(mesh, 2)
        print(f"experts {src} --ep 2|" + compact({
            "edp": layout.edp, "edp_groups": [list(g) for g in layout.edp_groups],
            "ep": layout.ep, "ep_groups": [list(g) for g in layout.ep_groups]}))


if __name__ == "__main__":
    main(sys.argv[1])
