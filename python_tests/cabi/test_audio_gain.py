"""Gain kernels on raw CFFI: linear ramps (chunked calls join bit-exactly; float64 reference),
equal-power crossfades (numpy cos/sin in float64), weighted mixes (bitwise vs numpy), amplitude
↔ dB with a floor; NaN/inf parameters and bad windows refused with nothing written."""

import math

import numpy as np
import pytest

from audio_util import FLOATS, SFX, ptr
from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_OVERLAP

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])


def ramp_ref(x, g0, g1, offset, total):
    k = np.arange(offset, offset + x.size, dtype=np.float64)
    g = g0 + k * ((g1 - g0) / total)
    return (x.astype(np.float64) * g).astype(x.dtype)


@DT
def test_ramp_matches_reference_and_chunks_join(sk, ffi, dtype):
    rng = np.random.default_rng(11)
    t = SFX[np.dtype(dtype)]
    f = getattr(sk, f"sk_gain_ramp_{t}")
    for total in (1, 2, 7, 8, 9, 100, 4801, 65_537):
        x = rng.standard_normal(total).astype(dtype)
        g0, g1 = float(dtype.type(0.125)), float(dtype.type(-2.0))
        y = np.full(total, 9.0, dtype)
        assert f(ptr(ffi, x), g0, g1, 0, total, ptr(ffi, y), total) == SK_OK
        assert np.array_equal(y, ramp_ref(x, g0, g1, 0, total)), total
        # chunked, in place, awkward chunk sizes: the same bits
        z = x.copy()
        off = 0
        for c in [1, 3, 64, 5, 1000, 7] * 100:
            if off >= total:
                break
            m = min(c, total - off)
            assert f(ptr(ffi, z, off), g0, g1, off, total, ptr(ffi, z, off), m) == SK_OK
            off += m
        assert np.array_equal(z, y)
    # half-open: the sample after the ramp would get g1, so g1 continues without a step
    one = np.ones(4, dtype)
    out = np.empty(4, dtype)
    assert f(ptr(ffi, one), 0.0, 1.0, 0, 4, ptr(ffi, out), 4) == SK_OK
    assert out.tolist() == [0.0, 0.25, 0.5, 0.75]


@DT
def test_crossfade_is_equal_power_and_chunks_join(sk, ffi, dtype):
    rng = np.random.default_rng(12)
    t = SFX[np.dtype(dtype)]
    f = getattr(sk, f"sk_crossfade_{t}")
    eps = float(np.finfo(dtype).eps)
    for total in (1, 2, 9, 100, 4097, 48_000):
        a = rng.standard_normal(total).astype(dtype)
        b = rng.standard_normal(total).astype(dtype)
        th = np.arange(total, dtype=np.float64) / total * (np.pi / 2)
        want = a.astype(np.float64) * np.cos(th) + b.astype(np.float64) * np.sin(th)
        y = np.empty(total, dtype)
        assert f(ptr(ffi, a), ptr(ffi, b), 0, total, ptr(ffi, y), total) == SK_OK
        tol = 2 * eps * (np.abs(a) + np.abs(b)).astype(np.float64) + 1e-15 * (np.abs(a) + np.abs(b))
        assert np.all(np.abs(y - want) <= tol), total
        assert y[0] == a[0]
        # chunked into a (y == a allowed)
        z = a.copy()
        h = total // 3
        assert f(ptr(ffi, z), ptr(ffi, b), 0, total, ptr(ffi, z), h) == SK_OK
        assert f(ptr(ffi, z, h), ptr(ffi, b, h), h, total, ptr(ffi, z, h), total - h) == SK_OK
        assert np.array_equal(z, y)
    # equal power: with a = b = 1 the gains satisfy cos² + sin² = 1
    ones = np.ones(1000)
    g = np.empty(1000)
    zeros = np.zeros(1000)
    assert sk.sk_crossfade_f64(ptr(ffi, ones), ptr(ffi, zeros), 0, 1000, ptr(ffi, g), 1000) == SK_OK
    h = np.empty(1000)
    assert sk.sk_crossfade_f64(ptr(ffi, zeros), ptr(ffi, ones), 0, 1000, ptr(ffi, h), 1000) == SK_OK
    assert np.max(np.abs(g * g + h * h - 1)) <= 8e-16  # 4 ulp of 1: the gains and this check round


@DT
def test_mix_is_bitwise_numpy(sk, ffi, dtype):
    rng = np.random.default_rng(13)
    t = SFX[np.dtype(dtype)]
    for n in (0, 1, 17, 1000, 4097):
        a = rng.standard_normal(n).astype(dtype)
        b = rng.standard_normal(n).astype(dtype)
        wa, wb = dtype.type(0.3), dtype.type(-1.25)
        want = wa * a + wb * b
        y = np.empty(n, dtype)
        assert getattr(sk, f"sk_mix_{t}")(ptr(ffi, a), wa, ptr(ffi, b), wb, ptr(ffi, y), n) == SK_OK
        assert np.array_equal(y, want)
        assert getattr(sk, f"sk_mix_{t}")(ptr(ffi, a), wa, ptr(ffi, b), wb, ptr(ffi, a), n) == SK_OK
        assert np.array_equal(a, want)


