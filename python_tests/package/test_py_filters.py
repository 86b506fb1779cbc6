"""sigkern.filters against scipy.signal (float64 references), numpy and torch inputs, error paths."""

import threading

import numpy as np
import pytest
from scipy import signal

import sigkern

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(1234)


def rel_err(a, b):
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300)


# ---------------------------------------------------------------------------------------------
# butter
# ---------------------------------------------------------------------------------------------

BANDS = [
    ("lowpass", 0.23),
    ("highpass", 0.37),
    ("bandpass", [0.11, 0.42]),
    ("bandstop", [0.07, 0.31]),
]


@pytest.mark.parametrize("btype,wn", BANDS)
@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 8, 11])
def test_butter_sos_equals_scipy(btype, wn, order):
    got = sigkern.butter(order, wn, btype, output="sos")
    ref = signal.butter(order, wn, btype, output="sos")
    assert got.shape == ref.shape and got.dtype == np.float64
    for g, r in zip(got, ref):  # per section, numerator and denominator relative to their peak
        assert np.max(np.abs(g[:3] - r[:3])) <= 1e-9 * np.max(np.abs(r[:3]))
        assert np.max(np.abs(g[3:] - r[3:])) <= 1e-9 * np.max(np.abs(r[3:]))


@pytest.mark.parametrize("btype,wn", BANDS)
@pytest.mark.parametrize("order", [1, 2, 3, 4, 5, 6])
def test_butter_ba_equals_scipy(btype, wn, order):
    b, a = sigkern.butter(order, wn, btype)  # output="ba" is scipy's default
    rb, ra = signal.butter(order, wn, btype)
    assert b.shape == rb.shape and a.shape == ra.shape
    assert rel_err(b, rb) <= 1e-9 and rel_err(a, ra) <= 1e-9
    assert a[0] == pytest.approx(1.0)


def test_butter_fs_and_aliases():
    got = sigkern.butter(4, [300.0, 3400.0], "band", fs=16000.0, output="sos")
    ref = signal.butter(4, [300.0, 3400.0], "band", fs=16000.0, output="sos")
    assert rel_err(got, ref) <= 1e-9
    for alias, full in (("low", "lowpass"), ("hp", "highpass"), ("bs", "bandstop")):
        wn = [0.1, 0.3] if full == "bandstop" else 0.2
        np.testing.assert_array_equal(
            sigkern.butter(3, wn, alias, output="sos"), sigkern.butter(3, wn, full, output="sos")
        )


def test_butter_errors():
    for args, kw, match in [
        ((4, 0.2, "comb"), {}, "invalid bandtype"),
        ((4, 0.2, "bandpass"), {}, "start and stop"),
        ((4, [0.1, 0.2], "low"), {}, "single critical frequency"),
        ((4, 1.2), {}, "0 < Wn < 1"),
        ((4, 1200.0), {"fs": 2000.0}, "fs/2"),
        ((4, [0.3, 0.2], "bandpass"), {}, "less than"),
        ((4, 0.2), {"output": "tf"}, "not a valid output"),
        ((4, 0.2), {"analog": True, "fs": 10.0}, "analog"),
        ((-1, 0.2), {}, "nonnegative"),
        ((4, -0.2), {}, "greater than 0"),
    ]:
        with pytest.raises(ValueError, match=match):
            signal.butter(*args, **kw)
        with pytest.raises(ValueError, match=match):
            sigkern.butter(*args, **kw)
    with pytest.raises(ValueError, match="between 0 and 64"):
        sigkern.butter(65, 0.2)
    assert np.array_equal(sigkern.butter(0, 0.2, output="sos"), signal.butter(0, 0.2, output="sos"))


def _rel(g, w):
    g, w = np.asarray(g), np.asarray(w)
    assert g.shape == w.shape, (g.shape, w.shape)
    return float(np.max(np.abs(g - w), initial=0.0) / max(np.max(np.abs(w), initial=0.0), 1e-300))


def _same_roots(g, w):
    """Root lists equal as multisets (scipy's order is kept, but ties may sort differently)."""
    g, w = np.sort_complex(np.asarray(g, complex)), np.sort_complex(np.asarray(w, complex))
    return _rel(g, w)


@pytest.mark.parametrize("name, ripple", [("butter", None), ("cheby1", 0.5), ("cheby1", 3.0),
                                          ("cheby2", 40.0), ("cheby2", 80.0)])
@pytest.mark.parametrize("btype, wn", [("low", 0.23), ("high", 0.61), ("bandpass", [0.2, 0.45]),
                                       ("bandstop", [0.1, 0.7])])
