"""sigkern.phase_vocoder, sigkern.effects.time_stretch and pitch_shift against librosa 0.11
(float64 within 1e-6 relative; float32 within 1e-4 absolute of librosa's float64 result) and
against torchaudio's phase_vocoder algorithm (transcribed in torch, torchaudio not being a
dependency)."""

import math

import librosa
import numpy as np
import pytest
import torch

import sigkern
from sigkern.effects import pitch_shift, time_stretch


def signal(n, seed=0, channels=None):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / 16000
    x = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 1234.5 * t)
    shape = (n,) if channels is None else (channels, n)
    return x + 0.05 * rng.standard_normal(shape)


def rel_close(got, ref, rtol):
    assert got.shape == ref.shape
    err = np.abs(got - ref).max()
    assert err <= rtol * np.abs(ref).max(), f"max abs err {err:e}, peak {np.abs(ref).max():e}"


@pytest.mark.parametrize("rate", [1.25, 0.8, 2.0, 0.5, 1.0, 3.7])
def test_phase_vocoder_librosa(rate):
    D = librosa.stft(signal(8000), n_fft=512)
    got = sigkern.phase_vocoder(D, rate=rate, hop_length=128)
    ref = librosa.phase_vocoder(D, rate=rate, hop_length=128)
    rel_close(got, ref, 1e-9)


def test_phase_vocoder_batch_float32_torch():
    D = librosa.stft(signal(4000, channels=3), n_fft=256)
    ref = np.stack([librosa.phase_vocoder(d, rate=1.3) for d in D])
    got = sigkern.phase_vocoder(D, rate=1.3)
    rel_close(got, ref, 1e-9)
    g32 = sigkern.phase_vocoder(D.astype(np.complex64), rate=1.3)
    assert g32.dtype == np.complex64
    ref32 = np.stack([librosa.phase_vocoder(d, rate=1.3) for d in D.astype(np.complex64)
                      .astype(np.complex128)])
    rel_close(g32, ref32, 1e-6)
    gt = sigkern.phase_vocoder(torch.from_numpy(D), rate=1.3)
    assert isinstance(gt, torch.Tensor) and gt.dtype == torch.complex128
    rel_close(gt.numpy(), ref, 1e-9)


def torchaudio_phase_vocoder(complex_specgrams, rate, phase_advance):
    """torchaudio.functional.phase_vocoder (2.x), line for line."""
    time_steps = torch.arange(0, complex_specgrams.size(-1), rate,
                              device=complex_specgrams.device, dtype=torch.float64)
    alphas = time_steps % 1.0
    phase_0 = complex_specgrams[..., :1].angle()
    complex_specgrams = torch.nn.functional.pad(complex_specgrams, [0, 2])
    c0 = complex_specgrams.index_select(-1, time_steps.long())
    c1 = complex_specgrams.index_select(-1, (time_steps + 1).long())
    angle_0, angle_1 = c0.angle(), c1.angle()
    norm_0, norm_1 = torch.abs(c0), torch.abs(c1)
    phase = angle_1 - angle_0 - phase_advance
    phase = phase - 2 * math.pi * torch.round(phase / (2 * math.pi))
    phase = phase + phase_advance
    phase = torch.cat([phase_0, phase[..., :-1]], dim=-1)
    phase_acc = torch.cumsum(phase, -1)
    mag = alphas * norm_1 + (1 - alphas) * norm_0
    return torch.polar(mag, phase_acc)


@pytest.mark.parametrize("rate", [1.25, 0.75])
def test_phase_vocoder_torchaudio(rate):
    S = torch.stft(torch.from_numpy(signal(6000)), 512, 128, window=torch.hann_window(512,
                   dtype=torch.float64), return_complex=True)
    for pa in (torch.linspace(0, math.pi * 128, 257, dtype=torch.float64)[..., None],
               torch.zeros(257, 1, dtype=torch.float64)):
        ref = torchaudio_phase_vocoder(S, rate, pa)
        got = sigkern.phase_vocoder(S, rate=rate)
        rel_close(got.numpy(), ref.numpy(), 1e-9)


@pytest.mark.parametrize("rate", [1.25, 0.8, 1.5, 0.5, 2.0, 1.0])
def test_time_stretch_librosa_f64(rate):
    x = signal(16000)
    rel_close(time_stretch(x, rate=rate), librosa.effects.time_stretch(x, rate=rate), 1e-6)


@pytest.mark.parametrize("kw", [
    dict(n_fft=512),
    dict(n_fft=512, hop_length=100, win_length=400),
    dict(n_fft=255, hop_length=50),
    dict(n_fft=256, window="hamming", center=False),
])
def test_time_stretch_librosa_kwargs(kw):
    x = signal(5001, seed=3)
    for rate in (1.3, 0.77):
        rel_close(time_stretch(x, rate=rate, **kw), librosa.effects.time_stretch(x, rate=rate, **kw),
                  1e-6)


def test_time_stretch_reflect_padding():
    """librosa's time_stretch forwards pad_mode to istft too (a TypeError there), so the
    reference is its composition: stft with reflect padding, phase_vocoder, istft."""
    x = signal(5001, seed=4)
    for rate in (1.3, 0.77):
        D = librosa.stft(x, n_fft=256, pad_mode="reflect")
        ref = librosa.istft(librosa.phase_vocoder(D, rate=rate), length=round(5001 / rate))
        rel_close(time_stretch(x, rate=rate, n_fft=256, pad_mode="reflect"), ref, 1e-6)


