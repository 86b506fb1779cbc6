"""The installed Python package as a whole: it imports from the venv (not from the source tree),
bundles the library and headers, reports the crate's version and reaches every C family (the
wheel in a fresh venv: contract/test_wheel.py)."""

import ctypes
import os
import pathlib
import re

import numpy as np
import pytest

import sigkern
from sigkern._lib import USED

from sk_header import ROOT

#: C functions with no Python entry of their own, and why. Everything else in the header must
#: be bound by the package.
NO_ENTRY = {
    "copy": "seed-document symbol; sigkern.copy uses sk_copy_*",
    "process_data": "seed-document symbol; sigkern.normalize_peak uses sk_rows_normalize_peak_*",
    "sk_firwin": "superseded by sk_firwin_bands (sigkern.firwin has every option of scipy's)",
    "sk_window_f32": "superseded by sk_window_params_f32 (sigkern.get_window, every window)",
    "sk_window_f64": "superseded by sk_window_params_f64 (sigkern.get_window, every window)",
}


def header_functions() -> set:
    text = re.sub(r"/\*.*?\*/", "", (ROOT / "include" / "sigkern_cdef.h").read_text(), flags=re.S)
    return set(re.findall(r"\b([A-Za-z_]\w*)\s*\([^()]*\)\s*;", text))


def family(cname: str) -> str:
    """``sk_rows_rms_f32`` → ``rows_rms``; ``sk_biquad_f64_process`` → ``biquad_process``."""
    name = re.sub(r"^sk_", "", cname)
    return re.sub(r"_(f32|f64)(?=_|$)", "", name)


def test_imported_from_the_installed_package_not_the_source_tree():
    where = pathlib.Path(sigkern.__file__).resolve()
    if os.environ.get("SIGKERN_TEST_SOURCE_TREE"):
        pytest.skip("SIGKERN_TEST_SOURCE_TREE is set: testing python/sigkern in place")
    assert "site-packages" in where.parts, where
    assert ROOT / "python" not in where.parents


def test_version_is_the_crate_version():
    cargo = (ROOT / "Cargo.toml").read_text()
    want = re.search(r'^version\s*=\s*"([^"]+)"', cargo, re.M).group(1)
    assert sigkern.__version__ == want == sigkern.version()
    from importlib.metadata import version

    if not os.environ.get("SIGKERN_TEST_SOURCE_TREE"):
        assert version("sigkern") == want


def test_bundled_library_and_headers():
    lib = pathlib.Path(sigkern.library_path())
    inc = pathlib.Path(sigkern.include_dir())
    assert lib.is_file() and lib.parent == pathlib.Path(sigkern.__file__).parent
    assert lib.name.startswith("libsigkern.so")
    assert (inc / "sigkern.h").read_text() == (ROOT / "include" / "sigkern.h").read_text()
    assert (inc / "sigkern_cdef.h").read_text() == (ROOT / "include" / "sigkern_cdef.h").read_text()
    assert (pathlib.Path(sigkern.__file__).parent / "py.typed").is_file()


def test_ctypes_on_library_path_shares_the_packages_library():
    """ctypes loads the very copy the package calls: the thread's last error is one."""
    c = ctypes.CDLL(sigkern.library_path())
    c.sk_version.restype = ctypes.c_char_p
    assert c.sk_version().decode() == sigkern.__version__
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.clip(np.ones(3), 1.0, -1.0)
    n = c.sk_last_error_message(None, ctypes.c_size_t(0))
    buf = ctypes.create_string_buffer(n + 1)
    c.sk_last_error_message(buf, ctypes.c_size_t(n + 1))
    assert buf.value.decode() == sigkern.last_error_message()
    assert buf.value.decode().startswith("sk_clip_f64: lo = 1.0 is greater than hi = -1.0")


def test_raw_ffi_and_lib_are_available():
    x = np.arange(5, dtype=np.float32)
    y = np.empty_like(x)
    ffi, lib = sigkern.ffi, sigkern.lib
    assert lib.sk_scale_f32(ffi.from_buffer("float[]", x), 2.0, ffi.from_buffer("float[]", y), 5) == 0
    assert np.array_equal(y, 2 * x)


def test_every_c_family_has_a_python_entry():
    """Every function in the header is bound by some Python entry (sigkern._lib.USED records
    each C function the package looks up), so a new C family cannot ship without one."""
    missing = sorted(header_functions() - USED - set(NO_ENTRY))
    families = sorted({family(m) for m in missing})
    assert not missing, f"C families without a Python entry: {families}"
    assert USED <= header_functions(), sorted(USED - header_functions())


def test_family_helper():
    assert family("sk_rows_rms_f32") == "rows_rms"
    assert family("sk_biquad_f64_process") == "biquad_process"
    assert family("sk_fft_plan_free") == "fft_plan_free"


