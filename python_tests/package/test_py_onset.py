"""sigkern.onset against librosa (float64): the onset envelope within 1e-6 (absolute, on
envelopes of dB mel spectra whose values are O(1..100)) for lag, max_size, detrend, centring,
aggregates and channel splits; peak_pick and onset_detect with exactly librosa's picks;
signatures and defaults."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

librosa = pytest.importorskip("librosa")

import sigkern  # noqa: E402
import sigkern.onset as sko  # noqa: E402

SR = 22050


def _clicks(n: int, seed: int) -> np.ndarray:
    r = np.random.default_rng(seed)
    y = 0.01 * r.standard_normal(n)
    for p in r.integers(0, n - 2000, 12):
        y[p:p + 1500] += np.sin(2 * np.pi * r.uniform(200, 4000) * np.arange(1500) / SR) * np.exp(-np.arange(1500) / 300)
    return y


@pytest.mark.parametrize("name,mod", [("onset_strength", "onset"), ("onset_strength_multi", "onset"),
                                      ("onset_detect", "onset"), ("peak_pick", "util")])
def test_signature_is_librosas(name: str, mod: str) -> None:
    ours = inspect.signature(getattr(sko, name)).parameters
    theirs = inspect.signature(getattr(getattr(librosa, mod), name)).parameters
    assert list(ours) == list(theirs)
    for k, p in theirs.items():
        assert ours[k].kind == p.kind and ours[k].default == p.default, k


@pytest.mark.parametrize("kw", [dict(), dict(lag=2), dict(max_size=3), dict(max_size=4, lag=3),
                                dict(detrend=True), dict(center=False), dict(aggregate=np.median),
                                dict(aggregate=np.max), dict(n_fft=1024, hop_length=256),
                                dict(n_mels=64, fmax=8000.0)])
def test_onset_strength(kw: dict) -> None:
    y = _clicks(2 * SR, 1)
    _close = np.testing.assert_allclose
    _close(sko.onset_strength(y=y, **kw), librosa.onset.onset_strength(y=y, **kw), rtol=0, atol=1e-6)


def test_onset_strength_from_S_and_batch() -> None:
    y = np.stack([_clicks(SR, 2), _clicks(SR, 3)])
    S = librosa.power_to_db(librosa.feature.melspectrogram(y=y, sr=SR))
    np.testing.assert_allclose(sko.onset_strength(S=S), librosa.onset.onset_strength(S=S), rtol=0, atol=1e-9)
    np.testing.assert_allclose(sko.onset_strength(y=y), librosa.onset.onset_strength(y=y), rtol=0, atol=1e-6)
    ref = np.roll(S, 1, axis=-2)
    np.testing.assert_allclose(sko.onset_strength(S=S, ref=ref), librosa.onset.onset_strength(S=S, ref=ref),
                               rtol=0, atol=1e-9)


@pytest.mark.parametrize("kw", [dict(channels=[0, 32, 64, 96, 128]), dict(channels=[10, 50, 200]),
                                dict(aggregate=False), dict(channels=[slice(0, 40), slice(20, 128)]),
                                dict(aggregate=np.std), dict(channels=[0, 64, 128], aggregate=np.median)])
def test_onset_strength_multi(kw: dict) -> None:
    y = _clicks(SR, 4)
    np.testing.assert_allclose(sko.onset_strength_multi(y=y, **kw), librosa.onset.onset_strength_multi(y=y, **kw),
                               rtol=0, atol=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_peak_pick(seed: int) -> None:
    r = np.random.default_rng(seed)
    x = r.random(500)
    x[::37] = 0.9  # ties and plateaus
    for kw in (dict(pre_max=3, post_max=3, pre_avg=3, post_avg=5, delta=0.1, wait=10),
               dict(pre_max=0, post_max=1, pre_avg=0, post_avg=1, delta=0.0, wait=0),
               dict(pre_max=1.5, post_max=2.2, pre_avg=4, post_avg=4.1, delta=0.05, wait=2.5)):
        np.testing.assert_array_equal(sko.peak_pick(x, **kw), librosa.util.peak_pick(x, **kw))
    X = r.random((3, 200))
    kw = dict(pre_max=2, post_max=2, pre_avg=4, post_avg=4, delta=0.02, wait=3, sparse=False)
    np.testing.assert_array_equal(sko.peak_pick(X, **kw), librosa.util.peak_pick(X, **kw))
    np.testing.assert_array_equal(sko.peak_pick(X.T, axis=0, **kw), librosa.util.peak_pick(X.T, axis=0, **kw))


@pytest.mark.parametrize("kw", [dict(), dict(units="time"), dict(units="samples"), dict(sparse=False),
                                dict(delta=0.2, wait=5), dict(normalize=False)])
def test_onset_detect(kw: dict) -> None:
    y = _clicks(3 * SR, 5)
    np.testing.assert_array_equal(sko.onset_detect(y=y, **kw), librosa.onset.onset_detect(y=y, **kw))


def test_edges() -> None:
    assert sko.onset_detect(y=np.zeros(SR)).size == 0
    np.testing.assert_array_equal(sko.onset_strength(y=np.zeros(SR)), librosa.onset.onset_strength(y=np.zeros(SR)))
    with pytest.raises(ValueError, match="lag"):
        sko.onset_strength(y=np.zeros(SR), lag=0)
    with pytest.raises(ValueError):
        sko.peak_pick(np.zeros(5), pre_max=1, post_max=0, pre_avg=1, post_avg=1, delta=0, wait=0)
    with pytest.raises(sigkern.BadArgumentError, match="lag"):
        sko.onset_strength(S=np.zeros((4, 2)), lag=3)
    with pytest.raises(NotImplementedError):
        sko.onset_detect(y=np.zeros(SR), backtrack=True)
