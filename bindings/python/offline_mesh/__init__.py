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
``groups``, ``group_of``, ``groups_buffer``), runtime axis orders
(``build_runtime_mesh``, ``normalize_order``), the ``"dp=2,tp=4"`` text
form (``OfflineMesh.from_spec``), YAML config loading
(``load_parallel_dims``, ``parse_parallel_dims``) and planner preflight
(``validate_axes``, ``plan_dim_names``, ``expert_layout``,
``host_locality``).

Errors: a failure reported by the library raises ``OfflineMeshError`` (a
``ValueError``; ``OfflineMeshIOError``, an ``OSError``, for file access;
``OfflineMeshMemoryError`` when out of memory) with the library's message
and its ``status``; an argument of the wrong Python type raises
``TypeError``.

This package is the hand-written layer over ``offline_mesh._core``, which
SWIG generates from bindings/offline_mesh.i: each function here is a few
lines over one or two library calls.
"""

from __future__ import annotations

import dataclasses
import operator
import os
import sys
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _core
from ._errors import (OfflineMeshError, OfflineMeshIOError,
                      OfflineMeshMemoryError, Status)
from ._planning import (Hierarchy, LevelLocality, Preset, check_preset,
                        check_preset_yaml, launch_check, launch_plan)

__all__ = [
    "OfflineMesh",
    "ParallelDimsSpec",
    "ExpertLayout",
    "HostLocality",
    "Status",
    "OfflineMeshError",
    "OfflineMeshIOError",
    "OfflineMeshMemoryError",
    "build_offline_mesh",
    "build_runtime_mesh",
    "normalize_order",
    "load_parallel_dims",
    "parse_parallel_dims",
    "validate_axes",
    "plan_dim_names",
    "expert_layout",
    "host_locality",
    "Hierarchy",
    "LevelLocality",
    "Preset",
    "check_preset",
    "check_preset_yaml",
    "launch_plan",
    "launch_check",
]

__version__: str = _core.om_version_string()

Dims = Union[str, Sequence[str]]


# ---- OfflineMesh ---------------------------------------------------------------

class _Sizes(dict):
    """{axis name: size, None: total}; an absent axis name has size 1."""

    __slots__ = ()

    def __missing__(self, key):
        if isinstance(key, str):
            return 1
        raise KeyError(key)


class _Fields:
    """The storage of an OfflineMesh (slots, set by the C extension)."""

    __slots__ = ("mesh_dim_names", "mesh_shape", "_handle", "_sizes")


# Every library call that makes a mesh returns an OfflineMesh (the class is
# registered with the extension below); sub-meshes of known-valid tuples
# are made by _make, their library mesh created on first use.
_make = _core._mesh_object


_FROZEN = dataclasses.FrozenInstanceError


class OfflineMesh(_Fields):
    """OfflineMesh(mesh_dim_names=(), mesh_shape=())

    An immutable, named device mesh computed offline (no process group).

    mesh_dim_names is a sequence of distinct, non-empty str axis names and
    mesh_shape the matching sizes (int >= 1, product <= 2**31-1). Wrong
    types raise TypeError; invalid values raise OfflineMeshError (a
    ValueError) with the library's message. Ranks are laid out row-major:
    the last axis varies fastest.

    Equality and hash are by (mesh_dim_names, mesh_shape); instances are
    immutable (assignment raises dataclasses.FrozenInstanceError),
    picklable, and usable with dataclasses.fields(), asdict() and
    replace().
    """

    __slots__ = ()

    def __new__(cls, mesh_dim_names=(), mesh_shape=()):
        # the library checks and copies them (om_mesh_new_checked)
        try:
            return _core.om_mesh_new_checked(mesh_dim_names, mesh_shape)
        except TypeError as e:
            raise TypeError(str(e).replace("names", "mesh_dim_names", 1)
                            .replace("sizes", "mesh_shape", 1)) from None

    def __init_subclass__(cls, **kwargs):
        raise TypeError("OfflineMesh cannot be subclassed")

    # ---- the planner-facing accessors (pure Python over the tuples the
    # library produced: a call into C costs more than these do) ----

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.mesh_shape)

    def size(self, dim=None) -> int:
        """Number of ranks: the product of all sizes when dim is None; the
        size of axis dim when dim is a str (1 when the mesh has no such
        axis); the size of axis number dim when dim is an int (negative
        counts from the end; IndexError when out of range), as torch's
        DeviceMesh.size() does."""
        try:
            return self._sizes[dim]
        except (AttributeError, KeyError, TypeError):
            return self._size_slow(dim)

    def _size_slow(self, dim):
        try:
            sizes = self._sizes
        except AttributeError:
            sizes = _Sizes(zip(self.mesh_dim_names, self.mesh_shape))
            sizes[None] = _core.om_mesh_size(self._mesh())
            object.__setattr__(self, "_sizes", sizes)
        if dim is None or isinstance(dim, str):
            return sizes[dim]
        if isinstance(dim, bool) or not hasattr(type(dim), "__index__"):
            raise TypeError(
                f"dim must be None, a str or an int, not {type(dim).__name__}")
        index = operator.index(dim)
        n = len(self.mesh_shape)
        if not -n <= index < n:
            raise IndexError(
                f"axis index {index} out of range for a mesh with {n} axes")
        return self.mesh_shape[index]

    def __getitem__(self, key) -> "OfflineMesh":
        """mesh["tp"]: the sub-mesh ("tp",)/(size,), the empty mesh when the
        mesh has no such axis. mesh["dp", "cp"] (or a tuple/list of names):
        the sub-mesh of those axes in mesh order, absent ones left out."""
        if key.__class__ is str:
            names = self.mesh_dim_names
            if key in names:
                return _make((key,), (self.mesh_shape[names.index(key)],))
            return _EMPTY
        return self._select(key)

    def _select(self, key):
        if isinstance(key, str):
            key = (str(key),)
        if not isinstance(key, (tuple, list)):
            raise TypeError("OfflineMesh indices must be str axis names or "
                            f"tuples of them, not {type(key).__name__}")
        for i, name in enumerate(key):
            if not isinstance(name, str):
                raise TypeError(f"axis name {i} must be a str, not "
                                f"{type(name).__name__}")
        if len(set(key)) != len(key):
            raise ValueError(f"an axis is named twice in {tuple(key)!r}")
        wanted = set(key)
        pairs = [(n, s) for n, s in zip(self.mesh_dim_names, self.mesh_shape)
                 if n in wanted]
        return _make(tuple(n for n, _ in pairs), tuple(s for _, s in pairs))

    def __eq__(self, other):
        if isinstance(other, OfflineMesh):
            return (self.mesh_dim_names == other.mesh_dim_names
                    and self.mesh_shape == other.mesh_shape)
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, OfflineMesh):
            return (self.mesh_dim_names != other.mesh_dim_names
                    or self.mesh_shape != other.mesh_shape)
        return NotImplemented

    def __hash__(self):
        return hash((self.mesh_dim_names, self.mesh_shape))

    def __repr__(self):
        return (f"OfflineMesh(mesh_dim_names={self.mesh_dim_names!r}, "
                f"mesh_shape={self.mesh_shape!r})")

    def __setattr__(self, name, value):
        raise _FROZEN(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise _FROZEN(f"cannot delete field {name!r}")

    def __reduce__(self):
        return OfflineMesh, (self.mesh_dim_names, self.mesh_shape)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # ---- everything else is one library call ----

    def _mesh(self):
        """The library's mesh (made on first use for sub-meshes)."""
        handle = self._handle
        if handle is None:
            handle = _core.Mesh(self.mesh_dim_names, self.mesh_shape)
            object.__setattr__(self, "_handle", handle)
        return handle

    def to_json(self) -> str:
        """Canonical JSON text:
        {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]} (keys sorted,
        no spaces)."""
        return _core.om_mesh_to_json(self._mesh())

    @staticmethod
    def from_json(text: Union[str, bytes]) -> "OfflineMesh":
        """Parses mesh JSON (str or bytes) as written by to_json(). Anything
        that is not exactly one valid mesh object raises OfflineMeshError."""
        return (_core.om_mesh_from_json(text))

    def to_spec(self) -> str:
        """The text form "dp=2,cp=2,tp=8" ("" for the empty mesh)."""
        return _core.om_mesh_to_spec(self._mesh())

    @staticmethod
    def from_spec(spec: str) -> "OfflineMesh":
        """Parses the text form "dp=2,cp=2,tp=8" (spaces around items are
        allowed; "" is the empty mesh), as the CLI's --mesh does."""
        return (_core.om_mesh_from_spec(spec))

    @staticmethod
    def _axes(dims):
        """The axis set dims as a list of names: "dp,cp" (comma-separated)
        or a sequence of names; the library checks them."""
        if isinstance(dims, str):
            return [name.strip() for name in dims.split(",")] if dims.strip() else []
        if not isinstance(dims, (tuple, list)):
            raise TypeError("dims must be a str or a tuple of str, not "
                            f"{type(dims).__name__}")
        return dims

    def coordinate(self, rank) -> Tuple[int, ...]:
        """Coordinates of rank, one int per axis in mesh order.
        OfflineMeshError when rank is outside 0 .. size()-1."""
        return tuple(memoryview(_core.om_mesh_coordinate_of(self._mesh(), rank)).cast("q"))

    def rank(self, coord) -> int:
        """Rank at coord, one int per axis in mesh order (the inverse of
        coordinate())."""
        return _core.om_mesh_rank(self._mesh(), coord)

    def groups(self, dims) -> List[Tuple[int, ...]]:
        """The process groups over the axes dims (a str such as "tp" or
        "dp,cp", or a tuple of str): a list of tuples of ranks, one per
        group. Ranks in a group agree on every axis outside dims; groups are
        listed row-major over the other axes, members row-major over dims
        (both in mesh order). For big meshes use groups_buffer()."""
        mesh = self._mesh()
        axes = self._axes(dims)
        count, size = _core.om_mesh_group_shape_named(mesh, axes)
        ranks = iter(memoryview(_core.om_mesh_groups_named(
            mesh, axes, 0, count)).cast("i"))
        return list(zip(*[ranks] * size))

    def groups_buffer(self, dims, start=0, count=None) -> memoryview:
        """The groups of groups() in bulk: a read-only memoryview of C int32
        (format 'i') shaped (ngroups, group_size), filled by the library in
        one call, with no Python int per rank: numpy.asarray() views it
        without a copy, tolist() gives lists, buf[g, i] one rank. start and
        count select groups start .. start+count-1, so huge meshes can be
        walked piece by piece; count=None means up to the last group. An
        empty slice is an empty 1-D view (shape (0,))."""
        mesh = self._mesh()
        axes = self._axes(dims)
        ngroups, size = _core.om_mesh_group_shape_named(mesh, axes)
        first = _index(start, "start")
        n = ngroups - first if count is None else _index(count, "count")
        if not (0 <= first <= ngroups and 0 <= n <= ngroups - first):
            raise ValueError(f"start={first}, count={n} is outside the "
                             f"{ngroups} groups")
        table = _core.om_mesh_groups_named(mesh, axes, first, n) if n else bytearray()
        view = memoryview(table).toreadonly()
        # (memoryview cannot have a 0 in a 2-D shape: an empty slice is 1-D)
        return view.cast("i", (n, size)) if n else view.cast("i")

    def group_shape(self, dims) -> Tuple[int, int]:
        """(number of groups, ranks per group) over dims."""
        return _core.om_mesh_group_shape_named(self._mesh(), self._axes(dims))

    def group_index(self, rank, dims) -> int:
        """The number of the group over dims (as in groups()) that holds
        rank."""
        return _core.om_mesh_group_index_named(self._mesh(), self._axes(dims), rank)

    def group_of(self, rank, dims) -> Tuple[int, ...]:
        """The group over dims (as in groups()) that contains rank."""
        return tuple(memoryview(_core.om_mesh_group_of_named(
            self._mesh(), self._axes(dims), rank)).cast("i"))


