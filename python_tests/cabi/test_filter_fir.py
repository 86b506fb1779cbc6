"""Streaming FIR filters against scipy.signal.lfilter(h, 1, x) in float64.

Tolerances: double within 1e-10 of the reference's peak; float within
  eps32 * (sum|h| * max|x|) * (2 + log2(n_fft))
(each output is a dot product of n_taps rounded float products, or, for the FFT form, an FFT
convolution whose error grows with log2 of the FFT size; 2^-24 per operation).
"""

import threading

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_INVALID_HANDLE, SK_ERR_LENGTH, SK_ERR_NON_FINITE,
    SK_ERR_NULL_POINTER, SK_ERR_OVERLAP,
)

EPS32 = 2.0 ** -24


def make(sk, ffi, taps, dtype):
    ct = "float" if dtype == np.float32 else "double"
    taps = np.ascontiguousarray(taps, dtype=dtype)
    out = ffi.new("SkFir **")
    new = sk.sk_fir_f32_new if ct == "float" else sk.sk_fir_f64_new
    assert new(ffi.from_buffer(ct + "[]", taps), out, len(taps)) == SK_OK
    return out[0], ct


def run(sk, ffi, h, ct, x, y=None):
    if y is None:
        y = np.empty_like(x)
    f = sk.sk_fir_f32_process if ct == "float" else sk.sk_fir_f64_process
    assert f(h, ffi.from_buffer(ct + "[]", x), ffi.from_buffer(ct + "[]", y), len(x)) == SK_OK
    return y


@pytest.mark.parametrize("n_taps", [1, 2, 7, 63, 64, 160, 161, 255, 1023, 4000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matches_lfilter(sk, ffi, n_taps, dtype):
    rng = np.random.default_rng(n_taps)
    taps = ss.firwin(n_taps, 0.3) if n_taps > 2 else rng.standard_normal(n_taps)
    x = rng.standard_normal(20_011)
    x[100] = 50.0  # an impulse on top
    x = x.astype(dtype)
    want = ss.lfilter(taps.astype(dtype).astype(np.float64), 1.0, x.astype(np.float64))
    h, ct = make(sk, ffi, taps, dtype)
    info_n, info_fft = ffi.new("size_t *"), ffi.new("int32_t *")
    assert sk.sk_fir_info(h, info_n, info_fft) == SK_OK
    assert info_n[0] == n_taps and info_fft[0] == (1 if n_taps > 160 else 0)
    y = run(sk, ffi, h, ct, x)
    if dtype == np.float64:
        tol = 1e-10 * np.abs(want).max()
    else:
        nfft = 4 * n_taps
        tol = EPS32 * np.abs(taps).sum() * np.abs(x).max() * (2 + np.log2(nfft))
    assert np.abs(y - want).max() <= tol
    assert sk.sk_fir_free(h) == SK_OK


@pytest.mark.parametrize("n_taps", [31, 1023])
def test_chunks_and_in_place(sk, ffi, n_taps):
    rng = np.random.default_rng(1)
    taps = ss.firwin(n_taps, 0.2)
    x = rng.standard_normal(30_000)
    h, ct = make(sk, ffi, taps, np.float64)
    whole = run(sk, ffi, h, ct, x)
    assert sk.sk_fir_reset(h) == SK_OK
    y = x.copy()
    t = 0
    for m in [1, 0, 5, 1000, 4097, 3, 30_000]:
        m = min(m, len(x) - t)
        part = y[t : t + m]
        run(sk, ffi, h, ct, part, part)  # in place
        t += m
    if n_taps <= 160:
        assert np.array_equal(y, whole)  # direct form: bit-identical
    else:
        assert np.abs(y - whole).max() <= 1e-12 * np.abs(whole).max()
    # state round trip: history = last n_taps-1 inputs
    st = np.empty(n_taps - 1)
    assert sk.sk_fir_f64_get_state(h, ffi.from_buffer("double[]", st), n_taps - 1) == SK_OK
    assert np.array_equal(st, x[-(n_taps - 1):])
    sk.sk_fir_free(h)


def test_set_state_continues_a_stream(sk, ffi):
    rng = np.random.default_rng(2)
    taps = ss.firwin(63, 0.1)
    x = rng.standard_normal(5000)
    want = ss.lfilter(taps, 1.0, x)
    h, ct = make(sk, ffi, taps, np.float64)
    hist = np.ascontiguousarray(x[2000 - 62 : 2000])
    assert sk.sk_fir_f64_set_state(h, ffi.from_buffer("double[]", hist), 62) == SK_OK
    y = run(sk, ffi, h, ct, np.ascontiguousarray(x[2000:]))
    assert np.abs(y - want[2000:]).max() <= 1e-12
    bad = np.full(62, np.inf)
    assert sk.sk_fir_f64_set_state(h, ffi.from_buffer("double[]", bad), 62) == SK_ERR_NON_FINITE
    assert sk.sk_fir_f64_set_state(h, ffi.from_buffer("double[]", bad), 61) == SK_ERR_LENGTH
    sk.sk_fir_free(h)


def test_bad_input(sk, ffi, last_error):
    out = ffi.new("SkFir **")
    taps = np.array([1.0, np.nan, 2.0])
    assert sk.sk_fir_f64_new(ffi.from_buffer("double[]", taps), out, 3) == SK_ERR_BAD_ARGUMENT
    assert "taps[1]" in last_error()
    assert sk.sk_fir_f64_new(ffi.from_buffer("double[]", taps), out, 0) == SK_ERR_LENGTH
    assert sk.sk_fir_f64_new(ffi.NULL, out, 3) == SK_ERR_NULL_POINTER
    assert out[0] == ffi.NULL
    h, ct = make(sk, ffi, np.ones(5), np.float64)
    x = np.ones(64)
    y = np.full(64, 7.0)
    X, Y = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_fir_f64_process(h, X, X + 1, 63) == SK_ERR_OVERLAP
    assert sk.sk_fir_f64_process(h, X, ffi.NULL, 64) == SK_ERR_NULL_POINTER
    assert sk.sk_fir_f32_process(h, ffi.cast("float *", X), ffi.cast("float *", Y), 64) == SK_ERR_INVALID_HANDLE
    assert "double FIR filter" in last_error()
    assert np.all(y == 7.0)
    assert sk.sk_fir_free(h) == SK_OK
    assert sk.sk_fir_f64_process(h, X, Y, 64) == SK_ERR_INVALID_HANDLE
    assert sk.sk_fir_free(h) == SK_ERR_INVALID_HANDLE
    assert sk.sk_fir_f64_process(ffi.NULL, X, Y, 64) == SK_ERR_INVALID_HANDLE
    assert sk.sk_fir_free(ffi.NULL) == SK_OK
    assert np.all(y == 7.0)


def test_parallel_handles(sk, ffi):
    rng = np.random.default_rng(3)
    taps = ss.firwin(511, 0.25)
    xs = [rng.standard_normal(100_000) for _ in range(3)]
    res = [None] * 3

    def work(i):
        h, ct = make(sk, ffi, taps, np.float64)
        res[i] = run(sk, ffi, h, ct, xs[i])
        sk.sk_fir_free(h)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for y, x in zip(res, xs):
        w = ss.lfilter(taps, 1.0, x)
        assert np.abs(y - w).max() <= 1e-10 * np.abs(w).max()
