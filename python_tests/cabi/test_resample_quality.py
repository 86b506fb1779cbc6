"""Resampling quality measured, not claimed, through the C API (raw CFFI), next to python-soxr
measured the same way.

Measurements (all on the one-shot sk_resample_*, delay trimmed):
- alias rejection, downsampling: white noise confined (by FFT synthesis) to the band between
  the output Nyquist frequency and the input Nyquist frequency, which must be rejected
  entirely; the output power over the input power, in dB, away from the edges;
- image rejection, upsampling: white noise up to the input Nyquist frequency; the output's
  power density (Welch, Kaiser beta 20 window: sidelobes below -180 dB) in the band between the
  input and output Nyquist frequencies over its density in the passband;
- passband: sines up to the preset's passband edge come out within +-0.01 dB (amplitude by
  least squares at the known frequency);
- THD+N: a sine minus the same sine at the output instants, in dB of the sine;
- group delay: the stream's output n is the signal at input time (n - latency)*in/out.
"""

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import SK_OK

QUICK, LOW, MEDIUM, HIGH, VERY_HIGH = range(5)
SOXR_NAME = {HIGH: "HQ", VERY_HIGH: "VHQ"}

RATIOS = [(48000, 44100), (44100, 48000), (48000, 24000), (24000, 48000),
          (48000, 48000 / 2 ** 0.5)]


def oneshot(sk, ffi, x, fin, fout, q, dtype):
    ct = "float" if dtype == np.float32 else "double"
    x = np.ascontiguousarray(x, dtype=dtype)
    n = ffi.new("size_t *")
    assert sk.sk_resample_size(fin, fout, n, len(x)) == SK_OK
    y = np.empty(n[0], dtype=dtype)
    f = sk.sk_resample_f32 if ct == "float" else sk.sk_resample_f64
    rc = f(ffi.from_buffer(ct + "[]", x), 0, fin, fout, q, 1,
           ffi.from_buffer(ct + "[]", y), 0, len(x), len(y))
    assert rc == SK_OK
    return y


