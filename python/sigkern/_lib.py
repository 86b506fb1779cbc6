"""Loads the bundled library: ``ffi`` and ``lib`` for the rest of the package.

``lib`` is the compiled CFFI module's library object (out-of-line API mode: a C call costs about
0.1 µs). Every C function the package uses is looked up once, at import, through :func:`cfunc`,
which also records its name in :data:`USED` (the coverage test compares it with the header).
"""

from __future__ import annotations

import pathlib
from typing import Any, Set

from ._sigkern_cffi import ffi, lib

__all__ = ["ffi", "lib", "library_path", "include_dir", "cfunc", "USED"]

_HERE = pathlib.Path(__file__).resolve().parent

#: Names of every C function bound by the package (filled at import).
USED: Set[str] = set()


def library_path() -> str:
    """Absolute path of the bundled shared library (``libsigkern.so``), the same copy this
    package calls: load it with ``ctypes.CDLL(sigkern.library_path())`` or
    ``cffi.FFI().dlopen(...)`` to share handles and the thread's last error with the package.

    Returns
    -------
    str

    Raises
    ------
    FileNotFoundError
        The package is not built.
    """
    for p in sorted(_HERE.glob("libsigkern.so*")):
        return str(p)
    raise FileNotFoundError(f"no libsigkern.so* in {_HERE}: the package is not built")


def include_dir() -> str:
    """Directory of the bundled headers: ``sigkern.h`` (C/C++, with the documentation of every
    function) and ``sigkern_cdef.h`` (the same declarations for ``cffi.FFI.cdef``).

    Returns
    -------
    str
    """
    return str(_HERE / "include")


def cfunc(name: str) -> Any:
    """The C function ``name`` of the library (recorded in :data:`USED`)."""
    USED.add(name)
    return getattr(lib, name)