@pytest.mark.parametrize("analog", [False, True])
def test_iir_designs_match_scipy(name, ripple, btype, wn, analog):
    args = () if ripple is None else (ripple,)
    if analog:
        wn = np.asarray(wn) * 7.0
    worst = 0.0
    for n in (0, 1, 2, 3, 4, 5, 8, 11, 16):
        kw = {"btype": btype, "analog": analog}
        got = getattr(sigkern, name)(n, *args, wn, output="zpk", **kw)
        want = getattr(signal, name)(n, *args, wn, output="zpk", **kw)
        assert got[0].dtype == want[0].dtype and got[1].dtype == want[1].dtype
        assert type(got[2]) is type(want[2])
        worst = max(worst, _same_roots(got[0], want[0]), _same_roots(got[1], want[1]),
                    abs(got[2] - want[2]) / abs(want[2]))
        if n <= 8:
            b, a = getattr(sigkern, name)(n, *args, wn, **kw)
            rb, ra = getattr(signal, name)(n, *args, wn, **kw)
            assert b.dtype == rb.dtype and a.dtype == ra.dtype
            worst = max(worst, _rel(b, rb), _rel(a, ra))
        if n:
            try:
                ref = getattr(signal, name)(n, *args, wn, output="sos", **kw)
            except IndexError:  # scipy's zpk2sos runs out of real zeros (odd analog band-pass)
                with pytest.raises(ValueError, match="pairing"):
                    getattr(sigkern, name)(n, *args, wn, output="sos", **kw)
                continue
            sos = getattr(sigkern, name)(n, *args, wn, output="sos", **kw)
            for g, w in zip(sos, ref):
                worst = max(worst, _rel(g[:3], w[:3]), _rel(g[3:], w[3:]))
    assert worst <= 1e-12, worst


def test_iir_with_fs_and_sections_equal_butter_sos():
    for name, args in (("butter", ()), ("cheby1", (1.0,)), ("cheby2", (60.0,))):
        got = getattr(sigkern, name)(6, *args, [300.0, 3400.0], "band", fs=16000.0, output="sos")
        want = getattr(signal, name)(6, *args, [300.0, 3400.0], "band", fs=16000.0, output="sos")
        assert _rel(got, want) <= 1e-12
    # the general design gives sk_butter_sos's sections bit for bit
    from sigkern._lib import ffi, lib

    for order, band, f1, f2 in ((7, lib.SK_BAND_LOWPASS, 0.21, 0.0), (5, lib.SK_BAND_BANDSTOP, 0.1, 0.3)):
        n = lib.sk_butter_sections(order, band)
        ref = np.empty((n, 6))
        assert lib.sk_butter_sos(order, band, f1, f2, 2.0, ffi.from_buffer("double[]", ref), ffi.NULL,
                                 ref.size) == 0
        got = sigkern.butter(order, [f1, f2] if f2 else f1, "bandstop" if f2 else "low", output="sos")
        assert np.array_equal(got, ref)


def test_cheby_errors_as_scipy():
    for f, args, match in [
        ("cheby1", (4, -1.0, 0.2), "ripple"),
        ("cheby2", (4, -1.0, 0.2), "attenuation"),
        ("cheby1", (4, 1.0, 0.0), "greater than 0"),
        ("cheby2", (4, 40.0, 1.0), "0 < Wn < 1"),
    ]:
        with pytest.raises(ValueError, match=match):
            getattr(signal, f)(*args)
        with pytest.raises(ValueError, match=match):
            getattr(sigkern, f)(*args)


@pytest.mark.parametrize("analog", [False, True])
def test_zpk2sos_matches_scipy(analog):
    for z, p, k in [
        signal.ellip(7, 1, 50, [0.2, 0.3], "bandpass", analog=analog, output="zpk"),
        signal.cheby2(5, 30, 0.4, "high", analog=analog, output="zpk"),
        ([], [0.5], 2.0),
        ([], [], 3.0),
        ([-1.0], [0.5 + 0.2j, 0.5 - 0.2j], 1.0),
    ]:
        if analog and len(z) > len(p):
            continue
        got = sigkern.zpk2sos(z, p, k, analog=analog)
        want = signal.zpk2sos(z, p, k, analog=analog)
        assert _rel(got, want) <= 1e-12
    with pytest.raises(ValueError, match="minimal"):
        sigkern.zpk2sos([], [0.5], 1.0, "nearest", analog=True)
    with pytest.raises(ValueError, match="pairing must be one of"):
        sigkern.zpk2sos([], [0.5], 1.0, "closest")
    for pairing in ("keep_odd", "minimal"):
        z, p, k = signal.ellip(7, 1, 50, 0.3, output="zpk")
        assert _rel(sigkern.zpk2sos(z, p, k, pairing), signal.zpk2sos(z, p, k, pairing)) <= 1e-12
    with pytest.raises(ValueError, match="conjugate"):
        sigkern.zpk2sos([0.3j], [0.5], 1.0)
    with pytest.raises(ValueError, match="len\\(p\\)>=len\\(z\\)"):
        sigkern.zpk2sos([1.0, 2.0], [0.5], 1.0, analog=True)