def _index(value, name):
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return operator.index(value)


@dataclasses.dataclass(frozen=True)
class _OfflineMeshFields:
    mesh_dim_names: Tuple[str, ...] = ()
    mesh_shape: Tuple[int, ...] = ()


# OfflineMesh replaces a frozen dataclass: give it the dataclass metadata so
# dataclasses.fields(), asdict(), replace() and match statements keep working.
OfflineMesh.__dataclass_fields__ = _OfflineMeshFields.__dataclass_fields__  # type: ignore[attr-defined]
OfflineMesh.__dataclass_params__ = _OfflineMeshFields.__dataclass_params__  # type: ignore[attr-defined]
OfflineMesh.__match_args__ = ("mesh_dim_names", "mesh_shape")  # type: ignore[attr-defined]
del _OfflineMeshFields
_core._set_mesh_class(OfflineMesh)

_EMPTY = OfflineMesh()


# ---- parallel dims ---------------------------------------------------------------

# Slots (Python >= 3.10) make the seven field reads of build_offline_mesh()
# cheaper.
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

    def to_json(self) -> str:
        """Canonical JSON of the seven fields (keys sorted, no spaces), as
        the CLI's ``dims`` command prints it."""
        return _core.om_dims_to_json(self)


def _spec_from(dims) -> ParallelDimsSpec:
    """A ParallelDimsSpec with the fields of a library Dims handle."""
    return ParallelDimsSpec(
        **{_core.om_dim_field_name(d): _core.om_dims_get(dims, d)
           for d in _DIMS},
        **{_core.om_flag_field_name(f): _core.om_dims_get_flag(dims, f)
           for f in _FLAGS})


