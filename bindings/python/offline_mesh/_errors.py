"""The package's enumerations and exceptions, every failure carrying its status.

The C extension raises through :func:`error` (offline_mesh_python.i), so every
failure the library reports arrives with its ``om_status`` as :class:`Status`
and the library's message.
"""

from __future__ import annotations

import enum
from typing import Union

from . import _core  # type: ignore[attr-defined]


def _members(*prefixes: str):
    """(NAME, value) of the C constants with one of the prefixes, as SWIG
    exports them: OM_ERR_PARSE -> PARSE, OM_WORLD_SIZE_DEFAULT -> DEFAULT."""
    return sorted(((name[len(p):], getattr(_core, name)) for name in dir(_core)
                   for p in prefixes if name.startswith(p)
                   and not name.endswith("_COUNT")), key=lambda item: item[1])


Status = enum.IntEnum("Status", [("OK", _core.OM_OK)] + _members("OM_ERR_"),  # type: ignore[misc]
                      module="offline_mesh")
Status.__doc__ = "The library's om_status codes: OM_ERR_PARSE is Status.PARSE."

WorldSizeSource = enum.IntEnum("WorldSizeSource", _members("OM_WORLD_SIZE_"),  # type: ignore[misc]
                               module="offline_mesh")
WorldSizeSource.__doc__ = """Where a world size came from (om_world_size_source):
EXPLICIT, FROM_WORLD_SIZE, ... DEFAULT; .description reads as in messages,
.variable is the environment variable (None when not one)."""
WorldSizeSource.description = property(_core.om_world_size_source_string)  # type: ignore[attr-defined]
WorldSizeSource.variable = property(_core.om_world_size_source_variable)  # type: ignore[attr-defined]


DiagnosticKind = enum.IntEnum("DiagnosticKind", _members("OM_DIAGNOSTIC_"),  # type: ignore[misc]
                              module="offline_mesh")
DiagnosticKind.__doc__ = """What a config diagnostic is about (om_diagnostic_kind):
UNKNOWN_KEY, NO_ACCELERATOR, EMPTY_ACCELERATOR, EMPTY_CONFIG, MESH_JSON,
DUPLICATE_KEY (since 1.3)."""


class ConfigWarning(UserWarning):
    """A probable mistake in a training config (a misspelled key or section,
    an empty config, a mesh JSON): what the CLI prints as "offline-mesh:
    warning: ..."; with strict=True the loaders raise OfflineMeshError
    (Status.PARSE) instead. ``kind`` is a DiagnosticKind, ``line`` 1-based
    (0: the whole document)."""

    def __init__(self, message: str, kind: int, line: int) -> None:
        super().__init__(message)
        self.kind, self.line = DiagnosticKind(kind), line


def _status(status: int) -> Union[Status, int]:
    try:
        return Status(status)
    except ValueError:  # a code newer than this package: keep the number
        return status


class _Error:
    """What the three exceptions share: ``status`` and pickling."""

    status: Union[Status, int]

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)  # type: ignore[call-arg]
        self.status = _status(status)

    def __reduce__(self):
        return type(self), (int(self.status), str(self))


class OfflineMeshError(_Error, ValueError):
    """A failure the library reported (bad values, parse errors, ...):
    ``status`` is the :class:`Status`, ``str(error)`` the library's message,
    which names the offending value."""


class OfflineMeshIOError(_Error, OSError):
    """A file the library could not read (``Status.IO``); an OSError."""


class OfflineMeshMemoryError(_Error, MemoryError):
    """The library ran out of memory (``Status.NO_MEMORY``)."""


for _cls in (OfflineMeshError, OfflineMeshIOError, OfflineMeshMemoryError, ConfigWarning):
    _cls.__module__ = "offline_mesh"
_CLASSES = {_core.OM_ERR_IO: OfflineMeshIOError, _core.OM_ERR_NO_MEMORY: OfflineMeshMemoryError}


def error(status: int, message: str) -> BaseException:
    """The exception for a failed call (used by the C extension)."""
    return _CLASSES.get(status, OfflineMeshError)(status, message)
