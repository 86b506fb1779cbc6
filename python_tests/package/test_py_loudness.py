"""sigkern.loudness: Meter, the one-shot functions and normalisation, numpy and torch inputs,
and the Python-side errors."""

import numpy as np
import pytest

import sigkern

RATE = 48000


def tone(db, secs, channels=2, rate=RATE, f=1000.0):
    t = np.arange(int(secs * rate)) / rate
    return np.tile(10 ** (db / 20) * np.sin(2 * np.pi * f * t), (channels, 1))


def music(secs, channels, seed):
    rng = np.random.default_rng(seed)
    n = int(secs * RATE)
    x = rng.standard_normal((channels, n)) * 0.1
    seg = RATE
    return x * np.repeat(10 ** (rng.uniform(-20, 0, n // seg + 1) / 20), seg)[:n]


def test_one_shot_values_of_a_tone():
    s = sigkern.loudness_stats(tone(-23.0, 10), RATE)
    assert isinstance(s, sigkern.LoudnessStats)
    for v in (s.integrated, s.momentary, s.short_term, s.max_momentary, s.max_short_term):
        assert abs(v + 23.0) < 0.1
    assert abs(s.sample_peak + 23.0) < 1e-3 and s.true_peak >= s.sample_peak
    assert s.loudness_range < 0.1
    assert abs(sigkern.integrated_loudness(tone(-33.0, 10), RATE) + 33.0) < 0.1
    steps = np.concatenate([tone(-20.0, 20), tone(-30.0, 20)], axis=1)
    assert abs(sigkern.loudness_range(steps, RATE) - 10.0) < 1.0
    assert sigkern.integrated_loudness(np.zeros((2, RATE)), RATE) == -np.inf


def test_meter_streams_planar_interleaved_numpy_and_torch_alike():
    torch = pytest.importorskip("torch")
    x = music(6.0, 2, 1).astype(np.float32)
    whole = sigkern.loudness_stats(x, RATE)
    assert sigkern.loudness_stats(np.ascontiguousarray(x.T), RATE, interleaved=True) == whole
    assert sigkern.loudness_stats(torch.from_numpy(x), RATE) == whole
    with sigkern.Meter(RATE, channels=2) as m:
        for i in range(0, x.shape[1], 3001):
            m.add(x[:, i:i + 3001])
        assert m.stats() == whole
        assert m.integrated == whole.integrated and m.true_peak == whole.true_peak
        sp, tp = m.peaks()
        assert sp.shape == (2,) and np.all(tp >= sp) and max(tp) == whole.true_peak
        m.reset()
        for i in range(0, x.shape[1], 4410):
            m.add_interleaved(torch.from_numpy(np.ascontiguousarray(x[:, i:i + 4410].T)))
        assert m.stats() == whole
    assert m.closed
    with pytest.raises(sigkern.InvalidHandleError):
        m.add(x)


def test_weights_and_mono():
    x = tone(-23.0, 5, channels=1)[0]
    assert abs(sigkern.integrated_loudness(x, RATE) + 26.0) < 0.1  # one channel: 3 dB less
    two = tone(-23.0, 5)
    w = sigkern.integrated_loudness(two, RATE, weights=[2.0, 0.0])
    assert abs(w - sigkern.integrated_loudness(two, RATE)) < 1e-9


def test_normalize_loudness_and_peak():
    x = music(8.0, 2, 2)
    y = sigkern.normalize_loudness(x, RATE, target=-30.0, ceiling=-1.0)
    assert abs(sigkern.integrated_loudness(y, RATE) + 30.0) < 1e-6
    # a ceiling that binds: the true peak lands on it, the loudness stays below the target
    z = sigkern.normalize_loudness(x, RATE, target=0.0, ceiling=-3.0)
    s = sigkern.loudness_stats(z, RATE)
    assert abs(s.true_peak + 3.0) < 1e-6 and s.integrated < 0.0
    p = sigkern.peak_normalize(x, -6.0)
    assert abs(20 * np.log10(np.abs(p).max()) + 6.0) < 1e-9
    assert np.allclose(p / x, p[0, 0] / x[0, 0])  # one gain for every channel
    assert sigkern.normalize_gain(-30.0, -10.0, -23.0, -1.0) == pytest.approx(10 ** (7 / 20))


def test_errors():
    with pytest.raises(sigkern.BadArgumentError, match="rate"):
        sigkern.Meter(1000)
    with pytest.raises(sigkern.LengthError):
        sigkern.Meter(RATE, channels=0)
    with pytest.raises(ValueError, match="weights"):
        sigkern.Meter(RATE, channels=2, weights=[1.0])
    with pytest.raises(TypeError):
        sigkern.loudness_stats(np.zeros((2, 100), np.int16), RATE)
    m = sigkern.Meter(RATE, channels=2)
    with pytest.raises(ValueError, match="channels"):
        m.add(np.zeros((3, 100), np.float32))
    x = np.zeros((2, 4800), np.float32)
    m.add(x)
    before = m.stats()
    x[0, 7] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match="channel 0, frame 7"):
        m.add(x)
    assert m.stats() == before
    with pytest.raises(sigkern.NonFiniteError):
        sigkern.true_peak(x, RATE)
