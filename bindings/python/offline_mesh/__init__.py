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

Beyond the original: rank topology (``coordinate``, ``groups``, ...),
views (meshes whose axes carry strides: ``flatten``, ``unflatten``,
``slice``, ``layout``), worlds of named views (``World``), framework
presets (``Preset``), runtime axis orders, the ``"dp=2,tp=4"`` text form,
YAML config loading with the world-size step, physical hierarchies and
launch plans. A failure the library reports raises ``OfflineMeshError`` (a
``ValueError``; ``OfflineMeshIOError``, an ``OSError``, for files;
``OfflineMeshMemoryError``) with the library's message and its ``status``;
an argument of the wrong Python type raises ``TypeError``.

This package is the hand-written layer over ``offline_mesh._core``, which
SWIG generates from bindings/offline_mesh.i: each function here is a few
lines over one or two library calls.
"""

from __future__ import annotations

import dataclasses
import json
import math
import operator
import os
import sys
import warnings
from typing import (Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Type, TypeVar, Union,
                    final)

from . import _core  # type: ignore[attr-defined]
from ._errors import (ConfigWarning, DiagnosticKind, OfflineMeshError, OfflineMeshIOError,
                      OfflineMeshMemoryError, Status, WorldSizeSource, error)

__all__ = [
    "OfflineMesh", "World", "ParallelDimsSpec", "ResolvedDims", "ExpertLayout",
    "HostLocality", "LevelLocality", "Hierarchy", "Preset", "Status",
    "WorldSizeSource", "DiagnosticKind", "ConfigWarning", "OfflineMeshError", "OfflineMeshIOError",
    "OfflineMeshMemoryError", "build_offline_mesh", "build_runtime_mesh",
    "normalize_order", "load_parallel_dims", "parse_parallel_dims",
    "resolve_world_size", "apply_world_size", "validate_axes", "plan_dim_names",
    "expert_layout", "host_locality", "check_preset", "check_preset_yaml",
    "launch_plan", "launch_check", "order_advice", "order_check",
]

__version__: str = _core.om_version_string()

Dims = Union[str, Sequence[str]]
PathLike = Union[str, bytes, "os.PathLike[str]"]
Pairs = Tuple[Tuple[int, int], ...]
_Buffer = TypeVar("_Buffer")
_H = TypeVar("_H", bound="_Handle")


def _axes(dims: Dims) -> List[str]:
    """An axis set: "dp,cp" (comma-separated) or a sequence of names."""
    if isinstance(dims, str):
        return [name.strip() for name in dims.split(",")] if dims.strip() else []
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"dims must be a str or a tuple of str, not {type(dims).__name__}")
    return list(dims)


def _rows(items, size: int) -> List[Tuple[int, ...]]:
    """The flat sequence `items` cut into tuples of `size`."""
    it = iter(items)
    return list(zip(*[it] * size)) if size else []


def _pairs(table: bytearray) -> Pairs:
    return tuple(_rows(memoryview(table).cast("q"), 2))  # type: ignore[arg-type]


def _index(value: Any, name: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return operator.index(value)


class _Meta(type):
    # OfflineMesh(mesh_dim_names=(), mesh_shape=()) runs in C (the library
    # checks and copies them), with no Python frame; __init__ is never run.
    __call__ = _core._mesh_call()


class _Sizes(dict):
    """{axis name: size, None: total}; an absent axis name has size 1."""

    def __missing__(self, key: Any) -> int:
        if isinstance(key, str):
            return 1
        raise KeyError(key)


@final
class OfflineMesh(metaclass=_Meta):
    """OfflineMesh(mesh_dim_names=(), mesh_shape=())

    An immutable, named device mesh computed offline (no process group):
    distinct non-empty str axis names and their sizes (ints >= 1, product
    <= 2**31-1), ranks row-major (the last axis fastest). Wrong types raise
    TypeError, invalid values OfflineMeshError (a ValueError).

    Every mesh is also a *view* (VIEWS.md): its axes may carry strides and
    a rank offset (``OfflineMesh.strided``, ``from_layout``, ``flatten``,
    ``unflatten``, ``slice``, the views of a ``World``). Equality, hash and
    pickling account for the layout; a plain mesh compares by
    (mesh_dim_names, mesh_shape) as the original dataclass. Assignment
    raises dataclasses.FrozenInstanceError.
    """

    # The fields: slots the C extension sets (om_py_wrap_mesh).
    __slots__ = {"mesh_dim_names": "The axis names, in mesh order.",
                 "mesh_shape": "The axis sizes, in mesh order.",
                 "is_plain": "True for a plain row-major mesh (one instance, offset 0).",
                 "_handle": None, "_sizes": None}
    mesh_dim_names: Tuple[str, ...]
    mesh_shape: Tuple[int, ...]
    is_plain: bool
    _handle: Any
    _sizes: Dict[Any, int]
    __match_args__ = ("mesh_dim_names", "mesh_shape")

    def __init__(self, mesh_dim_names=(), mesh_shape=()):  # type: ignore[no-untyped-def]
        raise TypeError("an OfflineMesh is immutable: __init__ cannot run again")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("OfflineMesh cannot be subclassed")

    # ---- the planner-facing accessors (over the tuples the library made) ----

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.mesh_shape)

    def size(self, dim: Union[None, str, int] = None) -> int:
        """Number of ranks (of one instance for a view family) when dim is
        None; the size of axis dim when dim is a str (1 when absent); of
        axis number dim when an int (negative counts from the end;
        IndexError out of range), as torch's DeviceMesh.size()."""
        try:
            return self._sizes[dim]
        except (AttributeError, KeyError, TypeError):
            pass
        sizes = _Sizes(zip(self.mesh_dim_names, self.mesh_shape))
        sizes[None] = math.prod(self.mesh_shape)  # type: ignore[index]
        object.__setattr__(self, "_sizes", sizes)
        if dim is None or isinstance(dim, str):
            return sizes[dim]  # type: ignore[index]
        index, n = _index(dim, "dim"), self.ndim
        if not -n <= index < n:
            raise IndexError(f"axis index {index} out of range for a mesh with {n} axes")
        return self.mesh_shape[index]

    def __getitem__(self, key: Union[str, Sequence[str]]) -> OfflineMesh:
        """mesh["tp"]: the sub-mesh of that axis, the empty mesh when absent;
        mesh["dp", "cp"] (or a tuple/list): the sub-mesh of those axes. On
        a plain mesh that is the (names, sizes) mesh in mesh order, absent
        names left out (as the original); on a view, the library's slice
        (VIEWS.md 1: in the order named, the other axes enumerate its
        instances, an absent name in a tuple is an error)."""
        if key.__class__ is str and self.is_plain:
            names = self.mesh_dim_names
            if key in names:
                return _core._new_sub_mesh((key,), (self.mesh_shape[names.index(key)],))
            return _EMPTY
        keys = [key] if isinstance(key, str) else key
        if not isinstance(keys, (tuple, list)) or not all(isinstance(k, str) for k in keys):
            raise TypeError("OfflineMesh indices must be str axis names or tuples of them, "
                            f"not {type(key).__name__}")
        wanted = set(keys)  # a set: 10^5 names cost no O(n^2)
        if len(wanted) != len(keys):
            raise ValueError(f"an axis is named twice in {tuple(keys)!r}")
        if not self.is_plain:
            return _EMPTY if len(keys) == 1 and keys[0] not in self.mesh_dim_names else self.slice(keys)
        pairs = [(n, s) for n, s in zip(self.mesh_dim_names, self.mesh_shape) if n in wanted]
        return _core._new_sub_mesh(tuple(n for n, _ in pairs), tuple(s for _, s in pairs))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, OfflineMesh):
            return self is other or _core.om_mesh_equal(self, other)  # type: ignore[no-any-return]
        return NotImplemented

    def __hash__(self) -> int:
        # (om_mesh_hash covers names and shape only: a view's layout is added)
        return hash((self.mesh_dim_names, self.mesh_shape, None if self.is_plain else self.to_view_json()))

    def __repr__(self) -> str:
        if self.is_plain:
            return f"OfflineMesh(mesh_dim_names={self.mesh_dim_names!r}, mesh_shape={self.mesh_shape!r})"
        return f"OfflineMesh.from_view_json({self.to_view_json()!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> Tuple[Any, tuple]:
        if self.is_plain:
            return OfflineMesh, (self.mesh_dim_names, self.mesh_shape)
        return _view_from_json, (self.to_view_json(),)

    def __copy__(self) -> OfflineMesh:
        return self

    def __deepcopy__(self, memo: Any) -> OfflineMesh:
        return self

    # ---- text forms ----

    def to_json(self) -> str:
        """Canonical {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}."""
        return _core.om_mesh_to_json(self)

    @staticmethod
    def from_json(text: Union[str, bytes]) -> OfflineMesh:
        """Parses mesh JSON (str or bytes): exactly one valid mesh object."""
        return _core.om_mesh_from_json(text)

    @staticmethod
    def load_json(path: PathLike) -> OfflineMesh:
        """Reads the mesh JSON file at path (the CLI's --mesh FILE)."""
        return _core.om_mesh_load_json(path)

    def to_spec(self) -> str:
        """The text form "dp=2,cp=2,tp=8" ("" for the empty mesh)."""
        return _core.om_mesh_to_spec(self)

    @staticmethod
    def from_spec(spec: str) -> OfflineMesh:
        """Parses "dp=2,cp=2,tp=8" (spaces around items allowed), as --mesh."""
        return _core.om_mesh_from_spec(spec)

    # ---- topology ----

    def coordinate(self, rank: int) -> Tuple[int, ...]:
        """Coordinates of rank, one per axis (inside its instance for a view
        family); OfflineMeshError for a rank the mesh does not hold."""
        return tuple(memoryview(_core.om_mesh_coordinate_of(self, rank)).cast("q"))

    def rank(self, coord: Sequence[int]) -> int:
        """The rank at coord (the inverse of coordinate())."""
        return _core.om_mesh_rank(self, coord)

    def groups(self, dims: Dims) -> List[Tuple[int, ...]]:
        """The process groups over the axes dims ("tp", "dp,cp" or a tuple
        of names): ranks agreeing on every other axis, as rank tuples, groups
        ascending by first member, members row-major over dims in mesh
        order. For big meshes use groups_buffer()."""
        count, size = self.group_shape(dims)
        table = _core.om_mesh_groups_named(self, _axes(dims), 0, count)
        return _rows(memoryview(table).cast("i"), size)

    def groups_buffer(self, dims: Dims, start: int = 0, count: Optional[int] = None,
                      out: Optional[_Buffer] = None) -> Union[memoryview, _Buffer]:
        """The table of groups() in bulk: a read-only memoryview of C int32
        shaped (ngroups, group_size), filled in one call with no Python int
        per rank (numpy.asarray() views it); start/count select groups
        start .. start+count-1 (count None: to the last). An empty slice is
        an empty 1-D view. out: a writable C-contiguous buffer of 4-byte
        integers (numpy.empty((n, m), numpy.int32), array.array("i", ...))
        holding at least count*group_size items: the table is written into
        its first ones, in one library call with no allocation, and out is
        returned."""
        ngroups, size = self.group_shape(dims)
        first = _index(start, "start")
        n = ngroups - first if count is None else _index(count, "count")
        if not (0 <= first <= ngroups and 0 <= n <= ngroups - first):
            raise ValueError(f"start={first}, count={n} is outside the {ngroups} groups")
        if out is not None:
            return _core.om_mesh_groups_named(self, _axes(dims), first, n, out)  # type: ignore[no-any-return]
        table = _core.om_mesh_groups_named(self, _axes(dims), first, n) if n else b""
        view = memoryview(table).toreadonly()
        return view.cast("i", (n, size)) if n else view.cast("i")

    def group_shape(self, dims: Dims) -> Tuple[int, int]:
        """(number of groups, ranks per group) over dims."""
        return _core.om_mesh_group_shape_named(self, _axes(dims))

    def group_index(self, rank: int, dims: Dims) -> int:
        """The number of the group over dims (as in groups()) holding rank."""
        return _core.om_mesh_group_index_named(self, _axes(dims), rank)

    def group_of(self, rank: int, dims: Dims) -> Tuple[int, ...]:
        """The group over dims (as in groups()) that contains rank."""
        return tuple(memoryview(_core.om_mesh_group_of_named(self, _axes(dims), rank)).cast("i"))

    # ---- views (VIEWS.md 1) ----

    @staticmethod
    def strided(names: Sequence[str], sizes: Sequence[int], strides: Sequence[int],
                offset: int = 0) -> OfflineMesh:
        """The view whose axis i has sizes[i] and strides[i], ranks from offset."""
        return _core.om_view_new(names, sizes, strides, offset)

    @staticmethod
    def from_layout(names: Sequence[str], layout: Sequence[Sequence[Tuple[int, int]]],
                    instances: Sequence[Tuple[int, int]] = (), offset: int = 0) -> OfflineMesh:
        """The view with per axis its (size, stride) modes, slowest first,
        and the (size, stride) modes that enumerate its instances."""
        flat = [x for modes in layout for pair in modes for x in pair]
        inst = [x for pair in instances for x in pair]
        return _core.om_view_new_modes(names, [len(m) for m in layout], flat, inst, offset)

    @property
    def layout(self) -> Tuple[Pairs, ...]:
        """Per axis its (size, stride) modes, slowest first (normal form:
        a size-1 axis has none)."""
        return tuple(_pairs(_core.om_view_modes(self, i)) for i in range(self.ndim))

    offset = property(_core.om_view_offset, doc="The rank offset of the view.")

    @property
    def instance_modes(self) -> Pairs:
        """The (size, stride) modes enumerating the instances of a family."""
        return _pairs(_core.om_view_instance_modes(self))

    instance_count = property(_core.om_view_instance_count, doc="Instances of the family.")
    rank_count = property(_core.om_view_rank_count, doc="Ranks of all instances together.")
    extent = property(_core.om_view_extent, doc="One past the largest rank the view holds.")

    def holds(self, rank: int) -> bool:
        return _core.om_view_holds(self, rank)

    def flatten(self, axes: Dims, name: Optional[str] = None) -> OfflineMesh:
        """One axis over `axes` (in view order; size-1 axes anywhere); name
        defaults to a_b; one axis into its own name is self.slice(axis)."""
        return _core.om_view_flatten(self, _axes(axes), name)

    def unflatten(self, axis: str, sizes: Sequence[int], names: Sequence[str]) -> OfflineMesh:
        """Axis `axis` replaced by axes `names` of `sizes`, the first slowest."""
        return _core.om_view_unflatten(self, axis, sizes, names)

    def slice(self, axes: Dims) -> OfflineMesh:
        """The family of sub-views over `axes`, in the order named."""
        return _core.om_view_slice(self, _axes(axes))

    def to_view_json(self) -> str:
        """The view record {"dim_names","layout","shape"[,"offset","instances"]}."""
        return _core.om_view_to_json(self)

    @staticmethod
    def from_view_json(text: Union[str, bytes]) -> OfflineMesh:
        """Reads a view record (what to_view_json() and `offline-mesh views`
        write; "groups" and "coords" are accepted and ignored)."""
        return _core.om_view_from_json(text)


