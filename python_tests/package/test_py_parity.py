"""sigkern.filters parity entries against scipy.signal (float64 references): lfilter,
lfilter_zi, sosfilt_zi, filtfilt, sosfiltfilt and their out= arguments; decimate, resample_poly,
upfirdn, the FFTs and get_window under scipy's/numpy's signatures and dtype rules (firwin's
options and get_window's window set are in test_py_window_names.py; scipy's and numpy's own
tests of these functions run in python_tests/parity/)."""

import warnings

import numpy as np
import pytest
from scipy import signal

import sigkern

RNG = np.random.default_rng(77)


def rel_err(a, b):
    dt = np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float64
    a = np.asarray(a, dt)
    b = np.asarray(b, dt)
    return np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1e-300)


@pytest.mark.parametrize("shape, axis", [((1000,), -1), ((3, 1000), -1), ((1000, 3), 0), ((2, 3, 500), 1)])
def test_lfilter(shape, axis):
    b, a = signal.butter(6, 0.2)
    x = RNG.standard_normal(shape)
    assert rel_err(sigkern.lfilter(b, a, x, axis=axis), signal.lfilter(b, a, x, axis=axis)) <= 1e-10
    zshape = list(shape)
    zshape[axis] = 6
    zi = RNG.standard_normal(zshape)
    y, zf = sigkern.lfilter(b, a, x, axis=axis, zi=zi)
    yr, zfr = signal.lfilter(b, a, x, axis=axis, zi=zi)
    assert rel_err(y, yr) <= 1e-10 and rel_err(zf, zfr) <= 1e-10
    y32 = sigkern.lfilter(b, a, x.astype(np.float32), axis=axis)
    assert y32.dtype == np.float32 and rel_err(y32, signal.lfilter(b, a, x, axis=axis)) <= 1e-4


def test_lfilter_marginal_and_errors():
    x = np.linspace(0, 5, 6)
    assert np.array_equal(sigkern.lfilter([2, -2], [1, -1], x), [0, 2, 4, 6, 8, 10])
    assert np.array_equal(sigkern.lfilter([1], [0.5, 0.5], np.ones(6)), [2, 0, 2, 0, 2, 0])
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.lfilter([1.0], [0.0, 1.0], x)
    with pytest.raises(ValueError):
        sigkern.lfilter([1.0], [1.0, 0.5], x, zi=np.zeros(3))


def test_zi_functions():
    b, a = signal.cheby1(4, 1, 0.3)
    assert rel_err(sigkern.lfilter_zi(b, a), signal.lfilter_zi(b, a)) <= 1e-12
    sos = signal.butter(6, 0.25, output="sos")
    assert rel_err(sigkern.sosfilt_zi(sos), signal.sosfilt_zi(sos)) <= 1e-12
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.lfilter_zi([1, 1], [1, -1])


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("padlen", [None, 0, 7])
def test_filtfilt_and_sosfiltfilt(padtype, padlen):
    x = RNG.standard_normal((4, 3000))
    b, a = signal.butter(4, 0.15)
    sos = signal.butter(8, 0.15, output="sos")
    got = sigkern.filtfilt(b, a, x, padtype=padtype, padlen=padlen)
    assert rel_err(got, signal.filtfilt(b, a, x, padtype=padtype, padlen=padlen)) <= 1e-10
    got = sigkern.sosfiltfilt(sos, x, padtype=padtype, padlen=padlen)
    assert rel_err(got, signal.sosfiltfilt(sos, x, padtype=padtype, padlen=padlen)) <= 1e-10


def test_filtfilt_axis_tensor_and_errors():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((3000, 3))
    sos = signal.butter(4, 0.2, output="sos")
    assert rel_err(sigkern.sosfiltfilt(sos, x, axis=0), signal.sosfiltfilt(sos, x, axis=0)) <= 1e-10
    t = torch.from_numpy(np.ascontiguousarray(x.T))
    yt = sigkern.sosfiltfilt(sos, t)
    assert isinstance(yt, torch.Tensor) and rel_err(yt.numpy(), signal.sosfiltfilt(sos, x.T)) <= 1e-10
    with pytest.raises(sigkern.LengthError):
        sigkern.sosfiltfilt(sos, np.ones(10))
    with pytest.raises(ValueError, match="method"):
        sigkern.filtfilt([1.0], [1.0, -0.5], np.ones(100), method="gustafsson")
    with pytest.raises(ValueError):
        sigkern.filtfilt([1.0], [1.0, -0.5], np.ones(100), padtype="wrap")


