"""Builds the sigkern Python package: the Rust library, then the CFFI module that calls it.

``pip install .`` / ``python -m build`` run this through setuptools (see pyproject.toml):
1. ``cargo build --release`` builds ``target/release/libsigkern.so`` (skipped when
   ``SIGKERN_PREBUILT_LIB`` names an existing library);
2. the library and the generated headers are copied into the package
   (``sigkern/libsigkern.so…``, ``sigkern/include/``);
3. ``sigkern._sigkern_cffi`` is compiled from ``include/sigkern_cdef.h`` and linked against the
   bundled library with an ``$ORIGIN`` rpath, so the package is relocatable.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
INCLUDE = ROOT / "include"
sys.path.insert(0, str(ROOT / "python" / "sigkern"))
from _build_ffi import make_ffi  # noqa: E402

sys.path.pop(0)


def crate_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)


def lib_filename() -> str:
    return {"darwin": "libsigkern.dylib", "win32": "sigkern.dll"}.get(sys.platform, "libsigkern.so")


def soname(path: pathlib.Path) -> str:
    """The library's SONAME (the name the loader looks for), or its file name if it has none."""
    try:
        out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
    except OSError:
        return path.name
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return m.group(1) if m else path.name


def build_rust() -> pathlib.Path:
    prebuilt = os.environ.get("SIGKERN_PREBUILT_LIB")
    if prebuilt:
        return pathlib.Path(prebuilt)
    env = dict(os.environ, SIGKERN_HEADER_CHECK="1")  # the Makefile's configuration: no rebuild
    subprocess.run(["cargo", "build", "--release", "--lib"], cwd=ROOT, env=env, check=True)
    return ROOT / "target" / "release" / lib_filename()


class BuildExt(build_ext):
    def run(self):
        lib = build_rust()
        pkg = pathlib.Path(self.build_lib if not self.inplace else ROOT / "python") / "sigkern"
        pkg.mkdir(parents=True, exist_ok=True)
        for old in pkg.glob("libsigkern.so*"):
            old.unlink()
        shutil.copy2(lib, pkg / soname(lib))
        (pkg / "include").mkdir(exist_ok=True)
        for h in ("sigkern.h", "sigkern_cdef.h"):
            shutil.copy2(INCLUDE / h, pkg / "include" / h)
        for ext in self.extensions:
            # link against the build's libsigkern.so; the loader then looks for its SONAME,
            # which is the bundled copy next to the module ($ORIGIN rpath)
            ext.library_dirs = [str(lib.parent)]
        super().run()


ffibuilder = make_ffi(INCLUDE, ROOT / "target" / "release")
ext = ffibuilder.distutils_extension(str(ROOT / "build" / "cffi"))

setup(
    version=crate_version(),
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExt},
)