_view_from_json = OfflineMesh.from_view_json


@dataclasses.dataclass(frozen=True)
class _OfflineMeshFields:
    mesh_dim_names: Tuple[str, ...] = ()
    mesh_shape: Tuple[int, ...] = ()


# OfflineMesh replaces a frozen dataclass: its dataclass metadata keeps
# dataclasses.fields(), asdict(), replace() and match statements working.
OfflineMesh.__dataclass_fields__ = _OfflineMeshFields.__dataclass_fields__  # type: ignore[attr-defined]
OfflineMesh.__dataclass_params__ = _OfflineMeshFields.__dataclass_params__  # type: ignore[attr-defined]
_core._register(OfflineMesh, error)
_EMPTY = OfflineMesh()


class _Handle:
    """A package object over one library object: its SWIG handle, which
    frees it (World, Hierarchy, Preset)."""

    __slots__ = ("_handle",)
    _handle: Any

    @classmethod
    def _of(cls: Type[_H], handle: Any) -> _H:
        obj = cls.__new__(cls)
        obj._handle = handle
        return obj

    def _names(self, name: Any, count: Any) -> Tuple[str, ...]:
        """name(handle, i) for i below count(handle): a list the library
        gives item by item."""
        return tuple(name(self._handle, i) for i in range(count(self._handle)))


