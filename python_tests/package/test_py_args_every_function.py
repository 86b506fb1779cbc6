"""Every public function and class of the package that takes an axis, a sample rate or a
``dtype=`` argument refuses a bad one with the one shared message of ``sigkern._args``.

The functions are found by introspection (``sigkern.__all__`` and the family modules'
``__all__``, parameter names from ``inspect.signature``); each needs a valid call in
:data:`VALID`, so a new function with such a parameter fails here until it is listed."""

import inspect
import re

import numpy as np
import pytest

import sigkern
from sigkern import _args

#: parameter names that are sample rates
RATE_PARAMS = ("rate", "in_rate", "out_rate", "sr", "fs")
SOS = [[0.2, 0.4, 0.2, 1.0, -0.3, 0.1]]
T = np.arange(48000) / 48000.0


def x():
    return np.linspace(-1.0, 1.0, 256)


def z():
    return np.ones(256, np.complex128)


def tone():
    return 0.1 * np.sin(2 * np.pi * 1000.0 * T)


#: name -> a valid call (args, kwargs); the axis, rate and dtype parameters are given by
#: keyword or left at their defaults, so each can be replaced by a bad value
VALID = {
    **{name: lambda: ((x(),), {"axis": -1}) for name in ("sum", "mean", "min", "max", "peak", "rms")},
    "rfft": lambda: ((x(),), {}),
    "irfft": lambda: ((z(),), {}),
    "fft": lambda: ((z(),), {}),
    "ifft": lambda: ((z(),), {}),
    "sosfilt": lambda: ((SOS, x()), {}),
    "lfilter": lambda: (([1.0], [1.0, -0.5], x()), {}),
    "filtfilt": lambda: (([1.0], [1.0, -0.5], x()), {}),
    "sosfiltfilt": lambda: ((SOS, x()), {}),
    "resample": lambda: ((x(),), {"in_rate": 48000, "out_rate": 44100}),
    "resample_size": lambda: ((100,), {"in_rate": 48000, "out_rate": 44100}),
    "Resampler": lambda: ((), {"in_rate": 48000, "out_rate": 44100}),
    "upfirdn": lambda: (([1.0, 0.5], x()), {}),
    "resample_poly": lambda: ((x(), 2, 1), {}),
    "decimate": lambda: ((x(), 2), {}),
    "interpolate": lambda: ((x(), 2), {}),
    "Meter": lambda: ((), {"rate": 48000}),
    "loudness_stats": lambda: ((tone(),), {"rate": 48000}),
    "integrated_loudness": lambda: ((tone(),), {"rate": 48000}),
    "loudness_range": lambda: ((tone(),), {"rate": 48000}),
    "true_peak": lambda: ((tone(),), {"rate": 48000}),
    "normalize_loudness": lambda: ((tone(),), {"rate": 48000}),
    "EnvelopeFollower": lambda: ((), {"rate": 48000}),
    "Compressor": lambda: ((), {"rate": 48000}),
    "NoiseGate": lambda: ((), {"rate": 48000}),
    "Limiter": lambda: ((), {"rate": 48000}),
    "mel_filters": lambda: ((), {"sr": 16000, "n_fft": 512}),
    "MelSpectrogram": lambda: ((), {"sr": 16000, "n_fft": 512, "hop_length": 128, "n_mels": 40}),
    "melspectrogram": lambda: ((np.ones(4096),), {"sr": 16000, "n_fft": 512, "n_mels": 40}),
    "log_mel_spectrogram": lambda: ((np.ones(16000, np.float32),), {"sr": 16000}),
    "butter": lambda: ((2, 1000.0), {"fs": 48000.0}),
    "firwin": lambda: ((15, 1000.0), {"fs": 48000.0}),
    "rbj_biquad": lambda: (("lowpass",), {"fs": 48000.0, "f0": 1000.0, "q": 0.7}),
    "pcm_to_float": lambda: ((np.zeros(8, np.int16),), {}),
    "convert": lambda: ((x(),), {"dtype": np.float32}),
    "lfilter_zi": lambda: (([1.0], [1.0, -0.5]), {}),
    "sosfilt_zi": lambda: ((SOS,), {}),
    "Lfilter": lambda: (([1.0], [1.0, -0.5]), {}),
    "Biquad": lambda: ((SOS,), {}),
    "Fir": lambda: (([0.5, 0.5],), {}),
    "FftPlan": lambda: ((8,), {}),
    "get_window": lambda: (("hann", 8), {}),
    "StftStream": lambda: ((64,), {}),
    "YinStream": lambda: ((), {"fmin": 100.0, "fmax": 1000.0}),
    **{name: lambda: ((x(),), {"axis": -1, "nperseg": 64}) for name in ("welch", "spectrogram")},
    "periodogram": lambda: ((x(),), {"axis": -1}),
    **{name: lambda: ((x(), x()), {"axis": -1, "nperseg": 64}) for name in ("csd", "coherence")},
    **{name: lambda: ((x(),), {"axis": -1}) for name in ("hilbert", "argrelmax", "argrelmin", "detrend")},
    "argrelextrema": lambda: ((x(), np.greater), {"axis": -1}),
    "savgol_filter": lambda: ((x(), 5, 2), {"axis": -1}),
    **{name: lambda: (([0.5, 0.5],), {"fs": 48000.0}) for name in ("freqz",)},
    **{name: lambda: ((SOS,), {"fs": 48000.0}) for name in ("freqz_sos", "sosfreqz")},
    "group_delay": lambda: ((([0.5, 0.5], [1.0]),), {"fs": 48000.0}),
    **{name: lambda: ((2, 1.0, 1000.0), {"fs": 48000.0}) for name in ("cheby1", "cheby2")},
    "envelope": lambda: ((x(),), {"axis": -1}),
    "ellip": lambda: ((3, 1.0, 40.0, 1000.0), {"fs": 48000.0}),
    "bessel": lambda: ((3, 1000.0), {"fs": 48000.0}),
    "iirfilter": lambda: ((3, 1000.0), {"btype": "low", "fs": 48000.0}),
    **{name: lambda: ((1000.0, 30.0), {"fs": 48000.0}) for name in ("iirnotch", "iirpeak", "iircomb")},
    "bilinear": lambda: (([1.0], [1.0, 1.0]), {"fs": 48000.0}),
    "bilinear_zpk": lambda: (([], [-1.0], 1.0), {"fs": 48000.0}),
    **{name: lambda: ((1000.0, 2000.0, 3.0, 40.0), {"fs": 48000.0})
       for name in ("buttord", "cheb1ord", "cheb2ord", "ellipord")},
    "yin": lambda: ((np.ones(4096),), {"fmin": 65.0, "fmax": 1000.0}),
    "pyin": lambda: ((tone()[:8192],), {"fmin": 65.0, "fmax": 1000.0}),
    "chroma_filters": lambda: ((), {"sr": 22050, "n_fft": 512}),
    "piptrack": lambda: ((), {"y": tone()[:8192]}),
    "estimate_tuning": lambda: ((), {"y": tone()[:8192]}),
    **{name: lambda: ((x(),), {"axis": -1}) for name in ("dct", "idct")},
    "griffinlim": lambda: ((np.ones((33, 8)),), {"n_iter": 2, "random_state": 0}),
}