def _calls(name):
    """The three entries with ``out=``, as (sigkern call, scipy reference) for ``name``."""
    b, a = signal.butter(4, 0.15)
    sos = signal.butter(6, 0.15, output="sos")
    return {
        "lfilter": (lambda x, **k: sigkern.lfilter(b, a, x, **k), lambda x, axis=-1: signal.lfilter(b, a, x, axis=axis)),
        "filtfilt": (lambda x, **k: sigkern.filtfilt(b, a, x, **k), lambda x, axis=-1: signal.filtfilt(b, a, x, axis=axis)),
        "sosfiltfilt": (lambda x, **k: sigkern.sosfiltfilt(sos, x, **k),
                        lambda x, axis=-1: signal.sosfiltfilt(sos, x, axis=axis)),
    }[name]


@pytest.mark.parametrize("name", ["lfilter", "filtfilt", "sosfiltfilt"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_out_argument(name, dtype):
    call, ref = _calls(name)
    tol = 1e-10 if dtype == np.float64 else 1e-4
    x = RNG.standard_normal((3, 2000)).astype(dtype)
    want = call(x)
    assert rel_err(want, ref(x.astype(np.float64))) <= tol
    out = np.full_like(x, np.nan)
    assert call(x, out=out) is out and np.array_equal(out, want)  # the same bits as without out
    xi = x.copy()
    assert call(xi, out=xi) is xi and np.array_equal(xi, want)  # in place
    # another time axis: computed moved, then copied into out
    xt = np.ascontiguousarray(x.T)
    out_t = np.full_like(xt, np.nan)
    assert call(xt, axis=0, out=out_t) is out_t and np.array_equal(out_t, want.T)
    # refused before anything is written: wrong shape, dtype, kind, read-only
    other = np.float64 if dtype == np.float32 else np.float32
    for bad, exc in ((np.zeros((3, 1999), dtype), ValueError), (np.zeros((3, 2000), other), TypeError),
                     ([[0.0] * 2000] * 3, TypeError)):
        with pytest.raises(exc, match=name):
            call(x, out=bad)
    ro = np.zeros_like(x)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=name):
        call(x, out=ro)
    assert not ro.any()
    # a partial overlap of out and x is refused by the C entry
    buf = x.copy()
    with pytest.raises(sigkern.OverlapError):
        call(buf[:, :1000], out=buf[:, 500:1500])
    assert np.array_equal(buf, x)


def test_out_argument_tensor():
    torch = pytest.importorskip("torch")
    for name in ("lfilter", "filtfilt", "sosfiltfilt"):
        call, ref = _calls(name)
        t = torch.from_numpy(RNG.standard_normal((2, 1500)))
        out = torch.empty_like(t)
        assert call(t, out=out) is out
        assert rel_err(out.numpy(), ref(t.numpy())) <= 1e-10
        out0 = torch.empty((1500, 2), dtype=torch.float64)
        assert call(t.T.contiguous(), axis=0, out=out0) is out0
        assert rel_err(out0.numpy(), ref(t.numpy()).T) <= 1e-10


# ---------------------------------------------------------------------------------------------
# scipy/numpy signatures, dtype promotion, complex signals, zi broadcasting, strides (the
# installed scipy's own tests of these functions run in python_tests/parity/)
# ---------------------------------------------------------------------------------------------


def test_cheby1_design_equals_scipy():
    D = sigkern

    worst = 0.0
    for n in range(0, 13):
        for btype, wn in (("low", 0.8 / 13), ("high", 0.3), ("bandpass", [0.2, 0.5]), ("bandstop", [0.1, 0.6])):
            for out in ("sos", "ba"):
                if n == 0 and out == "sos":
                    continue
                want = signal.cheby1(n, 0.05, wn, btype, output=out)
                got = D.cheby1(n, 0.05, wn, btype, output=out)
                for g, w in zip((got,) if out == "sos" else got, (want,) if out == "sos" else want):
                    assert np.shape(g) == np.shape(w)
                    worst = max(worst, rel_err(g, w))
    assert worst <= 1e-12
    z, p, k = signal.cheby1(5, 1, [2.0, 30.0], "band", analog=True, output="zpk")
    assert rel_err(D.zpk2sos(z, p, k, analog=True), signal.zpk2sos(z, p, k, analog=True)) <= 1e-12
    with pytest.raises(ValueError):
        D.cheby1(4, 1, 1.2)


@pytest.mark.parametrize("q", [2, 3, 7, 13])
def test_decimate_default_is_scipys_iir(q):
    x = RNG.standard_normal((3, 2001))
    for kw in ({}, {"zero_phase": False}, {"n": 4}, {"ftype": "fir"}, {"ftype": "fir", "n": 30},
               {"ftype": "fir", "zero_phase": False}):
        assert rel_err(sigkern.decimate(x, q, **kw), signal.decimate(x, q, **kw)) <= 1e-10, kw
    y = sigkern.decimate(x.T.astype(np.float32), q, axis=0)
    assert y.dtype == np.float32 and rel_err(y, signal.decimate(x.T, q, axis=0)) <= 1e-4
    xi = (x[0] * 1000).astype(np.int16)  # integer input: float64, as scipy
    assert rel_err(sigkern.decimate(xi, q), signal.decimate(xi, q)) <= 1e-10
    xc = x[0] + 1j * x[1]  # complex signal: both parts filtered
    assert rel_err(sigkern.decimate(xc, q), signal.decimate(xc, q)) <= 1e-10
    # a transfer-function system (complex poles: scipy's lfilter/filtfilt path); a well
    # conditioned one, as transfer functions of high order near DC amplify rounding
    system = signal.dlti(*signal.cheby1(4, 0.1, 0.4))
    assert rel_err(sigkern.decimate(x, q, ftype=system), signal.decimate(x, q, ftype=system)) <= 1e-9
    with warnings.catch_warnings():  # (scipy's zpk form of a long FIR warns: not ours)
        warnings.simplefilter("ignore", signal.BadCoefficients)
        fir = signal.dlti(signal.firwin(31, 1 / q), [1.0])
        assert rel_err(sigkern.decimate(x, q, ftype=fir), signal.decimate(x, q, ftype=fir)) <= 1e-10
    with pytest.raises(TypeError):
        sigkern.decimate(x, 2.5)
    with pytest.raises(ValueError):
        sigkern.decimate(x, 2, ftype="bessel")


def test_resample_poly_window_padtype_cval_axis0():
    x = RNG.standard_normal((300, 2))
    assert rel_err(sigkern.resample_poly(x, 3, 2), signal.resample_poly(x, 3, 2)) <= 1e-10  # axis=0
    for padtype in ("constant", "mean", "median", "minimum", "maximum", "line", "smooth",
                    "antireflect", "reflect", "wrap", "edge", "symmetric", "antisymmetric"):
        for window in (("kaiser", 5.0), "hann", RNG.standard_normal(31)):
            got = sigkern.resample_poly(x, 5, 3, window=window, padtype=padtype)
            want = signal.resample_poly(x, 5, 3, window=window, padtype=padtype)
            assert got.shape == want.shape and got.dtype == want.dtype
            assert rel_err(got, want) <= 1e-10, (padtype, window)
    assert rel_err(sigkern.resample_poly(x, 2, 1, cval=1.5), signal.resample_poly(x, 2, 1, cval=1.5)) <= 1e-10
    xc = x[:, 0] + 1j * x[:, 1]
    assert rel_err(sigkern.resample_poly(xc, 2, 3), signal.resample_poly(xc, 2, 3)) <= 1e-10
    assert sigkern.resample_poly(x.astype(np.float32), 2, 3).dtype == np.float32
    with pytest.raises(ValueError):
        sigkern.resample_poly(x, 2, 1, padtype="mean", cval=1.0)
    with pytest.raises(ValueError):
        sigkern.resample_poly(x, 2, 1, window=np.eye(2))
    with pytest.raises(ValueError):
        sigkern.resample_poly(x, 1.5, 1)


def test_upfirdn_modes_complex_and_dtypes():
    x = RNG.standard_normal((2, 40))
    h = RNG.standard_normal(9)
    for mode in ("constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
                 "antireflect", "line"):
        for up, down in ((1, 1), (3, 2), (2, 5)):
            got = sigkern.upfirdn(h, x, up, down, mode=mode, cval=0.7)
            assert rel_err(got, signal.upfirdn(h, x, up, down, mode=mode, cval=0.7)) <= 1e-12, mode
    hc = h + 1j * RNG.standard_normal(9)
    xc = x[0] + 1j * x[1]
    for hh, xx in ((hc, x[0]), (h, xc), (hc, xc)):
        got, want = sigkern.upfirdn(hh, xx, 2, 3), signal.upfirdn(hh, xx, 2, 3)
        assert got.dtype == want.dtype and rel_err(got, want) <= 1e-12
    x32 = x.astype(np.float32)
    assert sigkern.upfirdn(h, x32).dtype == np.float64  # float64 taps: scipy's result_type
    assert sigkern.upfirdn(h.astype(np.float32), x32).dtype == np.float32
    with pytest.raises(ValueError):
        sigkern.upfirdn(np.ones((2, 2)), x)
    with pytest.raises(ValueError):
        sigkern.upfirdn(h, x, mode="circular")


def test_filters_complex_strides_zi_broadcast():
    b, a = signal.butter(4, 0.2)
    sos = signal.butter(4, 0.2, output="sos")
    x = RNG.standard_normal((3, 500)) + 1j * RNG.standard_normal((3, 500))
    assert rel_err(sigkern.lfilter(b, a, x), signal.lfilter(b, a, x)) <= 1e-10
    assert rel_err(sigkern.sosfilt(sos, x), signal.sosfilt(sos, x)) <= 1e-10
    assert rel_err(sigkern.filtfilt(b, a, x), signal.filtfilt(b, a, x)) <= 1e-10
    assert rel_err(sigkern.sosfiltfilt(sos, x, axis=-1), signal.sosfiltfilt(sos, x)) <= 1e-10
    assert sigkern.lfilter(b, a, x.astype(np.complex64)).dtype == np.complex64
    bc = b * (1 + 0.5j)  # complex numerator, real denominator
    zi = RNG.standard_normal((3, 4))
    got, want = sigkern.lfilter(bc, a, x, zi=zi), signal.lfilter(bc, a, x, zi=zi)
    assert rel_err(got[0], want[0]) <= 1e-10 and rel_err(got[1], want[1]) <= 1e-10
    with pytest.raises(NotImplementedError):
        sigkern.lfilter(b, a * (1 + 1j), x)
    with pytest.raises(TypeError):
        sigkern.lfilter([1.0], [None], x)
    # zi with length-1 axes broadcasts as scipy's; any strides are read (copied if needed)
    xr = RNG.standard_normal((4, 3, 200))
    zi1 = RNG.standard_normal((1, 4, 1))
    got, want = sigkern.lfilter(b, a, xr, axis=1, zi=zi1), signal.lfilter(b, a, xr, axis=1, zi=zi1)
    assert rel_err(got[0], want[0]) <= 1e-10 and rel_err(got[1], want[1]) <= 1e-10
    v = xr[:, 1, ::3]
    assert rel_err(sigkern.lfilter(b, a, v), signal.lfilter(b, a, v)) <= 1e-10
    assert rel_err(sigkern.filtfilt(b, a, xr[..., ::2]), signal.filtfilt(b, a, xr[..., ::2])) <= 1e-10
    # scipy's idiom: float64 zi for a float32 signal
    x32 = xr[0].astype(np.float32)
    zs = signal.sosfilt_zi(sos)[:, None, :] * x32[:, :1]
    y32, zf32 = sigkern.sosfilt(sos, x32, zi=zs)
    assert y32.dtype == np.float32 and rel_err(y32, signal.sosfilt(sos, x32, zi=zs)[0]) <= 1e-4
    assert sigkern.lfilter_zi(b.astype(np.float32), a.astype(np.float32)).dtype == np.float32
    assert sigkern.lfilter_zi(b, a).dtype == np.float64


def test_filtfilt_gust_equals_scipy():
    b, a = signal.butter(3, 0.15)
    x = RNG.standard_normal((2, 400))
    for irlen in (None, 50):
        got = sigkern.filtfilt(b, a, x, method="gust", irlen=irlen)
        assert rel_err(got, signal.filtfilt(b, a, x, method="gust", irlen=irlen)) <= 1e-9


def test_fft_and_window_numpy_rules():
    xi = np.arange(16, dtype=np.int32)
    assert rel_err(sigkern.rfft(xi), np.fft.rfft(xi)) <= 1e-12
    assert rel_err(sigkern.fft(xi.astype(float)), np.fft.fft(xi)) <= 1e-12
    assert rel_err(sigkern.ifft([1, 2, 3]), np.fft.ifft([1, 2, 3])) <= 1e-12
    w = sigkern.get_window("hann", 8, xp=np, device="cpu")
    assert isinstance(w, np.ndarray) and rel_err(w, signal.get_window("hann", 8)) <= 1e-15
    with pytest.raises(ValueError):
        sigkern.get_window("hann", 8, device="cuda")
    with pytest.raises(ValueError, match="Nx"):
        sigkern.get_window("hann", 0)


def test_complex_tensors():
    torch = pytest.importorskip("torch")
    b, a = signal.butter(4, 0.2)
    sos = signal.butter(4, 0.2, output="sos")
    x = RNG.standard_normal((2, 300)) + 1j * RNG.standard_normal((2, 300))
    t = torch.from_numpy(x)
    for got, want in ((sigkern.lfilter(b, a, t), signal.lfilter(b, a, x)),
                      (sigkern.sosfilt(sos, t), signal.sosfilt(sos, x)),
                      (sigkern.sosfiltfilt(sos, t), signal.sosfiltfilt(sos, x)),
                      (sigkern.upfirdn(b, t, 2, 3), signal.upfirdn(b, x, 2, 3)),
                      (sigkern.decimate(t, 3), signal.decimate(x, 3))):
        assert isinstance(got, torch.Tensor) and got.dtype == torch.complex128
        assert rel_err(got.numpy(), want) <= 1e-10
