"""OM_ERR_NO_MEMORY -> MemoryError, at every allocation of the library.

Needs the extension built with the library's failure injection:
  meson setup B -Dpython=enabled -Dpython_static=true -Dalloc_failure_injection=true
run-tests.sh builds it and points OM_PY_INJECT_PATH at B/bindings/python;
the checks run in a subprocess that imports the package from there.
"""

import os
import subprocess
import sys
import textwrap

import pytest

INJECT_PATH = os.environ.get("OM_PY_INJECT_PATH")

SCRIPT = textwrap.dedent(r'''
    import offline_mesh as om
    from offline_mesh import _core
    assert hasattr(_core, "_alloc_fail_after"), _core.__file__

    mesh = om.OfflineMesh(("dp", "cp", "tp"), (2, 2, 2))
    spec = om.ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=2)
    yaml = "base: &b {tp_size: 2}\naccelerator:\n  <<: *b\n  cp_size: 2\n"
    operations = {
        "OfflineMesh": lambda: om.OfflineMesh(("dp", "tp"), (2, 4)),
        "getitem": lambda: mesh["tp"],
        "build_offline_mesh": lambda: om.build_offline_mesh(spec),
        "to_json": lambda: mesh.to_json(),
        "from_json": lambda: om.OfflineMesh.from_json(mesh.to_json()),
        "parse_parallel_dims": lambda: om.parse_parallel_dims(yaml, world_size=8),
        "plan_dim_names": lambda: om.plan_dim_names(mesh, 2, 2),
        "expert_layout": lambda: om.expert_layout(mesh, 4),
        "groups": lambda: mesh.groups("cp"),
    }
    for name, op in operations.items():
        _core._alloc_fail_after(-1)
        expected = op()
        allocations = _core._alloc_fail_after(-1)
        failures = 0
        for n in range(allocations):
            _core._alloc_fail_after(n)
            try:
                op()
            except MemoryError as exc:
                assert "memory" in str(exc), (name, n, exc)
                failures += 1
            finally:
                _core._alloc_fail_after(-1)
        assert op() == expected, name
        print(name, allocations, failures)
''')


@pytest.mark.skipif(not INJECT_PATH, reason="set OM_PY_INJECT_PATH (run-tests.sh does)")
def test_every_library_allocation_failure_raises_memory_error():
    env = dict(os.environ, PYTHONPATH=INJECT_PATH)
    result = subprocess.run([sys.executable, "-c", SCRIPT], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    counts = {}
    for line in result.stdout.splitlines():
        name, allocations, failures = line.split()
        counts[name] = (int(allocations), int(failures))
    assert len(counts) == 9
    # every allocation the library makes in these calls, when it fails,
    # surfaces as MemoryError (the topology queries allocate nothing)
    for name, (allocations, failures) in counts.items():
        assert failures == allocations, (name, allocations, failures)
    assert counts["OfflineMesh"][0] >= 1
    assert counts["from_json"][0] >= 2 and counts["parse_parallel_dims"][0] >= 1
    assert counts["groups"] == (0, 0)
