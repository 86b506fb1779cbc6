"""General IIR filters (b, a) against scipy.signal.lfilter / lfilter_zi / sosfilt_zi in float64.

Tolerances: double results within 1e-10 of the reference's peak (output and state; stable
filters up to order 12, also marginal and unstable ones over a span where they stay finite);
float results within 1e-4 of the peak for the well-conditioned low orders used here.
lfilter_zi/sosfilt_zi: the steady state is an ill-conditioned problem when a pole is near z = 1
(butter(8, 0.1) has condition ~1e5), so both sigkern and scipy are compared with the exact
solution for the same double coefficients (rational arithmetic): sigkern's error must be at most
scipy's (or 4 ulp of the largest value), and within 1e-12 relative of scipy for the
well-conditioned cases."""

from fractions import Fraction

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_BUFFER_TOO_SMALL, SK_ERR_INVALID_HANDLE, SK_ERR_LENGTH,
    SK_ERR_NON_FINITE, SK_ERR_NULL_POINTER, SK_ERR_OVERLAP,
)

DESIGNS = {
    "butter8_lp": ss.butter(8, 0.1),
    "butter4_hp": ss.butter(4, 0.3, "highpass"),
    "cheby1_6_bp": ss.cheby1(3, 1, [0.2, 0.4], "bandpass"),
    "ellip5": ss.ellip(5, 0.5, 40, 0.35),
    "a0_not_one": (np.array([0.3, 0.2, 0.1]), np.array([2.0, -0.4, 0.1])),
    "fir_only": (np.array([0.25, 0.5, 0.25, -0.1]), np.array([1.0])),
    "long_a": (np.array([1.0]), np.poly([0.5, -0.4, 0.3 + 0.2j, 0.3 - 0.2j, 0.1])),
    "gain_only": (np.array([3.0]), np.array([2.0])),
    "order12": ss.butter(12, 0.4),
}

MARGINAL = {
    "integrator_pair": ([2, -2], [1, -1]),
    "pole_minus_one": ([1], [0.5, 0.5]),
    "resonator": ([1, 0, -1], [1, -2 * np.cos(0.7), 1]),
    "unstable": ([1, 0.5], [1, -1.01]),
}


def ct_of(dtype):
    return "float" if dtype == np.float32 else "double"


def lfilter(sk, ffi, b, a, x, zi=None, dtype=np.float64, want_zf=False, y=None):
    ct = ct_of(dtype)
    b = np.ascontiguousarray(b, dtype=np.float64)
    a = np.ascontiguousarray(a, dtype=np.float64)
    x = np.ascontiguousarray(x, dtype=dtype)
    ch, n = x.shape
    k = max(len(a), len(b)) - 1
    y = np.full_like(x, 7.0) if y is None else y
    zf = np.full((ch, k), 7.0, dtype=dtype) if want_zf else None
    fn = sk.sk_lfilter_f32 if ct == "float" else sk.sk_lfilter_f64
    buf = lambda v: ffi.NULL if v is None else ffi.from_buffer(ct + "[]", v)
    zi_c = None if zi is None else np.ascontiguousarray(zi, dtype=dtype)
    rc = fn(ffi.from_buffer("double[]", b), ffi.from_buffer("double[]", a), buf(x), n, buf(zi_c), ch,
            buf(y), n, buf(zf), len(b), len(a), n)
    return rc, y, zf


@pytest.mark.parametrize("name", sorted(DESIGNS))
@pytest.mark.parametrize("channels", [1, 3, 8, 16, 19])
def test_double_matches_scipy(sk, ffi, name, channels):
    b, a = DESIGNS[name]
    rng = np.random.default_rng(channels)
    x = rng.standard_normal((channels, 3001))
    k = max(len(a), len(b)) - 1
    zi = rng.standard_normal((channels, k))
    rc, y, zf = lfilter(sk, ffi, b, a, x, zi=zi, want_zf=True)
    assert rc == SK_OK
    want, zwant = ss.lfilter(b, a, x, axis=-1, zi=zi)
    peak = max(np.abs(want).max(), np.abs(zwant).max(initial=0.0))
    assert np.abs(y - want).max() <= 1e-10 * peak
    assert zf.shape == zwant.shape
    assert np.abs(zf - zwant).max(initial=0.0) <= 1e-10 * peak
    # no zi: zero state
    rc, y0, _ = lfilter(sk, ffi, b, a, x)
    want0 = ss.lfilter(b, a, x, axis=-1)
    assert rc == SK_OK and np.abs(y0 - want0).max() <= 1e-10 * np.abs(want0).max()