class World(_Handle):
    """A world: one rank space of `world_size` ranks and its named views
    (VIEWS.md 2). An axis name shared by two views must give the same groups
    in both (checked on construction: Status.VIEW_CONFLICT). world["dense"]
    is a view (an OfflineMesh); len, iteration and `in` go over view names."""

    __slots__ = ()

    def __init__(self, world_size: int, views: Dict[str, OfflineMesh]) -> None:
        if not isinstance(views, dict):
            raise TypeError(f"views must be a dict, not {type(views).__name__}")
        self._handle = _core.om_world_new(world_size, list(views), list(views.values()))

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> World:
        """{"views": {name: view record}, "world_size": W} (W optional)."""
        return cls._of(_core.om_world_from_json(text))

    @classmethod
    def load_json(cls, path: PathLike) -> World:
        """from_json() of a file, e.g. what `offline-mesh views` printed."""
        return cls._of(_core.om_world_load_json(path))

    @property
    def size(self) -> int:
        return _core.om_world_size(self._handle)

    @property
    def views(self) -> Tuple[str, ...]:
        """The view names, in construction order."""
        return self._names(_core.om_world_view_name, _core.om_world_view_count)

    def __len__(self) -> int:
        return _core.om_world_view_count(self._handle)

    def __iter__(self) -> Iterator[str]:
        return iter(self.views)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and _core.om_world_view_index(self._handle, name) >= 0

    def __getitem__(self, name: str) -> OfflineMesh:
        """The view called name (OfflineMeshError, Status.UNKNOWN_VIEW)."""
        return _core.om_world_view(self._handle, name)

    def axis_view(self, axis: str) -> Optional[str]:
        """The first view holding an axis called axis, or None."""
        return _core.om_world_axis_view(self._handle, axis)

    def slice(self, axes: Dims) -> OfflineMesh:
        """The family over axes looked up in any view (torch's root-mesh
        slicing): world.slice(("dp_tp", "cp"))."""
        return _core.om_world_slice(self._handle, _axes(axes))

    def to_json(self) -> str:
        return _core.om_world_to_json(self._handle)

    def __repr__(self) -> str:
        return f"World({self.size}, views={self.views!r})"


