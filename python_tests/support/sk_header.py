"""The repository's paths, the library's location and the generated header's constants.

Status codes and the other `#define`s come from include/sigkern_cdef.h through cffi (the
library's own constants), so no test restates them; contract/test_status.py is the one place
that writes the stable codes out, to check the header against them.
"""

from __future__ import annotations

import os
import pathlib

from cffi import FFI

SUPPORT = pathlib.Path(__file__).resolve().parent
ROOT = SUPPORT.parents[1]
INCLUDE = ROOT / "include"
CDEF = INCLUDE / "sigkern_cdef.h"


def library_path() -> pathlib.Path:
    """$SIGKERN_LIB if set, else target/release/libsigkern.{so,dylib} / sigkern.dll."""
    env = os.environ.get("SIGKERN_LIB")
    if env:
        return pathlib.Path(env)
    release = ROOT / "target" / "release"
    for name in ("libsigkern.so", "libsigkern.dylib", "sigkern.dll"):
        if (release / name).exists():
            return release / name
    raise FileNotFoundError(f"libsigkern not built under {release}: run `cargo build --release`")


#: An FFI holding the cdef header verbatim (the conftest's `ffi` fixture is this object).
ffi = FFI()
ffi.cdef(CDEF.read_text())
# The process's own symbols: enough to read the header's integer constants without loading
# the library (cffi resolves a function only when it is looked up).
_constants = ffi.dlopen(None)

#: Every status code of the header, name -> value.
STATUS = {n: getattr(_constants, n) for n in dir(_constants) if n == "SK_OK" or n.startswith("SK_ERR_")}
#: value -> name
NAME_OF = {v: k for k, v in STATUS.items()}

SK_OK = STATUS["SK_OK"]
SK_ERR_NULL_POINTER = STATUS["SK_ERR_NULL_POINTER"]
SK_ERR_LENGTH = STATUS["SK_ERR_LENGTH"]
SK_ERR_MISALIGNED = STATUS["SK_ERR_MISALIGNED"]
SK_ERR_OVERLAP = STATUS["SK_ERR_OVERLAP"]
SK_ERR_BAD_ARGUMENT = STATUS["SK_ERR_BAD_ARGUMENT"]
SK_ERR_NON_FINITE = STATUS["SK_ERR_NON_FINITE"]
SK_ERR_INVALID_HANDLE = STATUS["SK_ERR_INVALID_HANDLE"]
SK_ERR_ALLOCATION = STATUS["SK_ERR_ALLOCATION"]
SK_ERR_INTERNAL = STATUS["SK_ERR_INTERNAL"]
SK_ERR_BUFFER_TOO_SMALL = STATUS["SK_ERR_BUFFER_TOO_SMALL"]
