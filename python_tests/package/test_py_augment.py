"""sigkern.augment against audiomentations 0.43: each transform run by both with the same
parameters (sigkern draws them; the audiomentations instance gets them in its `parameters`,
frozen) and compared: bit-exact where both round the same way, else within 2e-6 of the peak in
float32 (the filters, which audiomentations rounds to float32 between bands: 2e-5 of the
peak); SNRs within 0.01 dB; IR convolution against scipy.signal.fftconvolve within 1e-9;
reproducibility from a seed; argument errors as audiomentations raises them."""

import math

import numpy as np
import pytest
import scipy.signal

import audiomentations as am
import audiomentations.augmentations.add_color_noise as am_color
import audiomentations.augmentations.add_gaussian_noise as am_gn
import audiomentations.augmentations.add_gaussian_snr as am_snr
import sigkern
from sigkern import augment as sa
from sigkern.augment import _kernels as K

SR = 16000


def speech_like(n=8000, seed=0, dtype=np.float32, rows=None):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / SR
    shape = (n,) if rows is None else (rows, n)
    x = 0.4 * np.sin(2 * np.pi * 220 * t) * (1 + 0.5 * np.sin(2 * np.pi * 3 * t))
    return (x + 0.05 * rng.standard_normal(shape)).astype(dtype)


def close(got, ref, tol):
    assert got.shape == ref.shape and got.dtype == ref.dtype
    err = float(np.abs(got.astype(np.float64) - ref.astype(np.float64)).max())
    assert err <= tol * float(np.abs(ref).max()), f"max err {err:e}"


def run_am(t_am, params, x):
    t_am.parameters = dict(params, should_apply=True)
    t_am.freeze_parameters()
    return t_am(x, SR)


def test_gain_polarity_normalize_bitcrush_equal_bit_for_bit():
    x = speech_like()
    t = sa.Gain(-6, 6, p=1.0, seed=1)
    y = t(x, SR)
    assert np.array_equal(y, run_am(am.Gain(p=1.0), t.parameters, x))
    assert np.array_equal(sa.PolarityInversion(p=1.0)(x, SR), am.PolarityInversion(p=1.0)(x, SR))
    t = sa.BitCrush(3, 9, p=1.0, seed=2)
    y = t(x, SR)
    assert np.array_equal(y, run_am(am.BitCrush(3, 9, p=1.0), t.parameters, x))
    t = sa.Normalize(p=1.0)
    close(t(x, SR), run_am(am.Normalize(p=1.0), t.parameters, x), 1.2e-7)
    quiet = 0.5 * x / np.abs(x).max()
    assert np.array_equal(sa.Normalize("only_too_loud_sounds", p=1.0)(quiet, SR), quiet)


def test_gain_transition_equal():
    x = speech_like(4000)
    for seed, unit, lo, hi in ((3, "seconds", 0.01, 0.4), (4, "fraction", 0.5, 2.0),
                               (5, "samples", 3, 10)):
        t = sa.GainTransition(min_duration=lo, max_duration=hi, duration_unit=unit, p=1.0,
                              seed=seed)
        y = t(x, SR)
        ref = run_am(am.GainTransition(min_duration=lo, max_duration=hi, duration_unit=unit,
                                       p=1.0), t.parameters, x)
        close(y, ref, 2e-7)


def test_clipping_distortion_equal():
    x = speech_like()
    t = sa.ClippingDistortion(10, 60, p=1.0, seed=6)
    assert np.array_equal(t(x, SR), run_am(am.ClippingDistortion(10, 60, p=1.0), t.parameters, x))


def test_gaussian_noise_and_snr_equal_given_the_noise(monkeypatch):
    x = speech_like()
    for cls, mod, kw in ((sa.AddGaussianSNR, am_snr, dict(min_snr_db=3, max_snr_db=30)),
                         (sa.AddGaussianNoise, am_gn, dict())):
        t = cls(p=1.0, seed=7, **kw)
        t.randomize_parameters(x, SR)
        t.freeze_parameters()
        g = np.random.default_rng()
        g.bit_generator.state = t.rng.bit_generator.state
        # the transform's noise: sk_augment_normal_* seeded from its generator's next draw
        z = K.normal(x.shape, x.dtype, int(g.integers(0, 2**63))).astype(np.float64)
        y = t(x, SR)
        if cls is sa.AddGaussianSNR:
            monkeypatch.setattr(mod.np.random, "normal", lambda loc, scale, size: loc + scale * z)
        else:
            monkeypatch.setattr(mod.np.random, "randn", lambda *shape: z)
        t_am = getattr(am, cls.__name__)(p=1.0, **kw)
        prm = dict(t.parameters)
        if cls is sa.AddGaussianSNR:
            # audiomentations' noise_std from its float32 RMS at the same SNR: within 1e-6
            from audiomentations.core.utils import calculate_desired_noise_rms, calculate_rms
            want = calculate_desired_noise_rms(calculate_rms(x), prm["snr_db"])
            assert abs(want / prm["noise_std"] - 1) < 1e-6
        close(y, run_am(t_am, prm, x), 2e-7)
        monkeypatch.undo()


