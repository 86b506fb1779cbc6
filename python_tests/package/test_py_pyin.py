"""sigkern.pyin against librosa.pyin (float64): the same voiced flags and Viterbi path, f0
within 1e-6 relative and voiced probabilities within 1e-9, on a vibrato tone and a speech-like
signal (voiced glides, noise, silence), with non-default HMM parameters, batches, float32,
fill_na=None, and librosa's refusals."""

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


def _speech(n: int, seed: int) -> np.ndarray:
    """Voiced syllables with pitch glides and formant-like harmonics, noise bursts, pauses."""
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    y = 0.002 * r.standard_normal(n)
    segs = [(0.05, 0.30, 140, 180), (0.40, 0.55, None, None), (0.60, 0.95, 210, 150), (1.05, 1.25, 120, 125)]
    for s, e, f1, f2 in segs:
        m = (t >= s) & (t < e)
        k = np.count_nonzero(m)
        env = np.sin(np.pi * np.arange(k) / k) ** 0.5
        if f1 is None:
            y[m] += 0.2 * env * r.standard_normal(k)  # a fricative
            continue
        f = np.linspace(f1, f2, k)
        ph = 2 * np.pi * np.cumsum(f) / SR
        v = sum(a * np.sin(h * ph) for h, a in [(1, 1.0), (2, 0.6), (3, 0.5), (4, 0.2), (5, 0.15)])
        y[m] += 0.4 * env * v
    return y


def _same(y: np.ndarray, **kw: object) -> None:
    f0, vf, vp = sigkern.pyin(y, **kw)
    wf0, wvf, wvp = librosa.pyin(y, **kw)
    assert f0.shape == wf0.shape
    np.testing.assert_array_equal(vf, wvf)
    np.testing.assert_allclose(f0, wf0, rtol=1e-6, equal_nan=True)
    np.testing.assert_allclose(vp, wvp, rtol=1e-9, atol=1e-12)


def test_signature_names() -> None:
    assert list(inspect.signature(sigkern.pyin).parameters) == list(inspect.signature(librosa.pyin).parameters)


def test_vibrato_and_speech() -> None:
    _same(_vibrato(SR, 1), fmin=65.0, fmax=1000.0)
    _same(_speech(int(1.3 * SR), 2), fmin=60.0, fmax=500.0, frame_length=1024)


@pytest.mark.parametrize("kw", [dict(n_thresholds=30, beta_parameters=(1.5, 10.0), boltzmann_parameter=1.0,
                                     resolution=0.25, max_transition_rate=20.0, switch_prob=0.05,
                                     no_trough_prob=0.2, hop_length=300),
                                dict(fill_na=None, center=False, pad_mode="reflect", switch_prob=0.0),
                                dict(fill_na=-1.0, pad_mode="reflect", sr=16000, resolution=0.5)])
def test_options(kw: dict) -> None:
    _same(_speech(SR, 3), fmin=70.0, fmax=600.0, frame_length=1024, **kw)


def test_batch_float32_edges() -> None:
    y = np.stack([_speech(SR // 2, 4), _vibrato(SR // 2, 5)])
    _same(y, fmin=65.0, fmax=800.0, frame_length=1024)
    f0, vf, vp = sigkern.pyin(y.astype(np.float32), fmin=65.0, fmax=800.0, frame_length=1024)
    wf0, wvf, wvp = librosa.pyin(y, fmin=65.0, fmax=800.0, frame_length=1024)
    assert f0.dtype == np.float32 and vf.dtype == bool
    assert np.mean(vf == wvf) > 0.95
    # silence: all unvoiced; DC; shorter than a frame (centred)
    _same(np.zeros(6000), fmin=65.0, fmax=800.0, frame_length=1024)
    _same(np.full(6000, 0.5), fmin=65.0, fmax=800.0, frame_length=1024)
    _same(_vibrato(400, 6), fmin=100.0, fmax=800.0, frame_length=1024)


def test_refusals() -> None:
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.pyin(np.zeros(4096), fmin=500, fmax=400)
    y = np.zeros(4096)
    y[5] = np.nan
    with pytest.raises(sigkern.NonFiniteError):
        sigkern.pyin(y, fmin=65, fmax=1000)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.pyin(np.zeros(4096), fmin=65, fmax=1000, switch_prob=2.0)
    with pytest.raises(ValueError):
        sigkern.pyin(np.zeros(100), fmin=65, fmax=1000, center=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FutureWarning):
            sigkern.pyin(np.zeros(4096), fmin=65, fmax=1000, win_length=1024)