def test_time_stretch_f32_batch_torch_and_edges():
    x = signal(8000, channels=2)
    ref = librosa.effects.time_stretch(x, rate=1.25, n_fft=1024)
    got = time_stretch(x.astype(np.float32), rate=1.25, n_fft=1024)
    assert got.dtype == np.float32 and got.shape == ref.shape
    assert np.abs(got - ref).max() <= 1e-4
    gt = time_stretch(torch.from_numpy(x), rate=1.25, n_fft=1024)
    assert isinstance(gt, torch.Tensor)
    rel_close(gt.numpy(), ref, 1e-6)
    # short signals, odd lengths, round-to-even lengths, a custom window array
    for n, rate in ((1, 1.0), (2, 1.5), (37, 0.9), (500, 2.5), (513, 4.0)):
        x1 = signal(n, seed=n)
        w = np.kaiser(64, 5.0)
        rel_close(time_stretch(x1, rate=rate, n_fft=64, window=w),
                  librosa.effects.time_stretch(x1, rate=rate, n_fft=64, window=w), 1e-6)


def test_time_stretch_length_zero_is_librosas():
    """round(n / rate) = 0: librosa's istft gets length=0, which it treats as no length."""
    x = signal(40)
    assert time_stretch(x, rate=100.0, n_fft=16).shape == (0,)
    assert librosa.effects.time_stretch(x, rate=100.0, n_fft=16).shape == (0,)
    ref = librosa.effects.time_stretch(x, rate=100.0, n_fft=16, center=False)
    assert ref.shape == (16,)
    rel_close(time_stretch(x, rate=100.0, n_fft=16, center=False), ref, 1e-6)


def test_time_stretch_errors():
    x = signal(1000)
    for bad in (0, -1, math.nan, math.inf):
        with pytest.raises(ValueError):
            time_stretch(x, rate=bad)
    with pytest.raises(TypeError):
        time_stretch(x, rate="fast")
    with pytest.raises(TypeError):
        time_stretch(x.astype(np.complex128), rate=1.1)
    with pytest.raises(ValueError):
        time_stretch(x, rate=1.1, pad_mode="edge")
    with pytest.raises(ValueError):
        time_stretch(x, rate=1.1, n_fft=64, win_length=65)
    with pytest.raises(sigkern.SigkernError):
        time_stretch(x, rate=1.1, n_fft=64, hop_length=65)
    with pytest.raises(TypeError):
        sigkern.phase_vocoder(np.ones((3, 4)), rate=1.0)
    with pytest.raises(ValueError):
        sigkern.phase_vocoder(np.ones((3, 4), complex), rate=1.0, n_fft=16)
    with pytest.raises(ValueError):
        sigkern.phase_vocoder(np.ones((3, 0), complex), rate=1.0)


def test_pitch_shift_same_resampler():
    """pitch_shift = time_stretch + sigkern.resample + fix_length, as librosa composes it: equal
    to librosa's time_stretch resampled by the same resampler."""
    x = signal(16000)
    for n_steps, bpo in ((3, 12), (-3, 12), (1.5, 24), (12, 12)):
        rate = 2.0 ** (-n_steps / bpo)
        ts = librosa.effects.time_stretch(x, rate=rate)
        ref = librosa.util.fix_length(sigkern.resample(ts, 16000 / rate, 16000, "high"), size=16000)
        got = pitch_shift(x, sr=16000, n_steps=n_steps, bins_per_octave=bpo)
        rel_close(got, ref, 1e-6)
        refs = librosa.util.fix_length(
            sigkern.resample(ts, 16000 / rate, 16000, "very_high") / np.sqrt(rate), size=16000)
        rel_close(pitch_shift(x, sr=16000, n_steps=n_steps, bins_per_octave=bpo,
                              res_type="soxr_vhq", scale=True), refs, 1e-6)


def test_pitch_shift_close_to_librosa_soxr():
    """Against librosa's own pitch_shift (soxr_hq): the resamplers differ, so agreement is
    within the two resamplers' passband error, not to rounding."""
    x = signal(16000)
    ref = librosa.effects.pitch_shift(x, sr=16000, n_steps=3)
    got = pitch_shift(x, sr=16000, n_steps=3)
    inner = slice(2048, -2048)
    err = np.sqrt(np.mean((got[inner] - ref[inner]) ** 2) / np.mean(ref[inner] ** 2))
    assert err < 1e-3, err


def test_pitch_shift_errors_and_dtypes():
    x = signal(4000).astype(np.float32)
    y = pitch_shift(x, sr=16000, n_steps=-2, res_type="kaiser_fast")
    assert y.dtype == np.float32 and y.shape == x.shape
    with pytest.raises(ValueError):
        pitch_shift(x, sr=16000, n_steps=2, res_type="fft")
    with pytest.raises(ValueError):
        pitch_shift(x, sr=16000, n_steps=2, bins_per_octave=0)
    with pytest.raises(ValueError):
        pitch_shift(x, sr=-1, n_steps=2)