def test_gaussian_snr_reaches_the_asked_snr_in_a_batch():
    x = speech_like(16000, rows=6, dtype=np.float64)
    t = sa.AddGaussianSNR(10, 10, p=1.0, seed=8)
    y = t(x, SR)
    snr = 20 * np.log10(np.sqrt(np.mean(x ** 2, -1)) / np.sqrt(np.mean((y - x) ** 2, -1)))
    # the noise is a random draw: its RMS is within ~1/sqrt(2n) of noise_std
    assert np.all(np.abs(snr - 10) < 0.1), snr
    assert t.parameters["noise_std"].shape == (6,)


def test_background_noise_exact_snr_and_absolute_level():
    x = speech_like(8000, rows=4, dtype=np.float64)
    noises = [np.random.default_rng(k).standard_normal(12000 + 3000 * k) for k in range(3)]
    t = sa.AddBackgroundNoise(noises, 0.0, 20.0, p=1.0, seed=9)
    y = t(x, SR)
    snr = 20 * np.log10(np.sqrt(np.mean(x ** 2, -1)) / np.sqrt(np.mean((y - x) ** 2, -1)))
    assert np.all(np.abs(snr - t.parameters["snr_db"]) < 0.01)
    for r in range(4):
        i, off = t.parameters["noise_index"][r], t.parameters["offset"][r]
        seg = noises[i][off:off + 8000]
        added = y[r] - x[r]
        np.testing.assert_allclose(added, seg * (np.sqrt(np.mean(added ** 2)) / np.sqrt(np.mean(seg ** 2))), rtol=1e-9, atol=1e-12)
    t = sa.AddBackgroundNoise(noises[0][:3000], noise_rms="absolute", p=1.0, seed=10)
    y = t(x[0], SR)
    lvl = 20 * np.log10(np.sqrt(np.mean((y - x[0]) ** 2)))
    assert abs(lvl - t.parameters["rms_db"]) < 0.01  # the short noise is repeated
    assert np.array_equal((y - x[0])[:3000] * 0 + (y - x[0])[3000:6000], (y - x[0])[:3000]) or \
        np.allclose((y - x[0])[3000:6000], (y - x[0])[:3000], rtol=1e-12, atol=1e-15)
    silent = sa.AddBackgroundNoise(np.zeros(100), p=1.0, seed=0)
    assert np.array_equal(silent(x[0], SR), x[0])


def test_color_noise_equal_given_the_noise(monkeypatch):
    x = speech_like(4000)
    t = sa.AddColorNoise(p=1.0, seed=11, min_f_decay=-6.02, max_f_decay=6.02)
    t.randomize_parameters(x, SR)
    t.freeze_parameters()
    g = np.random.default_rng()
    g.bit_generator.state = t.rng.bit_generator.state
    white, phases = g.standard_normal(4000), g.uniform(0, 2 * np.pi, 65)
    y = t(x, SR)
    monkeypatch.setattr(am_color.np.random, "normal", lambda loc, scale, size: white)
    monkeypatch.setattr(am_color.np.random, "uniform", lambda lo, hi, size: phases)
    close(y, run_am(am.AddColorNoise(p=1.0), t.parameters, x), 2e-6)


def test_color_noise_spectral_slope():
    rng = np.random.default_rng(12)
    for decay in (-6.02, -3.01, 3.01):
        z = sa.colored_noise(rng.standard_normal(1 << 16), decay, SR, n_fft=128,
                             phases=rng.uniform(0, 2 * np.pi, 65))
        f, pxx = scipy.signal.welch(z, SR, nperseg=1024)
        band = (f > 200) & (f < 6000)
        slope = np.polyfit(np.log2(f[band]), 10 * np.log10(pxx[band]), 1)[0]
        # audiomentations' 128-point colouring filter follows the slope only roughly
        assert abs(slope - decay) < 1.0, (decay, slope)
        assert abs(np.sqrt(np.mean(z ** 2)) - 1) < 1e-12


