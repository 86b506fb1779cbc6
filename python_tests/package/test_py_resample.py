"""sigkern.resample / sigkern.Resampler: the package entries over sk_resample_* and
sk_resampler_*, against the raw C one-shot, closed-form sines and their own streaming
contract."""

import numpy as np
import pytest

import sigkern


def sine(n, f, fs, dtype=np.float64):
    return np.sin(2 * np.pi * f * np.arange(n) / fs).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_resample_lines_up_with_the_input(dtype):
    x = sine(9600, 1000.0, 48000.0, dtype)
    y = sigkern.resample(x, 48000, 44100)
    assert y.dtype == dtype and y.shape == (8820,)
    want = sine(8820, 1000.0, 44100.0)
    # HIGH's stopband of 135 dB means a passband ripple of 10**(-135/20) = 1.8e-7 per filter
    # stage (two stages); a misalignment of one output sample would be an error near 0.14
    tol = 1e-5 if dtype == np.float32 else 4e-7
    assert np.max(np.abs(y[1000:-1000] - want[1000:-1000])) < tol


def test_sizes_follow_the_rounding_rule():
    for n in [0, 1, 159, 160, 161, 48001]:
        assert sigkern.resample_size(n, 48000, 44100) == -(-n * 147 // 160)
        assert sigkern.resample(np.zeros(n, np.float32), 48000, 44100).shape == (-(-n * 147 // 160),)


def test_axis_and_layouts_agree():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5000)).astype(np.float32)
    planar = sigkern.resample(x, 44100, 48000)
    frames = sigkern.resample(np.ascontiguousarray(x.T), 44100, 48000, axis=0)
    assert frames.shape == (planar.shape[1], 3)
    np.testing.assert_array_equal(frames.T, planar)
    x3 = rng.standard_normal((2, 4000, 2))
    y3 = sigkern.resample(x3, 2, 1, axis=1)
    assert y3.shape == (2, 2000, 2)
    np.testing.assert_array_equal(y3[:, :, 1], sigkern.resample(np.ascontiguousarray(x3[:, :, 1]), 2, 1))
    out = np.empty((3, planar.shape[1]), np.float32)
    assert sigkern.resample(x, 44100, 48000, out=out) is out
    np.testing.assert_array_equal(out, planar)


def test_torch_in_torch_out():
    torch = pytest.importorskip("torch")
    x = torch.randn(2, 3000, dtype=torch.float64)
    y = sigkern.resample(x, 48000, 16000, quality="very_high")
    assert isinstance(y, torch.Tensor) and y.shape == (2, 1000)
    np.testing.assert_array_equal(y.numpy(), sigkern.resample(x.numpy(), 48000, 16000, quality="VHQ"))


@pytest.mark.parametrize("quality", ["quick", "low", "medium", "high", "very_high"])
@pytest.mark.parametrize("ratio", [(48000, 44100), (44100, 48000), (1.0, 2 ** 0.5)])
def test_stream_is_the_oneshot_delayed_bit_for_bit(quality, ratio):
    fin, fout = ratio
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 7001)).astype(np.float32)
    want = sigkern.resample(x, fin, fout, quality=quality)
    with sigkern.Resampler(fin, fout, channels=2, quality=quality) as r:
        lat = r.latency
        parts, i = [], 0
        for step in [1, 511, 512, 3000, 7001]:
            parts.append(r.process(x[:, i:i + step]))
            i += len(x[0, i:i + step])
        parts.append(r.flush())
    got = np.concatenate(parts, axis=1)
    assert got.shape[1] == lat + want.shape[1]
    np.testing.assert_array_equal(got[:, lat:], want)


def test_process_last_flushes_and_resets():
    x = sine(4000, 440.0, 16000.0)
    r = sigkern.Resampler(16000, 48000, dtype=np.float64)
    a = r.process(x, last=True)
    b = r.process(x, last=True)
    np.testing.assert_array_equal(a, b)
    assert len(a) == r.latency + 12000


