"""Shared fixtures: the built library loaded through CFFI from the generated cdef header.

The library is found at $SIGKERN_LIB if set, else target/release/libsigkern.{so,dylib} /
sigkern.dll under the repository root (`make test` builds it first).
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"


def library_path() -> pathlib.Path:
    env = os.environ.get("SIGKERN_LIB")
    if env:
        return pathlib.Path(env)
    release = ROOT / "target" / "release"
    for name in ("libsigkern.so", "libsigkern.dylib", "sigkern.dll"):
        if (release / name).exists():
            return release / name
    raise FileNotFoundError(f"libsigkern not built under {release}: run `cargo build --release`")


@pytest.fixture(scope="session")
def lib_path() -> pathlib.Path:
    return library_path()


@pytest.fixture(scope="session")
def cffi_lib(lib_path):
    """(ffi, lib): cdef taken verbatim from include/sigkern_cdef.h."""
    from cffi import FFI

    ffi = FFI()
    ffi.cdef((INCLUDE / "sigkern_cdef.h").read_text())
    lib = ffi.dlopen(str(lib_path))
    return ffi, lib


@pytest.fixture(scope="session")
def ffi(cffi_lib):
    return cffi_lib[0]


@pytest.fixture(scope="session")
def sk(cffi_lib):
    return cffi_lib[1]


@pytest.fixture
def last_error(cffi_lib):
    """Returns a function giving the calling thread's last error message as str."""
    ffi, lib = cffi_lib

    def get() -> str:
        n = lib.sk_last_error_message(ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        lib.sk_last_error_message(buf, n + 1)
        return ffi.string(buf).decode()

    return get

