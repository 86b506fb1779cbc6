"""scipy's own test classes for the analysis functions, the frequency responses and the IIR
designs (the installed scipy's test files, unedited), run against sigkern: each class below
subclasses scipy's, and while its tests run the function under test is swapped for sigkern's in
``scipy.signal`` and in the globals of scipy's test module (a bare ``welch(...)`` and ``signal.welch(...)`` both reach sigkern; the
references a test computes with other scipy functions stay scipy's).

``XFAIL`` lists the tests that fail for a reviewed reason (``xfail(strict=True)``: a fix that
makes one pass shows up as a failure, so the list cannot go stale). Everything else must pass.
"""

from __future__ import annotations

import functools
import os

import pytest

pytest.importorskip("scipy")

import scipy.signal  # noqa: E402
from scipy.conftest import devices, xp  # noqa: E402,F401  (scipy's fixtures, numpy backend)
from scipy.signal.tests import test_filter_design as _fd  # noqa: E402
from scipy.signal.tests import test_peak_finding as _pf  # noqa: E402
from scipy.signal.tests import test_savitzky_golay as _sg  # noqa: E402
from scipy.signal.tests import test_signaltools as _ts  # noqa: E402
from scipy.signal.tests import test_spectral as _sp  # noqa: E402

import sigkern  # noqa: E402

_COMPLEX = "complex input: sigkern's spectral estimation takes real signals (documented refusal)"

#: "Class.method" (or a savgol test function's name) → why it fails (every parametrisation)
XFAIL = {
    "TestPeriodogram.test_complex": _COMPLEX,
    "TestPeriodogram.test_complex_32": _COMPLEX,
    "TestWelch.test_complex": _COMPLEX,
    "TestWelch.test_complex_32": _COMPLEX,
    "TestCSD.test_complex": _COMPLEX,
    "TestCSD.test_complex_32": _COMPLEX,
}

#: class → (scipy test module, names swapped)
_CLASSES = {
    "TestPeriodogram": (_sp, ("periodogram",)),
    "TestWelch": (_sp, ("welch",)),
    "TestCSD": (_sp, ("csd",)),
    "TestCoherence": (_sp, ("coherence",)),
    "TestSpectrogram": (_sp, ("spectrogram",)),
    "TestHilbert": (_ts, ("hilbert",)),
    "TestFindPeaks": (_pf, ("find_peaks",)),
    "TestPeakProminences": (_pf, ("peak_prominences",)),
    "TestPeakWidths": (_pf, ("peak_widths",)),
    "TestArgrel": (_pf, ("argrelmax", "argrelmin")),
    "TestMedFilt": (_ts, ("medfilt",)),
    "TestDetrend": (_ts, ("detrend",)),
    "TestFreqz": (_fd, ("freqz",)),
    "TestFreqz_sos": (_fd, ("freqz_sos", "sosfreqz")),
    "TestGroupDelay": (_fd, ("group_delay",)),
    "TestEnvelope": (_ts, ("envelope",)),
    "TestButter": (_fd, ("butter",)),
    "TestCheby1": (_fd, ("cheby1",)),
    "TestCheby2": (_fd, ("cheby2",)),
    "TestZpk2Sos": (_fd, ("zpk2sos",)),
    "TestEllip": (_fd, ("ellip",)),
    "TestBessel": (_fd, ("bessel",)),
    "TestIIRFilter": (_fd, ("iirfilter",)),
    "TestIIRNotch": (_fd, ("iirnotch",)),
    "TestIIRPeak": (_fd, ("iirpeak",)),
    "TestIIRComb": (_fd, ("iircomb",)),
    "TestTf2zpk": (_fd, ("tf2zpk", "BadCoefficients")),
    "TestZpk2Tf": (_fd, ("zpk2tf",)),
    "TestSos2Zpk": (_fd, ("sos2zpk", "BadCoefficients")),
    "TestSos2Tf": (_fd, ("sos2tf",)),
    "TestTf2Sos": (_fd, ("tf2sos",)),
    "TestBilinear": (_fd, ("bilinear", "BadCoefficients")),
    "TestBilinear_zpk": (_fd, ("bilinear_zpk",)),
    "TestButtord": (_fd, ("buttord",)),
    "TestCheb1ord": (_fd, ("cheb1ord",)),
    "TestCheb2ord": (_fd, ("cheb2ord",)),
    "TestEllipord": (_fd, ("ellipord",)),
    "TestConvolve": (_ts, ("convolve",)),
    "TestFFTConvolve": (_ts, ("fftconvolve",)),
    "TestOAConvolve": (_ts, ("oaconvolve",)),
    "TestCorrelateReal": (_ts, ("correlate",)),
    "TestCorrelate": (_ts, ("correlate",)),
    "TestCorrelateComplex": (_ts, ("correlate",)),
    "TestAllFreqConvolves": (_ts, ("fftconvolve", "oaconvolve")),
}

