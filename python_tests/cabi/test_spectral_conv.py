"""Convolution / correlation against scipy.signal.fftconvolve / correlate in float64."""

import numpy as np
import pytest
import scipy.signal as ss

MODES = {"full": 0, "same": 1, "valid": 2}
METHODS = {"auto": 0, "direct": 1, "fft": 2}
SIZES = [(1, 1), (1, 7), (7, 1), (5, 3), (3, 5), (64, 64), (100, 33), (33, 100), (1000, 97),
         (97, 1000), (3000, 1023), (5000, 2), (4097, 4000), (20000, 513)]


def p(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype == np.float64 else "float[]", a)


def run(sk, ffi, fn, a, b, mode, method):
    n = ffi.new("size_t *")
    assert sk.sk_convolve_len(MODES[mode], n, len(a), len(b)) == sk.SK_OK
    y = np.full(n[0] + 3, np.nan, a.dtype)
    assert fn(p(ffi, a), p(ffi, b), MODES[mode], METHODS[method], p(ffi, y), len(a), len(b), len(y)) == sk.SK_OK
    assert np.isnan(y[n[0]:]).all()
    return y[: n[0]]


@pytest.mark.parametrize("na,nb", SIZES)
@pytest.mark.parametrize("mode", list(MODES))
def test_convolve_and_correlate_match_scipy(sk, ffi, na, nb, mode):
    rng = np.random.default_rng(na * 7 + nb)
    a, b = rng.standard_normal(na), rng.standard_normal(nb)
    tol = 1e-13 * np.abs(a).sum() * np.abs(b).max() + 1e-300
    want_c = ss.fftconvolve(a, b, mode)
    want_r = ss.correlate(a, b, mode, method="direct")
    assert np.abs(ss.correlate(a, b, mode, method="fft") - want_r).max() < tol
    for method in METHODS:
        got = run(sk, ffi, sk.sk_convolve_f64, a, b, mode, method)
        assert got.shape == want_c.shape
        assert np.abs(got - want_c).max() <= tol, (method, mode)
        got = run(sk, ffi, sk.sk_correlate_f64, a, b, mode, method)
        assert got.shape == want_r.shape
        assert np.abs(got - want_r).max() <= tol, (method, mode)


def test_float32(sk, ffi):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(48000).astype(np.float32)
    b = rng.standard_normal(255).astype(np.float32)
    want = ss.fftconvolve(a.astype(float), b.astype(float))
    for method in METHODS:
        got = run(sk, ffi, sk.sk_convolve_f32, a, b, "full", method)
        assert np.abs(got - want).max() < 1e-6 * np.abs(b).sum() * np.abs(a).max()


def test_impulse_and_specials(sk, ffi):
    a = np.zeros(50)
    a[10] = 1.0
    b = np.arange(1.0, 8.0)
    for method in METHODS:
        got = run(sk, ffi, sk.sk_convolve_f64, a, b, "full", method)
        want = np.zeros(56)
        want[10:17] = b
        np.testing.assert_allclose(got, want, atol=1e-14)
    # NaN in the direct method stays local; both inputs huge/tiny stay finite
    c = np.full(20, 1e150)
    got = run(sk, ffi, sk.sk_convolve_f64, c, np.full(3, 1e150), "valid", "direct")
    np.testing.assert_allclose(got, np.full(18, 3e300), rtol=1e-15)


def test_bad_inputs_write_nothing(sk, ffi, last_error):
    a, b = np.ones(10), np.ones(4)
    y = np.full(20, 7.0)
    ap, bp, yp = p(ffi, a), p(ffi, b), p(ffi, y)

    def check(rc, code, text):
        assert rc == code, last_error()
        assert text in last_error(), last_error()
        assert (y == 7.0).all()

    check(sk.sk_convolve_f64(ap, bp, 0, 0, yp, 0, 4, 20), sk.SK_ERR_LENGTH, "na = 0")
    check(sk.sk_convolve_f64(ap, bp, 0, 0, yp, 10, 0, 20), sk.SK_ERR_LENGTH, "nb = 0")
    check(sk.sk_convolve_f64(ap, bp, 3, 0, yp, 10, 4, 20), sk.SK_ERR_BAD_ARGUMENT, "mode = 3")
    check(sk.sk_convolve_f64(ap, bp, 0, 9, yp, 10, 4, 20), sk.SK_ERR_BAD_ARGUMENT, "method = 9")
    check(sk.sk_convolve_f64(ap, bp, 0, 0, yp, 10, 4, 12), sk.SK_ERR_BUFFER_TOO_SMALL, "needs 13")
    check(sk.sk_correlate_f64(ap, ffi.NULL, 0, 0, yp, 10, 4, 20), sk.SK_ERR_NULL_POINTER, "argument b is NULL")
    check(sk.sk_convolve_f64(yp, bp, 0, 0, yp + 1, 10, 4, 13), sk.SK_ERR_OVERLAP, "overlaps input a")
    n = ffi.new("size_t *")
    n[0] = 99
    assert sk.sk_convolve_len(1, n, 0, 5) == sk.SK_ERR_LENGTH
    assert n[0] == 99
    assert sk.sk_convolve_len(2, n, 3, 5) == sk.SK_OK and n[0] == 3
