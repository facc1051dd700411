"""The exceptions of offline_mesh, one per kind, each carrying the status.

The C extension raises them through :func:`error` (see
offline_mesh_python.i), so every failure the library reports arrives with
its ``om_status`` as :class:`Status` and the library's message.
"""

from __future__ import annotations

import enum

from . import _core


def _status_members():
    """(NAME, value) of every om_status constant, from the C header (SWIG
    exports them as OM_OK, OM_ERR_*): OM_ERR_PARSE -> PARSE."""
    members = []
    for name in dir(_core):
        if name == "OM_OK" or name.startswith("OM_ERR_"):
            short = name[3:]
            if short.startswith("ERR_"):
                short = short[4:]
            members.append((short, getattr(_core, name)))
    return sorted(members, key=lambda item: item[1])


Status = enum.IntEnum("Status", _status_members(), module=__name__)
Status.__doc__ = "The library's om_status codes: OM_ERR_PARSE is Status.PARSE."


def _status(status: int):
    try:
        return Status(status)
    except ValueError:  # a code newer than this package: keep the number
        return status


class OfflineMeshError(ValueError):
    """A failure the library reported (bad values, parse errors, ...).

    ``status`` is the :class:`Status`; ``str(error)`` the library's message,
    which names the offending value.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = _status(status)

    def __reduce__(self):
        return type(self), (int(self.status), str(self))


class OfflineMeshIOError(OSError):
    """A file the library could not read (``Status.IO``); an OSError."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = _status(status)

    def __reduce__(self):
        return type(self), (int(self.status), str(self))


class OfflineMeshMemoryError(MemoryError):
    """The library ran out of memory (``Status.NO_MEMORY``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = _status(status)

    def __reduce__(self):
        return type(self), (int(self.status), str(self))


for _cls in (Status, OfflineMeshError, OfflineMeshIOError, OfflineMeshMemoryError):
    _cls.__module__ = "offline_mesh"

_CLASSES = {Status.IO: OfflineMeshIOError,
            Status.NO_MEMORY: OfflineMeshMemoryError}


def error(status: int, message: str) -> BaseException:
    """The exception for a failed call (used by the C extension)."""
    return _CLASSES.get(status, OfflineMeshError)(status, message)
