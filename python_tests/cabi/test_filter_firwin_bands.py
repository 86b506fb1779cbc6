"""sk_firwin_bands against scipy.signal.firwin with every option, in float64 (within 1e-13 of
the largest tap; the windows with an eigensolver/DFT (chebwin, dpss) within 1e-10)."""

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH

PZ = {False: 0, True: 1, "lowpass": 2, "highpass": 3, "bandpass": 4, "bandstop": 5}
WIN = {
    "hamming": (2, []), "hann": (1, []), "blackman": (3, []), ("kaiser", 6.0): (6, [6.0]),
    "nuttall": (19, []), "boxcar": (0, []), "triang": (22, []), ("chebwin", 60): (11, [60.0]),
    ("tukey", 0.4): (7, [0.4]), ("gaussian", 6.0): (23, [6.0]), "parzen": (20, []),
    ("dpss", 2.0): (13, [2.0]), "taylor": (21, []), "flattop": (5, []),
}


def firwin(sk, ffi, n, cutoff, window="hamming", pass_zero=True, scale=True, fs=2.0):
    kind, params = WIN[window]
    c = np.ascontiguousarray(np.atleast_1d(cutoff), dtype=np.float64)
    p = np.ascontiguousarray(params, dtype=np.float64)
    h = np.full(n, 7.0)
    rc = sk.sk_firwin_bands(ffi.from_buffer("double[]", c) if c.size else ffi.NULL, kind,
                            ffi.from_buffer("double[]", p) if p.size else ffi.NULL,
                            PZ[pass_zero], int(scale), fs,
                            ffi.from_buffer("double[]", h) if n else ffi.NULL, c.size, p.size, n)
    return rc, h


CASES = [
    (31, 0.3, True), (31, 0.3, False), (31, 0.3, "lowpass"), (31, 0.3, "highpass"),
    (40, 0.3, True), (41, [0.2, 0.5], False), (41, [0.2, 0.5], True), (41, [0.2, 0.5], "bandpass"),
    (41, [0.2, 0.5], "bandstop"), (64, [0.1, 0.3, 0.5, 0.7], False), (65, [0.1, 0.3, 0.5, 0.7], True),
    (65, [0.1, 0.2, 0.4], True), (64, [0.1, 0.2, 0.4], False), (101, [0.05, 0.1, 0.3, 0.35, 0.6], False),
    (1, 0.5, True), (2, 0.5, True),
]


@pytest.mark.parametrize("n, cutoff, pass_zero", CASES)
@pytest.mark.parametrize("window", list(WIN), ids=[str(w) for w in WIN])
@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_matches_scipy(sk, ffi, n, cutoff, pass_zero, window, scale):
    rc, h = firwin(sk, ffi, n, cutoff, window, pass_zero, scale)
    try:
        want = ss.firwin(n, cutoff, window=window, pass_zero=pass_zero, scale=scale)
    except ValueError:  # e.g. an even n_taps passing Nyquist
        assert rc == SK_ERR_BAD_ARGUMENT and np.all(h == 7.0)
        return
    if not np.all(np.isfinite(want)):  # scipy divides by a zero response (e.g. hann, n = 2)
        assert rc == SK_ERR_BAD_ARGUMENT and np.all(h == 7.0)
        return
    assert rc == SK_OK
    tol = 1e-10 if window in (("chebwin", 60), ("dpss", 2.0)) else 1e-13
    assert np.abs(h - want).max() <= tol * np.abs(want).max()


def test_fs_units(sk, ffi):
    want = ss.firwin(63, [1000, 3000, 8000], fs=48000, pass_zero=False, window=("kaiser", 5.0))
    rc, h = firwin(sk, ffi, 63, [1000, 3000, 8000], ("kaiser", 6.0), False, True, 48000.0)
    assert rc == SK_OK
    want6 = ss.firwin(63, [1000, 3000, 8000], fs=48000, pass_zero=False, window=("kaiser", 6.0))
    assert np.abs(h - want6).max() <= 1e-13 * np.abs(want6).max()
    assert not np.allclose(want, want6)


@pytest.mark.parametrize("n, cutoff, pass_zero", [
    (30, 0.3, False), (30, [0.2, 0.4], "bandstop"), (31, [0.2, 0.4], "lowpass"),
    (31, 0.2, "bandpass"), (31, [0.4, 0.2], True), (31, [0.2, 0.2], True), (31, 1.0, True),
    (31, 0.0, True), (31, -0.1, True),
])
def test_refusals_match_scipy(sk, ffi, last_error, n, cutoff, pass_zero):
    with pytest.raises(ValueError):
        ss.firwin(n, cutoff, pass_zero=pass_zero)
    rc, h = firwin(sk, ffi, n, cutoff, "hamming", pass_zero)
    assert rc == SK_ERR_BAD_ARGUMENT, last_error()
    assert np.all(h == 7.0)


def test_other_errors(sk, ffi, last_error):
    rc, h = firwin(sk, ffi, 0, 0.3)
    assert rc == SK_ERR_LENGTH
    rc, h = firwin(sk, ffi, 31, [])
    assert rc == SK_ERR_LENGTH
    h = np.full(31, 7.0)
    c = np.array([0.3])
    assert sk.sk_firwin_bands(ffi.from_buffer("double[]", c), 2, ffi.NULL, 9, 1, 2.0,
                              ffi.from_buffer("double[]", h), 1, 0, 31) == SK_ERR_BAD_ARGUMENT
    assert "pass_zero = 9" in last_error()
    assert sk.sk_firwin_bands(ffi.from_buffer("double[]", c), 99, ffi.NULL, 1, 1, 2.0,
                              ffi.from_buffer("double[]", h), 1, 0, 31) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin_bands(ffi.from_buffer("double[]", c), 2, ffi.NULL, 1, 1, float("nan"),
                              ffi.from_buffer("double[]", h), 1, 0, 31) == SK_ERR_BAD_ARGUMENT
    assert np.all(h == 7.0)
