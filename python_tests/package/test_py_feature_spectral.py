"""sigkern.feature's spectral descriptors, zero-crossing rate and framed RMS against librosa
(the installed version, float64): same signatures and defaults, same frame counts for every
centring/length combination tested, values within 1e-8 relative (``|a − b| ≤ 1e-8·max(|b|,
1e-3·scale)`` where scale is the feature's largest magnitude, so bins near zero compare
absolutely); float32 input within 1e-5 relative of librosa run on the same samples in float64
(sigkern's float32 STFT rounds the spectrum, librosa's too). Edge cases: silence, DC, signals
shorter than a frame, NaN, negative magnitudes, batches in one call, torch tensors.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

librosa = pytest.importorskip("librosa")

import sigkern  # noqa: E402
import sigkern.feature as skf  # noqa: E402

RNG = np.random.default_rng(52)
SR = 22050


def _close(a: np.ndarray, b: np.ndarray, rtol: float = 1e-8) -> None:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.array_equal(np.isnan(a), np.isnan(b))
    m = ~np.isnan(b)
    scale = np.max(np.abs(b[m])) if m.any() else 1.0
    tol = rtol * np.maximum(np.abs(b[m]), 1e-3 * scale + 1e-300)
    err = np.abs(a[m] - b[m])
    assert np.all(err <= tol), f"max err {err.max()} at {np.argmax(err - tol)}"


def _signal(n: int, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed)
    t = np.arange(n) / SR
    return 0.5 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 3100 * t) + 0.1 * r.standard_normal(n)


NAMES = ["spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness",
         "spectral_contrast", "poly_features", "zero_crossing_rate", "rms"]


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_librosas(name: str) -> None:
    ours = inspect.signature(getattr(skf, name)).parameters
    theirs = inspect.signature(getattr(librosa.feature, name)).parameters
    assert list(ours) == list(theirs)
    for k, p in theirs.items():
        assert ours[k].kind == p.kind, k
        assert ours[k].default == p.default, k


def test_exports() -> None:
    assert set(skf.__all__) >= set(NAMES) | {"spectral_features"}
    assert sigkern.feature is skf
    assert sigkern.rms is not skf.rms  # the package reduction keeps its meaning


# -- from a magnitude spectrogram ------------------------------------------------------------

def _mag(y: np.ndarray, **kw: object) -> np.ndarray:
    return np.abs(librosa.stft(y, **kw))


@pytest.mark.parametrize("layout", ["c", "frame_major"])
def test_descriptors_from_S(layout: str) -> None:
    S = np.abs(RNG.standard_normal((2, 3, 513, 20))) ** 2
    S[0, 1, :, 4] = 0.0  # a silent frame
    Sk = S if layout == "c" else np.ascontiguousarray(S.swapaxes(-1, -2)).swapaxes(-1, -2)
    _close(skf.spectral_centroid(S=Sk, sr=16000), librosa.feature.spectral_centroid(S=S, sr=16000))
    for p, norm in [(2, True), (1, True), (3.5, False)]:
        _close(skf.spectral_bandwidth(S=Sk, sr=16000, p=p, norm=norm),
               librosa.feature.spectral_bandwidth(S=S, sr=16000, p=p, norm=norm))
    for rp in (0.85, 0.5, 0.99):
        _close(skf.spectral_rolloff(S=Sk, sr=16000, roll_percent=rp),
               librosa.feature.spectral_rolloff(S=S, sr=16000, roll_percent=rp))
    for amin, power in [(1e-10, 2.0), (1e-3, 1.0), (1e-10, 0.5)]:
        _close(skf.spectral_flatness(S=Sk, amin=amin, power=power),
               librosa.feature.spectral_flatness(S=S, amin=amin, power=power))


def test_freq_and_centroid_arguments() -> None:
    S = np.abs(RNG.standard_normal((257, 9)))
    freq = np.sort(RNG.uniform(0, 8000, 257))
    _close(skf.spectral_centroid(S=S, freq=freq), librosa.feature.spectral_centroid(S=S, freq=freq))
    _close(skf.spectral_rolloff(S=S, freq=freq), librosa.feature.spectral_rolloff(S=S, freq=freq))
    c = RNG.uniform(500, 3000, (1, 9))
    _close(skf.spectral_bandwidth(S=S, centroid=c), librosa.feature.spectral_bandwidth(S=S, centroid=c))


@pytest.mark.parametrize("kw", [dict(), dict(linear=True), dict(n_bands=4, fmin=300.0, quantile=0.1),
                                dict(sr=16000, n_bands=5, quantile=0.3)])
def test_contrast(kw: dict) -> None:
    y = np.stack([_signal(SR, 1), _signal(SR, 2)])
    S = _mag(y)
    _close(skf.spectral_contrast(S=S, **kw), librosa.feature.spectral_contrast(S=S, **kw))
    _close(skf.spectral_contrast(y=y, **kw), librosa.feature.spectral_contrast(y=y, **kw), 1e-7)


@pytest.mark.parametrize("order", [0, 1, 2])
def test_poly_features(order: int) -> None:
    S = _mag(_signal(8000, 3), n_fft=512, hop_length=128)
    _close(skf.poly_features(S=S, order=order), librosa.feature.poly_features(S=S, order=order), 1e-7)
    y = _signal(8000, 4)
    _close(skf.poly_features(y=y, order=order, n_fft=512),
           librosa.feature.poly_features(y=y, order=order, n_fft=512), 1e-7)


@pytest.mark.parametrize("frame_length", [2048, 2047])
def test_rms_from_S(frame_length: int) -> None:
    y = _signal(5000, 5)
    X = librosa.stft(y, n_fft=frame_length, window="ones", center=False, hop_length=512)
    for S in (X, np.abs(X)):
        _close(skf.rms(S=S, frame_length=frame_length, dtype=np.float64),
               librosa.feature.rms(S=S, frame_length=frame_length, dtype=np.float64))
    with pytest.raises(sigkern.BadArgumentError, match="frame_length"):
        skf.rms(S=np.abs(X), frame_length=1024)


# -- from audio ------------------------------------------------------------------------------

CASES = [
    (SR, dict()),
    (30000, dict(n_fft=1024, hop_length=256)),
    (12345, dict(n_fft=512, hop_length=100, win_length=400, window="hamming")),
    (5000, dict(center=False)),
    (6000, dict(pad_mode="reflect")),
    (100, dict()),  # shorter than a frame: librosa pads it (centred)
    (1, dict(n_fft=256, hop_length=64)),
]


@pytest.mark.parametrize("n,kw", CASES)
def test_descriptors_from_audio(n: int, kw: dict) -> None:
    y = _signal(n, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = {
            "centroid": librosa.feature.spectral_centroid(y=y, **kw),
            "bandwidth": librosa.feature.spectral_bandwidth(y=y, **kw),
            "rolloff": librosa.feature.spectral_rolloff(y=y, **kw),
            "flatness": librosa.feature.spectral_flatness(y=y, **kw),
        }
    _close(skf.spectral_centroid(y=y, **kw), want["centroid"])
    _close(skf.spectral_bandwidth(y=y, **kw), want["bandwidth"])
    _close(skf.spectral_rolloff(y=y, **kw), want["rolloff"])
    _close(skf.spectral_flatness(y=y, **kw), want["flatness"], 1e-7)
    fl, hop = kw.get("n_fft", 2048), kw.get("hop_length", 512)
    c = kw.get("center", True)
    pm = kw.get("pad_mode", "constant")
    if n >= 2:
        want["zcr"] = librosa.feature.zero_crossing_rate(y, frame_length=fl, hop_length=hop, center=c)
    want["rms"] = librosa.feature.rms(y=y, frame_length=fl, hop_length=hop, center=c, pad_mode=pm,
                                      dtype=np.float64)
    stft_kw = {k: v for k, v in kw.items()}
    got = skf.spectral_features(y, **stft_kw)
    for k, v in want.items():
        _close(got[k], v, 1e-7 if k == "flatness" else 1e-8)


def test_float32_audio() -> None:
    y = _signal(SR, 9).astype(np.float32)
    y64 = y.astype(np.float64)
    got = skf.spectral_features(y)
    assert all(v.dtype == np.float32 for v in got.values())
    _close(got["centroid"], librosa.feature.spectral_centroid(y=y64), 1e-5)
    _close(got["bandwidth"], librosa.feature.spectral_bandwidth(y=y64), 1e-5)
    _close(got["flatness"], librosa.feature.spectral_flatness(y=y64), 1e-4)
    _close(got["rms"], librosa.feature.rms(y=y64, dtype=np.float64), 1e-6)
    _close(got["zcr"], librosa.feature.zero_crossing_rate(y64), 1e-7)
    # the roll-off is a bin frequency: float32 rounding may move it by at most one bin
    d = np.abs(got["rolloff"] - librosa.feature.spectral_rolloff(y=y64))
    assert np.mean(d == 0) > 0.95 and d.max() <= SR / 2048 + 1e-3
    assert skf.rms(y=y).dtype == np.float32  # librosa's dtype default


@pytest.mark.parametrize("kw", [dict(), dict(center=False), dict(frame_length=1000, hop_length=300),
                                dict(threshold=0.2), dict(threshold=0.1, ref_magnitude=np.max),
                                dict(threshold=0.5, ref_magnitude=0.3), dict(zero_pos=False),
                                dict(pad=True), dict(threshold=0.0)])
def test_zero_crossing_rate(kw: dict) -> None:
    y = np.round(_signal(10000, 11), 1)  # many exact zeros
    y[100:400] = 0.0
    y[500] = -0.0
    _close(skf.zero_crossing_rate(y, **kw), librosa.feature.zero_crossing_rate(y, **kw), 0)
    if kw == dict(threshold=0.0):  # librosa's zero_crossings reads None as 0 (its rate fails on None)
        _close(skf.zero_crossing_rate(y, threshold=None), librosa.feature.zero_crossing_rate(y, **kw), 0)


@pytest.mark.parametrize("kw", [dict(), dict(center=False), dict(pad_mode="reflect"),
                                dict(pad_mode="edge"), dict(frame_length=333, hop_length=111)])
def test_rms_from_audio(kw: dict) -> None:
    y = _signal(7000, 12)
    _close(skf.rms(y=y, dtype=np.float64, **kw), librosa.feature.rms(y=y, dtype=np.float64, **kw))
    _close(skf.rms(y=y, **kw), librosa.feature.rms(y=y, **kw), 1e-6)


# -- edge cases ------------------------------------------------------------------------------

def test_silence_and_dc() -> None:
    for y in (np.zeros(4096), np.full(4096, 0.25)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = skf.spectral_features(y)
            _close(got["centroid"], librosa.feature.spectral_centroid(y=y))
            _close(got["bandwidth"], librosa.feature.spectral_bandwidth(y=y))
            _close(got["rolloff"], librosa.feature.spectral_rolloff(y=y))
            _close(got["flatness"], librosa.feature.spectral_flatness(y=y), 1e-7)
            _close(got["zcr"], librosa.feature.zero_crossing_rate(y))
            _close(got["rms"], librosa.feature.rms(y=y, dtype=np.float64))
            _close(skf.spectral_contrast(y=y), librosa.feature.spectral_contrast(y=y), 1e-7)


def test_nan_and_bad_input() -> None:
    y = _signal(4096)
    y[1000] = np.nan
    with pytest.raises(sigkern.NonFiniteError, match=r"y\[1000\]"):
        skf.spectral_centroid(y=y)
    with pytest.raises(sigkern.NonFiniteError):
        skf.zero_crossing_rate(y)
    with pytest.raises(sigkern.NonFiniteError):
        skf.spectral_contrast(y=y)
    r = skf.rms(y=y, dtype=np.float64)  # rms propagates NaN, as librosa
    _close(r, librosa.feature.rms(y=y, dtype=np.float64))
    S = np.abs(RNG.standard_normal((129, 6)))
    S[5, 2] = np.nan
    c = skf.spectral_centroid(S=S)
    # documented: NaN stays in its frame (librosa's normalize refuses non-finite S instead)
    assert np.isnan(c[0, 2]) and np.isfinite(np.delete(c, 2, axis=1)).all()
    _close(skf.spectral_rolloff(S=S), librosa.feature.spectral_rolloff(S=S))
    _close(skf.spectral_flatness(S=S), librosa.feature.spectral_flatness(S=S), 1e-7)
    S[5, 2] = -1.0
    with pytest.raises(sigkern.BadArgumentError, match="negative"):
        skf.spectral_centroid(S=S)
    with pytest.raises(sigkern.BadArgumentError, match="roll_percent"):
        skf.spectral_rolloff(S=np.abs(S), roll_percent=1.0)
    with pytest.raises(sigkern.BadArgumentError, match="Nyquist"):
        skf.spectral_contrast(S=np.abs(S), sr=1000)
    with pytest.raises(sigkern.BadArgumentError, match="shorter"):
        skf.spectral_centroid(y=np.ones(100), center=False)
    with pytest.raises(TypeError):
        skf.spectral_centroid(S=S.astype(np.complex128))
    with pytest.raises(ValueError, match="unknown feature"):
        skf.spectral_features(np.ones(4096), features=("mfcc",))


def test_batch_is_one_call_per_row() -> None:
    y = np.stack([[_signal(9000, i + 3 * j) for i in range(3)] for j in range(2)])
    got = skf.spectral_features(y)
    for j in range(2):
        for i in range(3):
            one = skf.spectral_features(y[j, i])
            for k in got:
                np.testing.assert_array_equal(got[k][j, i], one[k])
    assert got["centroid"].shape == (2, 3, 1, 1 + 9000 // 512)
    c = skf.spectral_contrast(y=y)
    _close(c, librosa.feature.spectral_contrast(y=y), 1e-7)


def test_torch_in_torch_out() -> None:
    torch = pytest.importorskip("torch")
    y = torch.from_numpy(_signal(8000))
    c = skf.spectral_centroid(y=y)
    assert isinstance(c, torch.Tensor)
    np.testing.assert_array_equal(c.numpy(), skf.spectral_centroid(y=y.numpy()))
    z = skf.zero_crossing_rate(y)
    assert isinstance(z, torch.Tensor)