@pytest.mark.parametrize("name", ["butter4_hp", "a0_not_one", "fir_only", "gain_only"])
@pytest.mark.parametrize("channels", [1, 5, 16, 21])
def test_float_close_to_scipy(sk, ffi, name, channels):
    b, a = DESIGNS[name]
    x = np.random.default_rng(7).standard_normal((channels, 1000)).astype(np.float32)
    rc, y, _ = lfilter(sk, ffi, b, a, x, dtype=np.float32)
    assert rc == SK_OK
    want = ss.lfilter(b, a, x.astype(np.float64), axis=-1)
    assert np.abs(y - want).max() <= 1e-4 * np.abs(want).max()


@pytest.mark.parametrize("name", sorted(MARGINAL))
def test_marginal_and_unstable_like_scipy(sk, ffi, name):
    b, a = MARGINAL[name]
    x = np.random.default_rng(1).standard_normal((2, 500))
    rc, y, _ = lfilter(sk, ffi, b, a, x)
    assert rc == SK_OK
    want = ss.lfilter(b, a, x, axis=-1)
    assert np.all(np.isfinite(want))
    assert np.abs(y - want).max() <= 1e-10 * np.abs(want).max()


def test_issue_examples(sk, ffi):
    rc, y, _ = lfilter(sk, ffi, [2, -2], [1, -1], np.linspace(0, 5, 6)[None])
    assert rc == SK_OK and np.array_equal(y[0], [0, 2, 4, 6, 8, 10])
    rc, y, _ = lfilter(sk, ffi, [1], [0.5, 0.5], np.ones((1, 6)))
    assert rc == SK_OK and np.array_equal(y[0], [2, 0, 2, 0, 2, 0])


def test_zero_length_and_in_place(sk, ffi):
    b, a = DESIGNS["butter4_hp"]
    rc, _, _ = lfilter(sk, ffi, b, a, np.zeros((2, 0)))
    assert rc == SK_OK
    x = np.random.default_rng(2).standard_normal((3, 400))
    want = ss.lfilter(b, a, x, axis=-1)
    xi = x.copy()
    rc, y, _ = lfilter(sk, ffi, b, a, xi, y=xi)
    assert rc == SK_OK and y is xi
    assert np.abs(xi - want).max() <= 1e-10 * np.abs(want).max()


def test_bad_arguments_write_nothing(sk, ffi, last_error):
    x = np.ones((2, 16))
    y = np.full((2, 16), 7.0)
    X, Y = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    one = ffi.from_buffer("double[]", np.ones(1))

    def call(b, a, nb=None, na=None, zi=ffi.NULL, ch=2, yp=Y, ys=16):
        bb = ffi.from_buffer("double[]", np.asarray(b, float)) if b is not None else ffi.NULL
        aa = ffi.from_buffer("double[]", np.asarray(a, float)) if a is not None else ffi.NULL
        return sk.sk_lfilter_f64(bb, aa, X, 16, zi, ch, yp, ys, ffi.NULL,
                                 len(b) if nb is None else nb, len(a) if na is None else na, 16)

    assert call([1.0], [0.0, 1.0]) == SK_ERR_BAD_ARGUMENT and "a[0] is 0" in last_error()
    assert call([np.nan], [1.0]) == SK_ERR_BAD_ARGUMENT and "b[0] = NaN" in last_error()
    assert call([1.0], [1.0, np.inf]) == SK_ERR_BAD_ARGUMENT
    assert call([1.0], [1.0], nb=0) == SK_ERR_LENGTH and "nb is 0" in last_error()
    assert call([1.0], [1.0], na=0) == SK_ERR_LENGTH
    assert call(None, [1.0], nb=1) == SK_ERR_NULL_POINTER
    assert call([1.0], [1.0], ch=0) == SK_ERR_LENGTH
    assert call([1.0], [1.0], ys=15) == SK_ERR_BAD_ARGUMENT
    zi = np.array([[np.nan], [0.0]])
    assert call([1.0, 1.0], [1.0], zi=ffi.from_buffer("double[]", zi)) == SK_ERR_NON_FINITE
    assert np.all(y == 7.0)
    assert sk.sk_lfilter_f64(one, one, X, 16, ffi.NULL, 2, Y, 16, ffi.NULL, 1, 1, 16) == SK_OK


