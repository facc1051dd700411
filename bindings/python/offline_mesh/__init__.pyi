# Type stubs for the offline_mesh package (public API).
# Checked against the runtime by mypy.stubtest in run-tests.sh.
import dataclasses
import enum
import os
from typing import (Any, ClassVar, Dict, List, NamedTuple, Optional, Sequence,
                    Tuple, Union, final)

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

__version__: str

Dims = Union[str, Sequence[str]]
_Int = int  # int or anything with __index__ (numpy integers); never bool

class Status(enum.IntEnum):
    OK = 0
    INVALID_ARGUMENT = 1
    OUT_OF_RANGE = 2
    PARSE = 3
    IO = 4
    NO_MEMORY = 5
    LENGTH_MISMATCH = 6
    DUPLICATE_NAME = 7
    EMPTY_NAME = 8
    BAD_SIZE = 9
    MESH_TOO_LARGE = 10
    INVALID_NAME = 11
    BUFFER_TOO_SMALL = 12
    UNKNOWN_AXIS = 13
    RANK_COLLISION = 14
    OUTSIDE_WORLD = 15
    AXIS_ORDER = 16
    SIZE_MISMATCH = 17
    UNALIGNED = 18
    VIEW_CONFLICT = 19
    UNKNOWN_VIEW = 20

class OfflineMeshError(ValueError):
    status: Union[Status, int]
    def __init__(self, status: int, message: str) -> None: ...

class OfflineMeshIOError(OSError):
    status: Union[Status, int]
    def __init__(self, status: int, message: str) -> None: ...

class OfflineMeshMemoryError(MemoryError):
    status: Union[Status, int]
    def __init__(self, status: int, message: str) -> None: ...

class _Fields:
    mesh_dim_names: Tuple[str, ...]
    mesh_shape: Tuple[int, ...]

@final
class OfflineMesh(_Fields):
    __dataclass_fields__: ClassVar[Dict[str, dataclasses.Field[Any]]]
    __match_args__: ClassVar[Tuple[str, str]]
    def __new__(cls, mesh_dim_names: Sequence[str] = (),
                mesh_shape: Sequence[_Int] = ()) -> OfflineMesh: ...
    def __init_subclass__(cls, **kwargs: Any) -> None: ...
    @property
    def ndim(self) -> int: ...
    def size(self, dim: Union[None, str, _Int] = None) -> int: ...
    def __getitem__(self, key: Union[str, Sequence[str]]) -> OfflineMesh: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __setattr__(self, name: str, value: Any) -> None: ...
    def __delattr__(self, name: str) -> None: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Tuple[str, ...], Tuple[int, ...]]]: ...
    def __copy__(self) -> OfflineMesh: ...
    def __deepcopy__(self, memo: Any) -> OfflineMesh: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: Union[str, bytes]) -> OfflineMesh: ...
    def to_spec(self) -> str: ...
    @staticmethod
    def from_spec(spec: str) -> OfflineMesh: ...
    def coordinate(self, rank: _Int) -> Tuple[int, ...]: ...
    def rank(self, coord: Sequence[_Int]) -> int: ...
    def groups(self, dims: Dims) -> List[Tuple[int, ...]]: ...
    def groups_buffer(self, dims: Dims, start: _Int = 0,
                      count: Optional[_Int] = None) -> memoryview: ...
    def group_shape(self, dims: Dims) -> Tuple[int, int]: ...
    def group_index(self, rank: _Int, dims: Dims) -> int: ...
    def group_of(self, rank: _Int, dims: Dims) -> Tuple[int, ...]: ...

@dataclasses.dataclass(frozen=True)
class ParallelDimsSpec:
    dp_size: int = 1
    tp_size: int = 1
    cp_size: int = 1
    ep_size: int = 1
    pp_size: int = 1
    sequence_parallel: bool = False
    loss_parallel: bool = False
    def to_json(self) -> str: ...

