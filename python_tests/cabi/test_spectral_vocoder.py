"""sk_phase_vocoder_* and sk_time_stretch_* through the raw C ABI: sizes, a float64 reference
of librosa's loop, and every bad input with canaries (nothing written on error)."""

import math

import numpy as np
import pytest


def ptr(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)


def pv_loop(D, rate):
    """librosa.phase_vocoder's loop (angles, wrap, accumulate) transcribed in float64."""
    nf, frames = D.shape
    steps = np.arange(0, frames, rate, dtype=np.float64)
    n_fft = 2 * (nf - 1)
    phi = (n_fft // 4) * np.fft.rfftfreq(n_fft, 1.0 / (2 * np.pi))
    acc = np.angle(D[:, 0])
    Dp = np.pad(D, [(0, 0), (0, 2)])
    out = np.zeros((nf, len(steps)), complex)
    for t, s in enumerate(steps):
        c = Dp[:, int(s):int(s + 2)]
        a = np.mod(s, 1.0)
        out[:, t] = np.exp(1j * acc) * ((1 - a) * np.abs(c[:, 0]) + a * np.abs(c[:, 1]))
        dp = np.angle(c[:, 1]) - np.angle(c[:, 0]) - phi
        dp -= 2 * np.pi * np.round(dp / (2 * np.pi))
        acc += phi + dp
    return out


def pv_frames(sk, ffi, frames, rate):
    f = ffi.new("size_t *")
    assert sk.sk_phase_vocoder_frames(frames, rate, f) == sk.SK_OK
    return f[0]


@pytest.mark.parametrize("frames,rate", [(40, 1.25), (7, 0.7), (3, 2.5), (1, 0.3), (10, 1.0)])
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_phase_vocoder_matches_loop(sk, ffi, frames, rate, dt):
    nf = 9
    rng = np.random.default_rng(frames)
    D = (rng.standard_normal((2, nf, frames)) + 1j * rng.standard_normal((2, nf, frames)))
    D[0, 3, :] = 0  # a silent bin
    D = D.astype(dt)
    out = pv_frames(sk, ffi, frames, rate)
    assert out == math.ceil(frames / rate) == len(np.arange(0, frames, rate))
    Dt = np.ascontiguousarray(D.swapaxes(-1, -2))
    y = np.full((2, out, nf), np.nan, dt)
    f = sk.sk_phase_vocoder_f64 if dt == np.complex128 else sk.sk_phase_vocoder_f32
    assert f(ptr(ffi, Dt), nf, frames, 2, rate, ptr(ffi, y), y.size) == sk.SK_OK
    tol = 1e-12 if dt == np.complex128 else 2e-6
    for r in range(2):
        ref = pv_loop(D[r].astype(np.complex128), rate)
        np.testing.assert_allclose(y[r].T, ref, rtol=tol, atol=tol * np.abs(ref).max())


def test_phase_vocoder_errors(sk, ffi):
    D = np.ones((4, 5), np.complex128)
    y = np.full((8, 5), 7.0 + 7.0j)
    canary = y.copy()
    f = sk.sk_phase_vocoder_f64
    cases = [
        (f(ptr(ffi, D), 5, 4, 1, 0.0, ptr(ffi, y), 40), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, D), 5, 4, 1, -1.0, ptr(ffi, y), 40), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, D), 5, 4, 1, math.nan, ptr(ffi, y), 40), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, D), 5, 4, 1, math.inf, ptr(ffi, y), 40), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, D), 0, 4, 1, 1.0, ptr(ffi, y), 40), sk.SK_ERR_LENGTH),
        (f(ptr(ffi, D), 5, 0, 1, 1.0, ptr(ffi, y), 40), sk.SK_ERR_LENGTH),
        (f(ptr(ffi, D), 5, 4, 1, 0.5, ptr(ffi, y), 39), sk.SK_ERR_BUFFER_TOO_SMALL),
        (f(ffi.NULL, 5, 4, 1, 1.0, ptr(ffi, y), 40), sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, D), 5, 4, 1, 1.0, ffi.NULL, 40), sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, y), 5, 4, 1, 1.0, ptr(ffi, y), 40), sk.SK_ERR_OVERLAP),
        (f(ptr(ffi, D), 5, 4, 2**62, 1.0, ptr(ffi, y), 40), sk.SK_ERR_LENGTH),
    ]
    for got, want in cases:
        assert got == want
    np.testing.assert_array_equal(y, canary)
    f32 = np.ones(20, np.float32)
    mis = ffi.cast("double *", int(ffi.cast("uintptr_t", ptr(ffi, f32))) + 4)
    assert f(mis, 5, 4, 1, 1.0, ptr(ffi, y), 40) == sk.SK_ERR_MISALIGNED
    assert sk.sk_phase_vocoder_frames(4, 1.0, ffi.NULL) == sk.SK_ERR_NULL_POINTER
    # rows = 0 writes nothing
    assert f(ffi.NULL, 5, 4, 0, 1.0, ffi.NULL, 0) == sk.SK_OK