#: functions whose ``rate`` is not a sample rate (phase_vocoder's is the time-stretch factor)
NOT_SAMPLE_RATES = {"phase_vocoder"}

#: functions whose fs/axis errors are scipy's own, which scipy's test classes check
#: (python_tests/package/test_py_analysis_scipy.py): freqz & co. and the IIR designs raise
#: scipy's ValueError for an fs that is not a scalar (and accept what float() accepts),
#: envelope scipy's ValueError for a bad axis
SCIPY_ERRORS = {"freqz", "freqz_sos", "sosfreqz", "group_delay", "envelope", "butter", "cheby1", "cheby2",
                "ellip", "bessel", "iirfilter", "iirnotch", "iirpeak", "iircomb", "bilinear", "bilinear_zpk",
                "buttord", "cheb1ord", "cheb2ord", "ellipord"}


def public_callables():
    """(name, object) of every public function and class: sigkern.__all__ and the family
    modules' __all__ (which must agree), aliases once."""
    seen = {}
    for mod in (sigkern, sigkern.core, sigkern.audio, sigkern.filters, sigkern.spectral,
                sigkern.loudness, sigkern.dynamics, sigkern._resample):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if getattr(obj, "__name__", name) != name:
                continue  # an alias (SosFilter = Biquad): checked under its own name
            if callable(obj) and not (isinstance(obj, type) and issubclass(obj, BaseException)):
                assert seen.setdefault(name, obj) is obj, name
    return sorted(seen.items())


