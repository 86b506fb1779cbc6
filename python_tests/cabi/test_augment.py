"""sk_augment_* on raw CFFI: per-row gain, clip and bit crush bit-exact against numpy on the
same dtype; the fade against numpy's float32 linspace/power; noise mixing at an SNR or absolute
level against float64 numpy (within 1e-12 dB); per-row biquad cascades from the steady state
against scipy.signal.sosfilt in float64; normal noise drawn and added in one pass equal to
sk_augment_normal_* then sk_augment_mix_*; in place; bad parameters refused with nothing written
and a message naming the function."""

import numpy as np
import pytest
import scipy.signal

from audio_util import FLOATS, SFX, ptr
from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_NON_FINITE, SK_ERR_OVERLAP

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])


def p64(ffi, a):
    return ffi.cast("double *", a.ctypes.data)


def data(dtype, rows=3, n=257, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, n)).astype(dtype)
    x[0, :4] = [0.0, -0.0, np.inf, np.nan]
    x[1, :2] = [1e-40 if dtype == np.float32 else 1e-310, -1e-40 if dtype == np.float32 else -1e-310]
    return x


@DT
def test_gain_clip_bitcrush_bit_exact(sk, ffi, dtype):
    t = SFX[dtype]
    x = data(dtype)
    g = np.array([2.5, -1.0, 1e-3], dtype)
    y = np.empty_like(x)
    assert getattr(sk, f"sk_augment_gain_{t}")(ptr(ffi, x), ptr(ffi, g), ptr(ffi, y), 3, 257) == SK_OK
    assert np.array_equal(y, x * g[:, None], equal_nan=True)
    lo, hi = np.array([-0.5, -2.0, 0.0], dtype), np.array([0.5, 0.1, 0.0], dtype)
    z = x.copy()
    assert getattr(sk, f"sk_augment_clip_{t}")(ptr(ffi, z), ptr(ffi, lo), ptr(ffi, hi), ptr(ffi, z), 3, 257) == SK_OK
    assert np.array_equal(z, np.clip(x, lo[:, None], hi[:, None]), equal_nan=True)
    q = np.array([17.0, 2.0, 3.0], dtype)
    assert getattr(sk, f"sk_augment_bitcrush_{t}")(ptr(ffi, x), ptr(ffi, q), ptr(ffi, y), 3, 257) == SK_OK
    assert np.array_equal(y, np.round(x * q[:, None]) / q[:, None], equal_nan=True)


@DT
def test_fade_matches_numpy(sk, ffi, dtype):
    t = SFX[dtype]
    x = np.ones((4, 50), dtype)
    t0 = np.array([-10, 5, 45, 60], np.intp)
    ln = np.array([30, 20, 30, 3], np.uintp)
    a, b = np.array([-20.0, 6.0, 0.0, -3.0]), np.array([3.0, -12.0, -40.0, -3.0])
    y = np.empty_like(x)
    rc = getattr(sk, f"sk_augment_fade_{t}")(ptr(ffi, x), ffi.cast("ptrdiff_t *", t0.ctypes.data),
                                             ffi.cast("size_t *", ln.ctypes.data), p64(ffi, a),
                                             p64(ffi, b), ptr(ffi, y), 4, 50)
    assert rc == SK_OK
    for r in range(4):
        mask = 10 ** (np.linspace(a[r], b[r], int(ln[r]), dtype=dtype) / 20)
        ref = x[r].copy()
        s, e = int(t0[r]), int(t0[r]) + int(ln[r])
        if s < 0:
            mask, s = mask[-s:], 0
        if e > 50:
            mask, e = mask[:mask.size - (e - 50)], 50
        ref[s:e] *= mask
        ref[:s] *= 10 ** (a[r] / 20)
        ref[e:] *= 10 ** (b[r] / 20)
        # numpy's float32 power may be a vectorised one: within 1 ulp of the gain
        np.testing.assert_allclose(y[r], ref, rtol=1.2e-7 if dtype == np.float32 else 1e-15)


