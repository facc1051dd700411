"""Physical hierarchies, framework presets and launch plans (thin wrappers
over the library's om_hierarchy_*, om_preset_* and om_launch_* calls)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _core

_LOCALITY_FIELDS = sorted(
    (getattr(_core, name), name[len("OM_LOCALITY_"):].lower())
    for name in dir(_core) if name.startswith("OM_LOCALITY_"))


class LevelLocality(NamedTuple):
    """How the groups over an axis set fall on the domains of one level."""

    level: str
    groups_inside: int
    groups_crossing: int
    max_domains: int
    ppn_min: int
    ppn_max: int
    worst_group: int
    first_crossing: int
    crossing_rank: int


def _axes(dims) -> list:
    if isinstance(dims, str):
        return [n.strip() for n in dims.split(",")] if dims.strip() else []
    return list(dims)


def _lines(text: str) -> List[str]:
    return text.splitlines()


class Hierarchy:
    """A cluster's physical hierarchy, fastest level first (e.g. host=8,
    nvl=72): each level splits the ranks into domains."""

    __slots__ = ("_handle",)

    def __init__(self, handle) -> None:
        self._handle = handle

    @classmethod
    def from_spec(cls, spec: str) -> "Hierarchy":
        """Uniform levels "host=8,nvl=72,rack=576" (ranks per domain)."""
        return cls(_core.om_hierarchy_from_spec(spec))

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Hierarchy":
        """Explicit per-rank domain ids per level (JSON)."""
        return cls(_core.om_hierarchy_from_json(text))

    @classmethod
    def from_hostfile(cls, text: Union[str, bytes]) -> "Hierarchy":
        """An MPI-style hostfile with slots (one host level)."""
        return cls(_core.om_hierarchy_from_hostfile(text))

    @property
    def levels(self) -> Tuple[str, ...]:
        """The level names, fastest first."""
        h = self._handle
        return tuple(_core.om_hierarchy_level_name(h, i)
                     for i in range(_core.om_hierarchy_levels(h)))

    @property
    def ranks(self) -> int:
        """Ranks an explicit hierarchy describes; 0 for uniform ones."""
        return _core.om_hierarchy_ranks(self._handle)

    def level_index(self, name: str) -> int:
        """The index of the level called name (OfflineMeshError if none)."""
        return _core.om_hierarchy_level_index(self._handle, name)

    def _level(self, level) -> int:
        return self.level_index(level) if isinstance(level, str) else level

    def ranks_per_domain(self, level: Union[str, int]) -> int:
        """Ranks per domain of a uniform level; 0 for explicit ones."""
        return _core.om_hierarchy_ranks_per_domain(self._handle, self._level(level))

    def domain_of(self, level: Union[str, int], rank: int) -> int:
        return _core.om_hierarchy_domain_of(self._handle, self._level(level), rank)

    def domain_label(self, level: Union[str, int], domain: int) -> str:
        return _core.om_hierarchy_domain_label(self._handle, self._level(level),
                                               domain)

    def to_json(self) -> str:
        return _core.om_hierarchy_to_json(self._handle)

    def locality(self, mesh, dims) -> List[LevelLocality]:
        """Per level, the locality of the groups over dims of mesh."""
        report = _core.om_hierarchy_locality(mesh._mesh(), self._handle, _axes(dims))
        return [LevelLocality(name, *(_core.om_locality_get(report, i, field)
                                      for field, _ in _LOCALITY_FIELDS))
                for i, name in enumerate(self.levels)]

    def check(self, mesh, rules: str) -> List[str]:
        """The broken placement rules "AXES:LEVEL,..." ("cp+tp:nvl"), one
        line each; [] when all hold."""
        text, _ = _core.om_hierarchy_check(mesh._mesh(), self._handle, rules)
        return _lines(text)

    def __repr__(self) -> str:
        return f"Hierarchy({self.to_json()})"


def _param_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_param_text(v) for v in value) + "]"
    return str(int(value))


def _params(params: Optional[Dict[str, Any]]) -> List[str]:
    """The library's "KEY=VALUE" strings of a parameter dict."""
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a dict, not {type(params).__name__}")
    return [f"{k}={_param_text(v)}" for k, v in (params or {}).items()]


class Preset:
    """The views (meshes) a training framework builds from its parameters:
    Preset("megatron", {"tensor_model_parallel_size": 2}, world_size=8)."""

    __slots__ = ("_handle",)

    def __init__(self, name: str, params: Optional[Dict[str, Any]] = None,
                 world_size: int = 0) -> None:
        self._handle = _core.om_preset_new(name, _params(params), world_size)

    @classmethod
    def load_yaml(cls, path, world_size: int = 0) -> "Preset":
        preset = cls.__new__(cls)
        preset._handle = _core.om_preset_load_yaml(path, world_size)
        return preset

    @property
    def name(self) -> str:
        return _core.om_preset_name(self._handle)

    @property
    def world_size(self) -> int:
        return _core.om_preset_world_size(self._handle)

    @property
    def views(self) -> Tuple[str, ...]:
        h = self._handle
        return tuple(_core.om_preset_view_name(h, i)
                     for i in range(_core.om_preset_view_count(h)))

    @property
    def group_lists(self) -> Tuple[str, ...]:
        h = self._handle
        return tuple(_core.om_preset_group_list_name(h, i)
                     for i in range(_core.om_preset_group_list_count(h)))

    def group_list(self, name: str) -> List[Tuple[int, ...]]:
        """The named group list in the framework's order."""
        table, size = _core.om_preset_group_list(self._handle, name)
        ranks = iter(memoryview(table).cast("i"))
        return list(zip(*[ranks] * size)) if size else []

    def to_json(self) -> str:
        """The JSON of `offline-mesh views`."""
        return _core.om_preset_to_json(self._handle)

    def __repr__(self) -> str:
        return f"Preset({self.name!r}, world_size={self.world_size})"


def check_preset(name: str, params: Optional[Dict[str, Any]] = None,
                 world_size: int = 0) -> Dict[str, Any]:
    """Every rule of the preset at once: {"ok", "preset", "violations"}."""
    return json.loads(_core.om_preset_check(name, _params(params), world_size))


def check_preset_yaml(path, world_size: int = 0) -> Dict[str, Any]:
    """As check_preset() for a training YAML naming its preset."""
    return json.loads(_core.om_preset_check_yaml(path, world_size))


def launch_plan(mesh, nnodes: int, nproc_per_node: int,
                launcher: str = "torchrun", master_addr: Optional[str] = None,
                master_port: int = 0,
                hosts: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The per-node launch plan (ranks and launcher environment) as a dict."""
    fmt = _core.om_launch_format_from_name(launcher)
    return json.loads(_core.om_launch_plan(mesh._mesh(), nnodes, nproc_per_node,
                                           fmt, master_addr, master_port,
                                           list(hosts or ())))


def launch_check(mesh, nnodes: int, nproc_per_node: int,
                 hierarchy: Optional[Hierarchy] = None,
                 rules: Optional[str] = None) -> List[str]:
    """Admission check of a job: every violation, one line each."""
    text, _ = _core.om_launch_check(
        mesh._mesh(), hierarchy._handle if hierarchy else None, nnodes,
        nproc_per_node, rules)
    return _lines(text)