# ---------------------------------------------------------------------------------------------
# firwin
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("numtaps", [1, 2, 31, 64, 101])
@pytest.mark.parametrize("window", ["hamming", "hann", "blackman", ("kaiser", 6.5), 3.0])
def test_firwin_lowpass_equals_scipy(numtaps, window):
    ref = signal.firwin(numtaps, 0.3, window=window)
    if np.isnan(ref).all():  # a 2-tap Hann window is all zeros: scipy divides 0 by 0
        with pytest.raises(sigkern.BadArgumentError, match="scaling frequency"):
            sigkern.firwin(numtaps, 0.3, window=window)
        return
    got = sigkern.firwin(numtaps, 0.3, window=window)
    assert got.shape == (numtaps,) and got.dtype == np.float64
    if np.isnan(ref).all():  # a 2-tap Hann window is all zeros: scipy divides 0 by 0, sigkern refuses
        return
    assert np.max(np.abs(got - ref)) <= 1e-13 * np.max(np.abs(ref))


@pytest.mark.parametrize(
    "cutoff,pass_zero",
    [
        (0.3, False),
        (0.3, "highpass"),
        (0.3, "lowpass"),
        ([0.2, 0.5], False),
        ([0.2, 0.5], "bandpass"),
        ([0.2, 0.5], True),
        ([0.2, 0.5], "bandstop"),
    ],
)
def test_firwin_bands_equal_scipy(cutoff, pass_zero):
    got = sigkern.firwin(63, cutoff, pass_zero=pass_zero, window="hann")
    ref = signal.firwin(63, cutoff, pass_zero=pass_zero, window="hann")
    assert np.max(np.abs(got - ref)) <= 1e-13 * np.max(np.abs(ref))


def test_firwin_width_and_fs():
    got = sigkern.firwin(101, [300.0, 3400.0], width=200.0, pass_zero=False, fs=16000.0)
    ref = signal.firwin(101, [300.0, 3400.0], width=200.0, pass_zero=False, fs=16000.0)
    assert np.max(np.abs(got - ref)) <= 1e-13 * np.max(np.abs(ref))
    got = sigkern.firwin(31, 0.25, width=0.4)  # attenuation below 21 dB: beta 0
    ref = signal.firwin(31, 0.25, width=0.4)
    assert np.max(np.abs(got - ref)) <= 1e-13 * np.max(np.abs(ref))


def test_firwin_errors():
    with pytest.raises(ValueError, match="unknown window"):
        sigkern.firwin(63, 0.2, window="comb")
    with pytest.raises(ValueError, match="kaiser.*takes 1 parameter"):
        sigkern.firwin(63, 0.2, window="kaiser")
    with pytest.raises(ValueError, match="at least two elements"):
        sigkern.firwin(63, 0.2, pass_zero="bandpass")
    with pytest.raises(ValueError, match="one element"):
        sigkern.firwin(63, [0.2, 0.3], pass_zero="lowpass")
    with pytest.raises(ValueError, match="single scalar"):
        sigkern.firwin(63, 0.2, fs=np.array([10.0, 20.0]))
    with pytest.raises(sigkern.BadArgumentError, match="strictly increasing"):
        sigkern.firwin(63, [0.3, 0.2])
    with pytest.raises(ValueError, match="pass_zero"):
        sigkern.firwin(63, 0.2, pass_zero="comb")
    with pytest.raises(ValueError, match="at least 1"):
        sigkern.firwin(0, 0.2)
    with pytest.raises(sigkern.BadArgumentError, match="sk_firwin_bands"):
        sigkern.firwin(64, 0.2, pass_zero=False)  # even high-pass, as scipy refuses
    with pytest.raises(sigkern.BadArgumentError, match="sk_firwin_bands"):
        sigkern.firwin(63, 1.5)


# ---------------------------------------------------------------------------------------------
# rbj_biquad
# ---------------------------------------------------------------------------------------------


def rbj_reference(kind, fs, f0, q, gain_db):
    """The Audio EQ Cookbook formulas, written out independently."""
    A = 10 ** (gain_db / 40)
    w0 = 2 * np.pi * f0 / fs
    c, s = np.cos(w0), np.sin(w0)
    al = s / (2 * q)
    if kind == "lowpass":
        b, a = [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + al, -2 * c, 1 - al]
    elif kind == "highpass":
        b, a = [(1 + c) / 2, -(1 + c), (1 + c) / 2], [1 + al, -2 * c, 1 - al]
    elif kind == "bandpass":
        b, a = [al, 0, -al], [1 + al, -2 * c, 1 - al]
    elif kind == "notch":
        b, a = [1, -2 * c, 1], [1 + al, -2 * c, 1 - al]
    elif kind == "allpass":
        b, a = [1 - al, -2 * c, 1 + al], [1 + al, -2 * c, 1 - al]
    elif kind == "peaking":
        b, a = [1 + al * A, -2 * c, 1 - al * A], [1 + al / A, -2 * c, 1 - al / A]
    else:
        sq = 2 * np.sqrt(A) * al
        if kind == "lowshelf":
            b = [A * ((A + 1) - (A - 1) * c + sq), 2 * A * ((A - 1) - (A + 1) * c), A * ((A + 1) - (A - 1) * c - sq)]
            a = [(A + 1) + (A - 1) * c + sq, -2 * ((A - 1) + (A + 1) * c), (A + 1) + (A - 1) * c - sq]
        else:
            b = [A * ((A + 1) + (A - 1) * c + sq), -2 * A * ((A - 1) + (A + 1) * c), A * ((A + 1) + (A - 1) * c - sq)]
            a = [(A + 1) - (A - 1) * c + sq, 2 * ((A - 1) - (A + 1) * c), (A + 1) - (A - 1) * c - sq]
    b, a = np.array(b) / a[0], np.array(a) / a[0]
    return np.concatenate([b, a])[None, :]