_DIMS = tuple(getattr(_core, n) for n in dir(_core) if n.startswith("OM_DIM_")
              and n != "OM_DIM_COUNT")
_FLAGS = tuple(getattr(_core, n) for n in dir(_core) if n.startswith("OM_FLAG_")
               and n != "OM_FLAG_COUNT")


def build_offline_mesh(spec) -> OfflineMesh:
    """The offline mesh of a ParallelDimsSpec (any object with its seven
    fields works): axes dp, cp, tp in that order, each present when its size
    is >= 1 (even at 1, so a planner can see it; 0 means "not declared");
    pp appended last when pp_size > 1; ep never an axis (ep_size travels
    beside the mesh). TypeError for wrong field types, OfflineMeshError for
    invalid values."""
    return _core.om_build_offline_mesh(spec)


def build_runtime_mesh(spec, order: str) -> OfflineMesh:
    """The mesh of spec in a runtime axis order, as a live trainer lays out
    its ranks: "pp,dp,cp,tp" lists axes slowest first (PyTorch, JAX, MPI);
    "tp-cp-ep-dp-pp" fastest first (Megatron). Axes the offline mesh lacks
    (pp at size 1, ep) are skipped."""
    return (_core.om_build_runtime_mesh(spec, order))


def normalize_order(order: str) -> Tuple[str, ...]:
    """An axis order in either style as the axis names of the mesh it
    describes, slowest first: "tp-cp-ep-dp-pp" gives
    ("pp", "dp", "ep", "cp", "tp")."""
    text = _core.om_order_normalize(order)
    return tuple(text.split(",")) if text else ()