#: classes whose tests take the function as a parameter (``convapproach``): mapped to sigkern's
_PARAM_FUNC = {"TestAllFreqConvolves": "convapproach"}

#: scipy's ``slow``-marked sweeps in these classes (TestFFTConvolve.test_many_sizes, the
#: TestOAConvolve shape grids: about 11 000 cases, 60 s, all passing) run only with
#: SIGKERN_SCIPY_SLOW=1; their unmarked tests always run
_SLOW_OPT_IN = {"TestFFTConvolve", "TestOAConvolve"}
#: scipy's unmarked shape grids of the same kind (960 cases between them, most of the classes'
#: collection and run time), also opt-in with SIGKERN_SCIPY_SLOW=1; without them, oaconvolve's
#: ``axes=`` is checked against scipy by test_py_spectral.py's N-D tests
_GRIDS_OPT_IN = {("TestOAConvolve", "test_1d_axes"), ("TestOAConvolve", "test_2d_axes")}
_RUN_SLOW = os.environ.get("SIGKERN_SCIPY_SLOW") == "1"

#: scipy's module-level tests → (module, names swapped): the savgol tests (test_polyder tests a
#: private helper) and the correlation_lags tests
_FUNCS = {
    name: (_sg, ("savgol_coeffs",) if "coeffs" in name else ("savgol_filter", "savgol_coeffs"))
    for name in dir(_sg)
    if name.startswith("test_sg_")
}
_FUNCS.update({name: (_ts, ("correlation_lags",)) for name in dir(_ts) if name.startswith("test_correlation_lags")})


def _xfail(base: type, name: str, reason: str) -> object:
    orig = getattr(base, name)

    @functools.wraps(orig)
    def wrapper(*args: object, **kwargs: object) -> object:
        return orig(*args, **kwargs)

    return pytest.mark.xfail(reason=reason, strict=True)(wrapper)


def _param_mapped(orig: object, arg: object) -> object:
    """``orig`` with its function parameter ``arg`` (scipy's function) replaced by sigkern's."""

    @functools.wraps(orig)  # type: ignore[arg-type]
    def wrapper(*args: object, **kwargs: object) -> object:
        if arg is not None:
            kwargs[arg] = getattr(sigkern, kwargs[arg].__name__)  # type: ignore[union-attr]
        return orig(*args, **kwargs)  # type: ignore[operator]

    return wrapper


def _subclass(cls_name: str) -> type:
    mod, names = _CLASSES[cls_name]
    base = getattr(mod, cls_name)
    attrs: dict[str, object] = {"_SWAP": (mod, names)}
    arg = _PARAM_FUNC.get(cls_name)
    for m in dir(base):
        if not m.startswith("test_"):
            continue
        orig = getattr(base, m)
        if arg is not None:
            attrs[m] = _param_mapped(orig, arg)
        if cls_name in _SLOW_OPT_IN and not _RUN_SLOW and (
            any(mk.name == "slow" for mk in getattr(orig, "pytestmark", []))
            or (cls_name, m) in _GRIDS_OPT_IN
        ):
            attrs[m] = None  # not collected (collecting the sweeps alone takes 20 s)
    for key, reason in XFAIL.items():
        c, _, m = key.partition(".")
        if c == cls_name:
            assert hasattr(base, m), f"XFAIL names a test scipy does not have: {key}"
            attrs[m] = _xfail(base, m, reason)
    return type(cls_name, (base,), attrs)


for _name in _CLASSES:
    globals()[_name] = _subclass(_name)


def _func(name: str) -> object:
    mod, names = _FUNCS[name]
    orig = getattr(mod, name)
    reason = XFAIL.get(name)

    @functools.wraps(orig)
    def wrapper(*args: object, **kwargs: object) -> object:
        return orig(*args, **kwargs)

    wrapper._SWAP = (mod, names)  # type: ignore[attr-defined]
    return pytest.mark.xfail(reason=reason, strict=True)(wrapper) if reason else wrapper


for _name in _FUNCS:
    globals()[_name] = _func(_name)


@pytest.fixture(autouse=True)
def _swap_in_sigkern(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = request.node.cls if request.node.cls is not None else getattr(request.node, "function", None)
    swap = getattr(owner, "_SWAP", None)
    if swap is None:
        return
    mod, names = swap
    for name in names:
        new = getattr(sigkern, name)
        monkeypatch.setattr(scipy.signal, name, new)
        if name in vars(mod):
            monkeypatch.setattr(mod, name, new)