@DT
def test_mix_levels(sk, ffi, dtype):
    t = SFX[dtype]
    f = getattr(sk, f"sk_augment_mix_{t}")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 4001)).astype(dtype)
    noise = rng.uniform(-1, 1, (3, 4001)).astype(dtype)
    lv = np.array([-5.0, 0.0, 37.5])
    y = np.empty_like(x)
    assert f(ptr(ffi, x), ptr(ffi, noise), 3, p64(ffi, lv), 0, 1, ptr(ffi, y), 3, 4001) == SK_OK
    x64, d = x.astype(np.float64), (y.astype(np.float64) - x)
    snr = 20 * np.log10(np.sqrt(np.mean(x64 ** 2, -1)) / np.sqrt(np.mean(d ** 2, -1)))
    assert np.all(np.abs(snr - lv) < (1e-4 if dtype == np.float32 else 1e-9)), snr
    # one shared noise row, absolute level, unit-RMS mode, in place
    z = x.copy()
    assert f(ptr(ffi, z), ptr(ffi, noise), 1, p64(ffi, lv), 1, 0, ptr(ffi, z), 3, 4001) == SK_OK
    s = (10 ** (lv / 20)).astype(dtype)
    assert np.array_equal(z, x + noise[0] * s[:, None])
    # silent noise: unchanged
    zero = np.zeros(4001, dtype)
    assert f(ptr(ffi, x), ptr(ffi, zero), 1, p64(ffi, lv), 0, 1, ptr(ffi, y), 3, 4001) == SK_OK
    assert np.array_equal(y, x)


@DT
def test_add_normal_is_normal_then_mix(sk, ffi, dtype):
    t = SFX[dtype]
    rows, n = 3, 3001
    x = np.random.default_rng(5).standard_normal((rows, n)).astype(dtype)
    lv = np.array([-20.0, 0.0, 6.5])
    z, want, y = np.empty_like(x), np.empty_like(x), np.empty_like(x)
    assert getattr(sk, f"sk_augment_normal_{t}")(77, ptr(ffi, z), rows, n) == SK_OK
    assert getattr(sk, f"sk_augment_mix_{t}")(ptr(ffi, x), ptr(ffi, z), rows, p64(ffi, lv), 1, 0,
                                              ptr(ffi, want), rows, n) == SK_OK
    f = getattr(sk, f"sk_augment_add_normal_{t}")
    assert f(ptr(ffi, x), 77, p64(ffi, lv), ptr(ffi, y), rows, n) == SK_OK
    assert np.array_equal(y, want)
    assert np.array_equal(y, x + z * (10 ** (lv / 20)).astype(dtype)[:, None])
    assert f(ptr(ffi, x), 77, p64(ffi, lv), ptr(ffi, x), rows, n) == SK_OK  # in place
    assert np.array_equal(x, want)


@DT
def test_sosfilt_rows_against_scipy(sk, ffi, dtype):
    t = SFX[dtype]
    f = getattr(sk, f"sk_augment_sosfilt_{t}")
    rng = np.random.default_rng(4)
    rows, n = 3, 2001
    x = rng.standard_normal((rows, n)).astype(dtype)
    x[1, 0] = 0.0
    sos = np.stack([np.concatenate([scipy.signal.butter(4, 0.05 + 0.2 * r, output="sos"),
                                    scipy.signal.butter(2, 0.6, "high", output="sos")])
                    for r in range(rows)])  # (rows, 3, 6)
    y = np.empty_like(x)
    assert f(ptr(ffi, x), p64(ffi, sos), 3, ptr(ffi, y), rows, n) == SK_OK
    for r in range(rows):
        x64 = x[r].astype(np.float64)
        ref = scipy.signal.sosfilt(sos[r], x64, zi=scipy.signal.sosfilt_zi(sos[r]) * x64[0])[0]
        tol = (1e-12 if dtype == np.float64 else 1.2e-7) * np.abs(ref).max()
        assert np.abs(y[r] - ref).max() <= tol, r
    z = x.copy()
    assert f(ptr(ffi, z), p64(ffi, sos), 3, ptr(ffi, z), rows, n) == SK_OK
    assert np.array_equal(z, y)