# ---- parallel dims -------------------------------------------------------------

# Slots (Python >= 3.10) make the field reads of build_offline_mesh() cheaper.
_SLOTS = {"slots": True} if sys.version_info >= (3, 10) else {}


@dataclasses.dataclass(frozen=True, **_SLOTS)
class ParallelDimsSpec:
    """The parallelism of a training job: the sizes and flags of its config.

    Plain data, checked when it reaches the library. Sizes are ints >= 0
    (0 = "not declared": dp/cp/tp at 0 are left out of the mesh, pp/ep at 0
    count as 1); the flags are bools. ``dp_size=None`` means dp is not given:
    apply_world_size() derives it.
    """

    dp_size: Optional[int] = 1
    tp_size: int = 1
    cp_size: int = 1
    ep_size: int = 1
    pp_size: int = 1
    sequence_parallel: bool = False
    loss_parallel: bool = False

    def to_json(self) -> str:
        """Canonical JSON of the seven fields, as the CLI's ``dims`` prints."""
        return _core.om_dims_to_json(self)


class ResolvedDims(NamedTuple):
    """Dims after the world-size step: the spec (dp derived or checked), the
    world size it was checked against and where that came from."""

    spec: ParallelDimsSpec
    world_size: int
    source: WorldSizeSource


_DIMS = [getattr(_core, n) for n in dir(_core) if n.startswith("OM_DIM_")]
_FLAGS = [getattr(_core, n) for n in dir(_core) if n.startswith("OM_FLAG_")]


