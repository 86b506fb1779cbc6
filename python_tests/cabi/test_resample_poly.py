"""sk_upfirdn_* and sk_resample_poly_* against scipy.signal.upfirdn / resample_poly (float64
within 1e-6 of the reference's peak, in fact ~1e-15; float32 within 1e-5 relative to
sum|h|*max|x|)."""

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_BUFFER_TOO_SMALL, SK_ERR_LENGTH


def upfirdn(sk, ffi, h, x, up, down):
    ct = "float" if x.dtype == np.float32 else "double"
    n = ffi.new("size_t *")
    assert sk.sk_upfirdn_size(up, down, n, len(h), len(x)) == SK_OK
    y = np.full(n[0], np.nan, x.dtype)
    f = sk.sk_upfirdn_f32 if ct == "float" else sk.sk_upfirdn_f64
    assert f(ffi.from_buffer(ct + "[]", h), ffi.from_buffer(ct + "[]", x), up, down,
             ffi.from_buffer(ct + "[]", y), len(h), len(x), len(y)) == SK_OK
    return y


def resample_poly(sk, ffi, x, up, down):
    ct = "float" if x.dtype == np.float32 else "double"
    n = ffi.new("size_t *")
    assert sk.sk_resample_poly_size(up, down, n, len(x)) == SK_OK
    y = np.full(n[0], np.nan, x.dtype)
    f = sk.sk_resample_poly_f32 if ct == "float" else sk.sk_resample_poly_f64
    assert f(ffi.from_buffer(ct + "[]", x), up, down, ffi.from_buffer(ct + "[]", y), len(x),
             len(y)) == SK_OK
    return y


CASES = [(1, 1, 1, 1), (3, 10, 1, 1), (7, 20, 3, 2), (16, 33, 2, 5), (40, 17, 7, 3),
         (5, 50, 1, 4), (33, 64, 4, 1), (101, 1000, 147, 160), (64, 1, 3, 1)]


@pytest.mark.parametrize("nh,nx,up,down", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_upfirdn_equals_scipy(sk, ffi, nh, nx, up, down, dtype):
    rng = np.random.default_rng(nh * 1000 + nx)
    h = rng.standard_normal(nh).astype(dtype)
    x = rng.standard_normal(nx).astype(dtype)
    want = ss.upfirdn(h.astype(np.float64), x.astype(np.float64), up, down)
    got = upfirdn(sk, ffi, h, x, up, down)
    assert got.shape == want.shape
    scale = np.sum(np.abs(h)) * np.max(np.abs(x))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert np.max(np.abs(got - want)) <= tol * scale


@pytest.mark.parametrize("n", [1, 2, 7, 100, 4801, 48000])
@pytest.mark.parametrize("up,down", [(147, 160), (160, 147), (1, 2), (2, 1), (3, 7), (6, 4),
                                     (5, 5), (1, 256)])
def test_resample_poly_equals_scipy(sk, ffi, n, up, down):
    x = np.random.default_rng(n).standard_normal(n)
    want = ss.resample_poly(x, up, down)
    got = resample_poly(sk, ffi, x, up, down)
    assert got.shape == want.shape
    assert np.all(np.abs(got - want) <= 1e-6 * np.max(np.abs(want)) + 1e-300)
    got32 = resample_poly(sk, ffi, x.astype(np.float32), up, down)
    assert np.max(np.abs(got32 - want), initial=0) <= 1e-4 * max(np.max(np.abs(want)), 1e-30)


def test_errors(sk, ffi, last_error):
    n = ffi.new("size_t *")
    assert sk.sk_upfirdn_size(0, 1, n, 3, 3) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_upfirdn_size(1, 1, n, 0, 3) == SK_ERR_LENGTH
    assert sk.sk_resample_poly_size(1, 0, n, 3) == SK_ERR_BAD_ARGUMENT
    x = np.ones(10)
    y = np.full(4, np.nan)
    rc = sk.sk_resample_poly_f64(ffi.from_buffer("double[]", x), 1, 2,
                                 ffi.from_buffer("double[]", y), 10, 4)
    assert rc == SK_ERR_BUFFER_TOO_SMALL
    assert "gives 5" in last_error()
    assert np.all(np.isnan(y))


def integer(sk, ffi, x, q, up):
    ct = "float" if x.dtype == np.float32 else "double"
    n_out = len(x) * q if up else -(-len(x) // q)
    y = np.full(n_out, np.nan, x.dtype)
    name = ("sk_interpolate_" if up else "sk_decimate_") + ("f32" if ct == "float" else "f64")
    assert getattr(sk, name)(ffi.from_buffer(ct + "[]", x), q, ffi.from_buffer(ct + "[]", y),
                             len(x), len(y)) == SK_OK
    return y


@pytest.mark.parametrize("n", [1, 2, 7, 100, 4801])
@pytest.mark.parametrize("q", [1, 2, 3, 5, 8, 13])
def test_decimate_interpolate_equal_scipy(sk, ffi, n, q):
    x = np.random.default_rng(n + 17 * q).standard_normal(n)
    want = ss.decimate(x, q, ftype="fir", zero_phase=True) if q > 1 else x
    got = integer(sk, ffi, x, q, False)
    assert got.shape == want.shape
    assert np.all(np.abs(got - want) <= 1e-6 * np.max(np.abs(want)) + 1e-300)
    if q > 1:
        h = ss.firwin(20 * q + 1, 1.0 / q, window="hamming")
        want_up = ss.resample_poly(x, q, 1, window=h)
    else:
        want_up = x
    got_up = integer(sk, ffi, x, q, True)
    assert got_up.shape == want_up.shape == (n * q,)
    assert np.all(np.abs(got_up - want_up) <= 1e-6 * np.max(np.abs(want_up)) + 1e-300)
    for up, w in ((False, want), (True, want_up)):
        g32 = integer(sk, ffi, x.astype(np.float32), q, up)
        assert np.max(np.abs(g32 - w), initial=0) <= 1e-4 * max(np.max(np.abs(w)), 1e-30)


def test_decimate_keeps_the_passband_and_rejects_aliases(sk, ffi):
    # a tone well inside the new band survives at its level; one above the new Nyquist folds
    # back attenuated (the Hamming filter's stopband, about -53 dB)
    fs, q = 48000, 4
    t = np.arange(48000) / fs
    lo = np.sin(2 * np.pi * 1000 * t)
    hi = np.sin(2 * np.pi * 9000 * t)
    y_lo = integer(sk, ffi, lo, q, False)[500:-500]
    y_hi = integer(sk, ffi, hi, q, False)[500:-500]
    assert abs(np.sqrt(2 * np.mean(y_lo ** 2)) - 1) < 3e-3
    assert 20 * np.log10(np.sqrt(2 * np.mean(y_hi ** 2))) < -50


def test_decimate_interpolate_errors(sk, ffi, last_error):
    x = np.ones(10)
    y = np.full(4, np.nan)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_decimate_f64(px, 3, py, 10, 3) == SK_ERR_BUFFER_TOO_SMALL
    assert "gives 4" in last_error()
    assert sk.sk_decimate_f64(px, 0, py, 10, 4) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_interpolate_f64(px, 2, py, 10, 4) == SK_ERR_BUFFER_TOO_SMALL
    assert sk.sk_interpolate_f64(px, 0, py, 10, 4) == SK_ERR_BAD_ARGUMENT
    assert np.all(np.isnan(y))
    assert sk.sk_decimate_f64(px, 3, py, 0, 0) == SK_OK