def test_set_ratio_ramp_has_no_click():
    fs = 48000.0
    x = sine(24000, 500.0, fs)
    r = sigkern.Resampler(fs, 44100, dtype=np.float64, quality="very_high")
    y1 = r.process(x[:8000])
    r.set_ratio(44100 * 1.002 / fs, ramp=4000)
    y2 = r.process(x[8000:])
    y = np.concatenate([y1, y2])[r.latency + 500:-500]
    # a 500 Hz sine at ~44.1 kHz: the second difference is bounded by (2*pi*f/fs)^2 everywhere;
    # a discontinuity would show as a spike far above it
    d2 = np.abs(np.diff(y, 2))
    assert d2.max() < (2 * np.pi * 500 / 44000) ** 2 * 1.01


def test_custom_spec_and_errors():
    r = sigkern.Resampler(48000, 44100, spec=(0.8, 1.0, 100.0))
    assert r.latency > 0
    r.close()
    r.close()
    with pytest.raises(sigkern.InvalidHandleError):
        r.reset()
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.Resampler(48000, 44100, spec=(0.9, 0.8, 100.0))
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.resample(np.zeros(10), 0, 44100)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.resample(np.zeros(10), 1, 1000)
    with pytest.raises(ValueError):
        sigkern.resample(np.zeros(10), 1, 2, quality="best")
    with pytest.raises(TypeError):
        sigkern.resample(np.zeros(10, np.int16), 1, 2)
    with pytest.raises(ValueError):
        sigkern.Resampler(1, 2, channels=2).process(np.zeros(10, np.float32))
    with pytest.raises(TypeError):
        sigkern.Resampler(1, 2).process(np.zeros(10, np.float64))


def test_upfirdn_and_resample_poly_equal_scipy():
    ss = pytest.importorskip("scipy.signal")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 1000))
    h = rng.standard_normal(31)
    np.testing.assert_allclose(sigkern.upfirdn(h, x, 3, 2), ss.upfirdn(h, x, 3, 2), atol=1e-12)
    np.testing.assert_allclose(sigkern.resample_poly(x, 147, 160, axis=-1),
                               ss.resample_poly(x, 147, 160, axis=-1), atol=1e-9)
    # scipy's default axis is 0
    np.testing.assert_allclose(sigkern.resample_poly(x.T, 2, 3), ss.resample_poly(x.T, 2, 3), atol=1e-9)



def test_decimate_and_interpolate_equal_scipy():
    ss = pytest.importorskip("scipy.signal")
    x = np.random.default_rng(4).standard_normal((2, 1001))
    np.testing.assert_allclose(sigkern.decimate(x, 3, ftype="fir"), ss.decimate(x, 3, ftype="fir"),
                               atol=1e-9)
    np.testing.assert_allclose(sigkern.decimate(x.T, 5, ftype="fir", axis=0),
                               ss.decimate(x.T, 5, ftype="fir", axis=0), atol=1e-9)
    # the default is scipy's: an order-8 Chebyshev I IIR, forward and backward
    np.testing.assert_allclose(sigkern.decimate(x, 3), ss.decimate(x, 3), atol=1e-10)
    h = ss.firwin(41, 0.5, window="hamming")
    np.testing.assert_allclose(sigkern.interpolate(x, 2), ss.resample_poly(x, 2, 1, window=h,
                                                                           axis=-1), atol=1e-9)
    assert sigkern.decimate(x.astype(np.float32), 2).dtype == np.float32
    with pytest.raises(ValueError):
        sigkern.decimate(x, 0)