def _spec_from(dims: Any, projected: bool = False) -> ParallelDimsSpec:
    """The ParallelDimsSpec of a library Dims handle (dp None when not given
    in a pure projection)."""
    fields: Dict[str, Any] = {_core.om_dim_field_name(d): _core.om_dims_get(dims, d) for d in _DIMS}
    fields.update({_core.om_flag_field_name(f): _core.om_dims_get_flag(dims, f) for f in _FLAGS})
    if projected and not _core.om_dims_dp_given(dims):
        fields["dp_size"] = None
    return ParallelDimsSpec(**fields)


def build_offline_mesh(spec: Any) -> OfflineMesh:
    """The offline mesh of a ParallelDimsSpec (or any object with its seven
    fields): axes dp, cp, tp in that order, each present when its size is
    >= 1 (0 means "not declared"); pp appended last when pp_size > 1; ep
    never an axis. TypeError for wrong field types, OfflineMeshError for
    invalid values."""
    return _core.om_build_offline_mesh(spec)


def build_runtime_mesh(spec: Any, order: str) -> OfflineMesh:
    """The mesh of spec in a runtime axis order, as a live trainer lays out
    its ranks: "pp,dp,cp,tp" lists axes slowest first (PyTorch, JAX, MPI),
    "tp-cp-ep-dp-pp" fastest first (Megatron). Axes the offline mesh lacks
    (pp at size 1, ep) are skipped."""
    return _core.om_build_runtime_mesh(spec, order)


