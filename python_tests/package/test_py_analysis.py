"""sigkern.analysis against scipy.signal (float64 references): periodogram, welch, csd,
coherence, spectrogram, hilbert on random and adversarial inputs, float32, every option, the
errors. Tolerances: 1e-12 relative to the largest value in double (FFT and summation order
differ; values below 1e-15 count as rounding noise), 2e-6 for float32 input (scipy rounds a double result to single, sigkern too)."""

import warnings

import numpy as np
import pytest
from scipy import signal

import sigkern

RNG = np.random.default_rng(50)


def close(a, b, tol=1e-12):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    scale = max(np.max(np.abs(b), initial=0.0), 1e-15)  # values below are rounding noise
    err = np.max(np.abs(a.astype(np.complex128) - b.astype(np.complex128)), initial=0.0)
    assert err <= tol * scale, err / scale


@pytest.mark.parametrize("kw", [
    {},
    {"nperseg": 64, "noverlap": 0},
    {"nperseg": 50, "noverlap": 49, "nfft": 77},
    {"nperseg": 64, "detrend": "linear", "scaling": "spectrum"},
    {"nperseg": 64, "detrend": False, "return_onesided": False},
    {"nperseg": 33, "average": "median"},
    {"nperseg": 32, "average": "median", "nfft": 40, "return_onesided": False},
    {"window": ("kaiser", 6.0), "nperseg": 100, "fs": 8000.0},
    {"window": np.arange(1.0, 31.0), "noverlap": 7},
    {"nperseg": 64, "detrend": lambda s: s - s[..., :1]},
])
def test_welch_csd_options(kw):
    x = RNG.standard_normal((3, 1001))
    y = RNG.standard_normal((3, 1001))
    f, p = sigkern.welch(x, **kw)
    fr, pr = signal.welch(x, **kw)
    close(f, fr, 0)
    close(p, pr)
    f, c = sigkern.csd(x, y, **kw)
    close(c, signal.csd(x, y, **kw)[1])


def test_axes_broadcast_and_padding():
    x = RNG.standard_normal((40, 2, 3))
    close(sigkern.welch(x, nperseg=16, axis=0)[1], signal.welch(x, nperseg=16, axis=0)[1])
    a = RNG.standard_normal((2, 1, 300))
    b = RNG.standard_normal((1, 4, 300))
    close(sigkern.csd(a, b, nperseg=32)[1], signal.csd(a, b, nperseg=32)[1])
    close(sigkern.coherence(a, b, nperseg=32)[1], signal.coherence(a, b, nperseg=32)[1], 1e-11)
    # the shorter signal is zero-padded (scipy pads only when the other axes agree)
    c = RNG.standard_normal((2, 250))
    close(sigkern.csd(a[:, 0], c, nperseg=32)[1], signal.csd(a[:, 0], c, nperseg=32)[1])


@pytest.mark.parametrize("n", [1, 2, 7, 256, 1000])
def test_periodogram(n):
    x = RNG.standard_normal(n)
    for kw in [{}, {"nfft": n + 3}, {"nfft": max(n - 1, 1)}, {"window": "hann", "scaling": "spectrum"},
               {"return_onesided": False, "detrend": "linear"}]:
        close(sigkern.periodogram(x, **kw)[1], signal.periodogram(x, **kw)[1])


def test_float32_and_integers():
    x = RNG.standard_normal((2, 4000)).astype(np.float32)
    p = sigkern.welch(x, nperseg=128)[1]
    close(p, signal.welch(x, nperseg=128)[1], 2e-6)
    s = sigkern.spectrogram(x, nperseg=128)[2]
    close(s, signal.spectrogram(x, nperseg=128)[2], 2e-6)
    i = np.arange(100) % 7
    close(sigkern.welch(i, nperseg=16)[1], signal.welch(i, nperseg=16)[1])