@DT
def test_db_conversions(sk, ffi, dtype):
    rng = np.random.default_rng(14)
    t = SFX[np.dtype(dtype)]
    x = (rng.standard_normal(5000) * 10.0 ** rng.uniform(-8, 3, 5000)).astype(dtype)
    x[:8] = [0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -10.0, np.finfo(dtype).smallest_subnormal]
    y = np.empty(x.size, dtype)
    assert getattr(sk, f"sk_amp_to_db_{t}")(ptr(ffi, x), -120.0, ptr(ffi, y), x.size) == SK_OK
    with np.errstate(divide="ignore"):
        want = np.maximum(20 * np.log10(np.abs(x.astype(np.float64))), -120.0)
    want[2] = np.nan
    want = want.astype(dtype)
    # within 4 ulp (float64) / 3 ulp (float32) of numpy's float64 log10: the SIMD levels use
    # polynomial logarithms (float32 data in float32 arithmetic), the scalar level libm
    rtol = (4 if dtype == np.float64 else 3) * float(np.finfo(dtype).eps)
    close = np.isclose(y, want, rtol=rtol, atol=0, equal_nan=True)
    assert close.all(), x[~close][:5]
    assert y[0] == -120.0 and y[1] == -120.0 and math.isnan(y[2]) and y[3] == np.inf and y[5] == 0.0
    assert y[6] == pytest.approx(20.0, rel=rtol)
    assert getattr(sk, f"sk_amp_to_db_{t}")(ptr(ffi, x), -np.inf, ptr(ffi, y), 2) == SK_OK
    assert y[0] == -np.inf
    d = np.array([0.0, 20.0, -6.0, -np.inf, np.nan, -400.0, 100.0], dtype)
    a = np.empty(d.size, dtype)
    assert getattr(sk, f"sk_db_to_amp_{t}")(ptr(ffi, d), ptr(ffi, a), d.size) == SK_OK
    want = (10.0 ** (d.astype(np.float64) / 20)).astype(dtype)
    assert np.allclose(a, want, rtol=2 * float(np.finfo(dtype).eps), atol=0, equal_nan=True)
    assert a[0] == 1.0 and a[1] == 10.0 and a[3] == 0.0
    # round trip
    v = np.abs(rng.standard_normal(1000)).astype(dtype) + dtype.type(1e-3)
    db = np.empty_like(v)
    back = np.empty_like(v)
    assert getattr(sk, f"sk_amp_to_db_{t}")(ptr(ffi, v), -300.0, ptr(ffi, db), v.size) == SK_OK
    assert getattr(sk, f"sk_db_to_amp_{t}")(ptr(ffi, db), ptr(ffi, back), v.size) == SK_OK
    assert np.allclose(back, v, rtol=1e-5 if dtype == np.float32 else 1e-13)


def test_bad_parameters_write_nothing(sk, ffi, last_error):
    x = np.ones(8, np.float32)
    y = np.full(8, 7.0, np.float32)
    px, py = ptr(ffi, x), ptr(ffi, y)
    for g0, g1 in ((math.nan, 1.0), (0.0, math.nan), (math.inf, 1.0), (0.0, -math.inf)):
        assert sk.sk_gain_ramp_f32(px, g0, g1, 0, 8, py, 8) == SK_ERR_BAD_ARGUMENT
        assert "not finite" in last_error()
    assert sk.sk_gain_ramp_f32(px, 0.0, 1.0, 1, 8, py, 8) == SK_ERR_BAD_ARGUMENT
    assert "runs past total" in last_error()
    assert sk.sk_gain_ramp_f32(px, 0.0, 1.0, 2**64 - 1, 2**64 - 1, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_gain_ramp_f32(px, 0.0, 1.0, 0, 2**53 + 1, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_gain_ramp_f32(px, 0.0, 1.0, 0, 0, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_crossfade_f32(px, px, 4, 8, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_mix_f32(px, math.nan, px, 1.0, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_mix_f64(ffi.NULL, 1.0, ffi.NULL, math.inf, ffi.NULL, 0) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_amp_to_db_f32(px, math.nan, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_amp_to_db_f32(px, math.inf, py, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_gain_ramp_f32(px, 0.0, 1.0, 0, 8, ptr(ffi, x, 1), 7) == SK_ERR_OVERLAP
    assert np.all(y == 7.0) and np.all(x == 1.0)
    assert sk.sk_gain_ramp_f32(ffi.NULL, 0.0, 1.0, 0, 0, ffi.NULL, 0) == SK_OK