def test_interleaved_stream_equals_planar():
    x = np.random.default_rng(5).standard_normal((2, 3000)).astype(np.float32)
    a = sigkern.Resampler(48000, 44100, channels=2)
    b = sigkern.Resampler(48000, 44100, channels=2)
    planar = np.concatenate([a.process(x[:, :1000]), a.process(x[:, 1000:]), a.flush()], axis=1)
    il = np.ascontiguousarray(x.T)
    inter = np.concatenate([b.process_interleaved(il[:1000]), b.process_interleaved(il[1000:]),
                            b.flush_interleaved()], axis=0)
    assert np.array_equal(inter, planar.T)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        b.process_interleaved(x)


def test_resampler_phase():
    """phase="linear" is the default stream bit for bit (preset or spec); phase="minimum" keeps
    the chunked = whole contract, has a much smaller latency, and a low sine still lands on its
    instants once the latency is removed."""
    x = sine(24000, 440.0, 48000.0)
    for kw in ({}, {"spec": (0.9, 1.0, 120.0)}):
        a = sigkern.Resampler(48000, 44100, dtype=np.float64, **kw)
        b = sigkern.Resampler(48000, 44100, dtype=np.float64, phase="linear", **kw)
        assert a.latency == b.latency
        np.testing.assert_array_equal(a.process(x, last=True), b.process(x, last=True))
    for kw in ({}, {"quality": "very_high"}, {"spec": (0.9, 1.0, 120.0)}):
        lin = sigkern.Resampler(48000, 44100, dtype=np.float64, **kw)
        mp = sigkern.Resampler(48000, 44100, dtype=np.float64, phase="minimum", **kw)
        assert 4 * mp.latency < lin.latency
        whole = mp.process(x, last=True)
        parts = [mp.process(x[i:i + 1000]) for i in range(0, len(x), 1000)] + [mp.flush()]
        np.testing.assert_array_equal(np.concatenate(parts), whole)
        y = whole[mp.latency:]
        want = sine(len(y), 440.0, 44100.0)
        assert np.max(np.abs(y[2000:-2000] - want[2000:-2000])) < 1e-3
    with pytest.raises(ValueError, match="phase"):
        sigkern.Resampler(48000, 44100, phase="maximum")
    with pytest.raises(ValueError, match="phase"):
        sigkern.Resampler(48000, 44100, phase=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_stream_blocks_in_every_layout_give_the_same_output(dtype):
    """process() on C-contiguous blocks, time slices of a bigger block and torch tensors: the
    same stream, bit for bit; a block whose rows are not contiguous, a closed stream and a
    block of the wrong shape or dtype are refused."""
    import torch

    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 6000)).astype(dtype)
    bounds = [0, 1, 300, 301, 2048, 2049, 4000, 6000]
    want = None
    for form in ("contiguous", "slice", "torch"):
        r = sigkern.Resampler(48000, 44100, channels=2, dtype=dtype)
        parts = []
        for a, b in zip(bounds, bounds[1:]):
            blk = x[:, a:b]
            if form == "contiguous":
                blk = np.ascontiguousarray(blk)
            elif form == "torch":
                blk = torch.from_numpy(np.ascontiguousarray(blk))
            if a == 2049:
                with pytest.raises(ValueError, match="C-contiguous"):
                    r.process(np.asfortranarray(x[:, a:b]))  # refused, the stream unchanged
            y = r.process(blk)
            parts.append(y.numpy() if form == "torch" else y)
            assert parts[-1].dtype == dtype and parts[-1].shape[0] == 2
        parts.append(r.flush())
        got = np.concatenate(parts, axis=1)
        if want is None:
            want = got
        np.testing.assert_array_equal(got, want, err_msg=form)
        r.close()
        with pytest.raises(sigkern.InvalidHandleError, match="closed"):
            r.process(x[:, :10])
    mono = sigkern.Resampler(48000, 44100, dtype=dtype)
    with pytest.raises(ValueError, match="C-contiguous"):
        mono.process(x[0, ::2])
    with pytest.raises(ValueError, match="shape"):
        mono.process(x)  # two channels into a one-channel stream
    with pytest.raises(TypeError):
        mono.process(x[0].astype(np.float64 if dtype == np.float32 else np.float32))