def band_noise(n, fs, lo, hi, seed):
    """White noise with every FFT bin outside [lo, hi] Hz exactly zero; unit RMS."""
    rng = np.random.default_rng(seed)
    spec = rng.standard_normal(n // 2 + 1) + 1j * rng.standard_normal(n // 2 + 1)
    f = np.fft.rfftfreq(n, 1 / fs)
    spec[(f < lo) | (f > hi)] = 0
    x = np.fft.irfft(spec, n)
    return x / np.sqrt(np.mean(x ** 2))


def rejection_db(resample, fin, fout, dtype):
    """Alias (down) or image (up) rejection in dB (negative: attenuation)."""
    n = 1 << 17
    lo_nyq = min(fin, fout) / 2
    if fout < fin:
        x = band_noise(n, fin, lo_nyq, fin / 2, 1).astype(dtype)
        y = np.asarray(resample(x), dtype=np.float64)
        edge = 4000
        mid = y[edge:-edge]
        return 10 * np.log10(np.mean(mid ** 2))
    x = band_noise(n, fin, 0, fin / 2, 2).astype(dtype)
    y = np.asarray(resample(x), dtype=np.float64)[4000:-4000]
    f, p = ss.welch(y, fout, window=("kaiser", 20.0), nperseg=8192, detrend=False)
    stop = (f > lo_nyq * 1.003) & (f < fout / 2 * 0.997)
    passband = (f > 100) & (f < lo_nyq * 0.9)
    return 10 * np.log10(np.mean(p[stop]) / np.mean(p[passband]))


def soxr_resample(fin, fout, q):
    soxr = pytest.importorskip("soxr")
    return lambda x: soxr.resample(x, fin, fout, quality=SOXR_NAME[q])


@pytest.mark.parametrize("fin,fout", RATIOS)
@pytest.mark.parametrize("q", [HIGH, VERY_HIGH])
def test_rejection_at_least_soxr(sk, ffi, fin, fout, q):
    """float32: at least soxr's matching preset on the same measurement (0.5 dB allowed for the
    measurement's own spread; VERY_HIGH sits on the float32 output rounding floor, as soxr VHQ
    does)."""
    ours = rejection_db(lambda x: oneshot(sk, ffi, x, fin, fout, q, np.float32), fin, fout,
                        np.float32)
    theirs = rejection_db(soxr_resample(fin, fout, q), fin, fout, np.float32)
    print(f"{fin}->{fout:.1f} q{q}: sigkern {ours:.1f} dB, soxr {theirs:.1f} dB")
    assert ours <= theirs + 0.5, (ours, theirs)
    assert ours <= {HIGH: -135.0, VERY_HIGH: -150.0}[q]


@pytest.mark.parametrize("fin,fout", RATIOS)
def test_very_high_reaches_170_db_in_double(sk, ffi, fin, fout):
    ours = rejection_db(lambda x: oneshot(sk, ffi, x, fin, fout, VERY_HIGH, np.float64), fin,
                        fout, np.float64)
    print(f"{fin}->{fout:.1f} f64 VERY_HIGH: {ours:.1f} dB")
    assert ours <= -170.0


def sine_amp_err(y, f, fout, edge):
    """Least-squares amplitude of a sine of frequency f in y, and the residual RMS."""
    m = np.arange(len(y))[edge:-edge]
    w = 2 * np.pi * f * m / fout
    a = np.stack([np.sin(w), np.cos(w)], axis=1)
    coef, *_ = np.linalg.lstsq(a, y[edge:-edge], rcond=None)
    return float(np.hypot(*coef)), float(np.sqrt(np.mean((y[edge:-edge] - np.sin(w)) ** 2)))


@pytest.mark.parametrize("fin,fout", RATIOS)
@pytest.mark.parametrize("q,edge", [(LOW, 0.80), (MEDIUM, 0.90), (HIGH, 0.913),
                                    (VERY_HIGH, 0.913)])
def test_passband_ripple_within_001_db(sk, ffi, fin, fout, q, edge):
    n = 20000
    top = edge * min(fin, fout) / 2
    for f in np.linspace(20.0, top, 12):
        x = np.sin(2 * np.pi * f * np.arange(n) / fin)
        y = oneshot(sk, ffi, x, fin, fout, q, np.float64)
        amp, _ = sine_amp_err(y, f, fout, 3000)
        assert abs(20 * np.log10(amp)) <= 0.01, (f, 20 * np.log10(amp))


@pytest.mark.parametrize("fin,fout", RATIOS)
@pytest.mark.parametrize("f", [1000.0, 15000.0])
def test_thd_n(sk, ffi, fin, fout, f):
    if f > 0.9 * min(fin, fout) / 2:
        f = 0.4 * min(fin, fout)
    n = 48000
    x = np.sin(2 * np.pi * f * np.arange(n) / fin)
    # the irrational ratio interpolates between precomputed phases (error about -160 dB at
    # 15 kHz); exact ratios use the phases themselves
    exact = float(fout).is_integer()
    for dtype, q, limit in [(np.float32, HIGH, -130.0),
                            (np.float64, VERY_HIGH, -165.0 if exact else -155.0)]:
        y = oneshot(sk, ffi, x, fin, fout, q, dtype).astype(np.float64)
        _, err = sine_amp_err(y, f, fout, 3000)
        thdn = 20 * np.log10(err / np.sqrt(0.5))
        print(f"{fin}->{fout:.1f} {f} Hz {np.dtype(dtype).name}: THD+N {thdn:.1f} dB")
        assert thdn <= limit, thdn


@pytest.mark.parametrize("fin,fout", RATIOS)
def test_group_delay_is_the_reported_latency(sk, ffi, fin, fout):
    h = ffi.new("SkResampler **")
    assert sk.sk_resampler_f64_new(fin, fout, 1, HIGH, h) == SK_OK
    h = h[0]
    try:
        lat = ffi.new("size_t *")
        assert sk.sk_resampler_latency(h, lat) == SK_OK
        lat = lat[0]
        n = 20000
        f = 997.0
        x = np.sin(2 * np.pi * f * np.arange(n) / fin)
        cap = int(n * fout / fin) + 10
        y = np.empty(cap)
        c, p = ffi.new("size_t *"), ffi.new("size_t *")
        assert sk.sk_resampler_f64_process(h, ffi.from_buffer("double[]", x), 0,
                                           ffi.from_buffer("double[]", y), 0, c, p, n,
                                           cap) == SK_OK
        assert c[0] == n
        y = y[:p[0]]
        k = np.arange(len(y))[lat + 3000:-3000]
        want = np.sin(2 * np.pi * f * (k - lat) / fout)
        assert np.max(np.abs(y[lat + 3000:-3000] - want)) < 1e-6
    finally:
        assert sk.sk_resampler_free(h) == SK_OK


# ------------------------------------------------------------------ minimum phase

LINEAR_PHASE, MINIMUM_PHASE = 0, 1


def stream(sk, ffi, x, fin, fout, q, phase, dtype):
    """A stream of the preset's spec with `phase` (process + flush), latency removed."""
    ct = "float" if dtype == np.float32 else "double"
    sfx = "f32" if ct == "float" else "f64"
    spec = ffi.new("SkResampleSpec *")
    assert sk.sk_resample_quality_spec(q, spec) == SK_OK
    hp = ffi.new("SkResampler **")
    assert getattr(sk, f"sk_resampler_{sfx}_new_spec_phase")(fin, fout, 1, spec, phase,
                                                             hp) == SK_OK
    h = hp[0]
    try:
        x = np.ascontiguousarray(x, dtype=dtype)
        lat, n_out = ffi.new("size_t *"), ffi.new("size_t *")
        assert sk.sk_resampler_latency(h, lat) == SK_OK
        assert sk.sk_resampler_output_size(h, n_out, len(x)) == SK_OK
        y = np.empty(n_out[0], dtype=dtype)
        c, p = ffi.new("size_t *"), ffi.new("size_t *")
        assert getattr(sk, f"sk_resampler_{sfx}_process")(
            h, ffi.from_buffer(ct + "[]", x), 0, ffi.from_buffer(ct + "[]", y), 0, c, p,
            len(x), len(y)) == SK_OK
        assert c[0] == len(x) and p[0] == len(y)
        assert sk.sk_resampler_flush_size(h, n_out) == SK_OK
        tail = np.empty(n_out[0], dtype=dtype)
        assert getattr(sk, f"sk_resampler_{sfx}_flush")(
            h, ffi.from_buffer(ct + "[]", tail), 0, p, len(tail)) == SK_OK
        assert p[0] == len(tail)
        return np.concatenate([y, tail])[lat[0]:], lat[0]
    finally:
        assert sk.sk_resampler_free(h) == SK_OK


def test_linear_phase_spec_is_the_preset(sk, ffi):
    """The preset's spec with SK_RESAMPLE_LINEAR_PHASE gives the one-shot preset output."""
    x = band_noise(20000, 48000, 0, 24000, 3)
    for q in (LOW, HIGH, VERY_HIGH):
        y, _ = stream(sk, ffi, x, 48000, 44100, q, LINEAR_PHASE, np.float64)
        np.testing.assert_array_equal(y, oneshot(sk, ffi, x, 48000, 44100, q, np.float64))


@pytest.mark.parametrize("fin,fout", RATIOS)
@pytest.mark.parametrize("q", [HIGH, VERY_HIGH])
def test_minimum_phase_keeps_the_rejection(sk, ffi, fin, fout, q):
    """Double: the rejection of linear phase (1 dB allowed for the measurement's spread, which
    sits 10-50 dB below the preset's attenuation here) and the preset's floor (135 dB; 170 dB as
    linear VERY_HIGH); float32: at least soxr's preset, as for linear phase."""
    lin = rejection_db(lambda x: oneshot(sk, ffi, x, fin, fout, q, np.float64), fin, fout,
                       np.float64)
    mp = rejection_db(lambda x: stream(sk, ffi, x, fin, fout, q, MINIMUM_PHASE,
                                       np.float64)[0], fin, fout, np.float64)
    print(f"{fin}->{fout:.1f} q{q} f64: minimum phase {mp:.1f} dB, linear {lin:.1f} dB")
    assert mp <= lin + 1.0, (mp, lin)
    assert mp <= {HIGH: -135.0, VERY_HIGH: -170.0}[q]
    mp32 = rejection_db(lambda x: stream(sk, ffi, x, fin, fout, q, MINIMUM_PHASE,
                                         np.float32)[0], fin, fout, np.float32)
    theirs = rejection_db(soxr_resample(fin, fout, q), fin, fout, np.float32)
    assert mp32 <= theirs + 0.5, (mp32, theirs)


@pytest.mark.parametrize("fin,fout", RATIOS)
def test_minimum_phase_passband_and_delay(sk, ffi, fin, fout):
    """Sines up to the passband edge keep their amplitude within 0.01 dB; a 100 Hz sine comes
    out delayed by less than 0.02 output samples after the latency is removed (the latency is
    the group delay at 0 Hz; higher frequencies are delayed differently, as minimum phase
    does); the latency is under a quarter of linear phase's; an impulse rings after its
    instant, not before."""
    n = 20000
    top = 0.913 * min(fin, fout) / 2
    for f in np.linspace(20.0, top, 12):
        y, lat = stream(sk, ffi, np.sin(2 * np.pi * f * np.arange(n) / fin), fin, fout, HIGH,
                        MINIMUM_PHASE, np.float64)
        amp, _ = sine_amp_err(y, f, fout, 3000)
        assert abs(20 * np.log10(amp)) <= 0.01, (f, 20 * np.log10(amp))
    for f in (100.0, 1000.0):
        y, lat = stream(sk, ffi, np.sin(2 * np.pi * f * np.arange(n * 4) / fin), fin, fout,
                        HIGH, MINIMUM_PHASE, np.float64)
        m = np.arange(len(y))[3000:-3000]
        w = 2 * np.pi * f * m / fout
        (a, b), *_ = np.linalg.lstsq(np.stack([np.sin(w), np.cos(w)], axis=1), y[3000:-3000],
                                     rcond=None)
        delay = np.arctan2(-b, a) / (2 * np.pi * f / fout)
        print(f"{fin}->{fout:.1f}: {f} Hz delayed {delay:.4f} output samples")
        if f == 100.0:
            assert abs(delay) < 0.02, delay
    lin = ffi.new("SkResampler **")
    assert sk.sk_resampler_f64_new(fin, fout, 1, HIGH, lin) == SK_OK
    lin_lat = ffi.new("size_t *")
    assert sk.sk_resampler_latency(lin[0], lin_lat) == SK_OK
    assert sk.sk_resampler_free(lin[0]) == SK_OK
    assert 4 * lat < lin_lat[0], (lat, lin_lat[0])
    # an impulse in the middle: energy more than 16 output samples before its instant (the
    # reach of the short symmetric second stage) is tiny for minimum phase, about half of the
    # ringing for linear phase
    x = np.zeros(4000)
    x[2000] = 1.0
    y, _ = stream(sk, ffi, x, fin, fout, HIGH, MINIMUM_PHASE, np.float64)
    t0 = int(2000 * fout / fin)
    before, after = np.sum(y[:t0 - 16] ** 2), np.sum(y[t0 - 16:] ** 2)
    ylin = oneshot(sk, ffi, x, fin, fout, HIGH, np.float64)
    lin_before = np.sum(ylin[:t0 - 16] ** 2)
    print(f"{fin}->{fout:.1f}: energy before the impulse {before / after:.2e} "
          f"(linear {lin_before / after:.2e})")
    assert before < 1e-6 * after and lin_before > 1e3 * before


def test_phase_errors(sk, ffi, last_error):
    spec = ffi.new("SkResampleSpec *")
    assert sk.sk_resample_quality_spec(5, spec) == -5
    assert "quality" in last_error()
    assert sk.sk_resample_quality_spec(HIGH, ffi.NULL) == -1
    assert sk.sk_resample_quality_spec(HIGH, spec) == SK_OK
    assert (spec.passband_end, spec.stopband_begin, spec.attenuation_db) == (0.913, 1.0, 135.0)
    hp = ffi.new("SkResampler **")
    hp[0] = ffi.cast("SkResampler *", 1234)
    for ph in (-1, 2):
        assert sk.sk_resampler_f32_new_spec_phase(48000, 44100, 1, spec, ph, hp) == -5
        assert "phase" in last_error()
    assert hp[0] == ffi.cast("SkResampler *", 1234)
    assert sk.sk_resampler_f64_new_spec_phase(48000, 44100, 1, ffi.NULL, 1, hp) == -1
    # a filter too long for the minimum-phase design: 2 Hz of transition band at 48 kHz
    spec.passband_end, spec.stopband_begin, spec.attenuation_db = 0.9999, 1.0, 200.0
    assert sk.sk_resampler_f64_new_spec_phase(48000, 44100, 1, spec, 1, hp) == -5
    assert "minimum-phase" in last_error() or "taps" in last_error()