def _optional_count(value: object, name: str) -> int:
    """None -> 0 (the C API's "not given"); otherwise an int >= 1."""
    if value is None:
        return 0
    number = _index(value, name)
    if number < 1:
        raise ValueError(f"{name} must be >= 1 or None, got {number}")
    return number


def load_parallel_dims(path: Union[str, bytes, os.PathLike],
                       world_size: Optional[int] = None) -> ParallelDimsSpec:
    """Projects the ``accelerator:`` section of the training YAML at ``path``.

    ``dp_size`` is derived as ``world_size / (tp * cp * pp)`` unless the
    file gives it. ``world_size=None`` discovers it from the environment
    (``WORLD_SIZE``, ``OMPI_COMM_WORLD_SIZE``, ``PMI_SIZE``,
    ``SLURM_NTASKS``, first set wins; 1 when none is). Raises
    ``OfflineMeshIOError`` (an OSError) when the file cannot be read and
    ``OfflineMeshError`` for invalid content, both with the library's
    message (which names the path and line).
    """
    return _spec_from(_core.om_dims_load_yaml(
        path, _optional_count(world_size, "world_size")))


def parse_parallel_dims(yaml_text: Union[str, bytes],
                        world_size: Optional[int] = None) -> ParallelDimsSpec:
    """As :func:`load_parallel_dims` for YAML text (str or UTF-8 bytes)."""
    return _spec_from(_core.om_dims_from_yaml(
        yaml_text, _optional_count(world_size, "world_size")))


