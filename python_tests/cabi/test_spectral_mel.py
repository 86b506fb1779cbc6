"""Mel filterbanks, mel and log-mel spectrograms against librosa in float64, dB and power
spectra, and bad inputs."""

import librosa
import numpy as np
import pytest

NORM = {None: 0, "slaney": 1}


def p(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)


FB_CASES = [
    # sr, n_fft, n_mels, fmin, fmax, htk, norm
    (22050, 2048, 128, 0.0, None, False, "slaney"),
    (22050, 2048, 128, 0.0, None, True, "slaney"),
    (16000, 512, 40, 20.0, 7600.0, False, None),
    (16000, 512, 40, 20.0, 7600.0, True, None),
    (48000, 1024, 128, 0.0, None, False, "slaney"),
    (48000, 1023, 64, 300.0, 30000.0, True, "slaney"),
    (8000, 256, 10, 0.0, 4000.0, False, None),
    (44100, 4096, 256, 30.0, 16000.0, False, "slaney"),
]


@pytest.mark.parametrize("case", FB_CASES)
def test_filterbank_matches_librosa(sk, ffi, case):
    sr, n_fft, n_mels, fmin, fmax, htk, norm = case
    want = librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels, fmin=fmin, fmax=fmax, htk=htk,
                               norm=norm, dtype=np.float64)
    w = np.full(want.size + 5, np.nan)
    rc = sk.sk_mel_filterbank_f64(sr, n_fft, n_mels, fmin, fmax or 0.0, int(htk), NORM[norm],
                                  p(ffi, w), w.size)
    assert rc == sk.SK_OK
    assert np.isnan(w[want.size:]).all()
    np.testing.assert_allclose(w[: want.size].reshape(want.shape), want, rtol=0,
                               atol=1e-12 * np.abs(want).max())
    w32 = np.zeros(want.size, np.float32)
    assert sk.sk_mel_filterbank_f32(sr, n_fft, n_mels, fmin, fmax or 0.0, int(htk), NORM[norm],
                                    p(ffi, w32), w32.size) == sk.SK_OK
    np.testing.assert_allclose(w32.reshape(want.shape), want, rtol=1e-6, atol=1e-9)


def mel_plan(sk, ffi, dtype, sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm,
             window=None, param=0.0):
    pp = ffi.new("SkMelPlan **")
    new = sk.sk_mel_plan_f64_new if dtype == np.float64 else sk.sk_mel_plan_f32_new
    window = sk.SK_WINDOW_HANN if window is None else window
    rc = new(sr, n_fft, hop, win, window, param, int(center), pad, power, n_mels, fmin, fmax or 0.0,
             int(htk), NORM[norm], pp)
    assert rc == sk.SK_OK
    return ffi.gc(pp[0], sk.sk_mel_plan_free)


def librosa_mel64(x, sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm,
                  window="hann"):
    """librosa.feature.melspectrogram computed in float64 throughout (librosa's own call uses a
    float32 filterbank, which alone changes results by ~1e-7 relative)."""
    S = np.abs(librosa.stft(x, n_fft=n_fft, hop_length=hop, win_length=win, window=window,
                            center=center, pad_mode="constant" if pad == 0 else "reflect")) ** power
    fb = librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels, fmin=fmin, fmax=fmax, htk=htk,
                             norm=norm, dtype=np.float64)
    return fb @ S


MEL_CASES = [
    # sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm
    (22050, 2048, 512, 2048, True, 0, 2.0, 128, 0.0, None, False, "slaney"),
    (16000, 400, 160, 400, True, 1, 2.0, 80, 0.0, 8000.0, True, None),
    (48000, 1024, 256, 800, True, 0, 1.0, 64, 50.0, None, False, "slaney"),
    (8000, 256, 64, 256, False, 0, 1.5, 20, 0.0, None, True, "slaney"),
]


