"""Loudness meter through the C ABI: a float64 numpy/scipy reference of BS.1770-4 at 48 kHz
(the recommendation's own coefficient table), pyloudnorm on music-like material, chunked
feeding, and the error contract of every sk_meter_* / sk_loudness_* function."""

import numpy as np
import pytest
from scipy import signal

RATE = 48000
# ITU-R BS.1770-4 tables 1 and 2 (48 kHz)
SHELF = ([1.53512485958697, -2.69169618940638, 1.19839281085285], [1.0, -1.69065929318241, 0.73248077421585])
HIGHPASS = ([1.0, -2.0, 1.0], [1.0, -1.99004745483398, 0.99007225036621])


def music(rate, secs, channels, seed):
    """Low-passed noise plus partials, a level change every 1.3 s (planar, float64)."""
    rng = np.random.default_rng(seed)
    n = int(secs * rate)
    t = np.arange(n) / rate
    x = signal.lfilter([0.2], [1, -0.8], rng.standard_normal((channels, n)), axis=1)
    x += 0.3 * np.sin(2 * np.pi * 220 * t) + 0.1 * np.sin(2 * np.pi * 3150 * t)
    seg = int(1.3 * rate)
    gains = 10 ** (rng.uniform(-25, -3, size=n // seg + 1) / 20)
    return x * np.repeat(gains, seg)[:n]


def reference_integrated(x, weights):
    """BS.1770-4 integrated loudness, float64, straight from the recommendation at 48 kHz."""
    y = signal.lfilter(*HIGHPASS, signal.lfilter(*SHELF, x, axis=1), axis=1)
    step = RATE // 10
    nb = (x.shape[1] - 4 * step) // step + 1
    z = np.array([[np.mean(y[c, j * step:j * step + 4 * step] ** 2) for j in range(nb)]
                  for c in range(x.shape[0])])
    zb = np.asarray(weights) @ z
    lb = -0.691 + 10 * np.log10(zb)
    keep = lb >= -70
    rel = -0.691 + 10 * np.log10(zb[keep].mean()) - 10
    keep &= lb >= rel
    return -0.691 + 10 * np.log10(zb[keep].mean())


def stats_f64(sk, ffi, x, rate=RATE, true_peak=1, weights=None):
    x = np.ascontiguousarray(x, np.float64)
    out = ffi.new("SkLoudnessStats *")
    w = ffi.NULL if weights is None else ffi.from_buffer("double[]", np.asarray(weights, np.float64))
    st = sk.sk_loudness_f64(ffi.from_buffer("double[]", x), x.shape[1], w, rate, true_peak, out,
                            x.shape[0], x.shape[1])
    assert st == sk.SK_OK
    return out


@pytest.mark.parametrize("channels,weights", [(1, [1.0]), (2, [1.0, 1.0]), (5, [1, 1, 1, 1.41, 1.41])])
def test_integrated_matches_the_float64_reference(sk, ffi, channels, weights):
    x = music(RATE, 20.37, channels, channels)
    got = stats_f64(sk, ffi, x).integrated
    assert abs(got - reference_integrated(x, weights)) < 1e-6


def test_agrees_with_pyloudnorm_within_0_01_lu(sk, ffi):
    """pyloudnorm's "DeMan" filter class is the BS.1770 filter designed for any rate (the design
    sigkern uses); its default "K-weighting" class rounds the filter parameters (a 1500 Hz,
    +4 dB shelf, a 38 Hz high-pass), which moves material with strong bass by a few hundredths
    of an LU, so that class is checked within 0.1 LU."""
    pyln = pytest.importorskip("pyloudnorm")
    for rate, channels, seed in [(48000, 2, 1), (44100, 2, 2), (48000, 1, 3), (32000, 5, 4), (96000, 2, 5)]:
        x = music(rate, 15.0, channels, seed)
        ref = pyln.Meter(rate, filter_class="DeMan").integrated_loudness(x.T)
        got = stats_f64(sk, ffi, x, rate=rate).integrated
        assert abs(got - ref) < 0.01, (rate, channels, got, ref)
        assert abs(got - pyln.Meter(rate).integrated_loudness(x.T)) < 0.1
        x32 = x.astype(np.float32)
        out = ffi.new("SkLoudnessStats *")
        assert sk.sk_loudness_interleaved_f32(ffi.from_buffer("float[]", np.ascontiguousarray(x32.T)), ffi.NULL,
                                              rate, 0, out, channels, x.shape[1]) == sk.SK_OK
        assert abs(out.integrated - ref) < 0.01


def test_chunked_stream_equals_one_shot_bit_for_bit(sk, ffi):
    x = music(RATE, 7.3, 2, 9).astype(np.float32)
    whole = stats_f64(sk, ffi, x.astype(np.float64))
    ref = ffi.new("SkLoudnessStats *")
    assert sk.sk_loudness_f32(ffi.from_buffer("float[]", x), x.shape[1], ffi.NULL, RATE, 1, ref, 2, x.shape[1]) == 0
    assert ref.integrated == whole.integrated  # f32 samples are exact in f64
    h = ffi.new("SkMeter **")
    assert sk.sk_meter_new(ffi.NULL, RATE, 1, h, 2) == sk.SK_OK
    m = h[0]
    rng = np.random.default_rng(0)
    t = 0
    while t < x.shape[1]:
        k = int(rng.integers(0, 7000))
        blk = x[:, t:t + k]  # a time slice: rows at stride x.shape[1]
        assert sk.sk_meter_add_f32(m, ffi.cast("float *", blk.ctypes.data), x.shape[1], blk.shape[1]) == 0
        t += k
    got = ffi.new("SkLoudnessStats *")
    assert sk.sk_meter_stats(m, got) == 0
    for f in ("integrated", "loudness_range", "momentary", "short_term", "max_momentary",
              "max_short_term", "sample_peak", "true_peak"):
        assert getattr(got, f) == getattr(ref, f), f
    sp = np.empty(2)
    tp = np.empty(2)
    assert sk.sk_meter_peaks(m, ffi.from_buffer("double[]", sp), ffi.from_buffer("double[]", tp), 2) == 0
    assert np.allclose(sp, 20 * np.log10(np.abs(x).max(axis=1).astype(np.float64)), atol=1e-12, rtol=0)
    assert max(tp) == ref.true_peak and np.all(tp >= sp)
    assert sk.sk_meter_free(m) == 0


def test_normalize_gain(sk, ffi):
    g = ffi.new("double *")
    assert sk.sk_loudness_normalize_gain(-30.0, -10.0, -23.0, -1.0, g) == 0
    assert abs(g[0] - 10 ** (7 / 20)) < 1e-12
    assert sk.sk_loudness_normalize_gain(-30.0, -3.0, -23.0, -1.0, g) == 0
    assert abs(g[0] - 10 ** (2 / 20)) < 1e-12
    assert sk.sk_loudness_normalize_gain(float("-inf"), float("-inf"), -23.0, -1.0, g) == 0 and g[0] == 1.0
    for bad in [(float("nan"), 0.0, -23.0, -1.0), (-20.0, float("inf"), -23.0, -1.0),
                (-20.0, -1.0, float("inf"), -1.0), (-20.0, -1.0, -23.0, float("nan"))]:
        g[0] = 7.0
        assert sk.sk_loudness_normalize_gain(*bad, g) == sk.SK_ERR_BAD_ARGUMENT and g[0] == 7.0
    assert sk.sk_loudness_normalize_gain(-20.0, -1.0, -23.0, -1.0, ffi.NULL) == sk.SK_ERR_NULL_POINTER


def test_bad_input_gets_a_status_and_a_message(sk, ffi, last_error):
    h = ffi.new("SkMeter **")
    h[0] = ffi.NULL
    for rate in (7999.0, 384001.0, float("nan"), float("inf")):
        assert sk.sk_meter_new(ffi.NULL, rate, 1, h, 2) == sk.SK_ERR_BAD_ARGUMENT
        assert "rate" in last_error() and last_error().startswith("sk_meter_new")
    assert sk.sk_meter_new(ffi.NULL, RATE, 1, h, 0) == sk.SK_ERR_LENGTH
    assert sk.sk_meter_new(ffi.NULL, RATE, 1, h, 65) == sk.SK_ERR_LENGTH
    assert sk.sk_meter_new(ffi.NULL, RATE, 2, h, 2) == sk.SK_ERR_BAD_ARGUMENT
    w = np.array([1.0, -1.0])
    assert sk.sk_meter_new(ffi.from_buffer("double[]", w), RATE, 1, h, 2) == sk.SK_ERR_BAD_ARGUMENT
    assert "weights[1]" in last_error()
    assert sk.sk_meter_new(ffi.NULL, RATE, 1, ffi.NULL, 2) == sk.SK_ERR_NULL_POINTER
    raw = np.zeros(3)
    mis = ffi.cast("double *", raw.ctypes.data + 1)
    assert sk.sk_meter_new(mis, RATE, 1, h, 2) == sk.SK_ERR_MISALIGNED
    assert h[0] == ffi.NULL  # nothing written on error

    assert sk.sk_meter_new(ffi.NULL, RATE, 1, h, 2) == 0
    m = h[0]
    x = np.zeros((2, 4800), np.float32)
    px = ffi.from_buffer("float[]", x)
    assert sk.sk_meter_add_f32(m, ffi.NULL, 4800, 4800) == sk.SK_ERR_NULL_POINTER
    assert sk.sk_meter_add_f32(m, px, 4799, 4800) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_meter_add_f32(m, px, -1, 4800) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_meter_add_interleaved_f64(m, ffi.NULL, 2**63) == sk.SK_ERR_LENGTH
    before = ffi.new("SkLoudnessStats *")
    assert sk.sk_meter_add_f32(m, px, 4800, 4800) == 0
    assert sk.sk_meter_stats(m, before) == 0
    for bad in (np.nan, np.inf, -np.inf):
        y = np.full((2, 4800), 0.5, np.float32)
        y[1, 123] = bad
        assert sk.sk_meter_add_f32(m, ffi.from_buffer("float[]", y), 4800, 4800) == sk.SK_ERR_NON_FINITE
        assert "channel 1, frame 123" in last_error()
    after = ffi.new("SkLoudnessStats *")
    assert sk.sk_meter_stats(m, after) == 0
    assert ffi.buffer(after)[:] == ffi.buffer(before)[:]  # nothing was fed
    assert sk.sk_meter_stats(m, ffi.NULL) == sk.SK_ERR_NULL_POINTER
    assert sk.sk_meter_peaks(m, ffi.NULL, ffi.NULL, 3) == sk.SK_ERR_LENGTH
    both = np.zeros(3)
    pb = ffi.from_buffer("double[]", both)
    assert sk.sk_meter_peaks(m, pb, pb, 2) == sk.SK_ERR_OVERLAP
    # a handle of another kind, NULL, freed
    bq = ffi.new("SkBiquad **")
    sos = np.array([1.0, 0, 0, 1, 0, 0])
    assert sk.sk_biquad_f32_new(ffi.from_buffer("double[]", sos), 1, bq, 1) == 0
    wrong = ffi.cast("SkMeter *", bq[0])
    assert sk.sk_meter_reset(wrong) == sk.SK_ERR_INVALID_HANDLE
    assert "biquad" in last_error()
    assert sk.sk_meter_free(wrong) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_biquad_free(bq[0]) == 0
    assert sk.sk_meter_stats(ffi.NULL, after) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_meter_free(ffi.NULL) == 0
    assert sk.sk_meter_reset(m) == 0
    assert sk.sk_meter_free(m) == 0
    for call in (lambda: sk.sk_meter_free(m), lambda: sk.sk_meter_reset(m), lambda: sk.sk_meter_stats(m, after),
                 lambda: sk.sk_meter_add_f32(m, px, 4800, 4800)):
        assert call() == sk.SK_ERR_INVALID_HANDLE
        assert "not a live sigkern handle" in last_error()
    # one-shot: every check before anything is written
    out = ffi.new("SkLoudnessStats *")
    out.integrated = 42.0
    assert sk.sk_loudness_f32(px, 4800, ffi.NULL, 1000.0, 1, out, 2, 4800) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_loudness_f32(px, 4800, ffi.NULL, RATE, 1, out, 0, 4800) == sk.SK_ERR_LENGTH
    assert sk.sk_loudness_f32(px, 4800, ffi.NULL, RATE, 1, ffi.NULL, 2, 4800) == sk.SK_ERR_NULL_POINTER
    assert out.integrated == 42.0