def stretch_len(sk, ffi, n, rate, n_fft=16, hop=4, wl=16, center=1, pad=0):
    ln = ffi.new("size_t *")
    st = sk.sk_time_stretch_len(n, rate, n_fft, hop, wl, center, pad, ln)
    return st, ln[0]


def test_time_stretch_len(sk, ffi):
    assert stretch_len(sk, ffi, 100, 1.25) == (sk.SK_OK, 80)
    assert stretch_len(sk, ffi, 5, 2.0) == (sk.SK_OK, 2)  # round half to even
    assert stretch_len(sk, ffi, 7, 2.0) == (sk.SK_OK, 4)
    # round(n / rate) = 0: librosa's istft gets no length (full inverse length)
    st, ln = stretch_len(sk, ffi, 20, 100.0)
    assert st == sk.SK_OK and ln == 16 + 4 * (math.ceil(6 / 100.0) - 1) - 16
    assert stretch_len(sk, ffi, 0, 1.0)[0] == sk.SK_ERR_LENGTH
    assert stretch_len(sk, ffi, 100, 0.0)[0] == sk.SK_ERR_BAD_ARGUMENT
    assert stretch_len(sk, ffi, 100, 1.0, hop=0)[0] == sk.SK_ERR_BAD_ARGUMENT
    assert stretch_len(sk, ffi, 100, 1.0, pad=5)[0] == sk.SK_ERR_BAD_ARGUMENT
    assert stretch_len(sk, ffi, 100, 1.0, wl=17)[0] == sk.SK_ERR_BAD_ARGUMENT
    assert stretch_len(sk, ffi, 100, 1e-300)[0] == sk.SK_ERR_LENGTH
    assert sk.sk_time_stretch_len(100, 1.0, 16, 4, 16, 1, 0, ffi.NULL) == sk.SK_ERR_NULL_POINTER


def test_time_stretch_errors(sk, ffi):
    x = np.random.default_rng(1).standard_normal(200)
    w = np.hanning(17)[:-1].copy()
    y = np.full(200, 7.0)
    canary = y.copy()
    f = sk.sk_time_stretch_f64
    ok = f(ptr(ffi, x), 200, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 160)
    assert ok == sk.SK_OK and np.isfinite(y[:160]).all() and (y[160:] == 7.0).all()
    y[:] = 7.0
    wn = w.copy()
    wn[3] = np.nan
    cases = [
        (f(ptr(ffi, x), 200, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 159),
         sk.SK_ERR_BUFFER_TOO_SMALL),
        (f(ptr(ffi, x), 200, 1, 1.25, ptr(ffi, wn), 16, 4, 16, 1, 0, ptr(ffi, y), 160),
         sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, x), 200, 1, -2.0, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 200),
         sk.SK_ERR_BAD_ARGUMENT),
        (f(ffi.NULL, 200, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 160),
         sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, x), 200, 1, 1.25, ffi.NULL, 16, 4, 16, 1, 0, ptr(ffi, y), 160),
         sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, y), 200, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 160),
         sk.SK_ERR_OVERLAP),
        (f(ptr(ffi, x), 200, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 7, ptr(ffi, y), 160),
         sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, x), 200, 2**62, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ptr(ffi, y), 160),
         sk.SK_ERR_LENGTH),
    ]
    for got, want in cases:
        assert got == want
    np.testing.assert_array_equal(y, canary)
    # rows = 0 writes nothing
    assert f(ffi.NULL, 200, 0, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0, ffi.NULL, 0) == sk.SK_OK


def test_time_stretch_nan_input(sk, ffi):
    """librosa refuses non-finite audio; sigkern computes: the output is finite before the
    first frame that holds the NaN sample and NaN from there on (the phase carries it)."""
    x = np.random.default_rng(2).standard_normal(400)
    x[150] = np.nan
    w = np.hanning(17)[:-1].copy()
    y = np.empty(320)
    assert sk.sk_time_stretch_f64(ptr(ffi, x), 400, 1, 1.25, ptr(ffi, w), 16, 4, 16, 1, 0,
                                  ptr(ffi, y), 320) == sk.SK_OK
    first = (150 - 8) // 4 + 1  # first frame whose padded span [4t - 8, 4t + 8) holds sample 150
    clean = int((first - 1) / 1.25) * 4  # output samples before any stretched frame reads it
    assert np.isfinite(y[:clean - 8]).all()
    assert np.isnan(y[clean + 16:]).all()
