# Stubs of the private module offline_mesh._errors (the classes live in the
# public stubs, __init__.pyi).
from . import OfflineMeshError as OfflineMeshError
from . import OfflineMeshIOError as OfflineMeshIOError
from . import OfflineMeshMemoryError as OfflineMeshMemoryError
from . import Status as Status

def error(status: int, message: str) -> BaseException: ...
