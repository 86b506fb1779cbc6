"""sigkern.feature.chroma_stft, sigkern.chroma_filters, sigkern.piptrack,
sigkern.estimate_tuning and sigkern.pitch_tuning against librosa (float64): chroma within 1e-6,
the same estimated tuning, the same filter bank and peaks, for audio and spectrogram inputs,
batches, the keyword options, float32 (1e-4), silence, DC, short signals and NaN."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

librosa = pytest.importorskip("librosa")

import sigkern  # noqa: E402

SR = 22050


def _chord(n: int, seed: int, detune: float = 0.23) -> np.ndarray:
    """A detuned triad with harmonics, vibrato and a little noise."""
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    y = 0.003 * r.standard_normal(n)
    for f, a in [(261.63, 0.5), (329.63, 0.3), (392.0, 0.25), (110.0, 0.4)]:
        f = f * 2 ** (detune / 12) * (1 + 0.002 * np.sin(2 * np.pi * 5 * t))
        ph = 2 * np.pi * np.cumsum(f) / SR
        y += a * (np.sin(ph) + 0.3 * np.sin(2 * ph) + 0.1 * np.sin(3 * ph))
    return y


def test_signatures() -> None:
    pairs = [(sigkern.feature.chroma_stft, librosa.feature.chroma_stft), (sigkern.chroma_filters, librosa.filters.chroma),
             (sigkern.piptrack, librosa.piptrack), (sigkern.estimate_tuning, librosa.estimate_tuning),
             (sigkern.pitch_tuning, librosa.pitch_tuning)]
    for ours, theirs in pairs:
        assert list(inspect.signature(ours).parameters) == list(inspect.signature(theirs).parameters)


@pytest.mark.parametrize("kw", [dict(sr=22050, n_fft=2048), dict(sr=16000, n_fft=1023, n_chroma=24, tuning=0.3),
                                dict(sr=44100, n_fft=512, octwidth=None, norm=np.inf, base_c=False),
                                dict(sr=22050, n_fft=4096, n_chroma=7, ctroct=4.0, octwidth=1.5, norm=None),
                                dict(sr=22050, n_fft=256, norm=1, tuning=-0.5)])
def test_filters_match(kw: dict) -> None:
    np.testing.assert_allclose(sigkern.chroma_filters(**kw, dtype=np.float64),
                               librosa.filters.chroma(**kw, dtype=np.float64), rtol=1e-12, atol=1e-300)
    a, b = sigkern.chroma_filters(**kw), librosa.filters.chroma(**kw)
    assert a.dtype == b.dtype == np.float32
    np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-37)


@pytest.mark.parametrize("kw", [{}, dict(norm=None), dict(norm=2, n_chroma=24), dict(norm=-np.inf, tuning=0.1),
                                dict(norm=0, center=False, hop_length=256),
                                dict(n_fft=1024, win_length=700, window="hamming", pad_mode="reflect"),
                                dict(octwidth=None, base_c=False, ctroct=4.0), dict(sr=16000, n_fft=512)])
def test_chroma_stft_matches(kw: dict) -> None:
    y = _chord(SR, 1)
    want = librosa.feature.chroma_stft(y=y, **kw)
    got = sigkern.feature.chroma_stft(y=y, **kw)
    assert got.shape == want.shape and got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)


def test_tuning_and_spectrogram_inputs() -> None:
    y = _chord(2 * SR, 2, detune=-0.31)
    S = np.abs(librosa.stft(y)) ** 2
    assert sigkern.estimate_tuning(S=S) == librosa.estimate_tuning(S=S)
    assert sigkern.estimate_tuning(y=y) == librosa.estimate_tuning(y=y)
    assert sigkern.estimate_tuning(y=y, resolution=0.05, bins_per_octave=24, fmin=100.0, threshold=0.2) == \
        librosa.estimate_tuning(y=y, resolution=0.05, bins_per_octave=24, fmin=100.0, threshold=0.2)
    assert sigkern.estimate_tuning(y=y, ref=np.mean) == librosa.estimate_tuning(y=y, ref=np.mean)
    want = librosa.feature.chroma_stft(S=S)
    np.testing.assert_allclose(sigkern.feature.chroma_stft(S=S), want, rtol=1e-6, atol=1e-9)
    # a frame-major power spectrogram from sigkern's STFT
    Sk = sigkern.spec_power(sigkern.stft(y, 2048, 512, window=np.hanning(2049)[:-1], center=True,
                                         pad_mode="constant"), 2.0)
    np.testing.assert_allclose(sigkern.feature.chroma_stft(S=Sk), want, rtol=1e-6, atol=1e-9)


def test_piptrack_and_pitch_tuning() -> None:
    y = _chord(SR, 3)
    for kw in [{}, dict(fmin=60.0, fmax=2000.0, threshold=0.05, hop_length=256), dict(ref=np.mean),
               dict(ref=0.5, center=False)]:
        p, m = sigkern.piptrack(y=y, **kw)
        wp, wm = librosa.piptrack(y=y, **kw)
        np.testing.assert_array_equal(p > 0, wp > 0)
        np.testing.assert_allclose(p, wp, rtol=1e-12)
        np.testing.assert_allclose(m, wm, rtol=1e-9, atol=1e-12)
    f = np.abs(np.random.default_rng(4).normal(300, 80, 500))
    for kw in [{}, dict(resolution=0.02, bins_per_octave=36)]:
        assert sigkern.pitch_tuning(f, **kw) == librosa.pitch_tuning(f, **kw)


def test_batch_float32() -> None:
    y = np.stack([_chord(SR, 5), _chord(SR, 6, detune=0.1)[::-1].copy()])
    want = librosa.feature.chroma_stft(y=y)
    np.testing.assert_allclose(sigkern.feature.chroma_stft(y=y), want, rtol=1e-6, atol=1e-9)
    y32 = y.astype(np.float32)
    got = sigkern.feature.chroma_stft(y=y32, tuning=0.0)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, librosa.feature.chroma_stft(y=y32, tuning=0.0), atol=1e-4)
    assert sigkern.estimate_tuning(y=y32) == librosa.estimate_tuning(y=y32)


def test_edge_cases() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for y in (np.zeros(SR), np.full(SR, 0.3)):  # silence, DC: no peaks, tuning 0 with a warning
            np.testing.assert_allclose(sigkern.feature.chroma_stft(y=y), librosa.feature.chroma_stft(y=y),
                                       rtol=1e-6, atol=1e-9)
    with pytest.warns(UserWarning, match="empty frequency set"):
        sigkern.estimate_tuning(y=np.zeros(4096))
    short = _chord(300, 7)  # shorter than a frame, centred
    np.testing.assert_allclose(sigkern.feature.chroma_stft(y=short), librosa.feature.chroma_stft(y=short),
                               rtol=1e-6, atol=1e-9)
    bad = _chord(4096, 8)
    bad[100] = np.nan
    with pytest.raises(sigkern.NonFiniteError):
        sigkern.feature.chroma_stft(y=bad)
    with pytest.raises(TypeError):
        sigkern.feature.chroma_stft(y=short, bogus=1)
    with pytest.raises(ValueError):
        sigkern.feature.chroma_stft(y=short, norm=-2)
