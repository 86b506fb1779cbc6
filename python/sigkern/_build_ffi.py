"""Builds ``sigkern._sigkern_cffi``, the compiled CFFI module (out-of-line API mode).

Used by ``setup.py`` at build time only. The declarations are the generated header
``include/sigkern_cdef.h`` (no signature is retyped); the module links against the bundled
``libsigkern`` and finds it next to itself at run time (``-Wl,-rpath,$ORIGIN``), so the package
holds exactly one copy of the library, shared with ctypes and C callers that load
:func:`sigkern.library_path`.
"""

from __future__ import annotations

import pathlib

from cffi import FFI


def make_ffi(include_dir: pathlib.Path, lib_dir: pathlib.Path) -> FFI:
    ffibuilder = FFI()
    ffibuilder.cdef((include_dir / "sigkern_cdef.h").read_text())
    ffibuilder.set_source(
        "sigkern._sigkern_cffi",
        '#include "sigkern.h"',
        include_dirs=[str(include_dir)],
        libraries=["sigkern"],
        library_dirs=[str(lib_dir)],
        extra_link_args=["-Wl,-rpath,$ORIGIN"],
    )
    return ffibuilder
