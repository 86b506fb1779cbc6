"""Speed perturbation (torchaudio's ``functional.speed`` / ``transforms.SpeedPerturbation``):
torchaudio's rates and lengths exactly (its formula transcribed: torchaudio is not installed),
the samples as sigkern's resampler gives them and within a stated bound of scipy's
``resample_poly`` on band-limited signals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.signal import resample_poly

import sigkern
from sigkern.augment import AugmentArgumentError, SpeedPerturbation, speed


def torchaudio_rates(orig: int, factor: float) -> tuple[int, int]:
    # torchaudio.functional.speed: int(factor * orig), int(orig), divided by their gcd
    src, dst = int(factor * orig), int(orig)
    g = math.gcd(src, dst)
    return src // g, dst // g


@pytest.mark.parametrize("factor", [0.9, 1.1, 0.95, 1.0])
def test_lengths_are_torchaudios(factor):
    src, dst = torchaudio_rates(16000, factor)
    for n in (1, 7, 12345, 16000):
        x = np.zeros((2, n), np.float32)
        lengths = np.array([n, max(n // 3, 1)])
        y, ln = speed(x, 16000, factor, lengths)
        # torchaudio's resample: ceil(new_freq * length / orig_freq) after the gcd
        want = n if src == dst else math.ceil(dst * n / src)
        assert y.shape == (2, want) and y.dtype == np.float32
        assert ln.tolist() == [math.ceil(v * dst / src) for v in lengths.tolist()]


def test_samples_are_the_resamplers_and_close_to_resample_poly():
    rng = np.random.default_rng(0)
    t = np.arange(16000) / 16000.0
    # band-limited: tones well below the lower Nyquist frequency (0.9 * 8000 Hz)
    x = sum(rng.uniform(0.1, 1) * np.sin(2 * np.pi * f * t + rng.uniform(0, 6))
            for f in (110.0, 700.0, 2300.0, 5100.0))
    for factor in (0.9, 1.1):
        src, dst = torchaudio_rates(16000, factor)
        y, ln = speed(x, 16000, factor)
        assert ln is None
        assert np.array_equal(y, sigkern.resample(x, src, dst))
        ref = resample_poly(x, dst, src)
        assert y.shape == ref.shape
        # the two anti-aliasing kernels differ; away from the edges both are near-exact
        inner = slice(200, -200)
        err = np.max(np.abs(y[inner] - ref[inner])) / np.max(np.abs(x))
        assert err < 2e-3, (factor, err)


def test_factor_one_and_errors():
    x = np.ones(100)
    y, ln = speed(x, 16000, 1.0, [100])
    assert y is x and ln.tolist() == [100]
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(AugmentArgumentError):
            speed(x, 16000, bad)
    with pytest.raises(AugmentArgumentError):
        speed(x, 0, 1.1)
    with pytest.raises(AugmentArgumentError):
        SpeedPerturbation(16000, [])


def test_speed_perturbation_draws_reproducibly():
    x = np.random.default_rng(1).standard_normal(8000).astype(np.float32)
    a = SpeedPerturbation(16000, [0.9, 1.0, 1.1], seed=5)
    b = SpeedPerturbation(16000, [0.9, 1.0, 1.1], seed=5)
    seen = set()
    for _ in range(12):
        ya, la = a(x, [8000])
        yb, lb = b(x, [8000])
        assert a.factor == b.factor and np.array_equal(ya, yb) and la.tolist() == lb.tolist()
        want, wl = speed(x, 16000, a.factor, [8000])
        assert np.array_equal(ya, want) and la.tolist() == wl.tolist()
        seen.add(a.factor)
    assert seen == {0.9, 1.0, 1.1}