def test_public_names_are_documented():
    for name in sigkern.__all__:
        obj = getattr(sigkern, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name


@pytest.mark.parametrize("module", ["sigkern", "sigkern._errors", "sigkern.core", "sigkern.audio",
                                    "sigkern.filters", "sigkern.spectral", "sigkern.resample",
                                    "sigkern.loudness", "sigkern.dynamics", "sigkern._handle",
                                    "sigkern.kaldi", "sigkern.effects._stretch"]
                         + [f"sigkern.augment.{m}" for m in ("_level", "_noise", "_room", "_filters",
                                                             "_time", "_functional", "_compose")]
                         + [f"sigkern.{pkg}.{m}" for pkg, ms in (
                             ("spectral", ("_fft", "_window", "_stft", "_power", "_mel", "_conv", "_vocoder",
                                           "_griffinlim")),
                             ("filters", ("_sos", "_lfilter", "_filtfilt", "_fir", "_design", "_firwin")))
                            for m in ms])
def test_docstring_examples_run(module):
    """Every ``>>>`` example in the package's docstrings runs and prints what it shows."""
    import doctest
    import importlib

    mod = importlib.import_module(module)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=flags)
    for test in finder.find(mod, module, globs={"np": np, "sigkern": sigkern}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {module}"


def package_snippets():
    """The ```python blocks of README.md and docs/python.md that use the package (`import
    sigkern`); the raw ctypes/CFFI recipes are tested with the seeds."""
    for doc in ("README.md", "docs/python.md"):
        text = (ROOT / doc).read_text()
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            if "import" in block and "sigkern" in block and "dlopen" not in block and "CDLL" not in block:
                yield pytest.param(block, id=f"{doc}#{i}")


@pytest.mark.parametrize("code", list(package_snippets()))
def test_documentation_snippets_run(code):
    exec(compile(code, "<snippet>", "exec"), {"__name__": "snippet"})


def test_documentation_has_package_snippets():
    assert len(list(package_snippets())) >= 2


HANDLE_MAKERS = {
    "Biquad": lambda: sigkern.Biquad(sigkern.butter(2, 0.1, output="sos")),
    "Fir": lambda: sigkern.Fir([0.25, 0.5, 0.25]),
    "Lfilter": lambda: sigkern.Lfilter([1.0, 0.5], [1.0, -0.5]),
    "Meter": lambda: sigkern.Meter(48000),
    "Resampler": lambda: sigkern.Resampler(48000, 44100),
    "FftPlan": lambda: sigkern.FftPlan(8),
    "StftStream": lambda: sigkern.StftStream(64),
    "YinStream": lambda: sigkern.YinStream(fmin=100.0, fmax=1000.0),
    "MelSpectrogram": lambda: sigkern.MelSpectrogram(),
    "EnvelopeFollower": lambda: sigkern.EnvelopeFollower(48000),
    "Compressor": lambda: sigkern.Compressor(48000),
    "NoiseGate": lambda: sigkern.NoiseGate(48000),
    "Limiter": lambda: sigkern.Limiter(48000),
}


def test_every_handle_class_is_listed():
    """Every public class that owns a C handle is in HANDLE_MAKERS (so the lifetime test covers it)."""
    from sigkern._handle import Handle

    owners = {n for n in sigkern.__all__ if isinstance(getattr(sigkern, n), type)
              and issubclass(getattr(sigkern, n), Handle) and getattr(sigkern, n).__name__ == n}
    assert owners == set(HANDLE_MAKERS)


@pytest.mark.parametrize("name", sorted(HANDLE_MAKERS))
def test_handle_lifetime(name, monkeypatch):
    """close() frees once (idempotent), `with` closes, __del__ frees an open handle exactly
    once and a closed one never: counted through the class's C free function."""
    cls = getattr(sigkern, name)
    real_free = cls._free_fn
    freed = []

    def counting_free(h):
        freed.append(int(sigkern.ffi.cast("uintptr_t", h)))
        return real_free(h)

    monkeypatch.setattr(cls, "_free_fn", counting_free)
    h = HANDLE_MAKERS[name]()
    assert not h.closed
    h.close()
    h.close()
    assert h.closed and len(freed) == 1
    with HANDLE_MAKERS[name]() as h2:
        assert not h2.closed
    assert h2.closed and len(freed) == 2
    h3 = HANDLE_MAKERS[name]()
    h3.__del__()
    assert h3.closed and len(freed) == 3
    h3.__del__()
    h2.__del__()
    assert len(freed) == 3
    # A refused free raises with the C function's name and keeps the handle open.
    h4 = HANDLE_MAKERS[name]()
    monkeypatch.setattr(cls, "_free_fn", lambda h: -7)
    with pytest.raises(sigkern.InvalidHandleError) as e:
        h4.close()
    assert e.value.function == cls._free_name
    assert not h4.closed
    monkeypatch.setattr(cls, "_free_fn", real_free)
    h4.close()
    assert h4.closed