@pytest.mark.parametrize(
    "kind", ["lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "lowshelf", "highshelf"]
)
def test_rbj_biquad_cookbook(kind):
    got = sigkern.rbj_biquad(kind, 48000.0, 1234.5, 0.8, gain_db=-7.5)
    assert got.shape == (1, 6) and got.dtype == np.float64
    np.testing.assert_allclose(got, rbj_reference(kind, 48000.0, 1234.5, 0.8, -7.5), rtol=1e-12, atol=1e-14)
    assert got[0, 3] == 1.0


def test_rbj_biquad_errors():
    with pytest.raises(ValueError, match="peaking"):
        sigkern.rbj_biquad("bell", 48000.0, 1000.0, 0.7)
    with pytest.raises(sigkern.BadArgumentError, match="sk_rbj_biquad"):
        sigkern.rbj_biquad("lowpass", 48000.0, 30000.0, 0.7)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.rbj_biquad("lowpass", 48000.0, 1000.0, 0.0)


# ---------------------------------------------------------------------------------------------
# sosfilt
# ---------------------------------------------------------------------------------------------

SOS8 = signal.butter(8, 0.1, output="sos")
SOS_BP = signal.butter(3, [0.05, 0.3], "bandpass", output="sos")


def tol(dtype):
    return 1e-10 if dtype == np.float64 else 2e-4


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(0,), (1,), (17,), (1001,), (3, 257), (2, 3, 64), (4, 0)])
def test_sosfilt_equals_scipy(dtype, shape):
    x = RNG.standard_normal(shape).astype(dtype)
    y = sigkern.sosfilt(SOS8, x)
    assert y.shape == x.shape and y.dtype == dtype and type(y) is np.ndarray
    if x.size:  # (scipy itself fails on empty input)
        assert rel_err(y, signal.sosfilt(SOS8, x.astype(np.float64))) <= tol(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sosfilt_zi_zf_equal_scipy(dtype):
    x = RNG.standard_normal((2, 3, 500)).astype(dtype)
    zi = RNG.standard_normal((SOS_BP.shape[0], 2, 3, 2)).astype(dtype)
    y, zf = sigkern.sosfilt(SOS_BP, x, zi=zi)
    ry, rzf = signal.sosfilt(SOS_BP, x.astype(np.float64), zi=zi.astype(np.float64))
    assert zf.shape == zi.shape and zf.dtype == dtype
    assert rel_err(y, ry) <= tol(dtype) and rel_err(zf, rzf) <= tol(dtype)
    # zero-length input: zf = zi, as scipy
    y0, zf0 = sigkern.sosfilt(SOS_BP, x[..., :0].copy(), zi=zi)
    assert y0.shape == (2, 3, 0)
    np.testing.assert_array_equal(zf0, zi)


def test_sosfilt_axis():
    x = RNG.standard_normal((300, 3))
    y = sigkern.sosfilt(SOS8, x, axis=0)
    assert y.shape == x.shape and rel_err(y, signal.sosfilt(SOS8, x, axis=0)) <= 1e-10
    zi = RNG.standard_normal((4, 2, 3))  # scipy: the 2 sits where the time axis is
    y, zf = sigkern.sosfilt(SOS8, x, axis=0, zi=zi)
    assert zf.shape == (4, 2, 3)
    ry, rzf = signal.sosfilt(SOS8, x, axis=0, zi=zi)
    assert rel_err(y, ry) <= 1e-10 and rel_err(zf, rzf) <= 1e-10
    out = np.empty_like(x)
    assert sigkern.sosfilt(SOS8, x, axis=-2, out=out) is out
    assert rel_err(out, signal.sosfilt(SOS8, x, axis=0)) <= 1e-10
    ut = torch.empty(x.shape, dtype=torch.float64)  # a tensor out for numpy data
    assert sigkern.sosfilt(SOS8, x, axis=0, out=ut) is ut
    np.testing.assert_array_equal(ut.numpy(), out)
    with pytest.raises(ValueError, match="out of bounds"):
        sigkern.sosfilt(SOS8, x, axis=2)
    with pytest.raises(ValueError, match=r"\(4, 2, 3\)"):
        sigkern.sosfilt(SOS8, x, axis=0, zi=np.zeros((4, 3, 2)))
    x3 = RNG.standard_normal((2, 50, 3))
    zi3 = RNG.standard_normal((4, 2, 2, 3))
    y, zf = sigkern.sosfilt(SOS8, x3, axis=1, zi=zi3)
    ry, rzf = signal.sosfilt(SOS8, x3, axis=1, zi=zi3)
    assert rel_err(y, ry) <= 1e-10 and rel_err(zf, rzf) <= 1e-10
    t3 = torch.from_numpy(x3)
    yt, zft = sigkern.sosfilt(SOS8, t3, axis=1, zi=torch.from_numpy(zi3))
    assert isinstance(yt, torch.Tensor) and tuple(zft.shape) == zi3.shape
    np.testing.assert_array_equal(yt.numpy(), y)
    np.testing.assert_array_equal(zft.numpy(), zf)


def test_sosfilt_nan_inf_propagate_like_scipy():
    x = RNG.standard_normal((2, 64))
    x[0, 10] = np.nan
    x[1, 20] = np.inf
    y = sigkern.sosfilt(SOS8, x)
    ref = signal.sosfilt(SOS8, x)
    np.testing.assert_array_equal(np.isfinite(y), np.isfinite(ref))
    assert np.all(np.isfinite(y[0, :10])) and np.all(np.isnan(y[0, 10:]))


def test_sosfilt_out_inplace_strided_torch():
    x = RNG.standard_normal((2, 400)).astype(np.float32)
    ref = signal.sosfilt(SOS8, x.astype(np.float64))
    out = np.empty_like(x)
    assert sigkern.sosfilt(SOS8, x, out=out) is out
    xi = x.copy()
    assert sigkern.sosfilt(SOS8, xi, out=xi) is xi  # in place
    np.testing.assert_array_equal(xi, out)
    # a time slice of a bigger block: rows at a stride, zero-copy
    big = RNG.standard_normal((2, 1000)).astype(np.float32)
    sl = big[:, 100:400]
    assert not sl.flags.c_contiguous
    assert rel_err(sigkern.sosfilt(SOS8, sl), signal.sosfilt(SOS8, sl.astype(np.float64))) <= 2e-4
    # torch in, torch out
    t = torch.from_numpy(x.copy())
    yt = sigkern.sosfilt(SOS8, t)
    assert isinstance(yt, torch.Tensor) and yt.dtype == torch.float32 and tuple(yt.shape) == x.shape
    np.testing.assert_array_equal(yt.numpy(), out)
    zi = torch.zeros((4, 2, 2), dtype=torch.float32)
    yt2, zft = sigkern.sosfilt(SOS8, t, zi=zi)
    assert isinstance(zft, torch.Tensor) and tuple(zft.shape) == (4, 2, 2)
    np.testing.assert_array_equal(yt2.numpy(), out)
    # lists of zi are converted to x's dtype
    y, zf = sigkern.sosfilt(SOS8, x, zi=np.zeros((4, 2, 2)).tolist())
    np.testing.assert_array_equal(y, out)


def test_sosfilt_errors():
    x = RNG.standard_normal((2, 64)).astype(np.float32)
    # integer input is read as float64, as scipy; a float64 zi for a float32 x is converted
    xi = (x * 100).astype(np.int32)
    yi = sigkern.sosfilt(SOS8, xi)
    assert yi.dtype == np.float64 and np.array_equal(yi, sigkern.sosfilt(SOS8, xi.astype(np.float64)))
    zi64 = RNG.standard_normal((4, 2, 2))
    y32, zf32 = sigkern.sosfilt(SOS8, x, zi=zi64)
    assert y32.dtype == zf32.dtype == np.float32
    assert np.array_equal(y32, sigkern.sosfilt(SOS8, x, zi=zi64.astype(np.float32))[0])
    with pytest.raises(TypeError, match="object|numbers"):
        sigkern.sosfilt(SOS8, np.array(["a", "b"]))
    with pytest.raises(TypeError, match="complex"):
        sigkern.sosfilt(SOS8 + 1j, x)  # complex coefficients are refused, never truncated
    with pytest.raises(ValueError, match=r"\(4, 2, 2\)"):
        sigkern.sosfilt(SOS8, x, zi=np.zeros((4, 2), np.float32))
    with pytest.raises(ValueError, match="n_sections, 6"):
        sigkern.sosfilt(SOS8[:, :5], x)
    # any strides: a layout the kernel cannot read is copied, never refused (as scipy)
    assert np.array_equal(sigkern.sosfilt(SOS8, x[:, ::2]), sigkern.sosfilt(SOS8, x[:, ::2].copy()))
    assert np.array_equal(sigkern.sosfilt(SOS8, x[0, ::3]), sigkern.sosfilt(SOS8, x[0, ::3].copy()))
    ro = np.empty_like(x)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sigkern.sosfilt(SOS8, x, out=ro)
    with pytest.raises(ValueError, match="shape"):
        sigkern.sosfilt(SOS8, x, out=np.empty((2, 63), np.float32))
    unstable = np.array([[1.0, 0.0, 0.0, 1.0, -2.5, 1.2]])
    with pytest.raises(sigkern.BadArgumentError) as e:
        sigkern.sosfilt(unstable, x.astype(np.float64))
    assert "sk_sosfilt_f64" in str(e.value) and e.value.function == "sk_sosfilt_f64"
    zi = np.zeros((4, 2, 2), np.float32)
    zi[1, 0, 1] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match="sk_sosfilt_f32"):
        sigkern.sosfilt(SOS8, x, zi=zi)
    with pytest.raises(ValueError, match="tensor on 'meta'"):
        sigkern.sosfilt(SOS8, torch.empty((2, 64), device="meta"))
    with pytest.raises(ValueError, match="to_dense"):
        sigkern.sosfilt(SOS8, torch.ones((2, 64)).to_sparse())
    f = sigkern.Biquad(SOS8, channels=2)
    with pytest.raises(ValueError, match="to_dense"):
        f.process(torch.ones((2, 64)).to_sparse())
    with pytest.raises(ValueError, match="tensor on 'meta'"):
        f.process(torch.ones((2, 64), device="meta"))


