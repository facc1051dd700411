"""Offline device meshes for distributed-training planners, backed by liboffline_mesh.

A drop-in replacement for the pure-Python ``OfflineMesh`` dataclass that
sharding planners and code generators use (``mesh_dim_names``,
``mesh_shape``, ``size()``, ``mesh["tp"]``, ``ndim``,
``build_offline_mesh(ParallelDimsSpec(...))``), computed by the C library:

>>> from offline_mesh import ParallelDimsSpec, build_offline_mesh
>>> mesh = build_offline_mesh(ParallelDimsSpec(dp_size=2, cp_size=2, tp_size=2))
>>> mesh
OfflineMesh(mesh_dim_names=('dp', 'cp', 'tp'), mesh_shape=(2, 2, 2))
>>> mesh.size("tp"), mesh.size("ep"), mesh["pp"].ndim
(2, 1, 0)
>>> mesh.groups("cp")
[(0, 2), (1, 3), (4, 6), (5, 7)]

Beyond the original it adds rank topology (``coordinate``, ``rank``,
``groups``, ``group_of``, ``groups_buffer``), YAML config loading
(``load_parallel_dims``, ``parse_parallel_dims``) and planner preflight
(``validate_axes``, ``plan_dim_names``, ``expert_layout``,
``host_locality``).

Errors: a failure reported by the library raises ``ValueError`` (``OSError``
for file access, ``MemoryError`` when out of memory) with the library's
message; an argument of the wrong Python type raises ``TypeError``.
"""

from __future__ import annotations

import dataclasses
import operator
import os
import sys
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _core
from ._core import OfflineMesh, build_offline_mesh

__all__ = [
    "OfflineMesh",
    "ParallelDimsSpec",
    "ExpertLayout",
    "HostLocality",
    "build_offline_mesh",
    "load_parallel_dims",
    "parse_parallel_dims",
    "validate_axes",
    "plan_dim_names",
    "expert_layout",
    "host_locality",
]

__version__: str = _core.om_version_string()

Dims = Union[str, Sequence[str]]


# Slots (Python >= 3.10) let build_offline_mesh() read the fields directly.
_SLOTS = {"slots": True} if sys.version_info >= (3, 10) else {}


@dataclasses.dataclass(frozen=True, **_SLOTS)
class ParallelDimsSpec:
    """The parallelism of a training job: the sizes and flags of its config.

    Plain data, as in the original: values are checked when the spec reaches
    the library (``build_offline_mesh``). Sizes are ints >= 0 (0 means "not
    declared": dp/cp/tp at 0 are left out of the mesh, pp/ep at 0 behave
    as 1); the flags are bools.
    """

    dp_size: int = 1
    tp_size: int = 1
    cp_size: int = 1
    ep_size: int = 1
    pp_size: int = 1
    sequence_parallel: bool = False
    loss_parallel: bool = False


class ExpertLayout(NamedTuple):
    """Extended expert parallelism: the dense region re-sliced as (edp, ep).

    ``ep_groups`` are the EP groups (``ep`` consecutive ranks each),
    ``edp_groups`` the EDP groups (every ``ep``-th rank), both as lists of
    rank tuples like ``OfflineMesh.groups()``; ``mesh`` is the
    ``("edp", "ep")`` mesh they come from.
    """

    edp: int
    ep: int
    ep_groups: List[Tuple[int, ...]]
    edp_groups: List[Tuple[int, ...]]
    mesh: OfflineMesh


class HostLocality(NamedTuple):
    """How the groups over some axes fall on hosts of consecutive ranks."""

    group_count: int
    """Number of groups."""
    local_groups: int
    """Groups whose ranks all sit on one host."""
    max_hosts: int
    """The most hosts any one group spans."""


def _optional_count(value: object, name: str) -> int:
    """None -> 0 (the C API's "not given"); otherwise an int >= 1."""
    if value is None:
        return 0
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(
            f"{name} must be an int or None, not {type(value).__name__}")
    number = operator.index(value)  # type: ignore[arg-type]
    if number < 1:
        raise ValueError(f"{name} must be >= 1 or None, got {number}")
    return number


