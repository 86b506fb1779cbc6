"""Biquad cascades (SOS) against scipy.signal.sosfilt in float64.

Tolerances:
- double: within 1e-10 of the reference's peak.
- float: within the bound derived in docs/filters.md ("float accuracy"), computed here by
  `f32_bound(sos, peak_x)`:
      eps32 * peak_x * (4 * sum_s A_s W_s D_s + 2 * sum_s (|a1_s| + |a2_s|) g_s * H)
  A_s = L1 norm of the impulse response of sections 0..s-1 (1 for s = 0), W_s = sum of |normalised
  coefficients| of section s, D_s = L1 norm of sections s..end, g_s = L1 norm of 1/A_s(z),
  H = L1 norm of the whole cascade. The first term covers the arithmetic rounding and the rounding
  of the input (errors injected at section s, bounded by the signal reaching it, amplified by the
  rest); the second covers the rounding of the denominators to float (the filter actually run
  differs from the double one by dA/A).
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


def l1(sos, n=1 << 15):
    if len(sos) == 0:
        return 1.0
    imp = np.zeros(n)
    imp[0] = 1.0
    return float(np.abs(ss.sosfilt(sos, imp)).sum())


def f32_bound(sos, peak_x):
    sos = np.asarray(sos, dtype=np.float64)
    norm = sos / sos[:, 3:4]
    s_count = len(sos)
    arith = sum(l1(sos[:s]) * np.abs(norm[s]).sum() * l1(sos[s:]) for s in range(s_count))
    sens = sum(
        (abs(norm[s, 4]) + abs(norm[s, 5])) * l1(np.array([[1, 0, 0, 1, norm[s, 4], norm[s, 5]]]))
        for s in range(s_count)
    )
    return EPS32 * peak_x * (4 * arith + 2 * sens * l1(sos))


class Biquad:
    """Thin CFFI wrapper used by the tests (raw calls, status checked by the caller)."""

    def __init__(self, sk, ffi, sos, channels, dtype):
        self.sk, self.ffi, self.dtype = sk, ffi, np.dtype(dtype)
        self.ct = "float" if self.dtype == np.float32 else "double"
        self.sos = np.ascontiguousarray(sos, dtype=np.float64)
        out = ffi.new("SkBiquad **")
        new = sk.sk_biquad_f32_new if self.ct == "float" else sk.sk_biquad_f64_new
        rc = new(ffi.from_buffer("double[]", self.sos), channels, out, len(self.sos))
        assert rc == SK_OK
        self.h = out[0]
        self.channels = channels

    def process(self, x, y=None):
        """x: (channels, n) array, possibly a view with a row stride."""
        if y is None:
            y = np.empty_like(x)
        f = self.sk.sk_biquad_f32_process if self.ct == "float" else self.sk.sk_biquad_f64_process
        rc = f(
            self.h,
            self.ffi.cast(self.ct + " *", x.ctypes.data),
            x.strides[0] // x.itemsize,
            self.ffi.cast(self.ct + " *", y.ctypes.data),
            y.strides[0] // y.itemsize,
            x.shape[1],
        )
        assert rc == SK_OK
        return y

    def get_state(self):
        zi = np.empty((len(self.sos), self.channels, 2), dtype=self.dtype)
        f = self.sk.sk_biquad_f32_get_state if self.ct == "float" else self.sk.sk_biquad_f64_get_state
        assert f(self.h, self.ffi.from_buffer(self.ct + "[]", zi), zi.size) == SK_OK
        return zi

    def set_state(self, zi):
        zi = np.ascontiguousarray(zi, dtype=self.dtype)
        f = self.sk.sk_biquad_f32_set_state if self.ct == "float" else self.sk.sk_biquad_f64_set_state
        return f(self.h, self.ffi.from_buffer(self.ct + "[]", zi), zi.size)

    def free(self):
        return self.sk.sk_biquad_free(self.h)


DESIGNS = {
    "butter8_lp": ss.butter(8, 0.1, output="sos"),
    "butter4_hp": ss.butter(4, 0.3, "highpass", output="sos"),
    "butter6_bp": ss.butter(6, [0.1, 0.2], "bandpass", output="sos"),
    "butter5_bs": ss.butter(5, [0.3, 0.4], "bandstop", output="sos"),
    "butter2_lp_low": ss.butter(2, 0.004, output="sos"),
    "cheby_unnormalised": ss.cheby1(4, 1, 0.25, output="sos") * np.array([[1, 1, 1, 1, 1, 1]]),
}


def scaled_a0(sos):
    """Same filter with every section multiplied by 2.5 (a0 = 2.5), to exercise normalisation."""
    return np.asarray(sos) * 2.5


def signals(rng, channels, n):
    x = rng.standard_normal((channels, n))
    x[0, : min(n, 5)] = 0.0
    if n > 10:
        x[0, 10] = 1.0  # an impulse in channel 0
    if channels > 1:
        x[1] = 0.0
        x[1, 0] = 1.0  # a pure impulse response in channel 1
    return x


@pytest.mark.parametrize("name", sorted(DESIGNS))
@pytest.mark.parametrize("channels", [1, 3, 8, 16, 19])
def test_double_matches_scipy(sk, ffi, name, channels):
    rng = np.random.default_rng(channels)
    sos = DESIGNS[name]
    x = signals(rng, channels, 3001)
    want = ss.sosfilt(sos, x, axis=-1)
    f = Biquad(sk, ffi, scaled_a0(sos), channels, np.float64)
    y = f.process(x)
    peak = np.abs(want).max()
    assert np.abs(y - want).max() <= 1e-10 * peak
    # final state equals scipy's zf
    _, zf = ss.sosfilt(sos, x, axis=-1, zi=np.zeros((len(sos), channels, 2)))
    assert np.abs(f.get_state() - zf).max() <= 1e-10 * max(peak, np.abs(zf).max())
    assert f.free() == SK_OK


@pytest.mark.parametrize("name", sorted(DESIGNS))
@pytest.mark.parametrize("channels", [1, 5, 16, 17])
def test_float_within_derived_bound(sk, ffi, name, channels):
    rng = np.random.default_rng(100 + channels)
    sos = DESIGNS[name]
    x = signals(rng, channels, 4000).astype(np.float32)
    want = ss.sosfilt(sos, x.astype(np.float64), axis=-1)
    f = Biquad(sk, ffi, sos, channels, np.float32)
    y = f.process(x)
    assert y.dtype == np.float32
    bound = f32_bound(sos, float(np.abs(x).max()))
    assert np.abs(y - want).max() <= bound
    f.free()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_chunks_bit_identical_planar_strided_and_interleaved(sk, ffi, dtype):
    rng = np.random.default_rng(7)
    sos = DESIGNS["butter8_lp"]
    channels, n = 11, 5000
    big = rng.standard_normal((channels, n + 37)).astype(dtype)
    x = big[:, :n]  # a strided view: row stride n + 37
    whole = Biquad(sk, ffi, sos, channels, dtype).process(x, np.zeros((channels, n), dtype))
    f = Biquad(sk, ffi, sos, channels, dtype)
    y = np.zeros((channels, n + 5), dtype)
    t = 0
    for m in [1, 0, 127, 128, 129, 999, 3, 2000, 10_000]:
        m = min(m, n - t)
        f.process(x[:, t : t + m], y[:, t : t + m])
        t += m
    assert t == n
    assert np.array_equal(y[:, :n], whole)
    assert np.all(y[:, n:] == 0)  # nothing written past each channel's n samples
    # interleaved, in chunks, in place
    ct = "float" if dtype == np.float32 else "double"
    fi = Biquad(sk, ffi, sos, channels, dtype)
    inter = np.ascontiguousarray(x.T)
    proc = sk.sk_biquad_f32_process_interleaved if ct == "float" else sk.sk_biquad_f64_process_interleaved
    t = 0
    for m in [5, 1000, 1, n]:
        m = min(m, n - t)
        part = inter[t : t + m]
        buf = ffi.from_buffer(ct + "[]", part)
        assert proc(fi.h, buf, buf, m) == SK_OK
        t += m
    assert np.array_equal(inter.T, whole)


def test_sosfilt_zi_loads_and_state_round_trips(sk, ffi):
    sos = DESIGNS["butter6_bp"]
    rng = np.random.default_rng(3)
    x = 1.0 + 0.1 * rng.standard_normal((2, 2000))
    zi1 = ss.sosfilt_zi(sos)  # (n_sections, 2)
    zi = np.stack([zi1 * x[0, 0], zi1 * x[1, 0]], axis=1)  # (n_sections, channels, 2)
    want, zf = ss.sosfilt(sos, x, axis=-1, zi=zi)
    f = Biquad(sk, ffi, sos, 2, np.float64)
    assert f.set_state(zi) == SK_OK
    assert np.array_equal(f.get_state(), zi)
    y = f.process(x)
    assert np.abs(y - want).max() <= 1e-10 * np.abs(want).max()
    assert np.abs(f.get_state() - zf).max() <= 1e-10 * np.abs(zf).max()
    assert sk.sk_biquad_reset(f.h) == SK_OK
    assert np.all(f.get_state() == 0)
    n_sec, ch = ffi.new("size_t *"), ffi.new("size_t *")
    assert sk.sk_biquad_info(f.h, n_sec, ch) == SK_OK
    assert (n_sec[0], ch[0]) == (len(sos), 2)
    # bad state: wrong length, non-finite → error, state untouched
    before = f.get_state()
    bad = np.full(zi.size, np.nan)
    assert sk.sk_biquad_f64_set_state(f.h, ffi.from_buffer("double[]", bad), zi.size) == SK_ERR_NON_FINITE
    assert sk.sk_biquad_f64_set_state(f.h, ffi.from_buffer("double[]", bad), zi.size - 1) == SK_ERR_LENGTH
    assert np.array_equal(f.get_state(), before)
    f.free()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_shot_sosfilt(sk, ffi, dtype):
    ct = "float" if dtype == np.float32 else "double"
    fn = sk.sk_sosfilt_f32 if ct == "float" else sk.sk_sosfilt_f64
    sos = DESIGNS["butter4_hp"]
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 1500)).astype(dtype)
    zi = rng.standard_normal((len(sos), 3, 2)).astype(dtype)
    want, zf_want = ss.sosfilt(sos, x.astype(np.float64), axis=-1, zi=zi.astype(np.float64))
    y = np.empty_like(x)
    zf = np.empty_like(zi)
    S = ffi.from_buffer("double[]", np.ascontiguousarray(sos))
    rc = fn(S, ffi.from_buffer(ct + "[]", x), 1500, ffi.from_buffer(ct + "[]", zi), 3,
            ffi.from_buffer(ct + "[]", y), 1500, ffi.from_buffer(ct + "[]", zf), len(sos), 1500)
    assert rc == SK_OK
    tol = 1e-10 * np.abs(want).max() if ct == "double" else f32_bound(sos, float(np.abs(x).max()) + 4 * float(np.abs(zi).max()))
    assert np.abs(y - want).max() <= tol
    assert np.abs(zf - zf_want).max() <= tol
    # NULL zi and zf: zero initial state, no final state
    y2 = np.empty_like(x)
    rc = fn(S, ffi.from_buffer(ct + "[]", x), 1500, ffi.NULL, 3, ffi.from_buffer(ct + "[]", y2), 1500, ffi.NULL, len(sos), 1500)
    assert rc == SK_OK
    want0 = ss.sosfilt(sos, x.astype(np.float64), axis=-1)
    assert np.abs(y2 - want0).max() <= (1e-10 * np.abs(want0).max() if ct == "double" else f32_bound(sos, float(np.abs(x).max())))
    # in place: y == x, zf == zi
    xi, zii = x.copy(), zi.copy()
    rc = fn(S, ffi.from_buffer(ct + "[]", xi), 1500, ffi.from_buffer(ct + "[]", zii), 3,
            ffi.from_buffer(ct + "[]", xi), 1500, ffi.from_buffer(ct + "[]", zii), len(sos), 1500)
    assert rc == SK_OK
    assert np.array_equal(xi, y) and np.array_equal(zii, zf)


BAD_SOS = {
    "nan": [[np.nan, 0, 0, 1, 0, 0]],
    "inf": [[1, 0, 0, 1, np.inf, 0]],
    "a0_zero": [[1, 0, 0, 0, 0.1, 0.1]],
    "poles_just_outside": [[1, 0, 0, 1, 0, 1.0 + 1e-8]],
    "pole_just_above_one": [[1, 0, 0, 1, -2 - 1e-8, 1]],
    "pole_below_minus_one": [[1, 0, 0, 1, 1.6, 0.5]],
    "outside": [[1, 0, 0, 1, 0, -1.5]],
    "second_section_unstable": [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, -2.5, 1.2]],
}


@pytest.mark.parametrize("name", sorted(BAD_SOS))
@pytest.mark.parametrize("ct", ["float", "double"])
def test_constructor_refuses_bad_sections(sk, ffi, last_error, name, ct):
    sos = np.ascontiguousarray(BAD_SOS[name], dtype=np.float64)
    out = ffi.new("SkBiquad **", ffi.cast("SkBiquad *", 0x1234))  # canary
    new = sk.sk_biquad_f32_new if ct == "float" else sk.sk_biquad_f64_new
    rc = new(ffi.from_buffer("double[]", sos), 1, out, len(sos))
    assert rc == SK_ERR_BAD_ARGUMENT
    assert int(ffi.cast("uintptr_t", out[0])) == 0x1234
    msg = last_error()
    assert msg.startswith(f"sk_biquad_{'f32' if ct == 'float' else 'f64'}_new: sos[")


def test_constructor_length_and_null_rules(sk, ffi, last_error):
    sos = np.ascontiguousarray(DESIGNS["butter4_hp"])
    S = ffi.from_buffer("double[]", sos)
    out = ffi.new("SkBiquad **")
    assert sk.sk_biquad_f64_new(S, 0, out, 2) == SK_ERR_LENGTH
    assert "channels is 0" in last_error()
    assert sk.sk_biquad_f64_new(S, 1, out, 0) == SK_ERR_LENGTH
    assert "n_sections is 0" in last_error()
    assert sk.sk_biquad_f64_new(ffi.NULL, 1, out, 2) == SK_ERR_NULL_POINTER
    assert sk.sk_biquad_f64_new(S, 1, ffi.NULL, 2) == SK_ERR_NULL_POINTER
    assert out[0] == ffi.NULL


def test_invalid_handles_are_detected(sk, ffi, last_error):
    sos = np.ascontiguousarray(DESIGNS["butter4_hp"])
    x = np.ones((1, 64))
    y = np.full((1, 64), 7.0)
    X, Y = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    # NULL
    assert sk.sk_biquad_f64_process(ffi.NULL, X, 64, Y, 64, 64) == SK_ERR_INVALID_HANDLE
    assert "argument h is NULL" in last_error()
    # freed
    f = Biquad(sk, ffi, sos, 1, np.float64)
    assert f.free() == SK_OK
    assert sk.sk_biquad_f64_process(f.h, X, 64, Y, 64, 64) == SK_ERR_INVALID_HANDLE
    assert "not a live sigkern handle" in last_error()
    assert sk.sk_biquad_free(f.h) == SK_ERR_INVALID_HANDLE  # double free
    # never created
    assert sk.sk_biquad_reset(ffi.cast("SkBiquad *", 0xDEADBEEF0)) == SK_ERR_INVALID_HANDLE
    # wrong precision
    g = Biquad(sk, ffi, sos, 1, np.float32)
    assert sk.sk_biquad_f64_process(g.h, X, 64, Y, 64, 64) == SK_ERR_INVALID_HANDLE
    assert "float biquad" in last_error()
    # wrong kind: an FIR handle given to a biquad call, and the other way round
    taps = np.ones(5)
    fo = ffi.new("SkFir **")
    assert sk.sk_fir_f64_new(ffi.from_buffer("double[]", taps), fo, 5) == SK_OK
    fir_as_biquad = ffi.cast("SkBiquad *", fo[0])
    assert sk.sk_biquad_f64_process(fir_as_biquad, X, 64, Y, 64, 64) == SK_ERR_INVALID_HANDLE
    assert "FIR filter" in last_error()
    assert sk.sk_biquad_free(fir_as_biquad) == SK_ERR_INVALID_HANDLE
    assert sk.sk_fir_f64_process(ffi.cast("SkFir *", g.h), X, Y, 64) == SK_ERR_INVALID_HANDLE
    assert np.all(y == 7.0)  # canary: nothing written by any failed call
    assert sk.sk_fir_free(fo[0]) == SK_OK  # still alive after the wrong-kind free attempt
    assert g.free() == SK_OK
    assert sk.sk_biquad_free(ffi.NULL) == SK_OK


def test_bad_buffers_leave_output_and_state_untouched(sk, ffi, last_error):
    sos = DESIGNS["butter8_lp"]
    f = Biquad(sk, ffi, sos, 2, np.float64)
    f.process(np.random.default_rng(1).standard_normal((2, 100)))
    state = f.get_state()
    x = np.ones((2, 100))
    y = np.full((2, 100), 7.0)
    X, Y = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_biquad_f64_process(f.h, X, 50, Y, 100, 100) == SK_ERR_BAD_ARGUMENT  # stride < n
    assert "x_stride = 50 is less than n = 100" in last_error()
    assert sk.sk_biquad_f64_process(f.h, X, -100, Y, 100, 100) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_biquad_f64_process(f.h, ffi.NULL, 100, Y, 100, 100) == SK_ERR_NULL_POINTER
    assert sk.sk_biquad_f64_process(f.h, X, 100, X + 1, 100, 100) == SK_ERR_OVERLAP
    assert sk.sk_biquad_f64_process(f.h, X, 100, X, 101, 99) == SK_ERR_OVERLAP  # same start, other stride
    mis = ffi.cast("double *", int(ffi.cast("uintptr_t", Y)) + 1)
    assert sk.sk_biquad_f64_process(f.h, X, 100, mis, 100, 100) == -3
    assert np.all(y == 7.0)
    assert np.array_equal(f.get_state(), state)
    # n = 0 is a no-op, NULL allowed
    assert sk.sk_biquad_f64_process(f.h, ffi.NULL, 0, ffi.NULL, 0, 0) == SK_OK
    assert np.array_equal(f.get_state(), state)
    f.free()


def test_nan_input_propagates_until_reset(sk, ffi):
    f = Biquad(sk, ffi, DESIGNS["butter4_hp"], 1, np.float64)
    x = np.zeros((1, 10))
    x[0, 3] = np.nan
    y = f.process(x)
    assert np.isnan(y[0, 3:]).all() and not np.isnan(y[0, :3]).any()
    assert sk.sk_biquad_reset(f.h) == SK_OK
    assert np.all(f.process(np.zeros((1, 5))) == 0)
    f.free()


def test_different_handles_run_in_parallel_and_shared_misuse_is_an_error(sk, ffi):
    sos = DESIGNS["butter8_lp"]
    rng = np.random.default_rng(9)
    xs = [rng.standard_normal((4, 200_000)) for _ in range(4)]
    wants = [ss.sosfilt(sos, x, axis=-1) for x in xs]
    results = [None] * 4

    def work(i):
        f = Biquad(sk, ffi, sos, 4, np.float64)
        y = np.empty_like(xs[i])
        for t in range(0, 200_000, 10_000):
            f.process(xs[i][:, t : t + 10_000], y[:, t : t + 10_000])
        results[i] = y
        f.free()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for y, w in zip(results, wants):
        assert np.abs(y - w).max() <= 1e-10 * np.abs(w).max()

    # one handle hammered from two threads: every call is SK_OK or SK_ERR_INVALID_HANDLE
    # ("in use"), never a crash; the successful calls form a consistent stream.
    shared = Biquad(sk, ffi, sos, 1, np.float64)
    codes = []
    x = np.ones(256)
    X = ffi.from_buffer("double[]", x)

    def hammer():
        y = np.empty(256)
        Y = ffi.from_buffer("double[]", y)
        for _ in range(2000):
            codes.append(sk.sk_biquad_f64_process(shared.h, X, 256, Y, 256, 256))

    ts = [threading.Thread(target=hammer) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert set(codes) <= {SK_OK, SK_ERR_INVALID_HANDLE}
    assert codes.count(SK_OK) > 0
    assert shared.free() == SK_OK