def normalize_order(order: str) -> Tuple[str, ...]:
    """An axis order in either style as slowest-first names."""
    text = _core.om_axis_order_normalize(order)
    return tuple(text.split(",")) if text else ()


def resolve_world_size(world_size: Optional[int] = None) -> Tuple[int, WorldSizeSource]:
    """(world size, source): world_size >= 1 is explicit; None or 0 means
    "not given": WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS
    (first set wins), else 1. Negative: OfflineMeshError."""
    size, source = _core.om_world_size_resolve(0 if world_size is None else world_size)
    return size, WorldSizeSource(source)


def apply_world_size(spec: Any, world_size: Optional[int] = None) -> ResolvedDims:
    """The world-size step (as the YAML loaders and the CLI do): resolves
    the world size (resolve_world_size()), then derives dp when the spec's
    dp_size is None, else checks dp*tp*cp*pp against it."""
    dims = _core.om_dims_copy(spec)
    _core.om_dims_resolve_world_size(dims, 0 if world_size is None else world_size)
    size, source = _core.om_dims_world_size(dims)
    return ResolvedDims(_spec_from(dims), size, WorldSizeSource(source))


def _projection(read: Any, source: Any, strict: bool) -> ParallelDimsSpec:
    """A strict or lenient projection; each diagnostic becomes a ConfigWarning."""
    diagnostics = _core.om_diagnostics_new()
    spec = _spec_from(read(source, strict, diagnostics), projected=True)
    for i in range(_core.om_diagnostics_count(diagnostics)):
        warnings.warn(ConfigWarning(_core.om_diagnostics_message(diagnostics, i),
                                    _core.om_diagnostics_kind(diagnostics, i),
                                    _core.om_diagnostics_line(diagnostics, i)), stacklevel=3)
    return spec


def load_parallel_dims(path: PathLike, world_size: Optional[int] = None, *, resolve: bool = True,
                       strict: bool = False) -> ParallelDimsSpec:
    """Projects the ``accelerator:`` section of the training YAML at path,
    then applies the world size (apply_world_size()). resolve=False gives
    the pure projection (dp_size None when the file does not give it).
    Probable mistakes (a misspelled key, no accelerator section, ...) are
    ConfigWarning warnings, or with strict=True an OfflineMeshError
    (Status.PARSE). OfflineMeshIOError when the file cannot be read."""
    spec = _projection(_core.om_dims_read_yaml_checked, path, strict)
    return apply_world_size(spec, world_size).spec if resolve else spec


def parse_parallel_dims(yaml_text: Union[str, bytes], world_size: Optional[int] = None, *,
                        resolve: bool = True, strict: bool = False) -> ParallelDimsSpec:
    """As load_parallel_dims() for YAML text (str or UTF-8 bytes)."""
    spec = _projection(_core.om_dims_parse_yaml_checked, yaml_text, strict)
    return apply_world_size(spec, world_size).spec if resolve else spec


# ---- preflight ---------------------------------------------------------------------

class ExpertLayout(NamedTuple):
    """The dense region re-sliced as (edp, ep): EP groups of ep consecutive
    ranks, EDP groups of every ep-th rank, and the ("edp", "ep") mesh."""

    edp: int
    ep: int
    ep_groups: List[Tuple[int, ...]]
    edp_groups: List[Tuple[int, ...]]
    mesh: OfflineMesh


class HostLocality(NamedTuple):
    """Groups over some axes on hosts of consecutive ranks: their number,
    how many sit on one host, the most hosts one group spans."""

    group_count: int
    local_groups: int
    max_hosts: int


def validate_axes(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1, ep_size: int = 1) -> None:
    """Checks a plan's sizes against the mesh (tp/cp > 1 must be axes of
    that size; ep only when the mesh has it); OfflineMeshError otherwise."""
    _core.om_mesh_validate_plan(mesh, tp_size, cp_size, ep_size)


def plan_dim_names(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                   ep_size: int = 1) -> Tuple[str, ...]:
    """The mesh's names, in mesh order, that are tp, cp or ep with a plan
    size > 1."""
    names = _core.om_mesh_plan_axes(mesh, tp_size, cp_size, ep_size)
    return tuple(names.split(",")) if names else ()


