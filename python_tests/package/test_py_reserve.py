"""`reserve(max_block)` on the streaming objects: results unchanged, bad values refused."""

import numpy as np
import pytest

import sigkern

CLASSES = ["Biquad", "Fir", "Lfilter", "Resampler", "Meter", "Compressor", "Limiter",
           "NoiseGate", "EnvelopeFollower", "StftStream"]


@pytest.mark.parametrize("name", CLASSES)
def test_every_streaming_class_has_reserve(name):
    assert callable(getattr(getattr(sigkern, name), "reserve"))


def test_biquad_reserve_keeps_results():
    sos = sigkern.butter(4, 0.1, output="sos")
    x = np.random.default_rng(0).standard_normal((2, 2048)).astype(np.float32)
    a, b = sigkern.Biquad(sos, channels=2), sigkern.Biquad(sos, channels=2)
    b.reserve(512)
    ya = np.concatenate([a.process(x[:, i:i + 512]) for i in range(0, 2048, 512)], axis=1)
    yb = np.concatenate([b.process(x[:, i:i + 512]) for i in range(0, 2048, 512)], axis=1)
    np.testing.assert_array_equal(ya, yb)
    with pytest.raises(ValueError, match="negative"):
        b.reserve(-1)
    with pytest.raises(TypeError, match="integer"):
        b.reserve(1.5)


def test_stft_stream_reserve_keeps_results():
    x = np.random.default_rng(1).standard_normal(4096).astype(np.float32)
    a, b = sigkern.StftStream(256, 64), sigkern.StftStream(256, 64)
    b.reserve(1024)
    for i in range(0, 4096, 1024):
        np.testing.assert_array_equal(a.push(x[i:i + 1024]), b.push(x[i:i + 1024]))