def test_overlap_is_refused(sk, ffi, last_error):
    x = np.ones(40)
    b = np.array([1.0, 0.5])
    a = np.array([1.0, -0.2])
    X = ffi.from_buffer("double[]", x)
    Yshift = ffi.cast("double *", X) + 1
    rc = sk.sk_lfilter_f64(ffi.from_buffer("double[]", b), ffi.from_buffer("double[]", a), X, 20,
                           ffi.NULL, 1, Yshift, 20, ffi.NULL, 2, 2, 20)
    assert rc == SK_ERR_OVERLAP


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_handle_streams_like_one_call(sk, ffi, dtype):
    ct = ct_of(dtype)
    b, a = DESIGNS["butter8_lp"]
    ch, n = 5, 2000
    x = np.random.default_rng(3).standard_normal((ch, n)).astype(dtype)
    out = ffi.new("SkLfilter **")
    new = sk.sk_lfilter_f32_new if ct == "float" else sk.sk_lfilter_f64_new
    proc = sk.sk_lfilter_f32_process if ct == "float" else sk.sk_lfilter_f64_process
    get = sk.sk_lfilter_f32_get_state if ct == "float" else sk.sk_lfilter_f64_get_state
    sset = sk.sk_lfilter_f32_set_state if ct == "float" else sk.sk_lfilter_f64_set_state
    B, A = ffi.from_buffer("double[]", np.ascontiguousarray(b)), ffi.from_buffer("double[]", np.ascontiguousarray(a))
    assert new(B, A, ch, out, len(b), len(a)) == SK_OK
    h = out[0]
    order, chans = ffi.new("size_t *"), ffi.new("size_t *")
    assert sk.sk_lfilter_info(h, order, chans) == SK_OK and order[0] == 8 and chans[0] == ch
    y = np.empty_like(x)
    t0 = 0
    for m in [1, 0, 7, 300, 129, 1563]:
        xs, ys = x[:, t0:t0 + m], y[:, t0:t0 + m]
        p = lambda v: ffi.cast(ct + " *", v.ctypes.data)
        assert proc(h, p(xs), n, p(ys), n, m) == SK_OK
        t0 += m
    assert t0 == n
    rc, whole, zf = lfilter(sk, ffi, b, a, x, dtype=dtype, want_zf=True)
    assert rc == SK_OK and np.array_equal(y, whole)
    z = np.empty((ch, 8), dtype=dtype)
    assert get(h, ffi.from_buffer(ct + "[]", z), z.size) == SK_OK
    assert np.array_equal(z, zf)
    if dtype == np.float64:
        want, zwant = ss.lfilter(b, a, x, axis=-1, zi=np.zeros((ch, 8)))
        assert np.abs(z - zwant).max() <= 1e-10 * max(np.abs(want).max(), np.abs(zwant).max())
    # set_state: wrong length, non-finite, then a good one
    assert get(h, ffi.from_buffer(ct + "[]", z), z.size - 1) == SK_ERR_LENGTH
    bad = z.copy()
    bad[1, 2] = np.inf
    assert sset(h, ffi.from_buffer(ct + "[]", bad), bad.size) == SK_ERR_NON_FINITE
    assert sk.sk_lfilter_reset(h) == SK_OK
    assert get(h, ffi.from_buffer(ct + "[]", z), z.size) == SK_OK and np.all(z == 0)
    # wrong precision and wrong kind
    other = sk.sk_lfilter_f64_process if ct == "float" else sk.sk_lfilter_f32_process
    assert sk.sk_lfilter_free(h) == SK_OK
    assert sk.sk_lfilter_free(h) == SK_ERR_INVALID_HANDLE
    assert sk.sk_lfilter_reset(ffi.NULL) == SK_ERR_INVALID_HANDLE
    assert sk.sk_lfilter_free(ffi.NULL) == SK_OK