def test_adversarial_values():
    # a constant signal: all power removed by the detrending
    f, p = sigkern.welch(np.full(512, 3.0), nperseg=64)
    assert np.max(np.abs(p)) < 1e-25
    # NaN reaches the bins of its segments only; the median of a bin with NaN is NaN
    x = RNG.standard_normal(640)
    x[10] = np.nan
    got = sigkern.welch(x, nperseg=64, noverlap=0, average="median")[1]
    want = signal.welch(x, nperseg=64, noverlap=0, average="median")[1]
    assert np.array_equal(np.isnan(got), np.isnan(want))
    s = sigkern.spectrogram(x, nperseg=64, noverlap=0)[2]
    assert np.isnan(s[:, 0]).all() and not np.isnan(s[:, 1:]).any()
    # denormals stay finite
    d = np.full(256, 5e-310)
    d[::2] = -5e-310
    assert np.isfinite(sigkern.welch(d, nperseg=32, detrend=False)[1]).all()


@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle", "phase"])
@pytest.mark.parametrize("kw", [{}, {"nperseg": 100, "noverlap": 10, "nfft": 128},
                                {"return_onesided": False, "detrend": "linear", "nperseg": 64},
                                {"scaling": "spectrum", "detrend": False, "nperseg": 31}])
def test_spectrogram(mode, kw):
    x = RNG.standard_normal((2, 1500))
    f, t, s = sigkern.spectrogram(x, mode=mode, **kw)
    fr, tr, sr = signal.spectrogram(x, mode=mode, **kw)
    close(f, fr, 0)
    close(t, tr, 0)
    if mode in ("angle", "phase"):  # angles of bins with |X| at rounding level differ
        assert s.shape == sr.shape
        big = np.abs(signal.spectrogram(x, mode="complex", **kw)[2]) > 1e-6
        d = np.angle(np.exp(1j * (s - sr)))
        assert np.max(np.abs(d[big])) < 1e-9
    else:
        close(s, sr)
    x0 = np.moveaxis(x, -1, 0)
    close(sigkern.spectrogram(x0, mode="psd", axis=0)[2], signal.spectrogram(x0, mode="psd", axis=0)[2])


def test_short_signal_warns_as_scipy():
    x = RNG.standard_normal(100)
    with pytest.warns(UserWarning):
        f, p = sigkern.welch(x)
    close(p, signal.welch(x, nperseg=100)[1])


@pytest.mark.parametrize("call, kw, exc", [
    ("welch", {"nperseg": 0}, ValueError),
    ("welch", {"nperseg": 16, "noverlap": 16}, ValueError),
    ("welch", {"nperseg": 16, "nfft": 8}, ValueError),
    ("welch", {"scaling": "foo"}, ValueError),
    ("welch", {"average": "mode"}, ValueError),
    ("welch", {"detrend": "quadratic"}, ValueError),
    ("welch", {"fs": 0}, ValueError),
    ("welch", {"window": np.ones((2, 2))}, ValueError),
    ("welch", {"window": np.ones(300)}, ValueError),
    ("spectrogram", {"mode": "db"}, ValueError),
    ("spectrogram", {"window": np.ones(300)}, ValueError),
    ("spectrogram", {"scaling": "foo"}, ValueError),
])
def test_errors(call, kw, exc):
    x = RNG.standard_normal(200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc):
            getattr(sigkern, call)(x, **kw)


def test_complex_is_refused():
    z = np.ones(64, np.complex128)
    with pytest.raises(TypeError, match="real signals"):
        sigkern.welch(z, nperseg=16)
    with pytest.raises(ValueError, match="must be real"):
        sigkern.hilbert(z)


def test_empty_inputs_as_scipy():
    for shape in [(0,), (3, 0), (0, 5)]:
        f, p = sigkern.welch(np.empty(shape))
        assert f.shape == shape and p.shape == shape
    f, p = sigkern.csd(np.empty((2, 0)), np.empty((2, 0)))
    assert p.shape == signal.csd(np.empty((2, 0)), np.empty((2, 0)))[1].shape


@pytest.mark.parametrize("n, N", [(1, None), (2, None), (7, None), (480, None), (100, 128),
                                  (100, 77), (5, 1), (1000, 1001)])