def test_impulse_response_equals_fftconvolve():
    x = speech_like(8000, rows=3, dtype=np.float64)
    irs = np.random.default_rng(13).standard_normal((2, 800)) * np.exp(-np.arange(800) / 150)
    t = sa.ApplyImpulseResponse(irs, p=1.0, leave_length_unchanged=False, seed=0)
    t.randomize_parameters(x, SR)
    t.parameters["ir_index"] = np.array([1, 1, 1])
    t.freeze_parameters()
    y = t(x, SR)
    ref = scipy.signal.fftconvolve(x, irs[1][None, :], axes=-1)
    ref = ref * (0.5 / np.abs(ref).max(axis=-1, keepdims=True))
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-9 * 0.5)
    t2 = sa.ApplyImpulseResponse(irs, p=1.0, seed=14)
    x1 = speech_like(8000)
    y1 = t2(x1, SR)
    i = t2.parameters["ir_index"]
    raw = scipy.signal.convolve(x1, irs[i].astype(np.float32))
    ref1 = (raw * np.float32(0.5 / max(raw.max(), -raw.min())))[:8000]
    close(y1, ref1, 2e-6)


def test_filters_equal():
    x = speech_like(6000)
    for cls, seed in ((sa.LowPassFilter, 15), (sa.HighPassFilter, 16), (sa.BandPassFilter, 17),
                      (sa.BandStopFilter, 18)):
        for zp in (False, True):
            t = cls(min_rolloff=12, max_rolloff=36 if zp else 30, zero_phase=zp, p=1.0, seed=seed)
            y = t(x, SR)
            ref = run_am(getattr(am, cls.__name__)(min_rolloff=12, max_rolloff=36 if zp else 30,
                                                   zero_phase=zp, p=1.0), t.parameters, x)
            close(y, ref, 2e-5)


