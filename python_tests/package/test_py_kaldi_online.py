"""sigkern.kaldi.OnlineFbank / OnlineMfcc: equal bit for bit to the offline call on the whole
signal for random chunkings (both snip_edges, dither with a seed, float32 and float64), equal to
kaldi_native_fbank's OnlineFbank/OnlineMfcc within 1e-4 (+5e-5 relative), and the API (pop, get_frame, reset,
errors)."""

import numpy as np
import pytest

import sigkern.kaldi as kaldi


def _stream(f, x, rng, rate=16000):
    at = 0
    while at < x.size:
        n = int(rng.integers(1, 3000)) if rng.random() < 0.8 else int(rng.integers(0, 5))
        f.accept_waveform(rate, x[at:at + n])
        at += n
    f.input_finished()
    return f.get_frames()


@pytest.mark.parametrize("cls,offline", [(kaldi.OnlineFbank, kaldi.fbank), (kaldi.OnlineMfcc, kaldi.mfcc)])
@pytest.mark.parametrize("snip", [True, False])
def test_any_chunking_equals_offline(cls, offline, snip):
    rng = np.random.default_rng(int(snip))
    for dt in (np.float32, np.float64):
        x = (0.2 * rng.standard_normal(16000 * 3 + 123)).astype(dt)
        kw = dict(snip_edges=snip, dither=0.5, seed=7, energy_floor=0.0)
        want = offline(x, **kw)
        for _ in range(3):
            got = _stream(cls(**kw, dtype=dt), x, rng)
            assert got.dtype == dt
            assert got.shape == want.shape
            assert np.array_equal(got, want)


def test_frames_arrive_as_soon_as_their_samples():
    f = kaldi.OnlineFbank(num_mel_bins=40)
    f.accept_waveform(16000, np.zeros(399, np.float32))
    assert f.num_frames_ready == 0
    f.accept_waveform(16000, np.zeros(1, np.float32))
    assert f.num_frames_ready == 1
    f.accept_waveform(16000, np.zeros(160, np.float32))
    assert f.num_frames_ready == 2 and not f.is_last_frame(1)
    f.input_finished()
    assert f.is_last_frame(1) and f.dim == 40 and f.frame_shift_in_seconds == 0.01
    f.pop(1)
    assert f.get_frames().shape == (1, 40) and f.get_frame(1).shape == (40,)
    with pytest.raises(IndexError):
        f.get_frame(0)
    with pytest.raises(Exception):
        f.accept_waveform(16000, np.zeros(10, np.float32))
    f.reset()
    assert f.num_frames_ready == 0
    with pytest.raises(ValueError, match="sample_rate"):
        f.accept_waveform(8000, np.zeros(10, np.float32))
    with pytest.raises(ValueError):
        kaldi.OnlineFbank(window_type="kaiser")


def test_matches_kaldi_native_fbank():
    knf = pytest.importorskip("kaldi_native_fbank")
    rng = np.random.default_rng(3)
    x = (0.3 * rng.standard_normal(16000 * 2)).astype(np.float32)
    for snip in (True, False):
        o = knf.FbankOptions()
        o.frame_opts.dither = 0.0
        o.frame_opts.snip_edges = snip
        o.mel_opts.num_bins = 80
        o.energy_floor = 1.0
        ref = knf.OnlineFbank(o)
        ours = kaldi.OnlineFbank(num_mel_bins=80, snip_edges=snip)
        for c in np.array_split(x, 37):
            ref.accept_waveform(16000, c.tolist())
            ours.accept_waveform(16000, c)
        ref.input_finished()
        ours.input_finished()
        want = np.array([ref.get_frame(i) for i in range(ref.num_frames_ready)])
        got = ours.get_frames()
        assert got.shape == want.shape
        # float32: both are within 3e-4 of the float64 result in the weakest bands, hence 5e-5 rel
        np.testing.assert_allclose(got, want, rtol=5e-5, atol=1e-4)
        m = knf.MfccOptions()
        m.frame_opts.dither = 0.0
        m.frame_opts.snip_edges = snip
        m.use_energy = False
        m.energy_floor = 1.0
        ref = knf.OnlineMfcc(m)
        ours = kaldi.OnlineMfcc(snip_edges=snip)
        ref.accept_waveform(16000, x.tolist())
        ours.accept_waveform(16000, x)
        ref.input_finished()
        ours.input_finished()
        want = np.array([ref.get_frame(i) for i in range(ref.num_frames_ready)])
        # float32 cepstra are sums over every band's log energy: their rounding scales with the
        # frame's largest coefficient (|c0| ~ 30 here), not with each coefficient
        np.testing.assert_allclose(ours.get_frames(), want, rtol=1e-5,
                                   atol=5e-6 * np.abs(want).max())
