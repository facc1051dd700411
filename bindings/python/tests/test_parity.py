"""bindings/parity.tsv against the built library (bindings/parity_check.py).

run-tests.sh sets OM_LIBRARY to the library it built; the check needs nm.
"""

import importlib.util
import os
from pathlib import Path

import pytest

BINDINGS = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("parity_check",
                                              BINDINGS / "parity_check.py")
parity = importlib.util.module_from_spec(spec)
spec.loader.exec_module(parity)

LIBRARY = os.environ.get("OM_LIBRARY")
pytestmark = pytest.mark.skipif(not LIBRARY, reason="OM_LIBRARY not set")
TABLE = parity.TABLE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def functions():
    return parity.exported_functions(Path(LIBRARY))


def test_every_exported_function_is_bound_or_excused(functions):
    assert "om_mesh_new_checked" in functions and len(functions) >= 50
    assert parity.check(functions, TABLE) == []


def test_a_new_function_without_a_row_fails(functions):
    problems = parity.check(functions | {"om_mesh_frobnicate"}, TABLE)
    assert problems == ["om_mesh_frobnicate: exported but not in parity.tsv"]
    dropped = "\n".join(line for line in TABLE.splitlines()
                        if not line.startswith("om_mesh_rank\t"))
    assert parity.check(functions, dropped) == [
        "om_mesh_rank: exported but not in parity.tsv"]


def test_a_missing_binding_fails(functions):
    def with_row(cells):
        lines = [line for line in TABLE.splitlines()
                 if not line.startswith("om_mesh_rank\t")]
        return "\n".join(lines + ["\t".join(["om_mesh_rank"] + cells)])

    ok = ["OfflineMesh.rank", "Mesh.Rank", "OfflineMesh.rank"]
    assert parity.check(functions, with_row(ok)) == []
    assert parity.check(functions, with_row(["OfflineMesh.rnak"] + ok[1:])) == [
        "om_mesh_rank: Python offline_mesh.OfflineMesh.rnak does not exist"]
    assert parity.check(functions, with_row([ok[0], "Mesh.Rnak", ok[2]])) == [
        "om_mesh_rank: Go Mesh.Rnak is not declared"]
    assert parity.check(functions, with_row(ok[:2] + ["WorldSize.rnak"])) == [
        "om_mesh_rank: Java WorldSize.rnak is not declared"]
    assert parity.check(functions, with_row(ok[:2] + [""])) == [
        "om_mesh_rank: no Java entry"]
    assert parity.check(functions, with_row(["not bound:"] + ok[1:])) == [
        "om_mesh_rank: Python 'not bound' without a reason"]
    assert parity.check(functions, with_row(ok[:2])) == [
        f"parity.tsv:{len(TABLE.splitlines())}: 3 columns, expected 4",
        "om_mesh_rank: exported but not in parity.tsv"]
