"""The streaming time-stretch (``TimeStretchStream``, C ``sk_stretch_stream_*``): random
chunkings at a fixed rate equal the one-call ``time_stretch`` bit for bit; a rate change applies
from the next output frame, checked against librosa's phase-vocoder loop (transcribed with
``np.angle`` and a step list) and ``librosa.istft``."""

from __future__ import annotations

import librosa
import numpy as np
import pytest

from sigkern import BufferTooSmallError, LengthError
from sigkern.effects import TimeStretchStream, time_stretch


def chunked(s, x, rng, most):
    parts, at = [], 0
    while at < len(x):
        m = int(rng.integers(0, most + 1))
        parts.append(s.process(x[at:at + m]))
        at += m
    parts.append(s.flush())
    return np.concatenate(parts)


@pytest.mark.parametrize("dtype,rate,kw", [
    (np.float64, 1.25, {}),
    (np.float32, 0.8, {"n_fft": 512, "hop_length": 96, "pad_mode": "reflect"}),
    (np.float64, 1.7, {"n_fft": 256, "center": False, "max_block": 100}),
])
def test_random_chunkings_equal_one_call(dtype, rate, kw):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(9001).astype(dtype)
    want = time_stretch(x, rate=rate, **{k: v for k, v in kw.items() if k != "max_block"})
    s = TimeStretchStream(rate, dtype=dtype, **kw)
    for _ in range(3):  # the stream starts over after each flush
        got = chunked(s, x, rng, 3000)
        assert got.dtype == dtype and np.array_equal(got, want)


def pv_steps(D, steps):
    """librosa.phase_vocoder's loop over given input positions (np.angle form)."""
    D = np.pad(D, [(0, 0), (0, 2)])
    acc = np.angle(D[:, 0])
    out = np.empty((D.shape[0], len(steps)), complex)
    for t, s in enumerate(steps):
        i = int(s)
        a = s - i
        c0, c1 = D[:, i], D[:, i + 1]
        out[:, t] = ((1 - a) * np.abs(c0) + a * np.abs(c1)) * np.exp(1j * acc)
        acc = acc + np.angle(c1) - np.angle(c0)
    return out


def test_rate_change_applies_at_the_next_hop():
    rng = np.random.default_rng(4)
    n, n_fft, hop = 12000, 512, 128
    x = rng.standard_normal(n)
    s = TimeStretchStream(1.25, n_fft=n_fft, dtype=np.float64, min_rate=0.5, max_rate=2.0)
    y1 = s.process(x[:5000])
    k = s.frames
    assert k > 0
    s.rate = 0.7
    y2 = s.process(x[5000:])
    y3 = s.flush()
    got = np.concatenate([y1, y2, y3])
    frames = 1 + n // hop
    steps = [t * 1.25 for t in range(k)]
    while steps[-1] + 0.7 < frames:
        steps.append(steps[-1] + 0.7)
    length = round(hop * (k - 1) + (n - hop * steps[k - 1]) / 0.7)
    D = librosa.stft(x, n_fft=n_fft, hop_length=hop, window="hann", center=True,
                     pad_mode="constant")
    want = librosa.istft(pv_steps(D, steps), hop_length=hop, window="hann", center=True,
                         length=length)
    assert got.shape == want.shape
    assert np.max(np.abs(got - want)) <= 1e-9 * np.max(np.abs(want))
    # before the change the output is the fixed-rate stretch's
    ref = time_stretch(x, rate=1.25, n_fft=n_fft)
    assert np.array_equal(y1, ref[:len(y1)])


def test_misuse():
    with pytest.raises(ValueError):
        TimeStretchStream(1.25, min_rate=1.5)
    s = TimeStretchStream(1.0, n_fft=64, max_block=16, min_rate=0.5, max_rate=2.0)
    with pytest.raises(ValueError):
        s.rate = 3.0
    assert s.rate == 1.0
    with pytest.raises(LengthError):
        s.flush()
    assert s.process(np.zeros(100, np.float32)).dtype == np.float32
    s.reset()
    assert s.frames == 0
    s.close()
    assert s.closed
    assert BufferTooSmallError is not None