def test_seven_band_eq_equal():
    x = speech_like(6000)
    t = sa.SevenBandParametricEQ(p=1.0, seed=19)
    y = t(x, SR)
    t_am = am.SevenBandParametricEQ(p=1.0)
    t_am.randomize_parameters(x, SR)
    bands = [t_am.low_shelf_filter] + t_am.peaking_filters + [t_am.high_shelf_filter]
    for b, f in enumerate(bands):
        f.parameters = {"should_apply": True, "center_freq": t.parameters["center_freq"][b],
                        "gain_db": t.parameters["gain_db"][b], "q_factor": t.parameters["q_factor"][b]}
    t_am.parameters["should_apply"] = True
    t_am.freeze_parameters()
    close(y, t_am(x, SR), 2e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gaussian_snr_batch_equals_normal_then_mix(dtype):
    """The noise drawn and added in one pass (``sk_augment_add_normal_*``) equals the draws of
    ``sk_augment_normal_*`` added by ``sk_augment_mix_*``, bit for bit; a zero std leaves its
    row alone."""
    x = speech_like(4001, rows=5, dtype=dtype)
    t = sa.AddGaussianSNR(p=1.0, seed=27)
    t.randomize_parameters(x, SR)
    t.parameters["noise_std"][2] = 0.0
    t.freeze_parameters()
    g = np.random.default_rng()
    g.bit_generator.state = t.rng.bit_generator.state
    z = K.normal(x.shape, dtype, int(g.integers(0, 2**63)))
    std = t.parameters["noise_std"]
    want = K.mix(x, z, 20 * np.log10(np.where(std > 0, std, 1.0)), K.ABSOLUTE, False)
    want[2] = x[2]
    assert np.array_equal(t(x, SR), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_filter_batch_equals_the_row_route(dtype):
    """A batch through the one-call per-row cascades (``sk_augment_sosfilt_*``, cascades of
    different lengths completed with identity sections) equals each row through
    ``sigkern.sosfilt`` in float64 from ``sosfilt_zi(sos) * x[0]``, bit for bit."""
    x = speech_like(3001, rows=6, dtype=dtype)
    lp = sa.LowPassFilter(min_rolloff=6, max_rolloff=30, p=1.0, seed=24)
    for t in (lp, sa.SevenBandParametricEQ(p=1.0, seed=25)):
        y = t(x, SR)
        assert y.dtype == dtype and y.shape == x.shape
        prm = {k: np.asarray(v) for k, v in t.parameters.items()}
        for r in range(6):
            if isinstance(t, sa.LowPassFilter):
                sos = t._sos(prm, r, SR)
            else:
                sos = np.concatenate([sa.eq_section(kind, prm["center_freq"][r, b], prm["gain_db"][r, b],
                                                    prm["q_factor"][r, b], SR)
                                      for b, kind in enumerate(["low_shelf"] + ["peaking"] * 5 + ["high_shelf"])])
            row = x[r].astype(np.float64)
            want, _ = sigkern.sosfilt(sos, row, zi=sigkern.sosfilt_zi(sos) * row[0])
            assert np.array_equal(y[r], want.astype(dtype)), (type(t).__name__, r)
    lp_prm = {k: np.asarray(v) for k, v in lp.parameters.items()}
    assert len({lp._sos(lp_prm, r, SR).shape[0] for r in range(6)}) > 1  # several lengths
    # one bad first sample: refused, naming the C function
    bad = x.copy()
    bad[3, 0] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match="sk_augment_sosfilt"):
        sa.SevenBandParametricEQ(p=1.0, seed=26)(bad, SR)


def test_time_stretch_and_pitch_shift_as_librosa_method():
    import librosa
    x = speech_like(8000, dtype=np.float64)
    t = sa.TimeStretch(p=1.0, seed=20)
    y = t(x, SR)
    ref = librosa.effects.time_stretch(x, rate=t.parameters["rate"])
    ref = np.pad(ref, (0, max(0, 8000 - ref.size)))[:8000]
    close(y, ref, 1e-6)
    t = sa.PitchShift(p=1.0, seed=21)
    y = t(x, SR)
    st = t.parameters["num_semitones"]
    assert np.array_equal(y, sigkern.effects.pitch_shift(x, sr=SR, n_steps=st))
    # librosa resamples with soxr, sigkern with its own resampler: within their passband error
    ref = librosa.effects.pitch_shift(x, sr=SR, n_steps=st, res_type="soxr_hq")
    inner = slice(2048, -2048)
    assert np.sqrt(np.mean((y[inner] - ref[inner]) ** 2) / np.mean(ref[inner] ** 2)) < 1e-3


def test_batch_rows_match_single_calls_and_seed_reproduces():
    x = speech_like(3000, rows=5)
    t = sa.Gain(p=0.5, seed=22)
    y = t(x, SR)
    sel = t.parameters["should_apply"]
    assert sel.shape == (5,)
    for r in range(5):
        want = x[r] * np.float32(t.parameters["amplitude_ratio"][r]) if sel[r] else x[r]
        assert np.array_equal(y[r], want)
    chain = lambda s: sa.Compose([sa.AddGaussianSNR(p=1.0), sa.Gain(p=0.7), sa.BitCrush(p=0.5),
                                  sa.PolarityInversion()], p=0.8, shuffle=True, seed=s)
    a, b, c = chain(5)(x, SR), chain(5)(x, SR), chain(6)(x, SR)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    # frozen parameters are reused and broadcast over a batch
    t = sa.Gain(p=1.0, seed=23)
    y1 = t(x[0], SR)
    t.freeze_parameters()
    yb = t(x, SR)
    assert np.array_equal(yb[0], y1) and np.array_equal(yb, x * np.float32(t.parameters["amplitude_ratio"]))
    assert sa.Gain(p=0.0)(x, SR) is x


def test_torchaudio_style_functions():
    rng = np.random.default_rng(24)
    w, nz = rng.standard_normal((3, 500)), rng.standard_normal((3, 500))
    snr = np.array([0.0, 10.0, 20.0])
    y = sa.add_noise(w, nz, snr)
    es, en = np.sum(w ** 2, -1), np.sum(nz ** 2, -1)
    ref = w + (10 ** ((10 * np.log10(es / en) - snr) / 20))[:, None] * nz
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)
    ln = np.array([500, 300, 100])
    y = sa.add_noise(w, nz, snr, lengths=ln)
    m = np.arange(500) < ln[:, None]
    es, en = np.sum((w * m) ** 2, -1), np.sum((nz * m) ** 2, -1)
    ref = w + (10 ** ((10 * np.log10(es / en) - snr) / 20))[:, None] * nz
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)
    f = sa.fade(np.ones((2, 10), np.float32), 4, 3, "linear")
    assert np.allclose(f[0], [0, 1 / 3, 2 / 3, 1, 1, 1, 1, 1, 0.5, 0])
    spec = np.ones((4, 16, 20), np.float32)
    s = sa.mask_along_axis(spec, 8, 0.0, 2, seed=0)
    cols = np.where((s == 0).all(axis=(0, 1)))[0]
    assert (s[..., cols] == 0).all() and (s == 0).sum() == 4 * 16 * cols.size and cols.size <= 8
    s = sa.mask_along_axis_iid(spec, 6, -1.0, 1, seed=1)
    for b in range(4):
        rows = np.where((s[b] == -1).all(axis=1))[0]
        assert rows.size <= 6 and (s[b] == -1).sum() == 20 * rows.size
        if rows.size:
            assert np.array_equal(rows, np.arange(rows[0], rows[0] + rows.size))
    with pytest.raises(ValueError):
        sa.mask_along_axis(spec[0, 0], 4, 0.0, 0)
    with pytest.raises(ValueError):
        sa.mask_along_axis_iid(spec[0], 4, 0.0, 1)