def load_parallel_dims(path: Union[str, bytes, os.PathLike],
                       world_size: Optional[int] = None) -> ParallelDimsSpec:
    """Projects the ``accelerator:`` section of the training YAML at ``path``.

    ``dp_size`` is derived as ``world_size / (tp * cp * pp)`` unless the
    file gives it. ``world_size=None`` discovers it from the environment
    (``WORLD_SIZE``, ``OMPI_COMM_WORLD_SIZE``, ``PMI_SIZE``,
    ``SLURM_NTASKS``, first set wins; 1 when none is). Raises ``OSError``
    when the file cannot be read and ``ValueError`` for invalid content,
    both with the library's message (which names the path and line).
    """
    fields = _core.om_dims_load_yaml(path,
                                     _optional_count(world_size, "world_size"))
    return ParallelDimsSpec(**fields)


def parse_parallel_dims(yaml_text: Union[str, bytes],
                        world_size: Optional[int] = None) -> ParallelDimsSpec:
    """As :func:`load_parallel_dims` for YAML text (str or UTF-8 bytes)."""
    fields = _core.om_dims_from_yaml(yaml_text,
                                     _optional_count(world_size, "world_size"))
    return ParallelDimsSpec(**fields)


def validate_axes(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                  ep_size: int = 1) -> None:
    """Checks a plan's sizes against the mesh, as the planner does.

    For tp and cp with a size > 1 the mesh must have that axis with that
    size; ep is compared only when the mesh has an ``ep`` axis. Returns None;
    raises ``ValueError`` with the library's message on a mismatch (or a
    size < 1).
    """
    _core.om_validate_axes(mesh, tp_size, cp_size, ep_size)


def plan_dim_names(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                   ep_size: int = 1) -> Tuple[str, ...]:
    """The plan's coordinate axes: the mesh's names, in mesh order, that are
    ``tp``, ``cp`` or ``ep`` with a plan size > 1 (``dp`` never is one)."""
    names = _core.om_plan_dim_names(mesh, tp_size, cp_size, ep_size)
    return tuple(names.split(",")) if names else ()


def expert_layout(mesh: OfflineMesh, ep_size: int,
                  num_experts: Optional[int] = None) -> ExpertLayout:
    """Extended expert parallelism (MoE) over the mesh's dense region.

    The dense region (all non-``pp`` axes, flattened row-major in mesh
    order) is re-sliced as ``(edp = dense / ep_size, ep = ep_size)``.
    ``ValueError`` when ``pp > 1``, when ``ep_size`` does not divide the
    dense region, or when ``num_experts`` is not divisible by ``ep_size``.
    """
    experts = _optional_count(num_experts, "num_experts")
    layout = _core.om_expert_mesh(mesh, ep_size, experts)
    return ExpertLayout(edp=layout.size("edp"), ep=layout.size("ep"),
                        ep_groups=layout.groups("ep"),
                        edp_groups=layout.groups("edp"), mesh=layout)


def host_locality(mesh: OfflineMesh, dims: Dims,
                  ranks_per_host: int) -> HostLocality:
    """Locality of the groups over ``dims`` on hosts of ``ranks_per_host``
    consecutive ranks (the last host may be partial): how many groups there
    are, how many stay on one host, and the most hosts one group spans."""
    if not isinstance(mesh, OfflineMesh):
        raise TypeError(
            f"mesh must be an OfflineMesh, not {type(mesh).__name__}")
    return HostLocality(*mesh._host_locality(dims, ranks_per_host))


_core._register_spec_type(ParallelDimsSpec)


@dataclasses.dataclass(frozen=True)
class _OfflineMeshFields:
    mesh_dim_names: Tuple[str, ...] = ()
    mesh_shape: Tuple[int, ...] = ()


# OfflineMesh replaces a frozen dataclass: give it the dataclass metadata so
# dataclasses.fields(), asdict(), replace() and match statements keep working.
_core._set_mesh_class_attributes({
    "__dataclass_fields__": _OfflineMeshFields.__dataclass_fields__,  # type: ignore[attr-defined]
    "__dataclass_params__": _OfflineMeshFields.__dataclass_params__,  # type: ignore[attr-defined]
    "__match_args__": ("mesh_dim_names", "mesh_shape"),
})
del _OfflineMeshFields
