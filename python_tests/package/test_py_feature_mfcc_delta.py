"""sigkern.feature.mfcc against librosa.feature.mfcc (1e-5 relative to the largest coefficient,
float64: every dct_type, norm, lifter; y= and S=; kwargs to the mel stage), sigkern.feature.delta
against librosa.feature.delta (1e-10, float64: widths, orders, polyorder, every mode, axes) and
compute_deltas against a transcription of torchaudio.functional.compute_deltas."""

import numpy as np
import pytest

import sigkern

librosa = pytest.importorskip("librosa")


def _close(got, want, rel):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=rel * np.abs(want).max())


@pytest.fixture(scope="module")
def y():
    t = np.arange(22050 * 2) / 22050
    rng = np.random.default_rng(0)
    return np.sin(2 * np.pi * 440 * t) * (1 + t) + 0.1 * rng.standard_normal(t.size)


def test_mfcc_every_type_norm_lifter(y):
    S = librosa.power_to_db(librosa.feature.melspectrogram(y=y, sr=22050))
    for dct_type in (1, 2, 3):
        for norm in (None, "ortho"):
            for lifter in (0, 22, 1.5):
                want = librosa.feature.mfcc(S=S, dct_type=dct_type, norm=norm, lifter=lifter)
                _close(sigkern.feature.mfcc(S=S, dct_type=dct_type, norm=norm, lifter=lifter), want, 1e-10)
    _close(sigkern.feature.mfcc(y=y, sr=22050), librosa.feature.mfcc(y=y, sr=22050), 1e-5)
    kw = dict(n_mfcc=13, n_fft=1024, hop_length=256, n_mels=40, fmin=50.0, htk=True, lifter=10)
    _close(sigkern.feature.mfcc(y=y, sr=16000, **kw), librosa.feature.mfcc(y=y, sr=16000, **kw), 1e-5)
    stereo = np.stack([y, y[::-1].copy()])
    _close(sigkern.feature.mfcc(y=stereo, sr=22050, mel_norm=None),
           librosa.feature.mfcc(y=stereo, sr=22050, mel_norm=None), 1e-5)
    y32 = y.astype(np.float32)
    got = sigkern.feature.mfcc(y=y32, sr=22050)
    assert got.dtype == np.float32
    _close(got, librosa.feature.mfcc(y=y32, sr=22050), 1e-4)


def test_mfcc_errors(y):
    with pytest.raises(ValueError, match="lifter"):
        sigkern.feature.mfcc(y=y, lifter=-1)
    with pytest.raises(ValueError, match="dct_type"):
        sigkern.feature.mfcc(y=y, dct_type=4)
    with pytest.raises(ValueError, match="y="):
        sigkern.feature.mfcc()
    with pytest.raises(TypeError):
        sigkern.feature.mfcc(y=y, n_ffft=512)


def test_delta_matches_librosa():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 20, 57))
    for width in (3, 5, 9, 11):
        for order in (1, 2, 3):
            if order >= width:
                continue
            for mode in ("interp", "mirror", "constant", "nearest", "wrap"):
                want = librosa.feature.delta(x, width=width, order=order, mode=mode)
                _close(sigkern.feature.delta(x, width=width, order=order, mode=mode), want, 1e-10)
    for axis in (0, 1, -1):
        _close(sigkern.feature.delta(x, axis=axis, width=3, order=2),
               librosa.feature.delta(x, axis=axis, width=3, order=2), 1e-10)
    _close(sigkern.feature.delta(x, polyorder=4, mode="interp"),
           librosa.feature.delta(x, polyorder=4, mode="interp"), 1e-10)
    _close(sigkern.feature.delta(x, mode="constant", cval=2.5, delta=0.5),
           librosa.feature.delta(x, mode="constant", cval=2.5, delta=0.5), 1e-10)
    short = rng.standard_normal((2, 4))  # windows longer than the signal
    for mode in ("mirror", "nearest", "wrap", "constant"):
        _close(sigkern.feature.delta(short, width=9, mode=mode),
               librosa.feature.delta(short, width=9, mode=mode), 1e-10)
    x32 = x.astype(np.float32)
    got = sigkern.feature.delta(x32, order=2)
    assert got.dtype == np.float32
    _close(got, librosa.feature.delta(x32.astype(np.float64), order=2), 1e-5)


def test_delta_errors():
    x = np.ones((2, 8))
    with pytest.raises(ValueError, match="odd"):
        sigkern.feature.delta(x, width=4)
    with pytest.raises(ValueError, match="odd"):
        sigkern.feature.delta(x, width=1)
    with pytest.raises(ValueError, match="order"):
        sigkern.feature.delta(x, order=0)
    with pytest.raises(ValueError, match="cannot exceed"):
        sigkern.feature.delta(x, width=9)
    with pytest.raises(ValueError, match="mode"):
        sigkern.feature.delta(x, width=3, mode="reflect")
    with pytest.raises(ValueError, match="polyorder"):
        sigkern.feature.delta(x, width=3, polyorder=3)
    with pytest.raises(TypeError):
        sigkern.feature.delta(x, width=3, axes=0)


def _torchaudio_compute_deltas(x, win_length=5, mode="replicate"):
    """torchaudio.functional.compute_deltas, transcribed (numpy padding of the same kinds)."""
    n = (win_length - 1) // 2
    denom = n * (n + 1) * (2 * n + 1) / 3
    pad = {"replicate": "edge", "constant": "constant", "reflect": "reflect", "circular": "wrap"}[mode]
    xp = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode=pad)
    k = np.arange(-n, n + 1, dtype=np.float64)
    T = x.shape[-1]
    out = sum(k[j] * xp[..., j:j + T] for j in range(2 * n + 1))
    return out / denom


@pytest.mark.parametrize("mode", ["replicate", "constant", "reflect", "circular"])
def test_compute_deltas(mode):
    x = np.random.default_rng(2).standard_normal((2, 13, 40))
    for win in (3, 4, 5, 9):
        _close(sigkern.feature.compute_deltas(x, win_length=win, mode=mode),
               _torchaudio_compute_deltas(x, win, mode), 1e-12)
    with pytest.raises(ValueError):
        sigkern.feature.compute_deltas(x, win_length=2)