def params(obj):
    try:
        return list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):  # a builtin without a signature
        return []


def cases(kind):
    for name, obj in public_callables():
        for p in params(obj):
            if (kind == "axis" and p == "axis") or (
                kind == "rate" and p in RATE_PARAMS and name not in NOT_SAMPLE_RATES
            ) or (
                kind == "dtype" and p == "dtype"
            ):
                yield pytest.param(name, obj, p, id=f"{name}-{p}")


def call(name, obj, **bad):
    args, kwargs = VALID[name]()
    return obj(*args, **{**kwargs, **bad})


def test_walk_finds_the_functions():
    """The walk sees the families (a guard against a walk that finds nothing)."""
    names = {n for n, _ in public_callables()}
    assert {"rfft", "sosfilt", "resample", "Meter", "Compressor", "mel_filters", "convert"} <= names
    assert len(list(cases("axis"))) >= 19
    assert len(list(cases("rate"))) >= 22
    assert len(list(cases("dtype"))) >= 13


@pytest.mark.parametrize("name, obj, p", list(cases("axis")) + list(cases("rate")) + list(cases("dtype")))
def test_listed_and_valid_call_works(name, obj, p):
    assert name in VALID, f"{name} takes {p!r}: add a valid call to VALID"
    call(name, obj)


@pytest.mark.parametrize("name, obj, p", list(cases("axis")))
def test_bad_axis(name, obj, p):
    if name in SCIPY_ERRORS:
        with pytest.raises(ValueError):
            call(name, obj, axis=5)
        return
    with pytest.raises(_args.AxisError, match=re.escape(f"{name}: axis 5 is out of bounds for array of dimension 1")):
        call(name, obj, axis=5)
    with pytest.raises(ValueError):  # AxisError is a ValueError (and an IndexError), as numpy's
        call(name, obj, axis=-2)
    with pytest.raises(TypeError, match=re.escape(f"{name}: axis must be an integer, got 1.5")):
        call(name, obj, axis=1.5)


@pytest.mark.parametrize("name, obj, p", list(cases("rate")))
def test_bad_rate(name, obj, p):
    if name in SCIPY_ERRORS:
        with pytest.raises(ValueError, match="Sampling frequency"):
            call(name, obj, **{p: [48000]})
        return
    for bad in ("48000", None, [48000]):
        if bad is None and p == "fs":
            continue  # fs=None means normalised frequencies, as scipy
        with pytest.raises(TypeError, match=re.escape(f"{name}: {p} must be a number (Hz), got {bad!r}")):
            call(name, obj, **{p: bad})


@pytest.mark.parametrize("name, obj, p", list(cases("dtype")))
def test_bad_dtype(name, obj, p):
    for bad in (np.int16, "float16", "no such type"):
        with pytest.raises(TypeError, match=re.escape(f"{name}: dtype must be np.float32 or np.float64, got {bad!r}")):
            call(name, obj, dtype=bad)