@pytest.mark.parametrize("case", MEL_CASES)
def test_melspectrogram_matches_librosa(sk, ffi, case):
    sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm = case
    rng = np.random.default_rng(sr)
    x = rng.standard_normal(sr // 2)
    want = librosa_mel64(x, sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm)
    # librosa's public function agrees with the float64 reference to float32 precision
    pub = librosa.feature.melspectrogram(y=x, sr=sr, n_fft=n_fft, hop_length=hop, win_length=win,
                                         center=center, pad_mode="constant" if pad == 0 else "reflect",
                                         power=power, n_mels=n_mels, fmin=fmin, fmax=fmax, htk=htk,
                                         norm=norm)
    np.testing.assert_allclose(pub, want, rtol=1e-5, atol=1e-6 * want.max())
    plan = mel_plan(sk, ffi, np.float64, sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm)
    frames = ffi.new("size_t *")
    assert sk.sk_mel_frames(plan, frames, len(x)) == sk.SK_OK
    assert frames[0] == want.shape[1]
    y = np.full(want.size, np.nan)
    assert sk.sk_melspec_f64(plan, p(ffi, x), p(ffi, y), y.size, len(x)) == sk.SK_OK
    np.testing.assert_allclose(y.reshape(want.shape), want, rtol=1e-12, atol=1e-12 * want.max())
    # log-mel
    db = np.full(want.size, np.nan)
    assert sk.sk_logmel_f64(plan, p(ffi, x), 1.0, 1e-10, 80.0, p(ffi, db), db.size, len(x)) == sk.SK_OK
    np.testing.assert_allclose(db.reshape(want.shape), librosa.power_to_db(want), rtol=0, atol=1e-9)
    ref = float(want.max())
    assert sk.sk_logmel_f64(plan, p(ffi, x), ref, 1e-5, float("inf"), p(ffi, db), db.size, len(x)) == sk.SK_OK
    np.testing.assert_allclose(db.reshape(want.shape),
                               librosa.power_to_db(want, ref=ref, amin=1e-5, top_db=None), rtol=0, atol=1e-9)
    # float32 plan
    plan32 = mel_plan(sk, ffi, np.float32, sr, n_fft, hop, win, center, pad, power, n_mels, fmin, fmax, htk, norm)
    y32 = np.zeros(want.size, np.float32)
    assert sk.sk_melspec_f32(plan32, p(ffi, x.astype(np.float32)), p(ffi, y32), y32.size, len(x)) == sk.SK_OK
    np.testing.assert_allclose(y32.reshape(want.shape), want, rtol=1e-4, atol=1e-5 * want.max())


def test_other_windows_in_mel_plan(sk, ffi):
    x = np.random.default_rng(0).standard_normal(8000)
    want = librosa_mel64(x, 16000, 512, 128, 512, True, 0, 2.0, 40, 0.0, None, False, "slaney",
                         window=("kaiser", 6.0))
    plan = mel_plan(sk, ffi, np.float64, 16000, 512, 128, 512, True, 0, 2.0, 40, 0.0, None, False,
                    "slaney", window=sk.SK_WINDOW_KAISER, param=6.0)
    y = np.zeros(want.size)
    assert sk.sk_melspec_f64(plan, p(ffi, x), p(ffi, y), y.size, len(x)) == sk.SK_OK
    np.testing.assert_allclose(y.reshape(want.shape), want, rtol=1e-12, atol=1e-12 * want.max())


def test_power_to_db_and_spec_power(sk, ffi):
    rng = np.random.default_rng(2)
    S = rng.random(1000) ** 8
    S[5] = 0.0
    S[7] = 1e-30
    y = np.zeros_like(S)
    for ref, amin, top in [(1.0, 1e-10, 80.0), (0.5, 1e-6, 20.0), (-2.0, 1e-10, float("inf")), (1.0, 1e-10, 0.0)]:
        assert sk.sk_power_to_db_f64(p(ffi, S), ref, amin, top, p(ffi, y), len(S)) == sk.SK_OK
        want = librosa.power_to_db(S, ref=ref, amin=amin, top_db=None if top == float("inf") else top)
        np.testing.assert_allclose(y, want, rtol=0, atol=1e-10)
    z = S.copy()
    assert sk.sk_power_to_db_f64(p(ffi, z), 1.0, 1e-10, 80.0, p(ffi, z), len(z)) == sk.SK_OK  # in place
    np.testing.assert_allclose(z, librosa.power_to_db(S), atol=1e-10)
    X = rng.standard_normal(300) + 1j * rng.standard_normal(300)
    out = np.zeros(300)
    for power in (1.0, 2.0, 0.5, 3.0):
        assert sk.sk_spec_power_f64(p(ffi, X), power, p(ffi, out), 300) == sk.SK_OK
        np.testing.assert_allclose(out, np.abs(X) ** power, rtol=1e-14)


def test_bad_inputs_write_nothing(sk, ffi, last_error):
    w = np.full(10, 7.0)
    wp = p(ffi, w)

    def check(rc, code, text, buf=w, val=7.0):
        assert rc == code, last_error()
        assert text in last_error(), last_error()
        assert (buf == val).all()

    check(sk.sk_mel_filterbank_f64(0.0, 512, 4, 0.0, 0.0, 0, 1, wp, 10), sk.SK_ERR_BAD_ARGUMENT, "sr = 0")
    check(sk.sk_mel_filterbank_f64(float("nan"), 512, 4, 0.0, 0.0, 0, 1, wp, 10), sk.SK_ERR_BAD_ARGUMENT, "sr = NaN")
    check(sk.sk_mel_filterbank_f64(16000, 512, 4, 9000.0, 8000.0, 0, 1, wp, 10), sk.SK_ERR_BAD_ARGUMENT, "fmin")
    check(sk.sk_mel_filterbank_f64(16000, 512, 4, float("inf"), 0.0, 0, 1, wp, 10), sk.SK_ERR_BAD_ARGUMENT, "fmin")
    check(sk.sk_mel_filterbank_f64(16000, 512, 4, 0.0, 0.0, 0, 7, wp, 10), sk.SK_ERR_BAD_ARGUMENT, "norm = 7")
    check(sk.sk_mel_filterbank_f64(16000, 512, 0, 0.0, 0.0, 0, 1, wp, 10), sk.SK_ERR_LENGTH, "n_mels = 0")
    check(sk.sk_mel_filterbank_f64(16000, 16, 4, 0.0, 0.0, 0, 1, wp, 10), sk.SK_ERR_BUFFER_TOO_SMALL,
          "n_mels 4 × (n_fft/2+1) 9 = 36")
    pp = ffi.new("SkMelPlan **")
    pp[0] = ffi.cast("SkMelPlan *", 0x77)
    for args, code, text in [
        ((16000, 512, 0, 512, 1, 0.0, 1, 0, 2.0, 40, 0.0, 0.0, 0, 1), sk.SK_ERR_BAD_ARGUMENT, "hop = 0"),
        ((16000, 512, 128, 600, 1, 0.0, 1, 0, 2.0, 40, 0.0, 0.0, 0, 1), sk.SK_ERR_BAD_ARGUMENT, "win_length = 600"),
        ((16000, 512, 128, 512, 6, float("nan"), 1, 0, 2.0, 40, 0.0, 0.0, 0, 1), sk.SK_ERR_BAD_ARGUMENT, "kaiser beta = NaN"),
        ((16000, 512, 128, 512, 1, 0.0, 1, 0, float("nan"), 40, 0.0, 0.0, 0, 1), sk.SK_ERR_BAD_ARGUMENT, "power = NaN"),
        ((16000, 0, 128, 512, 1, 0.0, 1, 0, 2.0, 40, 0.0, 0.0, 0, 1), sk.SK_ERR_LENGTH, "n_fft = 0"),
    ]:
        assert sk.sk_mel_plan_f64_new(*args, pp) == code, last_error()
        assert text in last_error()
        assert int(ffi.cast("uintptr_t", pp[0])) == 0x77
    plan = mel_plan(sk, ffi, np.float64, 16000, 512, 128, 512, True, 0, 2.0, 40, 0.0, None, False, "slaney")
    x = np.ones(4000)
    y = np.full(40 * 32, 7.0)
    xp, yp = p(ffi, x), p(ffi, y)
    # 4000 samples: 1 + 4000 // 128 = 32 frames, 40 x 32 = 1280 needed
    check(sk.sk_melspec_f64(plan, xp, yp, 1279, 4000), sk.SK_ERR_BUFFER_TOO_SMALL, "n_mels 40 × frames 32 = 1280", y)
    check(sk.sk_logmel_f64(plan, xp, 1.0, 0.0, 80.0, yp, 1280, 4000), sk.SK_ERR_BAD_ARGUMENT, "amin = 0", y)
    check(sk.sk_logmel_f64(plan, xp, 1.0, 1e-10, -1.0, yp, 1280, 4000), sk.SK_ERR_BAD_ARGUMENT, "top_db = -1", y)
    check(sk.sk_melspec_f32(plan, ffi.cast("float *", xp), ffi.cast("float *", yp), 1280, 4000),
          sk.SK_ERR_INVALID_HANDLE, "a double mel plan, not a float mel plan", y)
    check(sk.sk_melspec_f64(ffi.NULL, xp, yp, 1280, 4000), sk.SK_ERR_INVALID_HANDLE, "NULL", y)
    fp = ffi.new("SkFftPlan **")
    assert sk.sk_fft_plan_f64_new(0, 8, fp) == sk.SK_OK
    check(sk.sk_melspec_f64(ffi.cast("SkMelPlan *", fp[0]), xp, yp, 1280, 4000), sk.SK_ERR_INVALID_HANDLE,
          "a double FFT plan", y)
    assert sk.sk_mel_plan_free(ffi.cast("SkMelPlan *", fp[0])) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_fft_plan_free(fp[0]) == sk.SK_OK
    # a freed plan
    pp2 = ffi.new("SkMelPlan **")
    assert sk.sk_mel_plan_f64_new(16000, 512, 128, 512, 1, 0.0, 1, 0, 2.0, 40, 0.0, 0.0, 0, 1, pp2) == sk.SK_OK
    assert sk.sk_mel_plan_free(pp2[0]) == sk.SK_OK
    check(sk.sk_melspec_f64(pp2[0], xp, yp, 1280, 4000), sk.SK_ERR_INVALID_HANDLE, "not a live", y)
    assert sk.sk_mel_plan_free(pp2[0]) == sk.SK_ERR_INVALID_HANDLE
    out = np.full(4, 7.0)
    check(sk.sk_spec_power_f64(xp, 0.0, p(ffi, out), 2), sk.SK_ERR_BAD_ARGUMENT, "power = 0", out)
    check(sk.sk_power_to_db_f64(xp, float("inf"), 1e-10, 80.0, p(ffi, out), 4), sk.SK_ERR_BAD_ARGUMENT, "ref = inf", out)
