"""Builds the sigkern Python package: the Rust library, then the CFFI module that calls it.

``pip install .`` / ``python -m build`` run this through setuptools (see pyproject.toml):
1. ``cargo build --release`` builds ``target/release/libsigkern.so`` (skipped when
   ``SIGKERN_PREBUILT_LIB`` names an existing library);
2. the library and the generated headers are copied into the package
   (``sigkern/libsigkern.so…``, ``sigkern/include/``);
3. ``sigkern._sigkern_cffi`` is compiled from ``include/sigkern_cdef.h`` and linked against the
   bundled library with an ``$ORIGIN`` rpath, so the package is relocatable. It uses only
   CPython's limited API (CFFI's generated code defines ``Py_LIMITED_API``), so it is built as
   ``_sigkern_cffi.abi3.so`` and one wheel (tagged ``cp39-abi3``) serves every CPython >= 3.9.

``make wheel`` builds the release wheel: the library relinked for glibc 2.17
(``tools/manylinux_lib.py``), then tagged manylinux2014 by ``auditwheel repair``.
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


#: Oldest CPython the package supports (pyproject.toml requires-python): the abi3 wheel's tag.
LIMITED_API = "cp39"

NO_CARGO = """
sigkern: building from source needs a Rust toolchain, and `cargo` was not found on PATH.

  The package's library (libsigkern) is written in Rust and is compiled here with
  `cargo build --release` (Rust {rust} or newer; a few minutes).

  - install Rust with rustup (the official installer), open a new shell so that
    ~/.cargo/bin is on PATH, and run pip again; or
  - install a prebuilt wheel of sigkern, which needs neither Rust nor a C compiler; or
  - set SIGKERN_PREBUILT_LIB=/path/to/libsigkern.so to bundle a library built elsewhere.
"""


def rust_version() -> str:
    m = re.search(r'^rust-version\s*=\s*"([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
    return m.group(1) if m else "stable"


def build_rust() -> pathlib.Path:
    prebuilt = os.environ.get("SIGKERN_PREBUILT_LIB")
    if prebuilt:
        if not pathlib.Path(prebuilt).is_file():
            raise SystemExit(f"sigkern: SIGKERN_PREBUILT_LIB={prebuilt} is not a file")
        return pathlib.Path(prebuilt)
    if shutil.which("cargo") is None:
        raise SystemExit(NO_CARGO.format(rust=rust_version()))
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
# setup() takes paths relative to setup.py's directory (MANIFEST.in makes setuptools check);
# a SOURCES.txt left by a build that gave this path absolute would fail that check
os.chdir(ROOT)
_sources = ROOT / "python" / "sigkern.egg-info" / "SOURCES.txt"
if _sources.is_file() and any(line.startswith("/") for line in _sources.read_text().splitlines()):
    _sources.unlink()
ext = ffibuilder.distutils_extension("build/cffi")
# the generated C code already keeps to the limited API; this names the module `.abi3.so`
ext.py_limited_api = True

setup(
    version=crate_version(),
    ext_modules=[ext],
    cmdclass={"build_ext": BuildExt},
    options={
        "bdist_wheel": {"py_limited_api": LIMITED_API},
        # tools/build_wheel.py compiles with another compiler: its objects go elsewhere
        "build": {"build_base": os.environ.get("SIGKERN_BUILD_BASE", "build")},
    },
)
