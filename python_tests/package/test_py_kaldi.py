"""sigkern.kaldi against torchaudio.compliance.kaldi (the installed torchaudio, else the vendored
copy of its module in support/torchaudio_kaldi.py run on the installed torch): spectrogram,
fbank and MFCC for every window, both snip_edges, energy options, htk_compat, VTLN warps, three
sample rates; batches, dither seeds, shapes and refusals.

Tolerances. float32: 1e-4 absolute plus 1e-5 relative (spectrogram bins more than 50 dB below their frame's
strongest bin, where both libraries' float32 FFT rounding dominates: 1e-3). float64: 1e-8
relative (``|a − b| ≤ 1e-8·max(|b|, 1)``) against torchaudio with its float32 constants (mel
filterbank, DCT matrix, lifter) computed with correctly rounded float32 log/exp/cos/sin, as
sigkern (and Kaldi's C++) computes them; torch's vectorised float32 log and cos are off by one
unit in the last place at some points, which moves unpatched torchaudio's float64 features by up
to about 1e-5 relative (checked too, at 3e-5).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import sigkern  # noqa: E402
import sigkern.kaldi as sk  # noqa: E402

try:
    import torchaudio.compliance.kaldi as ref  # type: ignore[import-not-found]
except Exception:  # torchaudio absent or built for another torch
    import torchaudio_kaldi as ref  # type: ignore[no-redef]

WINDOWS = ["povey", "hamming", "hanning", "rectangular", "blackman"]

_F32 = np.float32


def _cr(t: "torch.Tensor", f: object) -> "torch.Tensor":
    """A float32 elementary function of a float32 tensor, rounded once from float64."""
    return torch.from_numpy(f(t.double().numpy()).astype(_F32))  # type: ignore[operator]


def _cr_mel_scale(freq: "torch.Tensor") -> "torch.Tensor":
    return 1127.0 * _cr(1.0 + freq / 700.0, np.log)


def _cr_inverse_mel_scale(mel: "torch.Tensor") -> "torch.Tensor":
    return 700.0 * (_cr(mel / 1127.0, np.exp) - 1.0)


def _cr_dct_matrix(num_ceps: int, num_mel_bins: int) -> "torch.Tensor":
    n = torch.arange(float(num_mel_bins))
    k = torch.arange(float(num_mel_bins)).unsqueeze(1)
    dct = _cr(math.pi / float(num_mel_bins) * (n + 0.5) * k, np.cos)
    dct[0] *= 1.0 / math.sqrt(2.0)
    dct *= math.sqrt(2.0 / float(num_mel_bins))
    dct = dct.t()
    dct[:, 0] = math.sqrt(1 / float(num_mel_bins))
    return dct[:, :num_ceps]


def _cr_lifter(num_ceps: int, cepstral_lifter: float) -> "torch.Tensor":
    i = torch.arange(num_ceps)
    return 1.0 + 0.5 * cepstral_lifter * _cr(math.pi * i / cepstral_lifter, np.sin)


@pytest.fixture
def cr(monkeypatch: pytest.MonkeyPatch) -> None:
    """torchaudio with correctly rounded float32 constants (see the module docstring)."""
    monkeypatch.setattr(ref, "mel_scale", _cr_mel_scale)
    monkeypatch.setattr(ref, "inverse_mel_scale", _cr_inverse_mel_scale)
    monkeypatch.setattr(ref, "_get_dct_matrix", _cr_dct_matrix)
    monkeypatch.setattr(ref, "_get_lifter_coeffs", _cr_lifter)


def _signal(sr: float, seconds: float = 0.37, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = int(sr * seconds)
    t = np.arange(n) / sr
    return 0.3 * np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(n)


def _ref(func: str, x: np.ndarray, **kw: object) -> np.ndarray:
    with torch.no_grad():
        r = getattr(ref, func)(torch.from_numpy(x).unsqueeze(0), **kw)
    return r.numpy()


def _close(got: np.ndarray, want: np.ndarray, dt: type, spectrogram: bool = False,
           rel: float = 1e-8) -> None:
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    if dt is np.float64:
        err = np.abs(got - want) / np.maximum(np.abs(want), 1.0)
        assert err.max(initial=0) <= rel, err.max()
    elif spectrogram and want.size:
        deep = want.max(axis=-1, keepdims=True) - want > math.log(1e5)
        deep[..., 0] = False  # the energy column
        err = np.abs(got - want)
        assert err[~deep].max(initial=0) <= 1e-4, err[~deep].max()
        assert err[deep].max(initial=0) <= 1e-3, err[deep].max()
    else:
        # (lifted cepstra reach ±40: there float32 rounding alone is a few 1e-6 relative)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("func", ["spectrogram", "fbank", "mfcc"])
def test_every_window_and_edge_mode(func: str, dt: type, cr: None) -> None:
    x = _signal(16000).astype(dt)
    for window, snip in itertools.product(WINDOWS, [True, False]):
        kw = dict(window_type=window, snip_edges=snip)
        _close(getattr(sk, func)(x, **kw), _ref(func, x, **kw), dt, func == "spectrogram")


@pytest.mark.parametrize("func", ["fbank", "mfcc"])
def test_float64_against_unpatched_torchaudio(func: str) -> None:
    x = _signal(16000, seed=5)
    for window in WINDOWS:
        _close(getattr(sk, func)(x, window_type=window), _ref(func, x, window_type=window),
               np.float64, rel=3e-5)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("func", ["fbank", "mfcc"])
def test_energy_options_and_htk(func: str, dt: type, cr: None) -> None:
    x = _signal(16000, seed=1).astype(dt)
    for use_energy, raw, htk, floor in itertools.product([False, True], [True, False],
                                                          [False, True], [1.0, 0.0]):
        kw = dict(use_energy=use_energy, raw_energy=raw, htk_compat=htk, energy_floor=floor)
        _close(getattr(sk, func)(x, **kw), _ref(func, x, **kw), dt)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_rates_warps_and_band_options(dt: type, cr: None) -> None:
    for sr, warp in itertools.product([8000.0, 16000.0, 44100.0], [0.8, 1.0, 1.2]):
        x = _signal(sr, seed=2).astype(dt)
        kw = dict(sample_frequency=sr, vtln_warp=warp, num_mel_bins=40, low_freq=60.0,
                  high_freq=-400.0)
        _close(sk.fbank(x, **kw), _ref("fbank", x, **kw), dt)
        _close(sk.mfcc(x, **kw), _ref("mfcc", x, **kw), dt)
    x = _signal(16000, seed=3).astype(dt)
    for kw in [dict(use_power=False), dict(use_log_fbank=False), dict(subtract_mean=True),
               dict(round_to_power_of_two=False), dict(remove_dc_offset=False),
               dict(preemphasis_coefficient=0.0), dict(frame_length=20.0, frame_shift=7.5),
               dict(num_mel_bins=80, high_freq=7600.0), dict(blackman_coeff=0.3,
                                                            window_type="blackman")]:
        _close(sk.fbank(x, **kw), _ref("fbank", x, **kw), dt)
    for kw in [dict(cepstral_lifter=0.0), dict(num_ceps=23), dict(subtract_mean=True),
               dict(cepstral_lifter=11.5, num_ceps=20, num_mel_bins=30)]:
        _close(sk.mfcc(x, **kw), _ref("mfcc", x, **kw), dt)
    _close(sk.spectrogram(x, raw_energy=False, energy_floor=0.0),
           _ref("spectrogram", x, raw_energy=False, energy_floor=0.0), dt, True)
    if dt is np.float64:  # (float32: the mean mixes in the deep bins' rounding)
        _close(sk.spectrogram(x, subtract_mean=True), _ref("spectrogram", x, subtract_mean=True),
               dt)


def test_short_signals_torch_input_and_channels(cr: None) -> None:
    x = _signal(16000, seed=4)
    # exactly one frame, one sample short of it
    _close(sk.fbank(x[:400]), _ref("fbank", x[:400]), np.float64)
    for snip in (True, False):
        _close(sk.mfcc(x[:401], snip_edges=snip), _ref("mfcc", x[:401], snip_edges=snip),
               np.float64)
    with pytest.raises(ValueError, match="shorter than one frame"):
        sk.fbank(x[:399])
    # min_duration: torchaudio returns an empty 1-D result
    assert sk.fbank(x, min_duration=1.0).shape == (0,)
    # torch in, torch out; (c, n) input picks the channel as torchaudio does
    st = torch.from_numpy(np.stack([x, -2 * x]).astype(np.float32))
    got = sk.fbank(st, channel=1)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    want = ref.fbank(st, channel=1)
    np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-4, rtol=0)
    np.testing.assert_allclose(sk.fbank(st).numpy(), ref.fbank(st).numpy(), atol=1e-4, rtol=0)


def test_batches_equal_single_calls_and_out() -> None:
    xs = np.stack([_signal(16000, seed=s) for s in range(5)]).reshape(5, 1, -1)
    b = sk.mfcc(xs, channel=None)
    assert b.shape[:2] == (5, 1)
    for i in range(5):
        np.testing.assert_array_equal(b[i, 0], sk.mfcc(xs[i, 0]))
    # a strided batch: every other signal of a bigger block
    wide = np.stack([_signal(16000, seed=s) for s in range(6)])
    got = sk.fbank(wide[::2, 100:5000], channel=None)
    for i, row in enumerate(wide[::2, 100:5000]):
        np.testing.assert_array_equal(got[i], sk.fbank(np.ascontiguousarray(row)))
    out = np.empty_like(got)
    assert sk.fbank(wide[::2, 100:5000], channel=None, out=out) is out
    np.testing.assert_array_equal(out, got)
    with pytest.raises(ValueError):
        sk.fbank(wide[0], out=np.empty((3, 23)))


def test_dither_is_seeded_with_the_reference_variance() -> None:
    x = np.zeros(16000)
    a = sk.spectrogram(x, dither=1.0, seed=5, energy_floor=0.0, remove_dc_offset=False,
                       preemphasis_coefficient=0.0, window_type="rectangular")
    b = sk.spectrogram(x, dither=1.0, seed=5, energy_floor=0.0, remove_dc_offset=False,
                       preemphasis_coefficient=0.0, window_type="rectangular")
    np.testing.assert_array_equal(a, b)
    c = sk.spectrogram(x, dither=1.0, seed=6, energy_floor=0.0, remove_dc_offset=False,
                       preemphasis_coefficient=0.0, window_type="rectangular")
    assert not np.array_equal(a, c)
    # column 0 is log(Σ noise²) over 400 samples: unit-variance noise gives about log(400),
    # as torchaudio's torch.randn noise does
    r = _ref("spectrogram", x, dither=1.0, energy_floor=0.0, remove_dc_offset=False,
             preemphasis_coefficient=0.0, window_type="rectangular")
    assert abs(np.exp(a[:, 0]).mean() / 400 - 1) < 0.02
    assert abs(np.exp(r[:, 0]).mean() / 400 - 1) < 0.02
    # the noise of a row does not depend on the batch it is in
    xs = np.zeros((3, 16000), np.float32)
    bat = sk.fbank(xs, channel=None, dither=0.5, seed=9)
    np.testing.assert_array_equal(bat[0], sk.fbank(xs[0], dither=0.5, seed=9))
    assert not np.array_equal(bat[0], bat[1])


def test_refusals() -> None:
    x = _signal(16000)
    with pytest.raises(ValueError, match="window_type"):
        sk.fbank(x, window_type="kaiser")
    with pytest.raises(sigkern.BadArgumentError, match="num_mel_bins"):
        sk.fbank(x, num_mel_bins=3)
    with pytest.raises(sigkern.BadArgumentError, match="num_ceps"):
        sk.mfcc(x, num_ceps=24)
    with pytest.raises(sigkern.BadArgumentError, match="round_to_power_of_two"):
        sk.fbank(x, round_to_power_of_two=False, frame_length=25.0625)
    with pytest.raises(sigkern.BadArgumentError, match="vtln_low"):
        sk.fbank(x, vtln_warp=1.1, vtln_low=10.0)
    with pytest.raises(sigkern.BadArgumentError, match="preemphasis"):
        sk.fbank(x, preemphasis_coefficient=1.5)
    with pytest.raises(ValueError, match="channel"):
        sk.fbank(np.zeros((2, 1000)), channel=2)
    with pytest.raises(TypeError):
        sk.fbank(np.zeros(1000, np.int16))
