# Type stubs for the SWIG -builtin extension offline_mesh._core.
# Hand-written (SWIG writes none); checked by mypy.stubtest in run-tests.sh.
from os import PathLike
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple, Union

from typing_extensions import disjoint_base

_Dims = Union[str, Sequence[str]]
_Text = Union[str, bytes]
_Int = int  # int or anything with __index__ (numpy integers); never bool

# SWIG lists every wrapped name in __all__.
__all__ = [
    "om_version_string",
    "om_version_number",
    "om_status_string",
    "om_dim_field_name",
    "om_dim_axis_name",
    "om_flag_field_name",
    "om_world_size_from_env",
    "om_dims_from_yaml",
    "om_dims_load_yaml",
    "om_mesh_axes",
    "om_validate_axes",
    "om_plan_dim_names",
    "om_expert_mesh",
    "build_offline_mesh",
    "_set_mesh_class_attributes",
    "_register_spec_type",
    "OM_OK",
    "OM_ERR_INVALID_ARGUMENT",
    "OM_ERR_OUT_OF_RANGE",
    "OM_ERR_PARSE",
    "OM_ERR_IO",
    "OM_ERR_NO_MEMORY",
    "OM_ERR_LENGTH_MISMATCH",
    "OM_ERR_DUPLICATE_NAME",
    "OM_ERR_EMPTY_NAME",
    "OM_ERR_BAD_SIZE",
    "OM_ERR_MESH_TOO_LARGE",
    "OM_ERR_INVALID_NAME",
    "OM_ERR_BUFFER_TOO_SMALL",
    "OM_ERROR_MESSAGE_SIZE",
    "OM_MAX_RANKS",
    "OM_DIM_DP",
    "OM_DIM_TP",
    "OM_DIM_CP",
    "OM_DIM_EP",
    "OM_DIM_PP",
    "OM_FLAG_SEQUENCE_PARALLEL",
    "OM_FLAG_LOSS_PARALLEL",
    "OfflineMesh",
]

OM_OK: int
OM_ERR_INVALID_ARGUMENT: int
OM_ERR_OUT_OF_RANGE: int
OM_ERR_PARSE: int
OM_ERR_IO: int
OM_ERR_NO_MEMORY: int
OM_ERR_LENGTH_MISMATCH: int
OM_ERR_DUPLICATE_NAME: int
OM_ERR_EMPTY_NAME: int
OM_ERR_BAD_SIZE: int
OM_ERR_MESH_TOO_LARGE: int
OM_ERR_INVALID_NAME: int
OM_ERR_BUFFER_TOO_SMALL: int
OM_ERROR_MESSAGE_SIZE: int
OM_MAX_RANKS: int
OM_DIM_DP: int
OM_DIM_TP: int
OM_DIM_CP: int
OM_DIM_EP: int
OM_DIM_PP: int
OM_FLAG_SEQUENCE_PARALLEL: int
OM_FLAG_LOSS_PARALLEL: int

@disjoint_base
class OfflineMesh:
    __dataclass_fields__: ClassVar[Dict[str, Any]]
    __match_args__: ClassVar[Tuple[str, str]]
    def __init__(self, mesh_dim_names: Sequence[str] = (),
                 mesh_shape: Sequence[_Int] = ()) -> None: ...
    @property
    def mesh_dim_names(self) -> Tuple[str, ...]: ...
    @property
    def mesh_shape(self) -> Tuple[int, ...]: ...
    @property
    def ndim(self) -> int: ...
    def size(self, dim: Union[None, str, _Int] = None) -> int: ...
    def __getitem__(self, key: str, /) -> OfflineMesh: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: _Text) -> OfflineMesh: ...
    def coordinate(self, rank: _Int) -> Tuple[int, ...]: ...
    def rank(self, coord: Sequence[_Int]) -> int: ...
    def groups(self, dims: _Dims) -> List[Tuple[int, ...]]: ...
    def groups_buffer(self, dims: _Dims, start: _Int = 0,
                      count: Optional[_Int] = None) -> memoryview: ...
    def group_of(self, rank: _Int, dims: _Dims) -> Tuple[int, ...]: ...
    def _host_locality(self, dims: _Dims,
                       ranks_per_host: _Int) -> Tuple[int, int, int]: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Tuple[str, ...], Tuple[int, ...]]]: ...

def build_offline_mesh(spec: Any) -> OfflineMesh: ...
def om_version_string() -> str: ...
def om_version_number() -> int: ...
def om_status_string(status: int) -> str: ...
def om_dim_field_name(dim: int) -> Optional[str]: ...
def om_dim_axis_name(dim: int) -> Optional[str]: ...
def om_flag_field_name(flag: int) -> Optional[str]: ...
def om_world_size_from_env() -> Tuple[int, bool]: ...
def om_dims_from_yaml(text: _Text, world_size: _Int) -> Dict[str, Any]: ...
def om_dims_load_yaml(path: Union[str, bytes, PathLike[str], PathLike[bytes]],
                      world_size: _Int) -> Dict[str, Any]: ...
def om_mesh_axes(mesh: OfflineMesh, names: str) -> int: ...
def om_validate_axes(mesh: OfflineMesh, tp_size: _Int, cp_size: _Int,
                     ep_size: _Int) -> None: ...
def om_plan_dim_names(mesh: OfflineMesh, tp_size: _Int, cp_size: _Int,
                      ep_size: _Int) -> str: ...
def om_expert_mesh(mesh: OfflineMesh, ep_size: _Int,
                   num_experts: _Int) -> OfflineMesh: ...
def _set_mesh_class_attributes(attributes: Dict[str, Any]) -> None: ...
def _register_spec_type(type: type) -> bool: ...
def _alloc_fail_after(n: int) -> int: ...  # test builds only
