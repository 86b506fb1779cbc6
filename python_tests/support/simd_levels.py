"""One harness for the tests that run a body at every SIMD level.

The library reads SIGKERN_SIMD once per process, so each level runs in a subprocess:
`run_body(body, simd, lib_path, out_dir)` starts this file as a script with SIGKERN_SIMD=simd
(None: the variable removed, so the default level), which loads the library at `lib_path`
through the cdef header, calls `body(ffi, lib)` (a module-level function of a test file,
found again in the child by its file and name) and saves the dict of arrays it returns, plus
the level the library reports (`sk_simd_level()`) under "level". The caller gets that dict
back and compares the levels' results as it needs (bitwise, within tolerances, against
references); a body may also assert on its own, its failure fails the call with the child's
stderr.

    python simd_levels.py FILE FUNC LIB OUT.npz
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import platform
import subprocess
import sys
import uuid

import numpy as np

HERE = pathlib.Path(__file__).resolve()
#: Every level name, lowest first (x86-64's).
ORDER = ["scalar", "sse2", "avx2", "avx512"]
#: The level names are x86-64's: callers gate their tests with this skip condition.
X86_64 = platform.machine() in ("x86_64", "AMD64")


def cpu_flags() -> set:
    """The CPU's feature flags from /proc/cpuinfo (independent of the library's detection)."""
    import pytest

    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        pytest.skip("no /proc/cpuinfo to check the CPU's features independently")
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def supported_levels() -> list:
    """The levels this CPU supports, lowest first; the last is the default level."""
    f = cpu_flags()
    levels = ["scalar", "sse2"]
    if {"avx2", "fma"} <= f:
        levels.append("avx2")
        if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= f:
            levels.append("avx512")
    return levels


def require(level: str) -> None:
    """Skips the calling test when the CPU lacks `level`."""
    import pytest

    if level not in supported_levels():
        pytest.skip(f"this CPU does not support {level}")


def run_body(body, simd, lib_path, out_dir, timeout: float = 300) -> dict:
    """Runs `body(ffi, lib)` in a child process with SIGKERN_SIMD=`simd` (None: unset) and
    returns its results with the reported "level"."""
    env = {k: v for k, v in os.environ.items() if k != "SIGKERN_SIMD"}
    if simd is not None:
        env["SIGKERN_SIMD"] = simd
    out = pathlib.Path(out_dir) / f"{body.__name__}_{uuid.uuid4().hex}.npz"
    source = sys.modules[body.__module__].__file__
    proc = subprocess.run([sys.executable, str(HERE), source, body.__name__, str(lib_path), str(out)],
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return dict(np.load(out))


def _main(source, func, lib_path, out_path):
    sys.path.insert(0, str(HERE.parent))
    from sk_header import ffi

    spec = importlib.util.spec_from_file_location("_simd_body", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lib = ffi.dlopen(lib_path)
    results = getattr(module, func)(ffi, lib)
    results["level"] = np.array(ffi.string(lib.sk_simd_level()).decode())
    np.savez(out_path, **results)


if __name__ == "__main__":
    _main(*sys.argv[1:])