def expert_layout(mesh: OfflineMesh, ep_size: int, num_experts: Optional[int] = None) -> ExpertLayout:
    """The mesh's dense region (non-pp axes) re-sliced as (edp, ep_size)."""
    if num_experts is not None and _index(num_experts, "num_experts") < 1:
        raise ValueError(f"num_experts must be >= 1 or None, got {num_experts}")
    layout = _core.om_mesh_reslice_experts(mesh, ep_size, num_experts or 0)
    return ExpertLayout(layout.size("edp"), layout.size("ep"),
                        layout.groups("ep"), layout.groups("edp"), layout)


def host_locality(mesh: OfflineMesh, dims: Dims, ranks_per_host: int) -> HostLocality:
    """Locality of the groups over dims on hosts of ranks_per_host ranks."""
    return HostLocality(*_core.om_mesh_locality_named(mesh, _axes(dims), ranks_per_host))


# ---- hierarchies, presets, launch plans -----------------------------------------

_LOCALITY = sorted(getattr(_core, n) for n in dir(_core) if n.startswith("OM_LOCALITY_"))


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


class Hierarchy(_Handle):
    """A cluster's physical hierarchy, fastest level first (host=8,nvl=72)."""

    __slots__ = ()

    @classmethod
    def from_spec(cls, spec: str) -> Hierarchy:
        """Uniform levels "host=8,nvl=72,rack=576" (ranks per domain)."""
        return cls._of(_core.om_hierarchy_from_spec(spec))

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> Hierarchy:
        """Explicit per-rank domain ids per level (JSON)."""
        return cls._of(_core.om_hierarchy_from_json(text))

    @classmethod
    def from_hostfile(cls, text: Union[str, bytes]) -> Hierarchy:
        """An MPI-style hostfile with slots (one host level)."""
        return cls._of(_core.om_hierarchy_from_hostfile(text))

    @property
    def levels(self) -> Tuple[str, ...]:
        return self._names(_core.om_hierarchy_level_name, _core.om_hierarchy_levels)

    @property
    def ranks(self) -> int:
        """Ranks an explicit hierarchy describes; 0 for uniform ones."""
        return _core.om_hierarchy_ranks(self._handle)

    def level_index(self, name: str) -> int:
        return _core.om_hierarchy_level_index(self._handle, name)

    def _level(self, level: Union[str, int]) -> int:
        """A level by name or by index (negative from the slowest, as in ``levels``);
        out of range is an error here too, where the C getters answer 0."""
        if isinstance(level, str):
            return self.level_index(level)
        index, count = _index(level, "level"), _core.om_hierarchy_levels(self._handle)
        if not -count <= index < count:
            raise error(_core.OM_ERR_OUT_OF_RANGE, f"level {index} is outside the {count} levels of the hierarchy")
        return index % count

    def ranks_per_domain(self, level: Union[str, int]) -> int:
        return _core.om_hierarchy_ranks_per_domain(self._handle, self._level(level))

    def domain_of(self, level: Union[str, int], rank: int) -> int:
        return _core.om_hierarchy_domain_of(self._handle, self._level(level), rank)

    def domain_label(self, level: Union[str, int], domain: int) -> str:
        return _core.om_hierarchy_domain_label(self._handle, self._level(level), domain)

    def to_json(self) -> str:
        return _core.om_hierarchy_to_json(self._handle)

    def locality(self, mesh: OfflineMesh, dims: Dims) -> List[LevelLocality]:
        """Per level, the locality of the groups over dims of mesh."""
        report = _core.om_hierarchy_locality(mesh, self._handle, _axes(dims))
        return [LevelLocality(name, *(_core.om_locality_get(report, i, f) for f in _LOCALITY))
                for i, name in enumerate(self.levels)]

    def check(self, mesh: OfflineMesh, rules: str) -> List[str]:
        """The broken placement rules "AXES:LEVEL,..." ("cp+tp:nvl")."""
        return _core.om_hierarchy_check(mesh, self._handle, rules)[0].splitlines()

    def __repr__(self) -> str:
        return f"Hierarchy({self.to_json()})"


def _params(params: Optional[Dict[str, Any]]) -> List[str]:
    """The library's "KEY=VALUE" strings (values as JSON) of a dict."""
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a dict, not {type(params).__name__}")
    return [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in (params or {}).items()]


