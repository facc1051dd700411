"""Strict config reading (issue 15) through the loaders: each probable
mistake is a ConfigWarning by default and an OfflineMeshError with
strict=True, with the library's message, kind and line."""

import warnings

import pytest

import offline_mesh as om
from offline_mesh import ConfigWarning, DiagnosticKind, Status

CASES = [
    ("accelerator:\n  tp_size: 2\n  tpsize: 4\n", DiagnosticKind.UNKNOWN_KEY, 3,
     'line 3: unknown key "tpsize" in accelerator (did you mean "tp_size"?)'),
    ("acclerator:\n  tp_size: 4\n", DiagnosticKind.NO_ACCELERATOR, 1,
     'line 1: unknown section "acclerator" (did you mean "accelerator"?)'),
    ("accelerator: {}\n", DiagnosticKind.EMPTY_ACCELERATOR, 1, "accelerator"),
    ("# nothing\n", DiagnosticKind.EMPTY_CONFIG, 0, "empty"),
    ('{"mesh_dim_names":["dp"],"mesh_shape":[2]}', DiagnosticKind.MESH_JSON, 1,
     "this is a mesh JSON"),
    ("accelerator:\n  tp_size: 4\n  tp_size: 2\n", DiagnosticKind.DUPLICATE_KEY, 3,
     'line 3: key "tp_size" appears again in accelerator (line 2\'s value 4 is replaced by 2)'),
]


def test_diagnostic_kind_has_every_kind_of_the_library():
    assert [k.name for k in DiagnosticKind] == [
        "UNKNOWN_KEY", "NO_ACCELERATOR", "EMPTY_ACCELERATOR", "EMPTY_CONFIG", "MESH_JSON",
        "DUPLICATE_KEY"]
    assert DiagnosticKind.DUPLICATE_KEY == 5


def test_duplicate_key_keeps_the_last_value():
    text = "accelerator: {tp_size: 2, tp_size: 4}\naccelerator: {tp_size: 8, pp_size: 2}\n"
    with pytest.warns(ConfigWarning) as caught:
        spec = om.parse_parallel_dims(text, 16)
    assert (spec.tp_size, spec.pp_size, spec.dp_size) == (8, 2, 1)
    assert [(w.message.kind, w.message.line) for w in caught] == [
        (DiagnosticKind.DUPLICATE_KEY, 2)]
    assert 'section "accelerator" appears again' in str(caught[0].message)


@pytest.mark.parametrize("text,kind,line,fragment", CASES)
def test_lenient_warns_and_strict_raises(text, kind, line, fragment, tmp_path):
    path = tmp_path / "train.yaml"
    path.write_text(text)
    for load, source in ((om.parse_parallel_dims, text), (om.load_parallel_dims, path)):
        with pytest.warns(ConfigWarning) as caught:
            spec = load(source, 8)
        assert spec.tp_size in (1, 2) and spec.dp_size * spec.tp_size == 8
        warning = caught[0].message
        assert warning.kind is kind and warning.line == line and fragment in str(warning)
        assert caught[0].filename == __file__  # points at the caller
        with pytest.raises(om.OfflineMeshError) as info:
            load(source, 8, strict=True)
        assert info.value.status is Status.PARSE and fragment in str(info.value)


def test_a_clean_config_is_silent_in_both_modes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = "accelerator:\n  tp_size: 2\n"
        assert om.parse_parallel_dims(text, 8) == om.parse_parallel_dims(text, 8, strict=True)


def test_warnings_can_be_made_errors_and_every_unknown_key_is_reported():
    text = "accelerator:\n  tpsize: 2\n  cpsize: 2\n"
    with pytest.warns(ConfigWarning) as caught:
        om.parse_parallel_dims(text, 8)
    assert [w.message.line for w in caught] == [2, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConfigWarning)
        with pytest.raises(ConfigWarning, match="cpsize|tpsize"):
            om.parse_parallel_dims(text, 8)
    with pytest.raises(om.OfflineMeshError, match=r"\(and 1 more\)"):
        om.parse_parallel_dims(text, 8, strict=True)


def test_strict_argument_type():
    with pytest.raises(TypeError):
        om.parse_parallel_dims("accelerator: {tp_size: 2}", 8, strict="yes")
