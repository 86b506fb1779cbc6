"""sigkern.YinStream: a signal pushed in random chunks gives exactly (bit for bit) the frames of
one sigkern.yin call on the whole signal, centred or not, zero or reflect padding, float32 and
float64; the finish, reset, too-short signals, non-finite samples and a closed stream."""

from __future__ import annotations

import numpy as np
import pytest

import sigkern

SR = 22050


def _tone(n: int, seed: int) -> np.ndarray:
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    ph = 2 * np.pi * np.cumsum(180 * 2 ** (0.5 / 12 * np.sin(2 * np.pi * 5 * t))) / SR
    return np.sin(ph) + 0.3 * np.sin(2 * ph) + 0.02 * r.standard_normal(n)


def _chunks(y: np.ndarray, rng: np.random.Generator) -> list:
    cuts = np.sort(rng.integers(0, y.size, 12))
    cuts[:2] = [0, 1]  # an empty chunk and a one-sample chunk
    return np.split(y, cuts)


@pytest.mark.parametrize("kw", [dict(center=False), dict(), dict(pad_mode="reflect", hop_length=300),
                                dict(center=False, frame_length=1024, hop_length=1500)])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_random_chunks_equal_the_one_shot(kw: dict, dt: type) -> None:
    y = _tone(SR, 3).astype(dt)
    args = dict(fmin=70.0, fmax=900.0, **kw)
    want = sigkern.yin(y, **args)
    s = sigkern.YinStream(dtype=dt, **args)
    parts = [s.push(c) for c in _chunks(y, np.random.default_rng(7))]
    tail = s.finish()
    if not kw.get("center", True):
        assert tail.size == 0
    got = np.concatenate(parts + [tail])
    assert got.dtype == dt
    np.testing.assert_array_equal(got, want)
    # a reset starts a new signal: the same frames again, pushed in one block
    s.reset()
    np.testing.assert_array_equal(np.concatenate([s.push(y), s.finish()]), want)
    assert s.finish().size == 0  # a second finish has nothing left


def test_short_signals_and_refusals() -> None:
    s = sigkern.YinStream(fmin=100, fmax=1000, frame_length=512, center=False, dtype=np.float64)
    assert s.push(np.ones(100)).size == 0 and s.finish().size == 0  # yin refuses; no frame here
    with pytest.raises(sigkern.BadArgumentError, match="finished"):
        s.push(np.ones(4))
    s.reset()
    y = _tone(3000, 1)
    y[1500] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match=r"x\[1500\]"):
        s.push(y)
    assert s.push(y[:1500]).size == 8  # the refused block was not consumed
    # centred: a signal far shorter than a frame still has frames (its padding), as yin
    c = sigkern.YinStream(fmin=100, fmax=1000, frame_length=512, dtype=np.float64)
    z = _tone(10, 2)
    np.testing.assert_array_equal(np.concatenate([c.push(z), c.finish()]),
                                  sigkern.yin(z, fmin=100, fmax=1000, frame_length=512))
    with pytest.raises(sigkern.BadArgumentError, match="fmin"):
        sigkern.YinStream(fmin=900, fmax=100)
    c.close()
    with pytest.raises(sigkern.InvalidHandleError, match="closed"):
        c.push(z)