class Preset(_Handle):
    """The views a training framework builds from its own parameters:
    Preset("megatron", {"tensor_model_parallel_size": 2}, world_size=8)."""

    __slots__ = ()

    def __init__(self, name: str, params: Optional[Dict[str, Any]] = None, world_size: int = 0) -> None:
        self._handle = _core.om_preset_new(name, _params(params), world_size)

    @classmethod
    def load_yaml(cls, path: PathLike, world_size: int = 0) -> Preset:
        """The hyper-parallel preset of a training YAML."""
        return cls._of(_core.om_preset_load_yaml(path, world_size))

    @property
    def name(self) -> str:
        return _core.om_preset_name(self._handle)

    @property
    def world_size(self) -> int:
        return _core.om_preset_world_size(self._handle)

    @property
    def views(self) -> Tuple[str, ...]:
        return self._names(_core.om_preset_view_name, _core.om_preset_view_count)

    @property
    def group_lists(self) -> Tuple[str, ...]:
        return self._names(_core.om_preset_group_list_name, _core.om_preset_group_list_count)

    def group_list(self, name: str) -> List[Tuple[int, ...]]:
        """The named group list, in the framework's order."""
        table, size = _core.om_preset_group_list(self._handle, name)
        return _rows(memoryview(table).cast("i"), size)

    def world(self) -> World:
        """The views as a World (each an OfflineMesh: world["dense"])."""
        return World._of(_core.om_preset_world(self._handle))

    def to_json(self) -> str:
        """The JSON of `offline-mesh views`."""
        return _core.om_preset_to_json(self._handle)

    def single_axes(self) -> Dict[str, Any]:
        """torchtitan's single-axis meshes (get_mesh/get_optional_mesh keys):
        {"single_axis": {name: {"size", "from_view", "mesh_dim_name",
        "fake_backed", "get_optional_mesh_is_none"}}, "one_dimensional_active"}
        (`offline-mesh views --single-axes`); OfflineMeshError for other presets."""
        return json.loads(_core.om_preset_single_axes_json(self._handle))

    def __repr__(self) -> str:
        return f"Preset({self.name!r}, world_size={self.world_size})"


def check_preset(name: str, params: Optional[Dict[str, Any]] = None, world_size: int = 0) -> Dict[str, Any]:
    """Every rule of the preset at once: {"ok", "preset", "violations"}."""
    return json.loads(_core.om_preset_check(name, _params(params), world_size))


def check_preset_yaml(path: PathLike, world_size: int = 0) -> Dict[str, Any]:
    """As check_preset() for a training YAML naming its preset."""
    return json.loads(_core.om_preset_check_yaml(path, world_size))


def _hierarchy(hierarchy: Optional[Hierarchy]) -> Any:
    if hierarchy is not None and not isinstance(hierarchy, Hierarchy):
        raise TypeError(f"hierarchy must be a Hierarchy or None, not {type(hierarchy).__name__}")
    return hierarchy._handle if hierarchy is not None else None


def launch_plan(mesh: OfflineMesh, nnodes: int, nproc_per_node: int, launcher: str = "torchrun",
                master_addr: Optional[str] = None, master_port: int = 0,
                hosts: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """The per-node launch plan (ranks and launcher environment)."""
    fmt = _core.om_launch_format_from_name(launcher)
    plan = _core.om_launch_plan(mesh, nnodes, nproc_per_node, fmt, master_addr, master_port, hosts or ())
    return json.loads(plan)


def launch_check(mesh: OfflineMesh, nnodes: int, nproc_per_node: int,
                 hierarchy: Optional[Hierarchy] = None, rules: Optional[str] = None) -> List[str]:
    """Admission check of a job: every violation, one line each."""
    return _core.om_launch_check(mesh, _hierarchy(hierarchy), nnodes, nproc_per_node, rules)[0].splitlines()


def order_advice(spec: Any, hierarchy: Optional[Hierarchy] = None, require: Optional[str] = None,
                 prefer: Optional[str] = None, priority: Optional[str] = None) -> Dict[str, Any]:
    """Runtime axis orders ranked for a hierarchy: {"orders", "rejected"}."""
    return json.loads(_core.om_order_advice(spec, _hierarchy(hierarchy), require, prefer, priority))


def order_check(spec: Any, order: str, hierarchy: Optional[Hierarchy] = None,
                require: Optional[str] = None) -> List[str]:
    """The rules one runtime order breaks, one line each."""
    return _core.om_order_check(spec, _hierarchy(hierarchy), order, require)[0].splitlines()