def test_hilbert(n, N):
    x = RNG.standard_normal((2, n))
    close(sigkern.hilbert(x, N=N), signal.hilbert(x, N=N))
    close(sigkern.hilbert(x.T, N=N, axis=0), signal.hilbert(x.T, N=N, axis=0))
    x32 = x.astype(np.float32)
    close(sigkern.hilbert(x32, N=N), signal.hilbert(x32, N=N), 2e-6)


def test_hilbert_values():
    x = np.array([1.0, np.nan, 3.0, 4.0])
    z = sigkern.hilbert(x)  # the real part is the signal; NaN reaches the imaginary part
    assert np.array_equal(z.real, x, equal_nan=True) and np.isnan(z.imag).any()
    assert sigkern.hilbert(np.arange(4)).dtype == np.complex128
    with pytest.raises(ValueError):
        sigkern.hilbert(np.ones(4), N=0)
    with pytest.raises(np.exceptions.AxisError):
        sigkern.hilbert(np.ones(4), axis=1)


def peaky(n, seed):
    r = np.random.default_rng(seed)
    x = np.round(r.standard_normal(n) * 3) / 3  # ties and plateaus
    x[n // 3:n // 3 + 5] = x.max() + 1.0        # a wide plateau peak
    return x


@pytest.mark.parametrize("kw", [
    {}, {"height": 0.5}, {"height": (None, 1.0)}, {"threshold": 0.2}, {"threshold": (0.1, 2.0)},
    {"distance": 3}, {"distance": 7.5, "height": 0.0}, {"prominence": 1.0},
    {"prominence": (0.5, 3.0), "wlen": 21}, {"width": 2}, {"width": (1, 5), "rel_height": 0.8},
    {"plateau_size": 2}, {"plateau_size": (1, 3), "prominence": 0.1, "width": 0, "distance": 2},
])
def test_find_peaks_equal_scipy(kw):
    for n, seed in [(3, 1), (50, 2), (2000, 3)]:
        x = peaky(n, seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got, gp = sigkern.find_peaks(x, **kw)
            want, wp = signal.find_peaks(x, **kw)
        assert np.array_equal(got, want) and got.dtype == want.dtype
        assert gp.keys() == wp.keys()
        for k in wp:
            assert np.array_equal(gp[k], wp[k]), k  # the same operations: bit for bit
            assert gp[k].dtype == wp[k].dtype, k


def test_prominences_widths_and_warnings():
    x = peaky(500, 9)
    pk = signal.find_peaks(x)[0]
    for wlen in (None, 5, 10.5):
        got = sigkern.peak_prominences(x, pk, wlen=wlen)
        want = signal.peak_prominences(x, pk, wlen=wlen)
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
    # every index a "peak" (sorted: the O(n) stack pass; shuffled: the scan), NaN and a ramp
    y = np.concatenate([peaky(300, 5), np.arange(50.0)])
    y[[10, 150]] = np.nan
    for idx in (np.arange(y.size), np.random.default_rng(6).permutation(y.size)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sigkern.peak_prominences(y, idx)
            want = signal.peak_prominences(y, idx)
        assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(got, want))
    for rh in (0.0, 0.5, 1.0, 2.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sigkern.peak_widths(x, pk, rel_height=rh)
            want = signal.peak_widths(x, pk, rel_height=rh)
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
    with pytest.warns(sigkern.PeakPropertyWarning, match="prominence of 0"):
        sigkern.peak_prominences([1, 0, 2], [0])
    with pytest.raises(ValueError, match="not a valid index"):
        sigkern.peak_prominences([1, 0, 2], [-1])
    with pytest.raises(ValueError, match="rel_height"):
        sigkern.peak_widths([0, 1, 0], [1], rel_height=-1)
    nan = np.array([0.0, 1.0, np.nan, 1.0, 0.0, 2.0, 0.0])
    assert np.array_equal(sigkern.find_peaks(nan)[0], signal.find_peaks(nan)[0])


def test_find_peaks_results_own_their_memory():
    """Two peaks of a long signal: the results are their own small arrays, not views of the
    local-maxima buffers (n/2 entries each)."""
    x = np.zeros(100_000)
    x[[10, 50_000]] = [1.0, 2.0]
    for kw in ({}, {"plateau_size": 1}, {"prominence": 0.5, "width": 0}):
        p, props = sigkern.find_peaks(x, **kw)
        assert p.tolist() == [10, 50_000]
        for a in [p, *props.values()]:
            assert a.base is None or a.base.nbytes <= 2 * a.nbytes


def test_find_peaks_prominences_of_the_maxima():
    # prominences over the whole signal come from a stack over the local maxima (picked from
    # all of them after a height/threshold/distance selection): against scipy on noise,
    # plateaus, NaN, ramps and lengths 0-2, the same warnings included
    r = np.random.default_rng(50)
    nan = peaky(400, 7)
    nan[r.integers(0, 400, 12)] = np.nan
    saw = np.arange(60.0) // 2 + (np.arange(60) % 2) * 3
    cases = [np.zeros(0), np.ones(1), np.array([0.0, 1.0]), np.array([0.0, 1.0, 0.0]),
             r.standard_normal(3000), peaky(2000, 8), nan, np.arange(40.0), saw, -saw]
    kws = [{"prominence": 1}, {"prominence": (0.5, 4), "width": 1}, {"width": (1, None)},
           {"height": 0.3, "prominence": 0.2}, {"distance": 4, "width": 1.5},
           {"threshold": 0.1, "prominence": 0}]
    for i, x in enumerate(cases):
        for kw in kws:
            with warnings.catch_warnings(record=True) as gw:
                warnings.simplefilter("always")
                got, gp = sigkern.find_peaks(x, **kw)
            with warnings.catch_warnings(record=True) as ww:
                warnings.simplefilter("always")
                want, wp = signal.find_peaks(x, **kw)
            assert np.array_equal(got, want) and got.dtype == want.dtype, (i, kw)
            assert gp.keys() == wp.keys()
            for k in wp:
                assert np.array_equal(gp[k], wp[k]) and gp[k].dtype == wp[k].dtype, (i, kw, k)
            assert sorted(map(str, (w.message for w in gw))) == sorted(
                map(str, (w.message for w in ww))), (i, kw)
        pk = signal.find_peaks(x)[0]
        got = sigkern.peak_prominences(x, pk)
        want = signal.peak_prominences(x, pk)
        assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(got, want)), i


def test_find_peaks_one_call_equals_the_steps(monkeypatch):
    """find_peaks' one C call (scalar conditions, no distance) against the step-by-step route
    and scipy, bit for bit with the same warnings: noise, plateaus, NaN, ±inf, lengths 0-3."""
    from sigkern.analysis import _peaks

    r = np.random.default_rng(52)
    nan = peaky(500, 11)
    nan[r.integers(0, 500, 15)] = np.nan
    inf = peaky(60, 12)
    inf[[5, 20, 40]] = [np.inf, -np.inf, np.inf]
    cases = [np.zeros(0), np.ones(1), np.array([0.0, 1.0]), np.array([0.0, 1.0, 0.0]),
             r.standard_normal(2000), peaky(1500, 13), nan, inf, np.full(30, 2.0)]
    kws = [{"prominence": 1, "width": 1}, {"height": (np.float32(0.2), None), "threshold": 0.0,
           "prominence": (0.3, 5), "width": (None, 4.5), "rel_height": 0.9, "wlen": 31.5},
           {"plateau_size": (2, None), "height": (None, np.nan)}, {"threshold": (None, 0.7)},
           {"plateau_size": 1, "prominence": (None, None), "width": 0, "rel_height": 0.0},
           {"height": (np.nan, None), "width": (1, 3)}]
    for i, x in enumerate(cases):
        for kw in kws:
            res = []
            for route in ("fused", "steps", "scipy"):
                with monkeypatch.context() as m:
                    if route == "steps":
                        m.setattr(_peaks, "_find_fused", lambda *a: None)
                    fn = signal.find_peaks if route == "scipy" else sigkern.find_peaks
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        pk, props = fn(x, **kw)
                res.append((pk, props, sorted(str(v.message) for v in w)))
            (p0, d0, w0) = res[0]
            for pk, props, w in res[1:]:
                assert np.array_equal(p0, pk) and p0.dtype == pk.dtype, (i, kw)
                assert list(d0) == list(props) and w0 == w, (i, kw)
                for k in props:
                    assert np.array_equal(d0[k], props[k], equal_nan=True), (i, kw, k)
                    assert d0[k].dtype == props[k].dtype, (i, kw, k)
    with pytest.raises(ValueError, match="rel_height"):
        sigkern.find_peaks(peaky(50, 1), width=1, rel_height=-0.5)
    with pytest.raises(ValueError, match="wlen"):
        sigkern.find_peaks(peaky(50, 1), prominence=1, wlen=1)


@pytest.mark.parametrize("order, mode", [(1, "clip"), (3, "clip"), (2, "wrap")])
def test_argrel(order, mode):
    x = peaky(300, 4).reshape(3, 100)
    for axis in (0, 1, -1):
        for a, b in [(sigkern.argrelmax(x, axis, order, mode), signal.argrelmax(x, axis, order, mode)),
                     (sigkern.argrelmin(x, axis, order, mode), signal.argrelmin(x, axis, order, mode))]:
            assert len(a) == len(b) and all(np.array_equal(i, j) for i, j in zip(a, b))
    with pytest.raises(ValueError, match="Order"):
        sigkern.argrelmax(x, order=0)


@pytest.mark.parametrize("k", [1, 3, 5, 9, 101])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16, np.uint8])
def test_medfilt_bit_exact(k, dt):
    x = (RNG.standard_normal(1001) * 40).astype(dt)
    assert np.array_equal(sigkern.medfilt(x, k), signal.medfilt(x, k))
    assert sigkern.medfilt(x, k).dtype == dt
    img = (RNG.standard_normal((7, 30)) * 40).astype(dt)
    for ks in [(3, 1), (1, k), (3, 5), (5, 3)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert np.array_equal(sigkern.medfilt(img, ks), signal.medfilt(img, ks))
    with pytest.raises(ValueError, match="odd"):
        sigkern.medfilt(x, 4)
    with pytest.warns(UserWarning, match="exceeds"):
        sigkern.medfilt(np.ones(3), 5)


@pytest.mark.parametrize("mode", ["interp", "mirror", "nearest", "constant", "wrap"])
@pytest.mark.parametrize("wl, po, deriv", [(5, 2, 0), (31, 3, 0), (11, 4, 2), (4, 2, 1), (7, 0, 0)])
def test_savgol_filter(mode, wl, po, deriv):
    x = RNG.standard_normal((2, 200))
    got = sigkern.savgol_filter(x, wl, po, deriv=deriv, delta=0.5, mode=mode, cval=0.3)
    want = signal.savgol_filter(x, wl, po, deriv=deriv, delta=0.5, mode=mode, cval=0.3)
    close(got, want, 1e-11)
    got = sigkern.savgol_filter(x.T, wl, po, deriv=deriv, axis=0, mode=mode)
    close(got, signal.savgol_filter(x.T, wl, po, deriv=deriv, axis=0, mode=mode), 1e-11)
    x32 = x.astype(np.float32)  # scipy fits the interp edges in float32, sigkern in double
    close(sigkern.savgol_filter(x32, wl, po, mode=mode), signal.savgol_filter(x32, wl, po, mode=mode), 1e-5)


def test_savgol_coeffs_and_errors():
    for args in [(5, 2), (31, 3), (4, 2), (7, 3, 1, 0.1), (9, 4, 5)]:
        close(sigkern.savgol_coeffs(*args), signal.savgol_coeffs(*args), 1e-12)
    close(sigkern.savgol_coeffs(5, 2, pos=3, use="dot"), signal.savgol_coeffs(5, 2, pos=3, use="dot"), 1e-12)
    with pytest.raises(ValueError):
        sigkern.savgol_coeffs(3, 3)
    with pytest.raises(ValueError):
        sigkern.savgol_filter(np.ones(4), 5, 2)
    with pytest.raises(ValueError):
        sigkern.savgol_filter(np.ones(10), 5, 2, mode="reflect")


@pytest.mark.parametrize("bp", [0, 10, [5, 50, 150], np.array([199])])
def test_detrend(bp):
    x = RNG.standard_normal((3, 200)) + np.arange(200)
    for t in ("linear", "constant"):
        close(sigkern.detrend(x, type=t, bp=bp), signal.detrend(x, type=t, bp=bp), 1e-11)
        close(sigkern.detrend(x.T, axis=0, type=t, bp=bp), signal.detrend(x.T, axis=0, type=t, bp=bp), 1e-11)
    with pytest.raises(ValueError):
        sigkern.detrend(x, bp=[300])
    with pytest.raises(ValueError):
        sigkern.detrend(x, type="quadratic")
    assert sigkern.detrend(np.arange(5)).dtype == np.float64


@pytest.mark.parametrize("n", [1, 2, 7, 64, 101])
@pytest.mark.parametrize("kw", [
    {},
    {"residual": None},
    {"residual": "all", "squared": True},
    {"bp_in": (2, 9)},
    {"bp_in": (-3, 5), "residual": "all"},
    {"bp_in": (None, 0), "residual": "lowpass"},
    {"n_out": 31},
    {"n_out": 200, "residual": "all"},
    {"n_out": 10, "bp_in": (1, 4)},
])
@pytest.mark.parametrize("cplx", [False, True])
def test_envelope_matches_scipy(n, kw, cplx):
    x = RNG.standard_normal((2, n))
    if cplx:
        x = x + 1j * RNG.standard_normal((2, n))
    try:
        want = signal.envelope(x, **kw)
    except ValueError as e:  # a band the signal is too short for: the same error
        with pytest.raises(ValueError, match="does not hold"):
            sigkern.envelope(x, **kw)
        assert "does not hold" in str(e)
        return
    close(sigkern.envelope(x, **kw), want)


def test_envelope_axis_dtypes_errors():
    x = RNG.standard_normal((50, 3))
    close(sigkern.envelope(x, axis=0), signal.envelope(x, axis=0))
    x32 = x.astype(np.float32)
    got, want = sigkern.envelope(x32, axis=0), signal.envelope(x32, axis=0)
    assert got.dtype == want.dtype == np.float32
    close(got, want, 2e-6)
    close(sigkern.envelope(np.arange(20), residual=None), signal.envelope(np.arange(20), residual=None))
    for kw in [{"axis": 2}, {"bp_in": (1, 2, 3)}, {"bp_in": (1.0, None)}, {"n_out": 10.0}, {"n_out": 0},
               {"residual": "undefined"}, {"bp_in": (3, 2)}]:
        with pytest.raises(ValueError):
            signal.envelope(np.ones(8), **kw)
        with pytest.raises(ValueError):
            sigkern.envelope(np.ones(8), **kw)
    with pytest.raises(ValueError, match="not > 0"):
        sigkern.envelope(np.ones((3, 0)), axis=1)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n1, n2", [(1, 1), (5, 3), (3, 5), (8, 8), (9, 4), (4, 9), (100, 1)])
def test_correlation_lags_matches_scipy(mode, n1, n2):
    got = sigkern.correlation_lags(n1, n2, mode)
    want = signal.correlation_lags(n1, n2, mode)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert got.shape == signal.correlate(np.ones(n1), np.ones(n2), mode).shape


def test_correlation_lags_bad_mode():
    with pytest.raises(ValueError, match="Mode asdfgh is invalid"):
        sigkern.correlation_lags(10, 10, mode="asdfgh")
