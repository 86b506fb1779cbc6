"""sigkern.effects.trim / split against librosa.effects.trim / split: the same sample indices
for mono, stereo and batched audio (float64 and float32), every ``ref`` / ``aggregate`` form,
decaying signals whose frames sweep through the threshold, and the edge cases (silence, DC,
shorter than a frame, NaN)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

librosa = pytest.importorskip("librosa")

import sigkern  # noqa: E402

SR = 22050


def _bursts(n: int, seed: int) -> np.ndarray:
    """Noise floor, tone bursts of several levels, a slow decay (frames crossing every level)."""
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    y = 1e-4 * r.standard_normal(n)
    for a, s, e in [(0.8, 0.2, 0.5), (0.01, 0.7, 0.8), (0.3, 1.0, 1.3)]:
        m = (t >= s) & (t < e)
        y[m] += a * np.sin(2 * np.pi * 440 * t[m])
    d = t >= 1.4
    y[d] += 0.5 * np.exp(-(t[d] - 1.4) * 12) * np.sin(2 * np.pi * 330 * t[d])
    return y


def _same(y: np.ndarray, **kw: object) -> None:
    got_y, got_i = sigkern.effects.trim(y, **kw)
    want_y, want_i = librosa.effects.trim(y, **kw)
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_y, want_y)
    got = sigkern.effects.split(y, **kw)
    want = librosa.effects.split(y, **kw)
    assert got.shape == want.shape, (got, want)
    np.testing.assert_array_equal(got, want)


def test_signatures() -> None:
    for name in ("trim", "split"):
        assert list(inspect.signature(getattr(sigkern.effects, name)).parameters) == \
            list(inspect.signature(getattr(librosa.effects, name)).parameters)


@pytest.mark.parametrize("kw", [{}, {"top_db": 20}, {"top_db": 35, "frame_length": 1024, "hop_length": 256},
                                {"top_db": 40, "frame_length": 999, "hop_length": 100},
                                {"ref": 0.5, "top_db": 30}, {"ref": np.median, "top_db": 10},
                                {"ref": lambda m: float(np.mean(m)), "top_db": -3.0}])
def test_mono_matches_librosa(kw: dict) -> None:
    y = _bursts(2 * SR, 1)
    _same(y, **kw)
    _same(y.astype(np.float32), **kw)


def test_rms_is_librosas_bit_for_bit() -> None:
    # sk_silence_rms_*: librosa.feature.rms(y=y) in float32, numpy's pairwise sums included
    r = np.random.default_rng(10)
    for dt, fn, ct in ((np.float64, sigkern.lib.sk_silence_rms_f64, "double[]"),
                       (np.float32, sigkern.lib.sk_silence_rms_f32, "float[]")):
        for n, fl, hop in ((22050, 2048, 512), (10007, 999, 100), (3000, 300, 7)):
            y = (r.standard_normal(n) * np.exp(-np.arange(n) / 3000)).astype(dt)
            want = librosa.feature.rms(y=y, frame_length=fl, hop_length=hop)[0]
            out = np.empty(want.shape, np.float32)
            assert fn(sigkern.ffi.from_buffer(ct, y), 1, n, fl, hop, sigkern.ffi.from_buffer("float[]", out),
                      out.size) == 0
            np.testing.assert_array_equal(out, want)


def test_threshold_sweep() -> None:
    # a long exponential decay: every dB level is crossed by some frame, for many thresholds
    y = _bursts(2 * SR, 2)
    for top_db in np.linspace(5, 75, 15):
        _same(y, top_db=float(top_db), hop_length=64)


@pytest.mark.parametrize("aggregate", [np.max, np.min, np.mean])
def test_channels_and_batches(aggregate: object) -> None:
    st = np.stack([_bursts(SR, 3), 0.1 * _bursts(SR, 4)[::-1].copy()])
    _same(st, aggregate=aggregate, top_db=30)
    b = np.stack([st, st[::-1] * 0.5, st * 2])
    _same(b, aggregate=aggregate, top_db=25)
    _same(b.astype(np.float32), aggregate=aggregate, top_db=25, ref=np.median)


def test_edge_cases() -> None:
    _same(np.zeros(5000))  # silence: every frame at the (zero) maximum, nothing trimmed
    _same(np.zeros(5000), ref=1.0)  # silence against a fixed reference: all trimmed
    _same(np.full(3000, 0.25))  # DC
    _same(_bursts(100, 5))  # shorter than a frame
    _same(np.clip(3 * _bursts(SR, 6), -1, 1))  # clipping
    _same(_bursts(1, 7), frame_length=2)
    # an empty signal still has one (padded) frame, as librosa
    _same(np.zeros(0))
    # NaN: its frames are silent; with ref=np.max the reference is NaN and all is silent
    y = _bursts(SR, 8)
    y[5000] = np.nan
    _same(y)
    _same(y, ref=1.0, top_db=40)


def test_refusals_and_types() -> None:
    with pytest.raises(ValueError):
        sigkern.effects.trim(np.zeros(10), frame_length=0)
    with pytest.raises(ValueError):
        sigkern.effects.split(np.zeros(0), frame_length=3)  # padded to 2 < 3
    with pytest.raises(ValueError):
        sigkern.effects.trim(np.ones(10), top_db=float("nan"))
    with pytest.raises(TypeError):
        sigkern.effects.trim(np.ones(10, np.complex128))
    with pytest.raises(ValueError):
        sigkern.effects.trim(np.ones(4096), ref=lambda m: m)  # not a scalar
    yt, idx = sigkern.effects.trim(_bursts(SR, 9).astype(np.float32))
    assert yt.dtype == np.float32 and idx.dtype == np.int64
    assert sigkern.effects.split(np.zeros(4096), ref=1.0).shape == (0, 2)