@DT
def test_bad_arguments_write_nothing(sk, ffi, last_error, dtype):
    t = SFX[dtype]
    x = np.ones((2, 8), dtype)
    y = np.full_like(x, 7.0)
    one = np.ones(2, dtype)
    bad_q = np.array([1.0, 0.0], dtype)
    nan = np.array([1.0, np.nan], dtype)
    lo, hi = np.array([0.0, 1.0], dtype), np.array([1.0, 0.5], dtype)
    lv = np.array([0.0, np.inf])
    z2, t0, ln = np.zeros(2), np.zeros(2, np.intp), np.array([1, 0], np.uintp)  # kept alive
    sos = np.tile([1.0, 0.5, 0.25, 1.0, -0.5, 0.25], (2, 1))
    sos_a0 = sos.copy()
    sos_a0[1, 3] = 0.0
    xnan = x.copy()
    xnan[1, 0] = np.nan
    cases = [
        (f"sk_augment_gain_{t}", (ptr(ffi, x), ptr(ffi, nan), ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_bitcrush_{t}", (ptr(ffi, x), ptr(ffi, bad_q), ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_clip_{t}", (ptr(ffi, x), ptr(ffi, lo), ptr(ffi, hi), ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_mix_{t}", (ptr(ffi, x), ptr(ffi, x), 2, p64(ffi, z2), 2, 0, ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_mix_{t}", (ptr(ffi, x), ptr(ffi, x), 2, p64(ffi, z2), 0, 2, ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_mix_{t}", (ptr(ffi, x), ptr(ffi, x), 3, p64(ffi, z2), 0, 0, ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_mix_{t}", (ptr(ffi, x), ptr(ffi, x), 2, p64(ffi, lv), 0, 0, ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_mix_{t}", (ptr(ffi, x), ptr(ffi, y), 2, p64(ffi, z2), 0, 0, ptr(ffi, y), 2, 8), SK_ERR_OVERLAP),
        (f"sk_augment_gain_{t}", (ptr(ffi, x), ptr(ffi, y), ptr(ffi, y), 2, 8), SK_ERR_OVERLAP),
        (f"sk_augment_fade_{t}", (ptr(ffi, x), ffi.cast("ptrdiff_t *", t0.ctypes.data),
                                  ffi.cast("size_t *", ln.ctypes.data),
                                  p64(ffi, z2), p64(ffi, z2), ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_add_normal_{t}", (ptr(ffi, x), 1, p64(ffi, lv), ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_add_normal_{t}", (ptr(ffi, x), 1, ffi.cast("double *", y.ctypes.data), ptr(ffi, y), 1, 8),
         SK_ERR_OVERLAP),
        (f"sk_augment_sosfilt_{t}", (ptr(ffi, x), p64(ffi, sos_a0), 1, ptr(ffi, y), 2, 8), SK_ERR_BAD_ARGUMENT),
        (f"sk_augment_sosfilt_{t}", (ptr(ffi, x), p64(ffi, sos), 0, ptr(ffi, y), 2, 8), SK_ERR_LENGTH),
        (f"sk_augment_sosfilt_{t}", (ptr(ffi, xnan), p64(ffi, sos), 1, ptr(ffi, y), 2, 8), SK_ERR_NON_FINITE),
        (f"sk_augment_sosfilt_{t}", (ptr(ffi, x), ffi.cast("double *", y.ctypes.data), 1, ptr(ffi, y), 1, 8),
         SK_ERR_OVERLAP),
    ]
    for name, args, want in cases:
        assert getattr(sk, name)(*args) == want, name
        assert last_error().startswith(name + ": "), last_error()
        assert np.all(y == 7.0), name