@pytest.mark.parametrize("make,exc", [
    (lambda m: m.Gain(min_gain_db=3, max_gain_db=1), ValueError),
    (lambda m: m.AddGaussianSNR(min_snr_db=30, max_snr_db=5), ValueError),
    (lambda m: m.AddGaussianNoise(min_amplitude=0.0), AssertionError),
    (lambda m: m.BitCrush(min_bit_depth=0), ValueError),
    (lambda m: m.BitCrush(max_bit_depth=33), ValueError),
    (lambda m: m.ClippingDistortion(50, 10), AssertionError),
    (lambda m: m.LowPassFilter(min_rolloff=7), AssertionError),
    (lambda m: m.BandPassFilter(max_bandwidth_fraction=2.5), ValueError),
    (lambda m: m.TimeStretch(min_rate=0.05), ValueError),
    (lambda m: m.PitchShift(max_semitones=30), ValueError),
    (lambda m: m.Gain(p=1.5), AssertionError),
])
def test_bad_arguments_raise_like_audiomentations(make, exc):
    with pytest.raises(exc):
        make(am)
    with pytest.raises(exc):
        make(sa)


def test_bad_samples():
    t = sa.Gain(p=1.0)
    with pytest.raises(TypeError):
        t(np.ones(4, np.int16), SR)
    with pytest.raises(TypeError):
        t([0.0, 1.0], SR)
    with pytest.raises(ValueError):
        t(np.ones(4, np.float32), 0)


def test_shift_equal():
    x = speech_like(4000)
    for seed, kw in ((25, dict()), (26, dict(rollover=False)),
                     (27, dict(min_shift=-300, max_shift=300, shift_unit="samples")),
                     (28, dict(min_shift=-0.1, max_shift=-0.05, shift_unit="seconds", rollover=False))):
        t = sa.Shift(p=1.0, seed=seed, **kw)
        y = t(x, SR)
        assert np.array_equal(y, run_am(am.Shift(p=1.0, **kw), t.parameters, x)), kw


def test_normal_generator_moments_and_reproducibility():
    from scipy import stats
    z = K.normal((4, 250_000), np.float64, 12345)
    assert np.array_equal(z, K.normal((4, 250_000), np.float64, 12345))
    # float rows hold the double values rounded
    assert np.array_equal(K.normal((4, 250_000), np.float32, 12345), z.astype(np.float32))
    assert not np.array_equal(z, K.normal((4, 250_000), np.float64, 12346))
    for row in z:
        # standard errors at n = 250000: mean 2e-3, variance 2.8e-3, skew 4.9e-3, kurtosis 9.8e-3
        assert abs(row.mean()) < 0.01 and abs(row.var() - 1) < 0.014
        assert abs(stats.skew(row)) < 0.025 and abs(stats.kurtosis(row)) < 0.05
        assert stats.kstest(row, "norm").pvalue > 1e-3
    # rows are separate streams: uncorrelated
    c = np.corrcoef(z)
    assert np.all(np.abs(c[np.triu_indices(4, 1)]) < 0.01)
