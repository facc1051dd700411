# Type stubs for the offline_mesh package (public API).
# Checked against the runtime by mypy.stubtest in run-tests.sh.
import os
from dataclasses import dataclass
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

from ._core import OfflineMesh as OfflineMesh
from ._core import build_offline_mesh as build_offline_mesh

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

__version__: str

Dims = Union[str, Sequence[str]]

@dataclass(frozen=True)
class ParallelDimsSpec:
    dp_size: int = 1
    tp_size: int = 1
    cp_size: int = 1
    ep_size: int = 1
    pp_size: int = 1
    sequence_parallel: bool = False
    loss_parallel: bool = False

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
