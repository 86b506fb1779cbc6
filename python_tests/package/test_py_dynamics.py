"""sigkern.dynamics: Compressor / NoiseGate against pedalboard (JUCE) where the algorithms
coincide, against a float64 numpy reference of the same formula, chunk invariance, the limiter's
true-peak ceiling, and the errors."""

import numpy as np
import pytest

import sigkern

RATE = 48000


def music(secs, channels, seed, rate=RATE):
    rng = np.random.default_rng(seed)
    n = int(secs * rate)
    x = rng.standard_normal((channels, n)) * 0.2
    seg = rate // 4
    lv = np.repeat(10 ** (rng.uniform(-40, 6, n // seg + 1) / 20), seg)[:n]
    return x * lv


def juce_compressor(x, rate, thr_db, ratio, att, rel):
    """JUCE dsp::BallisticsFilter (peak) + Compressor::processSample, float64, per channel."""
    cte = lambda ms: 0.0 if ms < 1e-3 else np.exp(-2 * np.pi * 1000 / rate / ms)  # noqa: E731
    ca, cr = cte(att), cte(rel)
    thr = 10 ** (thr_db / 20)
    y = np.empty_like(x, dtype=np.float64)
    for c in range(x.shape[0]):
        e = 0.0
        for t, v in enumerate(x[c]):
            a = abs(v)
            e = a + (ca if a > e else cr) * (e - a)
            g = 1.0 if e < thr else (e / thr) ** (1 / ratio - 1)
            y[c, t] = g * v
    return y


def test_hard_knee_compressor_is_the_juce_formula_in_float64():
    x = music(0.5, 2, 1)
    c = sigkern.Compressor(RATE, threshold_db=-18, ratio=5, attack_ms=2, release_ms=50)
    y = c.process(x)
    ref = juce_compressor(x, RATE, -18, 5, 2, 50)
    np.testing.assert_allclose(y, ref, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("thr,ratio,att,rel", [(-20.0, 4.0, 1.0, 100.0), (-30.0, 10.0, 5.0, 30.0),
                                               (-6.0, 2.0, 0.0, 200.0)])
def test_compressor_matches_pedalboard(thr, ratio, att, rel):
    pedalboard = pytest.importorskip("pedalboard")
    x = music(2.0, 2, 2).astype(np.float32)
    pb = pedalboard.Compressor(threshold_db=thr, ratio=ratio, attack_ms=att, release_ms=rel)
    want = pb(x, RATE)
    got = sigkern.Compressor(RATE, threshold_db=thr, ratio=ratio, attack_ms=att, release_ms=rel).process(x)
    # pedalboard runs JUCE in float32 (its envelope accumulates float rounding); we keep float64
    # state: agreement to a few float32 ulps of full scale
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)
    assert np.max(np.abs(got - x)) > 0.01  # the compressor does act on this material


def test_noise_gate_matches_pedalboard():
    pedalboard = pytest.importorskip("pedalboard")
    x = music(2.0, 2, 3).astype(np.float32)
    for thr, ratio, att, rel in [(-30.0, 10.0, 1.0, 100.0), (-20.0, 3.0, 5.0, 50.0)]:
        want = pedalboard.NoiseGate(threshold_db=thr, ratio=ratio, attack_ms=att, release_ms=rel)(x, RATE)
        got = sigkern.NoiseGate(RATE, threshold_db=thr, ratio=ratio, attack_ms=att, release_ms=rel).process(x)
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)
        assert np.max(np.abs(got - x)) > 0.01


def test_chunked_equals_one_call_and_interleaved_equals_planar():
    x = music(1.0, 3, 4).astype(np.float32)
    for make in (lambda: sigkern.Compressor(RATE, -24, 6, knee_db=6, makeup_db=3, link=True, channels=3),
                 lambda: sigkern.NoiseGate(RATE, -30, 4, hold_ms=20, channels=3),
                 lambda: sigkern.EnvelopeFollower(RATE, 1, 50, detector="rms", channels=3),
                 lambda: sigkern.Limiter(RATE, -1, 5, 100, channels=3)):
        whole = make().process(x)
        p = make()
        parts, t, rng = [], 0, np.random.default_rng(0)
        while t < x.shape[1]:
            k = int(rng.integers(0, 3000))
            parts.append(p.process(x[:, t:t + k]))  # a strided time slice
            t += k
        np.testing.assert_array_equal(np.concatenate(parts, axis=1), whole)
        il = make().process_interleaved(np.ascontiguousarray(x.T))
        np.testing.assert_array_equal(il.T, whole)


def test_limiter_true_peak_stays_under_the_ceiling_and_quiet_audio_passes():
    x = music(4.0, 2, 5) * 4.0
    for ceiling in (-1.0, -0.1, -6.0):
        lim = sigkern.Limiter(RATE, ceiling_db=ceiling, lookahead_ms=2, release_ms=50)
        y = lim.process(np.concatenate([x, np.zeros((2, lim.latency))], axis=1))
        tp = sigkern.loudness_stats(y, RATE).true_peak
        assert tp <= ceiling, (tp, ceiling)
        assert tp > ceiling - 1.0  # it limits, it does not just attenuate
    quiet = music(0.5, 2, 6) * 0.01
    lim = sigkern.Limiter(RATE)
    y = lim.process(quiet)
    d = lim.latency
    np.testing.assert_array_equal(y[:, d:], quiet[:, :-d])
    assert not y[:, :d].any()


def test_sidechain_and_torch():
    torch = pytest.importorskip("torch")
    x = np.full((2, 4800), 0.1)
    key = np.zeros_like(x)
    key[0] = 1.0
    c = sigkern.Compressor(RATE, -20, 10, attack_ms=0, link=True)
    y = c.process(x, sidechain=key)
    assert y[0, -1] == y[1, -1] < 0.05
    yt = sigkern.Compressor(RATE, -20, 10).process(torch.from_numpy(x))
    np.testing.assert_array_equal(yt, sigkern.Compressor(RATE, -20, 10).process(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blocks_in_every_layout_give_the_same_output(dtype):
    """process() on C-contiguous blocks, time slices of a bigger block and torch tensors gives
    the bits of one contiguous call; a block whose rows are not contiguous (Fortran order, a
    strided 1-D view) or holds a non-finite value is refused and the state is untouched."""
    import torch

    x = music(0.2, 2, 7).astype(dtype)
    want = sigkern.Compressor(RATE, -24, 4, channels=2).process(x)
    c = sigkern.Compressor(RATE, -24, 4, channels=2)
    half = x.shape[1] // 2
    a = c.process(x[:, :half])  # a time slice
    bad = x[:, half:].copy()
    bad[0, 3] = np.inf
    with pytest.raises(sigkern.NonFiniteError):
        c.process(bad)
    with pytest.raises(ValueError, match="C-contiguous"):
        c.process(np.asfortranarray(x[:, half:]))
    b = c.process(torch.from_numpy(np.ascontiguousarray(x[:, half:])))  # a numpy result
    np.testing.assert_array_equal(np.concatenate([a, b], axis=1), want)
    m = sigkern.Compressor(RATE, -24, 4, channels=1)
    with pytest.raises(ValueError, match="C-contiguous"):
        m.process(x[0, ::2])
    np.testing.assert_array_equal(m.process(x[0]),
                                  sigkern.Compressor(RATE, -24, 4, channels=1).process(x[0].copy()))
    with pytest.raises(ValueError, match="channels"):
        m.process(x)
    with pytest.raises(TypeError):
        m.process(x[0].astype(np.int16))


def test_errors():
    c = sigkern.Compressor(RATE, -20, 4, channels=2)
    bad = np.zeros((2, 100))
    bad[1, 50] = np.nan
    with pytest.raises(sigkern.NonFiniteError):
        c.process(bad)
    with pytest.raises(ValueError):
        c.process(np.zeros((3, 10)))
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.Compressor(10.0)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.Compressor(RATE, ratio=0.5)
    with pytest.raises(sigkern.LengthError):
        sigkern.Limiter(RATE, channels=0)
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.Limiter(RATE).process(np.zeros((2, 10)), sidechain=np.zeros((2, 10)))
    with pytest.raises(ValueError):
        sigkern.EnvelopeFollower(RATE, detector="loud")
    c.close()
    c.close()
    assert c.closed
    with pytest.raises(sigkern.InvalidHandleError):
        c.process(np.zeros((2, 10)))
    with sigkern.Limiter(48000.0) as lim:
        assert lim.latency == 240 + 11 and "Limiter" in repr(lim)


THREADS_WORKER = r"""
import sys
import numpy as np
import sigkern

RATE = 48000
rng = np.random.default_rng(11)
out = {}
for ch in (16, 5):
    x = rng.standard_normal((ch, 40000)) * 0.2
    x *= np.repeat(10 ** (rng.uniform(-40, 6, 40000 // 2000 + 1) / 20), 2000)[:40000]
    makers = {
        "comp": lambda: sigkern.Compressor(RATE, -20, 4, 1, 100, channels=ch),
        "comp_rms_knee": lambda: sigkern.Compressor(RATE, -24, 6, 2, 50, knee_db=6, makeup_db=3,
                                                    detector="rms", channels=ch),
        "gate": lambda: sigkern.NoiseGate(RATE, -30, 4, hold_ms=20, channels=ch),
        "env": lambda: sigkern.EnvelopeFollower(RATE, 1, 50, detector="rms", channels=ch),
        "lim": lambda: sigkern.Limiter(RATE, -1, 5, 100, channels=ch),
    }
    for name, make in makers.items():
        for dt in (np.float32, np.float64):
            p = make()
            xs = x.astype(dt)
            # two calls: the state carried from the first into the second
            y = np.concatenate([p.process(xs[:, :20001]), p.process(xs[:, 20001:])], axis=1)
            out[f"{name}_{ch}_{np.dtype(dt).name}"] = y
np.savez(sys.argv[1], **out)
"""


def test_results_do_not_depend_on_the_thread_count(tmp_path):
    """16 and 5 channels of compressor (peak; RMS with knee and makeup), gate, envelope and
    limiter, float32 and float64, in two calls: the same bits with SIGKERN_THREADS = 1, 2 and 3
    (channel groups split over threads, each with its own working space), and the one-thread
    compressor is the float64 JUCE formula."""
    import os
    import subprocess
    import sys

    got = {}
    for threads in (1, 2, 3):
        out = tmp_path / f"t{threads}.npz"
        env = dict(os.environ, SIGKERN_THREADS=str(threads))
        proc = subprocess.run([sys.executable, "-c", THREADS_WORKER, str(out)], env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        got[threads] = dict(np.load(out))
    assert len(got[1]) == 2 * 5 * 2
    for key in got[1]:
        for threads in (2, 3):
            assert np.array_equal(got[1][key], got[threads][key]), (key, threads)
    # the values themselves: two of the 16 channels against the reference
    rng = np.random.default_rng(11)
    x = rng.standard_normal((16, 40000)) * 0.2
    x *= np.repeat(10 ** (rng.uniform(-40, 6, 40000 // 2000 + 1) / 20), 2000)[:40000]
    ref = juce_compressor(x[[0, 15]], RATE, -20, 4, 1, 100)
    np.testing.assert_allclose(got[1]["comp_16_float64"][[0, 15]], ref, rtol=1e-10, atol=1e-14)
