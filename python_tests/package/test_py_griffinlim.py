"""sigkern.griffinlim against librosa.griffinlim 0.11 given the same initial phases (the same
random_state): float64 within 1e-6 relative to the peak, float32 within 1e-4 absolute; and
sk_griffinlim_* misuse through the raw C ABI."""

import math

import librosa
import numpy as np
import pytest
import torch

import sigkern


def mags(n=6000, n_fft=512, hop=None, seed=0, channels=None, **kw):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / 16000
    shape = (n,) if channels is None else (channels, n)
    x = np.sin(2 * np.pi * 300 * t) + 0.1 * rng.standard_normal(shape)
    return np.abs(librosa.stft(x, n_fft=n_fft, hop_length=hop, **kw))


def rel_close(got, ref, rtol):
    assert got.shape == ref.shape
    err = np.abs(got - ref).max()
    assert err <= rtol * np.abs(ref).max(), f"max abs err {err:e}, peak {np.abs(ref).max():e}"


@pytest.mark.parametrize("kw", [
    dict(),
    dict(momentum=0.0, n_iter=10),
    dict(init=None, n_iter=5),
    dict(length=6000),
    dict(center=False),
    dict(hop_length=100, win_length=400, window="hamming"),
    dict(pad_mode="reflect", momentum=0.5),
    dict(n_iter=0),
])
def test_griffinlim_librosa_f64(kw):
    skw = {k: v for k, v in kw.items() if k in ("center", "hop_length", "win_length", "window")}
    S = mags(hop=skw.get("hop_length"), **{k: v for k, v in skw.items() if k != "hop_length"})
    ref = librosa.griffinlim(S, random_state=3, **kw)
    got = sigkern.griffinlim(S, random_state=3, **kw)
    rel_close(got, ref, 1e-6)


def test_griffinlim_f32_batch_generator_torch():
    S = mags(channels=2)
    ref = librosa.griffinlim(S, random_state=np.random.default_rng(7))
    got = sigkern.griffinlim(S, random_state=np.random.default_rng(7))
    rel_close(got, ref, 1e-6)
    # float32: 4 iterations within 1e-4 absolute of librosa's float32 result; over 32 the
    # float32 rounding grows (librosa's own float32 result then differs from its float64 one
    # by ~3e-4), so there the bound is twice librosa's own float32-vs-float64 spread
    S32 = S.astype(np.float32)
    r32 = librosa.griffinlim(S32, random_state=11, n_iter=4)
    g32 = sigkern.griffinlim(S32, random_state=11, n_iter=4)
    assert g32.dtype == np.float32
    assert np.abs(g32 - r32).max() <= 1e-4
    r32 = librosa.griffinlim(S32, random_state=11)
    spread = np.abs(r32 - librosa.griffinlim(S, random_state=11)).max()
    assert np.abs(sigkern.griffinlim(S32, random_state=11) - r32).max() <= 2 * spread + 1e-4
    gt = sigkern.griffinlim(torch.from_numpy(S), random_state=3, n_iter=4)
    assert isinstance(gt, torch.Tensor)
    rel_close(gt.numpy(), librosa.griffinlim(S, random_state=3, n_iter=4), 1e-6)
    assert sigkern.griffinlim(S, random_state=3, n_iter=2, dtype=np.float32).dtype == np.float32


def test_griffinlim_errors():
    S = mags()
    with pytest.raises(ValueError):
        sigkern.griffinlim(S, momentum=-0.1)
    with pytest.raises(ValueError):
        sigkern.griffinlim(S, init="zeros")
    with pytest.raises(ValueError):
        sigkern.griffinlim(S, random_state="seed")
    with pytest.warns(UserWarning):
        sigkern.griffinlim(S, momentum=1.5, n_iter=1, random_state=0)
    with pytest.raises(sigkern.SigkernError):
        sigkern.griffinlim(S, length=100)  # its STFT has fewer frames than S
    with pytest.raises(TypeError):
        sigkern.griffinlim(S.astype(np.complex128))


def ptr(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)


def test_griffinlim_c_abi_misuse():
    ffi, sk = sigkern.ffi, sigkern.lib
    S = np.ascontiguousarray(mags(n=400, n_fft=32).T)  # (frames, 17)
    frames = S.shape[0]
    w = np.hanning(33)[:-1].copy()
    ln = ffi.new("size_t *")
    assert sk.sk_griffinlim_len(frames, 32, 8, 32, 1, 0, 0, ln) == sk.SK_OK
    assert ln[0] == 8 * (frames - 1)
    y = np.full(ln[0] + 3, 7.0)
    canary = y.copy()
    f = sk.sk_griffinlim_f64
    L = ln[0]
    init = np.ones(S.shape, np.complex128)
    bad = [
        (f(ptr(ffi, S), 16, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, S), 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, -1.0, 0,
           ptr(ffi, y), L), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, S), 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, math.nan, 0,
           ptr(ffi, y), L), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, S), 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L - 1), sk.SK_ERR_BUFFER_TOO_SMALL),
        (f(ffi.NULL, 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, S), 17, frames, 1, ffi.NULL, ffi.NULL, 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_NULL_POINTER),
        (f(ptr(ffi, y), 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_OVERLAP),
        (f(ptr(ffi, S), 17, frames, 1, ptr(ffi, y), ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y[:8]), 8), sk.SK_ERR_BUFFER_TOO_SMALL),
        (f(ptr(ffi, S), 17, frames, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 3, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_BAD_ARGUMENT),
        (f(ptr(ffi, S), 17, 0, 1, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_LENGTH),
        (f(ptr(ffi, S), 17, frames, 2**62, ffi.NULL, ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
           ptr(ffi, y), L), sk.SK_ERR_LENGTH),
    ]
    for got, want in bad:
        assert got == want, sk.sk_status_name(got)
    np.testing.assert_array_equal(y, canary)
    assert f(ptr(ffi, S), 17, frames, 1, ptr(ffi, init), ptr(ffi, w), 32, 8, 32, 1, 0, 2, 0.9, 0,
             ptr(ffi, y), L) == sk.SK_OK
    assert np.isfinite(y[:L]).all() and (y[L:] == 7.0).all()
    assert sk.sk_griffinlim_len(frames, 32, 8, 32, 1, 0, 0, ffi.NULL) == sk.SK_ERR_NULL_POINTER