class ExpertLayout(NamedTuple):
    edp: int
    ep: int
    ep_groups: List[Tuple[int, ...]]
    edp_groups: List[Tuple[int, ...]]
    mesh: OfflineMesh

class HostLocality(NamedTuple):
    group_count: int
    local_groups: int
    max_hosts: int

def build_offline_mesh(spec: Any) -> OfflineMesh: ...
def build_runtime_mesh(spec: Any, order: str) -> OfflineMesh: ...
def normalize_order(order: str) -> Tuple[str, ...]: ...
def load_parallel_dims(path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
                       world_size: Optional[int] = None) -> ParallelDimsSpec: ...
def parse_parallel_dims(yaml_text: Union[str, bytes],
                        world_size: Optional[int] = None) -> ParallelDimsSpec: ...
def validate_axes(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                  ep_size: int = 1) -> None: ...
def plan_dim_names(mesh: OfflineMesh, tp_size: int = 1, cp_size: int = 1,
                   ep_size: int = 1) -> Tuple[str, ...]: ...
def expert_layout(mesh: OfflineMesh, ep_size: int,
                  num_experts: Optional[int] = None) -> ExpertLayout: ...
def host_locality(mesh: OfflineMesh, dims: Dims,
                  ranks_per_host: int) -> HostLocality: ...

class LevelLocality(NamedTuple):
    level: str
    groups_inside: int
    groups_crossing: int
    max_domains: int
    ppn_min: int
    ppn_max: int
    worst_group: int
    first_crossing: int
    crossing_rank: int

class Hierarchy:
    def __init__(self, handle: Any) -> None: ...
    @classmethod
    def from_spec(cls, spec: str) -> Hierarchy: ...
    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> Hierarchy: ...
    @classmethod
    def from_hostfile(cls, text: Union[str, bytes]) -> Hierarchy: ...
    @property
    def levels(self) -> Tuple[str, ...]: ...
    @property
    def ranks(self) -> int: ...
    def level_index(self, name: str) -> int: ...
    def ranks_per_domain(self, level: Union[str, int]) -> int: ...
    def domain_of(self, level: Union[str, int], rank: int) -> int: ...
    def domain_label(self, level: Union[str, int], domain: int) -> str: ...
    def to_json(self) -> str: ...
    def locality(self, mesh: OfflineMesh, dims: Dims) -> List[LevelLocality]: ...
    def check(self, mesh: OfflineMesh, rules: str) -> List[str]: ...

class Preset:
    def __init__(self, name: str, params: Optional[Dict[str, Any]] = None,
                 world_size: int = 0) -> None: ...
    @classmethod
    def load_yaml(cls, path: Union[str, bytes, os.PathLike[str]],
                  world_size: int = 0) -> Preset: ...
    @property
    def name(self) -> str: ...
    @property
    def world_size(self) -> int: ...
    @property
    def views(self) -> Tuple[str, ...]: ...
    @property
    def group_lists(self) -> Tuple[str, ...]: ...
    def group_list(self, name: str) -> List[Tuple[int, ...]]: ...
    def to_json(self) -> str: ...

def check_preset(name: str, params: Optional[Dict[str, Any]] = None,
                 world_size: int = 0) -> Dict[str, Any]: ...
def check_preset_yaml(path: Union[str, bytes, os.PathLike[str]],
                      world_size: int = 0) -> Dict[str, Any]: ...
def launch_plan(mesh: OfflineMesh, nnodes: int, nproc_per_node: int,
                launcher: str = "torchrun", master_addr: Optional[str] = None,
                master_port: int = 0,
                hosts: Optional[Sequence[str]] = None) -> Dict[str, Any]: ...
def launch_check(mesh: OfflineMesh, nnodes: int, nproc_per_node: int,
                 hierarchy: Optional[Hierarchy] = None,
                 rules: Optional[str] = None) -> List[str]: ...