# ---- preflight ---------------------------------------------------------------------

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


def _mesh_of(mesh):
    if not isinstance(mesh, OfflineMesh):
        raise TypeError(
            f"mesh must be an OfflineMesh, not {type(mesh).__name__}")
    return mesh._mesh()


def validate_axes(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                  ep_size: int = 1) -> None:
    """Checks a plan's sizes against the mesh, as the planner does.

    For tp and cp with a size > 1 the mesh must have that axis with that
    size; ep is compared only when the mesh has an ``ep`` axis. Returns None;
    raises ``OfflineMeshError`` with the library's message on a mismatch
    (or a size < 1).
    """
    _core.om_validate_axes(_mesh_of(mesh), tp_size, cp_size, ep_size)


def plan_dim_names(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                   ep_size: int = 1) -> Tuple[str, ...]:
    """The plan's coordinate axes: the mesh's names, in mesh order, that are
    ``tp``, ``cp`` or ``ep`` with a plan size > 1 (``dp`` never is one)."""
    names = _core.om_plan_dim_names(_mesh_of(mesh), tp_size, cp_size, ep_size)
    return tuple(names.split(",")) if names else ()


def expert_layout(mesh: OfflineMesh, ep_size: int,
                  num_experts: Optional[int] = None) -> ExpertLayout:
    """Extended expert parallelism (MoE) over the mesh's dense region.

    The dense region (all non-``pp`` axes, flattened row-major in mesh
    order) is re-sliced as ``(edp = dense / ep_size, ep = ep_size)``.
    ``OfflineMeshError`` when ``pp > 1``, when ``ep_size`` does not divide
    the dense region, or when ``num_experts`` is not divisible by
    ``ep_size``.
    """
    experts = _optional_count(num_experts, "num_experts")
    layout = (_core.om_expert_mesh(_mesh_of(mesh), ep_size, experts))
    return ExpertLayout(edp=layout.size("edp"), ep=layout.size("ep"),
                        ep_groups=layout.groups("ep"),
                        edp_groups=layout.groups("edp"), mesh=layout)


def host_locality(mesh: OfflineMesh, dims: Dims,
                  ranks_per_host: int) -> HostLocality:
    """Locality of the groups over ``dims`` on hosts of ``ranks_per_host``
    consecutive ranks (the last host may be partial): how many groups there
    are, how many stay on one host, and the most hosts one group spans."""
    handle = _mesh_of(mesh)
    return HostLocality(*_core.om_mesh_locality_named(
        handle, OfflineMesh._axes(dims), ranks_per_host))