def test_handle_kind_checks(sk, ffi, last_error):
    out = ffi.new("SkLfilter **")
    one = ffi.from_buffer("double[]", np.ones(2))
    assert sk.sk_lfilter_f32_new(one, one, 1, out, 2, 2) == SK_OK
    x = np.ones(4)
    X = ffi.from_buffer("double[]", x)
    assert sk.sk_lfilter_f64_process(out[0], X, 4, X, 4, 4) == SK_ERR_INVALID_HANDLE
    assert "float transfer-function filter" in last_error()
    bq = ffi.new("SkBiquad **")
    sos = ffi.from_buffer("double[]", np.array([1.0, 0, 0, 1, 0, 0]))
    assert sk.sk_biquad_f64_new(sos, 1, bq, 1) == SK_OK
    assert sk.sk_lfilter_free(ffi.cast("SkLfilter *", bq[0])) == SK_ERR_INVALID_HANDLE
    assert sk.sk_biquad_free(ffi.cast("SkBiquad *", out[0])) == SK_ERR_INVALID_HANDLE
    assert sk.sk_biquad_free(bq[0]) == SK_OK
    assert sk.sk_lfilter_free(out[0]) == SK_OK


def exact_zi(b, a):
    """lfilter_zi in rational arithmetic from the double coefficients divided by a[0] in double
    (as both libraries do): zi[i] = sum_{j>i} b[j] - g * sum_{j>i} a[j], g = sum(b) / sum(a)."""
    b = np.asarray(b, dtype=np.float64)
    a = np.asarray(a, dtype=np.float64)
    b, a = b / a[0], a / a[0]
    n = max(len(a), len(b))
    b = [Fraction(float(v)) for v in np.pad(b, (0, n - len(b)))]
    a = [Fraction(float(v)) for v in np.pad(a, (0, n - len(a)))]
    g = sum(b) / sum(a)
    return np.array([float(sum(b[i + 1:]) - g * sum(a[i + 1:])) for i in range(n - 1)])


def exact_sosfilt_zi(sos):
    out, scale = [], Fraction(1)
    for sec in np.asarray(sos, dtype=np.float64):
        b, a = sec[:3], sec[3:]
        bn, an = b / a[0], a / a[0]
        bf = [Fraction(float(v)) for v in bn]
        af = [Fraction(float(v)) for v in an]
        g = sum(bf) / sum(af)
        out.append([float(scale * (sum(bf[i + 1:]) - g * sum(af[i + 1:]))) for i in range(2)])
        scale *= g
    return np.array(out)


ZI_CASES = dict(DESIGNS)
ZI_CASES.pop("gain_only")


