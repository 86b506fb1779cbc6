"""sigkern's freqz, freqz_sos/sosfreqz and group_delay against scipy.signal (float64
references) on IIR/FIR designs, complex and N-D coefficients, every worN form, adversarial
filters (poles/zeros on the unit circle, empty frequency sets), float32, and scipy's errors.
Tolerance: 1e-12 relative to the largest |h| (Horner's rule in numpy's order; scipy's FFT
path for FIR filters is matched by sigkern's FFT to the same bound)."""

import warnings

import numpy as np
import pytest
from scipy import signal

import sigkern

RNG = np.random.default_rng(5051)


def close(a, b, tol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    scale = max(np.max(np.abs(b), initial=0.0), 1e-300)
    err = np.max(np.abs(a.astype(np.complex128) - b.astype(np.complex128)), initial=0.0)
    assert err <= tol * scale, err / scale


FILTERS = {
    "cheby1": signal.cheby1(7, 0.5, 0.27),
    "ellip_band": signal.ellip(4, 1, 50, [0.2, 0.5], "bandpass"),
    "fir": (signal.firwin(63, 0.3), 1.0),
    "fir_long": (signal.firwin(1001, 0.1), 2.0),
    "complex": (RNG.standard_normal(5) + 1j * RNG.standard_normal(5), [1.0, -0.3 + 0.4j]),
    "int": ([1, 2, 1], [4, 0, 1]),
}


@pytest.mark.parametrize("name", FILTERS)
@pytest.mark.parametrize("kw", [
    {},
    {"worN": 1},
    {"worN": 17, "whole": True},
    {"worN": 64, "include_nyquist": True},
    {"worN": 257, "whole": True, "include_nyquist": True},
    {"worN": 1000, "fs": 48000.0},
    {"worN": [0.0, 100.0, 23999.0, 24000.0, -5.0], "fs": 48000.0},
    {"worN": np.linspace(0, np.pi, 9).reshape(3, 3)},
    {"worN": 0},
    {"worN": np.array([], np.float64)},
])
def test_freqz_matches_scipy(name, kw):
    b, a = FILTERS[name]
    w, h = sigkern.freqz(b, a, **kw)
    wr, hr = signal.freqz(b, a, **kw)
    close(w, wr, 0)
    close(h, hr)


def test_freqz_broadcasting_like_scipy():
    b = RNG.random((3, 5, 1))
    a = RNG.random((2, 1))
    for worN in (16, 17, np.linspace(0, 1, 10)):
        for whole in (False, True):
            close(sigkern.freqz(b, a, worN=worN, whole=whole)[1], signal.freqz(b, a, worN=worN, whole=whole)[1])
            close(sigkern.freqz(b, worN=worN, whole=whole)[1], signal.freqz(b, worN=worN, whole=whole)[1])
    b4 = RNG.random((4, 2, 1, 1))
    a4 = RNG.random((5, 2, 1, 1))
    wn = RNG.random((6, 7))
    close(sigkern.freqz(b4, a4, worN=wn)[1], signal.freqz(b4, a4, worN=wn)[1])
    b3 = RNG.random((3, 16))
    close(sigkern.freqz(b3, worN=16)[1], signal.freqz(b3, worN=16)[1])
    with pytest.raises(ValueError):
        sigkern.freqz(RNG.random((3, 4)), RNG.random((2, 5)), worN=[0.1, 0.2, 0.3])


def test_freqz_adversarial():
    # a pole on the unit circle at DC: numpy's x/0, as scipy
    with np.errstate(all="ignore"):
        wr, hr = signal.freqz([1.0], [1.0, -1.0], worN=[0.0, 0.5])
    w, h = sigkern.freqz([1.0], [1.0, -1.0], worN=[0.0, 0.5])
    assert np.isinf(h[0].real) and np.isinf(hr[0].real)
    close(h[1:], hr[1:])
    # NaN frequency and NaN coefficient propagate
    h = sigkern.freqz([1.0, 0.5], [1.0, 0.2], worN=[np.nan, 1.0])[1]
    assert np.isnan(h[0]) and np.isfinite(h[1])
    assert np.isnan(sigkern.freqz([1.0, np.nan], [1.0, 0.2], worN=4)[1]).all()
    # an empty numerator is the zero polynomial
    close(sigkern.freqz([], [1.0, 0.5], worN=4)[1], np.zeros(4, np.complex128))
    # float32 coefficients give complex64, computed in double
    b, a = signal.butter(3, 0.2)
    w, h = sigkern.freqz(b.astype(np.float32), a.astype(np.float32), worN=8)
    wr, hr = signal.freqz(b.astype(np.float32), a.astype(np.float32), worN=8)
    assert w.dtype == wr.dtype == np.float32 and h.dtype == hr.dtype == np.complex64
    close(h, signal.freqz(b, a, worN=8)[1].astype(np.complex64), 1e-6)
    # plot hook
    seen = []
    sigkern.freqz([1.0], worN=4, plot=lambda w, h: seen.append((w.shape, h.shape)))
    assert seen == [((4,), (4,))]


def test_freqz_errors_as_scipy():
    for kw, exc, match in [
        ({"worN": -1}, ValueError, "worN must be nonnegative"),
        ({"fs": None}, ValueError, "Sampling.*be none"),
        ({"fs": np.array([1.0, 2.0])}, ValueError, "Sampling.*single scalar"),
    ]:
        with pytest.raises(exc, match=match):
            signal.freqz([1.0, 2.0], **kw)
        with pytest.raises(exc, match=match):
            sigkern.freqz([1.0, 2.0], **kw)
    with pytest.raises(TypeError):
        sigkern.freqz(["a"])
    with pytest.raises(ValueError, match="imaginary"):
        sigkern.freqz([1.0, 1j], [1.0, 0.5], worN=[0.1 + 0.2j])


@pytest.mark.parametrize("design", [
    lambda: signal.butter(8, 0.2, output="sos"),
    lambda: signal.ellip(15, 0.5, 60, (0.2, 0.4), btype="bandpass", output="sos"),
    lambda: signal.cheby2(12, 80, [0.1, 0.6], "stop", output="sos"),
    lambda: signal.butter(25, 0.15, output="sos"),
])
@pytest.mark.parametrize("kw", [{}, {"worN": 8192}, {"worN": 7, "whole": True},
                                {"worN": [0.0, 1.0, 100.0], "fs": 300.0}, {"worN": 0}])
def test_freqz_sos_matches_scipy(design, kw):
    sos = design()
    w, h = sigkern.freqz_sos(sos, **kw)
    wr, hr = signal.freqz_sos(sos, **kw)
    close(w, wr, 0)
    close(h, hr)
    w2, h2 = sigkern.sosfreqz(sos, **kw)
    close(h2, h, 0)


def test_freqz_sos_edge_cases():
    # int sections, a single row given 1-D, float32, complex sections
    w, h = sigkern.freqz_sos([1, 0, 0, 1, 0, 0], worN=5)
    close(h, signal.freqz_sos([1, 0, 0, 1, 0, 0], worN=5)[1])
    sos = signal.butter(4, 0.3, output="sos")
    w, h = sigkern.freqz_sos(sos.astype(np.float32), worN=16)
    wr, hr = signal.freqz_sos(sos.astype(np.float32), worN=16)
    assert w.dtype == wr.dtype and h.dtype == hr.dtype == np.complex64
    close(h, hr, 1e-5)
    cs = sos.astype(np.complex128)
    cs[:, 1] += 0.1j
    close(sigkern.freqz_sos(cs, worN=9)[1], signal.freqz_sos(cs, worN=9)[1])
    for bad, match in [(np.ones((2, 5)), r"shape \(n_sections, 6\)"), (np.ones((1, 2, 6)), "2D"),
                       (np.zeros((0, 6)), "no sections"), ([1, 0, 0, 2, 0, 0], "all ones")]:
        with pytest.raises(ValueError, match=match):
            signal.freqz_sos(bad)
        with pytest.raises(ValueError, match=match):
            sigkern.freqz_sos(bad)
    with pytest.raises(ValueError, match="single scalar"):
        sigkern.freqz_sos(sos, fs=np.array([10, 20]))


@pytest.mark.parametrize("ba", [
    signal.butter(4, 0.1),
    signal.ellip(6, 0.5, 60, [0.3, 0.35], "bandpass"),
    (signal.firwin(31, 0.2), [1.0]),
    ([-0.6143077933232609 + 0.3355978770229421j, 1], [1, -0.6143077933232609 - 0.3355978770229421j]),
    ([1], [1]),
])
@pytest.mark.parametrize("kw", [{}, {"w": 33, "whole": True}, {"w": [10.0, 200.0, 999.0], "fs": 2000.0},
                                {"w": 8.0 + 0j}, {"w": 0}])
def test_group_delay_matches_scipy(ba, kw):
    w, gd = sigkern.group_delay(ba, **kw)
    wr, gdr = signal.group_delay(ba, **kw)
    close(w, wr, 0)
    assert gd.dtype == gdr.dtype and gd.shape == gdr.shape
    # The delay is Re(N/D) of two polynomials evaluated by Horner's rule; near a zero on the unit
    # circle D is tiny and both results carry the rounding bound of the ratio (scipy's too), so
    # each point is held to twice that bound (Higham's bound for Horner, γ_n·Σ|c_k|·|z|^k).
    b, a = (np.atleast_1d(np.asarray(v, complex)) for v in ba)
    c = np.convolve(b, np.conj(a[::-1]))
    k = np.arange(c.size)
    wrad = np.atleast_1d(np.asarray(wr, complex)).real * 2 * np.pi / kw.get("fs", 2 * np.pi)
    den = np.abs(np.polyval(c[::-1], np.exp(-1j * wrad)))
    gam = 4 * c.size * np.finfo(float).eps
    bound = gam * (np.sum(k * np.abs(c)) + np.abs(gdr + a.size - 1) * np.sum(np.abs(c))) / den
    err = np.abs(gd - gdr)
    assert np.all(err <= 2 * bound + 1e-12 * np.max(np.abs(gdr), initial=1.0)), np.max(err / bound)


def test_group_delay_singular_and_errors():
    z1, z2 = np.exp(1j * 0.1 * np.pi), np.exp(1j * 0.25 * np.pi)
    b = np.convolve([1, -z1], [1, -z2])
    a = [1.0, 0.2]
    w = np.array([0.1 * np.pi, 0.25 * np.pi, 0.7])
    with pytest.warns(UserWarning, match="singular") as rec:
        gd = sigkern.group_delay((b, a), w=w)[1]
    with pytest.warns(UserWarning, match="singular") as rec_ref:
        gdr = signal.group_delay((b, a), w=w)[1]
    assert str(rec[0].message) == str(rec_ref[0].message)
    assert gd[2] == pytest.approx(gdr[2], rel=1e-12)  # the regular point (the others: rounding)
    # no warning when nothing is singular
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sigkern.group_delay(([1.0, 0.5], [1.0]), w=8)
    with pytest.raises(ValueError, match="be none"):
        sigkern.group_delay(([1.0], [1.0]), fs=None)
    with pytest.raises(ValueError, match="single scalar"):
        sigkern.group_delay(([1.0], [1.0]), fs=np.array([1.0, 2.0]))
    with pytest.raises(ValueError):
        sigkern.group_delay((np.ones((2, 2)), [1.0]))
    with pytest.raises(ValueError, match="cannot be empty"):
        sigkern.group_delay(([], [1.0]))
