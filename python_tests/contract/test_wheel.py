"""The distributions: the wheel of `make wheel` (tools/build_wheel.py) is manylinux2014 and abi3,
installs into a fresh venv with only numpy and cffi, and works there with the repository out of
reach; the sdist carries the Rust sources and says what to do when cargo is missing.

The wheel is built from the release build in target/release, or $SIGKERN_WHEEL_LIB_DIR (its
library relinked for glibc 2.17, no second Rust build). SIGKERN_SKIP_WHEEL_TEST=1 skips these tests (they install packages
into new venvs). SIGKERN_WHEEL_PYTHONS="/path/python3.9 ..." runs the fresh-venv test with those
interpreters too (the wheel is tagged cp39-abi3: one wheel for every CPython >= 3.9)."""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import numpy as np
import pytest

from sk_header import ROOT

pytestmark = pytest.mark.skipif(os.environ.get("SIGKERN_SKIP_WHEEL_TEST") == "1",
                                reason="SIGKERN_SKIP_WHEEL_TEST=1")

VERSION = re.search(r'^version\s*=\s*"([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M).group(1)
WHEEL_NAME = f"sigkern-{VERSION}-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"

#: Run in the fresh venv from a directory outside the repository.
SMOKE = r"""
import ctypes, pathlib, sys
import numpy as np
import sigkern
x = np.arange(8, dtype=np.float32)
assert np.array_equal(sigkern.scale(x, 2.0), 2 * x)
sig = np.random.default_rng(0).standard_normal(1000)
assert np.allclose(sigkern.rfft(sig), np.fft.rfft(sig), rtol=0, atol=1e-9)
sos = np.array([[0.2, 0.4, 0.2, 1.0, -0.3, 0.1]])
with sigkern.Biquad(sos) as f:
    y = f.process(np.ones(64, dtype=np.float32))
assert y.shape == (64,) and y[0] == np.float32(0.2) and np.isfinite(y).all()
try:
    sigkern.clip(np.ones(3), 1.0, -1.0)
    raise SystemExit("clip with lo > hi did not raise")
except sigkern.BadArgumentError as e:
    assert "lo = 1.0 is greater than hi = -1.0" in str(e), e
c = ctypes.CDLL(sigkern.library_path())
c.sk_version.restype = ctypes.c_char_p
assert c.sk_version().decode() == sigkern.__version__
assert (pathlib.Path(sigkern.include_dir()) / "sigkern.h").is_file()
print(sigkern.__version__, sigkern.__file__, sigkern._lib.lib.__class__.__name__)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("wheel")
    lib_dir = os.environ.get("SIGKERN_WHEEL_LIB_DIR", str(ROOT / "target" / "release"))
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "build_wheel.py"), str(out),
                        "--lib-dir", lib_dir], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return pathlib.Path(r.stdout.strip().splitlines()[-1])


def test_wheel_is_manylinux2014_and_abi3(wheel):
    assert wheel.name == WHEEL_NAME
    r = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(wheel)],
                       capture_output=True, text=True, check=True)
    text = " ".join((r.stdout + r.stderr).split())
    assert 'is consistent with the following platform tag: "manylinux_2_17_x86_64"' in text, text
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    soname = "libsigkern.so.0.{}".format(VERSION.split(".")[1]) if VERSION.startswith("0.") \
        else "libsigkern.so.{}".format(VERSION.split(".")[0])
    for want in (f"sigkern/{soname}", "sigkern/_sigkern_cffi.abi3.so", "sigkern/include/sigkern.h",
                 "sigkern/include/sigkern_cdef.h", "sigkern/py.typed", "sigkern/__init__.py"):
        assert want in names, sorted(names)
    assert not [n for n in names if "cpython-" in n], sorted(names)


def test_wheel_binaries_are_stripped(wheel, tmp_path):
    with zipfile.ZipFile(wheel) as z:
        z.extractall(tmp_path)
    for so in sorted((tmp_path / "sigkern").glob("*.so*")):
        sections = subprocess.run(["readelf", "-S", "-W", str(so)], capture_output=True,
                                  text=True, check=True).stdout
        assert ".symtab" not in sections and ".debug_info" not in sections, so.name


def fresh_venv_run(python: str, wheel: pathlib.Path, tmp_path: pathlib.Path, deps: list) -> str:
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel), *deps], check=True, cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SIGKERN_LIB")}
    r = subprocess.run([str(py), "-c", SMOKE], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.split()
    assert out[0] == VERSION
    assert str(venv) in out[1] and str(ROOT) not in out[1]
    return r.stdout


def test_wheel_installs_and_runs_in_a_fresh_venv(wheel, tmp_path):
    """numpy and cffi (the same versions as here) are the only other packages in the venv."""
    deps = [f"numpy=={np.__version__}", f"cffi=={__import__('cffi').__version__}"]
    fresh_venv_run(sys.executable, wheel, tmp_path, deps)


@pytest.mark.parametrize("python", os.environ.get("SIGKERN_WHEEL_PYTHONS", "").split())
def test_wheel_on_other_pythons(python, wheel, tmp_path):
    """The same wheel on another CPython (numpy and cffi: the newest for that Python)."""
    fresh_venv_run(python, wheel, tmp_path, ["numpy", "cffi"])


def test_sdist_has_the_sources_and_asks_for_cargo_when_missing(tmp_path):
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                        str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    (sdist,) = tmp_path.glob("sigkern-*.tar.gz")
    assert sdist.name == f"sigkern-{VERSION}.tar.gz"
    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for want in ("Cargo.toml", "Cargo.lock", "build.rs", "cbindgen.toml", "src/lib.rs",
                 "src/ffi/mod.rs", "vendor/rustfft/Cargo.toml", "vendor/rustfft/src/lib.rs",
                 "include/sigkern.h", "include/sigkern_cdef.h", "setup.py", "pyproject.toml",
                 "python/sigkern/__init__.py", "python/sigkern/_build_ffi.py", "LICENSE"):
        assert want in names, want
    built = [n for n in names if n.startswith(("target/", "build/")) or re.search(r"\.so(\.|$)", n)]
    assert not built, built
    # without cargo on PATH the build stops with the message, before compiling anything
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if d and not (pathlib.Path(d) / "cargo").exists())
    assert shutil.which("cargo", path=path) is None
    env = {k: v for k, v in os.environ.items() if k not in ("SIGKERN_PREBUILT_LIB",)}
    env["PATH"] = path
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-cache-dir", "--target", str(tmp_path / "site"), str(sdist)],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode != 0
    assert "building from source needs a Rust toolchain, and `cargo` was not found on PATH" \
        in r.stdout + r.stderr, r.stdout + r.stderr