@pytest.mark.parametrize("name", sorted(ZI_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lfilter_zi_matches_scipy(sk, ffi, name, dtype):
    b, a = ZI_CASES[name]
    ct = ct_of(dtype)
    want = ss.lfilter_zi(b, a)
    zi = np.full(len(want) + 2, 7.0, dtype=dtype)
    fn = sk.sk_lfilter_zi_f32 if ct == "float" else sk.sk_lfilter_zi_f64
    rc = fn(ffi.from_buffer("double[]", np.ascontiguousarray(b, dtype=float)),
            ffi.from_buffer("double[]", np.ascontiguousarray(a, dtype=float)),
            ffi.from_buffer(ct + "[]", zi), len(b), len(a), zi.size)
    assert rc == SK_OK
    got = zi[:len(want)]
    assert np.all(zi[len(want):] == 7.0)
    exact = exact_zi(b, a)
    scale = max(1.0, np.abs(exact).max())
    if dtype == np.float64:
        err_sk = np.abs(got - exact).max()
        err_scipy = np.abs(want - exact).max()
        assert err_sk <= max(err_scipy, 4 * 2.0 ** -52 * scale), (err_sk, err_scipy)
    else:
        assert np.abs(got - exact).max() <= 2.0 ** -23 * scale


def test_lfilter_zi_errors(sk, ffi, last_error):
    zi = np.full(4, 7.0)
    Z = ffi.from_buffer("double[]", zi)
    b = ffi.from_buffer("double[]", np.array([1.0, 1.0]))
    a = ffi.from_buffer("double[]", np.array([1.0, -1.0]))
    assert sk.sk_lfilter_zi_f64(b, a, Z, 2, 2, 4) == SK_ERR_BAD_ARGUMENT
    assert "steady state" in last_error()
    a2 = ffi.from_buffer("double[]", np.array([1.0, -0.5, 0.1]))
    assert sk.sk_lfilter_zi_f64(b, a2, Z, 2, 3, 1) == SK_ERR_BUFFER_TOO_SMALL
    assert sk.sk_lfilter_zi_f64(b, a2, ffi.NULL, 2, 3, 4) == SK_ERR_NULL_POINTER
    assert np.all(zi == 7.0)
    # scalar gain: no state, nothing written
    assert sk.sk_lfilter_zi_f64(b, a2, ffi.NULL, 1, 1, 0) == SK_OK


SOS_CASES = {
    "butter8": ss.butter(8, 0.1, output="sos"),
    "butter5_bs": ss.butter(5, [0.3, 0.4], "bandstop", output="sos"),
    "cheby2_6": ss.cheby2(6, 40, 0.3, output="sos"),
    "a0_not_one": ss.butter(4, 0.2, output="sos") * 1.7,
}


@pytest.mark.parametrize("name", sorted(SOS_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sosfilt_zi_matches_scipy(sk, ffi, name, dtype):
    sos = np.ascontiguousarray(SOS_CASES[name])
    ct = ct_of(dtype)
    want = ss.sosfilt_zi(sos)
    zi = np.full(want.size, 7.0, dtype=dtype)
    fn = sk.sk_sosfilt_zi_f32 if ct == "float" else sk.sk_sosfilt_zi_f64
    assert fn(ffi.from_buffer("double[]", sos), ffi.from_buffer(ct + "[]", zi), len(sos), zi.size) == SK_OK
    got = zi.reshape(want.shape)
    exact = exact_sosfilt_zi(sos)
    scale = max(1.0, np.abs(exact).max())
    if dtype == np.float64:
        err_sk = np.abs(got - exact).max()
        err_scipy = np.abs(want - exact).max()
        assert err_sk <= max(err_scipy, 4 * 2.0 ** -52 * scale), (err_sk, err_scipy)
    else:
        assert np.abs(got - exact).max() <= 2.0 ** -23 * scale * 4


def test_sosfilt_zi_errors(sk, ffi, last_error):
    zi = np.full(4, 7.0)
    Z = ffi.from_buffer("double[]", zi)
    integ = ffi.from_buffer("double[]", np.array([1.0, 0, 0, 1, -1, 0, 1, 0, 0, 1, 0.5, 0]))
    assert sk.sk_sosfilt_zi_f64(integ, Z, 2, 4) == SK_ERR_BAD_ARGUMENT
    assert "sos[0]" in last_error()
    ok = ffi.from_buffer("double[]", np.ascontiguousarray(ss.butter(4, 0.2, output="sos")))
    assert sk.sk_sosfilt_zi_f64(ok, Z, 2, 3) == SK_ERR_BUFFER_TOO_SMALL
    assert sk.sk_sosfilt_zi_f64(ok, Z, 0, 4) == SK_ERR_LENGTH
    assert np.all(zi == 7.0)
