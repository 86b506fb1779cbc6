"""Shared fixtures: the built library loaded through CFFI from the generated cdef header.

The library is found at $SIGKERN_LIB if set, else target/release/libsigkern.{so,dylib} /
sigkern.dll under the repository root (`make test` builds it first).

Layout: cabi/ (the C ABI through cffi/ctypes), package/ (the Python package `sigkern`),
contract/ (header, ABI, symbols, status codes, seeds, README, version, stack); the topic folders
are packages (unique module names), support/ holds the shared helpers and is put on sys.path
here, so tests import them as `sk_util`, `audio_util`, `sk_header`, `simd_levels`.
"""

import pathlib
import sys
import zlib

import numpy as np
import pytest

SUPPORT = pathlib.Path(__file__).resolve().parent / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

import sk_header  # noqa: E402
from sk_header import INCLUDE, ROOT, library_path  # noqa: E402,F401  (re-exported)


@pytest.fixture(scope="session")
def lib_path() -> pathlib.Path:
    return library_path()


@pytest.fixture(scope="session")
def cffi_lib(lib_path):
    """(ffi, lib): cdef taken verbatim from include/sigkern_cdef.h."""
    ffi = sk_header.ffi
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


@pytest.fixture(autouse=True)
def _module_rng_per_test(request):
    """Reseed a module-level ``RNG``/``rng`` generator from the test's own id.

    A module-wide generator hands each test the data its predecessors left, so a test's input
    (and whether it passes) would depend on which tests ran before it in the same process: a
    ``-k`` selection or another pytest-xdist split. Reseeding per test id makes every test see
    the same data however it is selected or distributed.
    """
    module = request.module
    for name in ("RNG", "rng"):
        if isinstance(getattr(module, name, None), np.random.Generator):
            seed = zlib.crc32(request.node.nodeid.encode())
            setattr(module, name, np.random.default_rng(seed))
    yield