# ---------------------------------------------------------------------------------------------
# Biquad
# ---------------------------------------------------------------------------------------------


def chunks(n, rng):
    edges = [0]
    while edges[-1] < n:
        edges.append(min(n, edges[-1] + int(rng.integers(1, 300))))
    return list(zip(edges[:-1], edges[1:]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("channels", [1, 2, 5, 16])
def test_biquad_chunked_equals_one_call_and_scipy(dtype, channels):
    sos = signal.butter(6, [0.05, 0.4], "bandpass", output="sos")
    x = RNG.standard_normal((channels, 3001)).astype(dtype)
    with sigkern.Biquad(sos, channels=channels, dtype=dtype) as f:
        assert f.n_sections == sos.shape[0] and f.channels == channels and f.dtype == dtype
        whole = f.process(x)
        f.reset()
        parts = []
        zi = np.zeros((sos.shape[0], channels, 2))
        for a, b in chunks(x.shape[1], RNG):
            parts.append(f.process(x[:, a:b]))  # rows at a stride: zero-copy slices
            ry, zi = signal.sosfilt(sos, x[:, a:b].astype(np.float64), zi=zi)
            assert rel_err(parts[-1], ry) <= tol(dtype) * 10
            assert rel_err(f.state, zi) <= tol(dtype) * 10
        np.testing.assert_array_equal(np.concatenate(parts, axis=1), whole)  # bit for bit
    assert rel_err(whole, signal.sosfilt(sos, x.astype(np.float64))) <= tol(dtype) * 10


def test_biquad_one_channel_1d_and_state_io():
    x = RNG.standard_normal(1000)
    f = sigkern.Biquad(SOS8, dtype=np.float64)
    zi = signal.sosfilt_zi(SOS8) * x[0]  # (n_sections, 2) for one channel, as scipy
    f.state = zi
    np.testing.assert_array_equal(f.state, zi[:, None, :])
    y = f.process(x)
    ry, rzf = signal.sosfilt(SOS8, x, zi=zi)
    assert y.shape == (1000,) and rel_err(y, ry) <= 1e-10
    assert f.state.shape == (4, 1, 2) and rel_err(f.state[:, 0], rzf) <= 1e-10
    f.reset()
    np.testing.assert_array_equal(f.state, np.zeros((4, 1, 2)))
    y1 = f.process(x[:1])  # length 1 and 0
    assert y1.shape == (1,) and f.process(x[:0]).shape == (0,)
    assert y1[0] == pytest.approx(signal.sosfilt(SOS8, x[:1])[0], rel=1e-12)


def test_biquad_interleaved_equals_planar():
    x = RNG.standard_normal((3, 777)).astype(np.float32)
    a = sigkern.Biquad(SOS8, channels=3)
    b = sigkern.SosFilter(SOS8, channels=3)
    yp = a.process(x)
    xi = np.ascontiguousarray(x.T)
    yi = b.process_interleaved(xi)
    assert yi.shape == (777, 3)
    np.testing.assert_allclose(yi.T, yp, rtol=0, atol=1e-6 * np.abs(yp).max())
    np.testing.assert_allclose(a.state, b.state, rtol=0, atol=1e-5)
    out = np.empty_like(xi)
    assert b.process_interleaved(xi, out=out) is out
    assert b.process_interleaved(xi, out=xi) is xi  # in place
    with pytest.raises(ValueError, match=r"\(frames, channels\)"):
        b.process_interleaved(x)
    a.close(), b.close()


def test_biquad_out_inplace_torch():
    x = RNG.standard_normal((2, 256)).astype(np.float32)
    f = sigkern.Biquad(SOS8, channels=2)
    ref = f.process(x)
    f.reset()
    out = np.empty_like(x)
    assert f.process(x, out=out) is out
    np.testing.assert_array_equal(out, ref)
    f.reset()
    xi = x.copy()
    assert f.process(xi, out=xi) is xi
    np.testing.assert_array_equal(xi, ref)
    f.reset()
    t = torch.from_numpy(x.copy())
    yt = f.process(t)
    assert isinstance(yt, torch.Tensor) and yt.dtype == torch.float32 and tuple(yt.shape) == (2, 256)
    np.testing.assert_array_equal(yt.numpy(), ref)
    f.reset()
    ut = torch.empty((2, 256))
    assert f.process(t, out=ut) is ut
    np.testing.assert_array_equal(ut.numpy(), ref)
    with pytest.raises(ValueError, match="requires grad"):
        f.process(t, out=torch.empty((2, 256), requires_grad=True))
    # streaming into slices of one output block, numpy and torch (rows at a stride)
    for xs, ys in ((x, np.empty_like(x)), (torch.from_numpy(x), torch.empty((2, 256)))):
        f.reset()
        for a in range(0, 256, 100):
            r = f.process(xs[:, a:a + 100], out=ys[:, a:a + 100])
            assert r.shape == (2, min(100, 256 - a))
        np.testing.assert_array_equal(np.asarray(ys), ref)


def test_biquad_errors_and_lifetime():
    f = sigkern.Biquad(SOS8, channels=2)
    x = np.zeros((2, 64), np.float32)
    with pytest.raises(TypeError, match="float32"):
        f.process(x.astype(np.float64))
    with pytest.raises(TypeError, match="float32"):
        f.process(torch.zeros((2, 64), dtype=torch.float64))
    with pytest.raises(ValueError, match=r"\(2, n\)"):
        f.process(np.zeros((3, 64), np.float32))
    with pytest.raises(ValueError, match=r"\(2, n\)"):
        f.process(np.zeros(64, np.float32))
    with pytest.raises(ValueError, match="contiguous"):
        f.process(np.zeros((2, 128), np.float32)[:, ::2])
    with pytest.raises(ValueError, match="contiguous"):
        f.process(np.zeros((64, 2), np.float32).T)
    ro = np.zeros((2, 64), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f.process(x, out=ro)
    with pytest.raises(ValueError, match="shape"):
        f.state = np.zeros((4, 2), np.float32)
    bad = np.zeros((4, 2, 2), np.float32)
    bad[0, 1, 0] = np.inf
    with pytest.raises(sigkern.NonFiniteError, match="sk_biquad_f32_set_state"):
        f.state = bad
    with pytest.raises(sigkern.BadArgumentError, match="sk_biquad_f32_new"):
        sigkern.Biquad([[1.0, 0.0, 0.0, 1.0, 0.0, 1.5]])  # poles outside the unit circle
    with pytest.raises(sigkern.BadArgumentError, match="sk_biquad_f64_new"):
        sigkern.Biquad([[1.0, 0.0, 0.0, 0.0, 0.0, 0.0]], dtype=np.float64)  # a0 == 0
    with pytest.raises(ValueError, match="should be all ones"):  # scipy's check and words
        sigkern.sosfilt([[1.0, 0.0, 0.0, 0.0, 0.0, 0.0]], np.ones(8))
    with pytest.raises(ValueError, match="at least 1"):
        sigkern.Biquad(SOS8, channels=0)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.Biquad(SOS8, dtype=np.int16)
    assert "n_sections=4" in repr(f)
    f.close()
    f.close()  # idempotent
    assert f.closed and "closed" in repr(f)
    for call in (lambda: f.process(x), f.reset, lambda: f.state, lambda: f.process_interleaved(x.T.copy())):
        with pytest.raises(sigkern.InvalidHandleError, match="closed"):
            call()
    with sigkern.Biquad(SOS8) as g:
        pass
    assert g.closed


def test_biquad_threads():
    sos = signal.butter(4, 0.2, output="sos")
    x = RNG.standard_normal((8, 20000)).astype(np.float32)
    ref = sigkern.Biquad(sos, channels=8).process(x)
    # different objects run in parallel and give the single-thread result
    results = [None] * 4

    def work(i):
        with sigkern.Biquad(sos, channels=8) as f:
            results[i] = f.process(x)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    for r in results:
        np.testing.assert_array_equal(r, ref)
    # one object from two threads at once: any failure is the documented "in use" error
    shared = sigkern.Biquad(sos, channels=8)
    big = RNG.standard_normal((8, 200000)).astype(np.float32)
    errors = []
    barrier = threading.Barrier(2)

    def hammer():
        barrier.wait()
        for _ in range(20):
            try:
                shared.process(big)
            except sigkern.SigkernError as e:
                errors.append(e)

    ts = [threading.Thread(target=hammer) for _ in range(2)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    for e in errors:
        assert isinstance(e, sigkern.InvalidHandleError) and "in use" in e.message
    if not errors:
        pytest.skip("the two threads never overlapped on this run")


# ---------------------------------------------------------------------------------------------
# Fir
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_taps", [1, 2, 63, 160, 161, 700])
def test_fir_equals_lfilter_whole_and_chunked(dtype, n_taps):
    taps = signal.firwin(n_taps, 0.3) if n_taps > 2 else RNG.standard_normal(n_taps)
    x = RNG.standard_normal(5003).astype(dtype)
    ref = signal.lfilter(taps, 1.0, x.astype(np.float64))
    with sigkern.Fir(taps, dtype=dtype) as f:
        assert f.n_taps == n_taps and f.uses_fft == (n_taps > 160) and f.dtype == dtype
        whole = f.process(x)
        assert whole.dtype == dtype and whole.shape == x.shape
        t = 1e-10 if dtype == np.float64 else 1e-5
        assert rel_err(whole, ref) <= t
        np.testing.assert_array_equal(f.state, x[len(x) - (n_taps - 1):] if n_taps > 1 else x[:0])
        f.reset()
        parts = [f.process(x[a:b]) for a, b in chunks(len(x), RNG)]
        got = np.concatenate(parts)
        if not f.uses_fft:
            np.testing.assert_array_equal(got, whole)  # direct form: bit for bit
        assert rel_err(got, ref) <= t


def test_fir_state_io_and_inplace_torch():
    taps = signal.firwin(31, 0.2)
    hist = RNG.standard_normal(30)
    x = RNG.standard_normal(200)
    f = sigkern.Fir(taps, dtype=np.float64)
    f.state = hist
    np.testing.assert_array_equal(f.state, hist)
    y = f.process(x)
    ref = signal.lfilter(taps, 1.0, np.concatenate([hist, x]))[30:]
    assert rel_err(y, ref) <= 1e-12
    f.state = hist.tolist()
    xi = x.copy()
    assert f.process(xi, out=xi) is xi
    np.testing.assert_array_equal(xi, y)
    f.state = torch.from_numpy(hist)
    yt = f.process(torch.from_numpy(x))
    assert isinstance(yt, torch.Tensor) and yt.dtype == torch.float64
    np.testing.assert_array_equal(yt.numpy(), y)
    out = np.empty_like(x)
    f.reset()
    assert f.process(x, out=out) is out
    with pytest.raises(ValueError, match=r"\(30,\)"):
        f.state = np.zeros(31)
    bad = np.zeros(30)
    bad[3] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match="sk_fir_f64_set_state"):
        f.state = bad
    with pytest.raises(TypeError, match="float64"):
        f.process(x.astype(np.float32))
    with pytest.raises(ValueError, match="one channel"):
        f.process(np.zeros((2, 8)))
    with pytest.raises(ValueError, match="contiguous"):
        f.process(x[::2])
    with pytest.raises(sigkern.OverlapError, match="sk_fir_f64_process"):
        f.process(x[:100], out=x[50:150])
    with pytest.raises(sigkern.BadArgumentError, match="sk_fir_f32_new"):
        sigkern.Fir([1.0, np.nan])
    with pytest.raises(ValueError, match="at least one tap"):
        sigkern.Fir([])
    f.close()
    f.close()
    with pytest.raises(sigkern.InvalidHandleError, match="closed"):
        f.process(x)
    with pytest.raises(sigkern.InvalidHandleError, match="closed"):
        f.reset()


# ---------------------------------------------------------------------------------------------
# Lfilter (streaming transfer-function filter)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lfilter_stream_equals_one_call_and_scipy(dtype):
    """Blocks (C-contiguous, time slices, torch tensors, in place, into a time slice of a bigger
    out) give one call's bits; one call equals scipy.signal.lfilter with the state carried (to
    rounding); the state reads as scipy's zf; bad blocks are refused with nothing changed."""
    b, a = signal.butter(4, 0.1)
    x = RNG.standard_normal((2, 3000)).astype(dtype)
    whole = sigkern.Lfilter(b, a, channels=2, dtype=dtype).process(x)
    want, zf = signal.lfilter(b, a, x.astype(np.float64), zi=np.zeros((2, 4)))
    assert rel_err(whole, want) <= (1e-4 if dtype == np.float32 else 1e-10)  # of the peak
    f = sigkern.Lfilter(b, a, channels=2, dtype=dtype)
    assert (f.order, f.channels, f.dtype) == (4, 2, dtype)
    big = np.full((2, 4000), 7, dtype)
    parts = [f.process(x[:, :1000])]  # a time slice
    parts.append(f.process(np.ascontiguousarray(x[:, 1000:1500]), out=big[:, 10:510]))
    assert parts[-1] is big[:, 10:510] or np.shares_memory(parts[-1], big)
    assert (big[:, :10] == 7).all() and (big[:, 510:] == 7).all()
    ro = np.empty((2, 100), dtype)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f.process(x[:, 1500:1600], out=ro)
    with pytest.raises(ValueError, match="C-contiguous"):
        f.process(np.asfortranarray(x[:, 1500:1600]))
    with pytest.raises(TypeError):
        f.process(x[:, 1500:1600].astype(np.float64 if dtype == np.float32 else np.float32))
    with pytest.raises(ValueError, match="shape"):
        f.process(x[:1, 1500:1600])
    inplace = np.ascontiguousarray(x[:, 1500:2200])
    assert f.process(inplace, out=inplace) is inplace
    parts.append(inplace)
    parts.append(f.process(torch.from_numpy(np.ascontiguousarray(x[:, 2200:]))).numpy())
    got = np.concatenate([parts[0], big[:, 10:510], parts[2], parts[3]], axis=1)
    np.testing.assert_array_equal(got, whole)
    assert rel_err(f.state, zf) <= (1e-4 if dtype == np.float32 else 1e-10)
    f.close()
    with pytest.raises(sigkern.InvalidHandleError, match="closed"):
        f.process(x[:, :10])
    m = sigkern.Lfilter(b, a, dtype=dtype)
    y1 = m.process(x[0])
    m.reset()
    np.testing.assert_array_equal(m.process(x[0].copy()), y1)
    with pytest.raises(ValueError, match="C-contiguous"):
        m.process(x[0, ::2])
