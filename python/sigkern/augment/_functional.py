"""torchaudio's functional augmentations on numpy arrays: :func:`add_noise`
(``torchaudio.functional.add_noise``; C: ``sk_augment_mix_*``), :func:`fade`
(``torchaudio.transforms.Fade``), and SpecAugment's :func:`mask_along_axis` /
:func:`mask_along_axis_iid` (``torchaudio.functional``'s, with a seed for the draws)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from . import _kernels as K
from ._base import SeedLike

__all__ = ["add_noise", "fade", "mask_along_axis", "mask_along_axis_iid"]


def _float_array(x: Any, func: str, name: str) -> np.ndarray:
    if not isinstance(x, np.ndarray):
        raise TypeError(f"{func}: {name} must be a numpy array, got {type(x).__name__}")
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"{func}: {name} must be float32 or float64, got {x.dtype}")
    return x


def add_noise(waveform: np.ndarray, noise: np.ndarray, snr: Any,
              lengths: Optional[Any] = None) -> np.ndarray:
    """``torchaudio.functional.add_noise``: ``waveform + noise`` scaled so that the ratio of their
    energies is ``snr`` dB (C: ``sk_augment_mix_*``, one call for the batch).

    Parameters
    ----------
    waveform : ndarray, float32 or float64, shape (..., L)
    noise : ndarray, waveform's shape (or broadcastable to it)
    snr : array_like, shape (...)
        SNR in dB per signal (the leading shape of ``waveform``).
    lengths : array_like of int, shape (...), optional
        Valid lengths: the energies are measured over the first ``lengths`` samples only (the
        noise is still added over all ``L``, as torchaudio).

    Returns
    -------
    ndarray, waveform's shape and dtype

    Raises
    ------
    ValueError
        Shapes that do not match.

    Notes
    -----
    A silent noise row leaves its signal unchanged (torchaudio divides by zero).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = sigkern.augment.add_noise(rng.standard_normal((2, 100)), rng.standard_normal((2, 100)), np.array([10.0, 20.0]))
    """
    func = "add_noise"
    x = _float_array(waveform, func, "waveform")
    if x.ndim < 1:
        raise ValueError(f"{func}: waveform must have at least one axis")
    nz = np.broadcast_to(np.asarray(noise, dtype=x.dtype), x.shape)
    lead = x.shape[:-1]
    try:
        s = np.broadcast_to(np.asarray(snr, dtype=np.float64), lead)
    except ValueError:
        raise ValueError(f"{func}: snr of shape {np.shape(snr)} does not match the leading shape "
                         f"{lead} of waveform") from None
    rows, n = math.prod(lead), x.shape[-1]
    x2 = np.ascontiguousarray(x.reshape(rows, n))
    n2 = np.ascontiguousarray(nz.reshape(rows, n))
    s2 = np.ascontiguousarray(s.reshape(rows))
    if lengths is None:
        return K.mix(x2, n2, s2, K.SNR, True).reshape(x.shape)
    ln = np.broadcast_to(np.asarray(lengths, dtype=np.int64), lead).reshape(rows)
    if (ln < 0).any() or (ln > n).any():
        raise ValueError(f"{func}: lengths must be in [0, {n}]")
    mask = np.arange(n) < ln[:, None]
    es = np.sum(np.where(mask, x2.astype(np.float64), 0.0) ** 2, axis=-1)
    en = np.sum(np.where(mask, n2.astype(np.float64), 0.0) ** 2, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        # scale noise to energy es / 10^(snr/10): absolute level of the whole row's noise
        want = np.sqrt(es / 10.0 ** (s2 / 10.0) / np.where(en > 0, en, 1.0))
    on = (en > 0) & (es > 0)
    rms_full = np.sqrt(np.mean(n2.astype(np.float64) ** 2, axis=-1))
    level = 20.0 * np.log10(np.where(on, want * rms_full, 1.0))
    y = K.mix(x2, n2, level, K.ABSOLUTE, True)
    y[~on] = x2[~on]
    return y.reshape(x.shape)


_SHAPES = ("linear", "exponential", "logarithmic", "quarter_sine", "half_sine")


def _fade_curve(length: int, shape: str, fade_in: bool) -> np.ndarray:
    """torchaudio's ``Fade._fade_in`` / ``_fade_out`` curve, in float32."""
    f = np.linspace(0, 1, length, dtype=np.float32)
    pi, two, one = np.float32(math.pi), np.float32(2), np.float32(1)
    g: np.ndarray
    if shape == "linear":
        g = f if fade_in else one - f
    elif shape == "exponential":
        g = np.power(two, (f - one) * 5) if fade_in else np.power(two, -f * 5)
    elif shape == "logarithmic":
        g = (np.log10(np.float32(0.1) + f) if fade_in else np.log10(np.float32(1.1) - f)) + one
    elif shape == "quarter_sine":
        g = np.sin(f * pi / 2) if fade_in else np.sin(f * pi / 2 + pi / 2)
    else:  # half_sine
        g = (np.sin(f * pi - pi / 2) if fade_in else np.sin(f * pi + pi / 2)) / 2 + np.float32(0.5)
    return np.asarray(np.clip(g, 0, 1), dtype=np.float32)


def fade(waveform: np.ndarray, fade_in_len: int = 0, fade_out_len: int = 0,
         fade_shape: str = "linear") -> np.ndarray:
    """``torchaudio.transforms.Fade(fade_in_len, fade_out_len, fade_shape)(waveform)``: a fade in
    over the first and a fade out over the last samples of every signal.

    Parameters
    ----------
    waveform : ndarray, float32 or float64, shape (..., L)
    fade_in_len, fade_out_len : int, default 0
        Lengths in samples, each at most ``L``.
    fade_shape : {"linear", "exponential", "logarithmic", "quarter_sine", "half_sine"}

    Returns
    -------
    ndarray, waveform's shape and dtype
        The curves are computed in float32 as torchaudio does.

    Raises
    ------
    ValueError
        A bad shape name, or a fade longer than the signal.

    Examples
    --------
    >>> sigkern.augment.fade(np.ones(4, np.float32), 2, 0)
    array([0., 1., 1., 1.], dtype=float32)
    """
    func = "fade"
    x = _float_array(waveform, func, "waveform")
    if fade_shape not in _SHAPES:
        raise ValueError(f"{func}: fade_shape must be one of {', '.join(_SHAPES)}, got {fade_shape!r}")
    n = x.shape[-1] if x.ndim else 0
    fi, fo = int(fade_in_len), int(fade_out_len)
    if fi < 0 or fo < 0 or fi > n or fo > n:
        raise ValueError(f"{func}: fade lengths must be in [0, {n}], got {fi}, {fo}")
    gain = np.ones(n, dtype=np.float32)
    gain[:fi] = _fade_curve(fi, fade_shape, True)
    gain[n - fo:] *= _fade_curve(fo, fade_shape, False)
    y: np.ndarray = (x * gain.astype(x.dtype)).astype(x.dtype, copy=False)
    return y


def _mask_checks(spec: Any, axis: int, p: float, min_dim: int, func: str) -> int:
    x = _float_array(spec, func, "specgram")
    dim = x.ndim
    if dim < min_dim:
        raise ValueError(f"{func}: the spectrogram must have at least {min_dim} dimensions, got {dim}")
    if axis < 0:
        axis += dim
    if axis not in (dim - 2, dim - 1):
        raise ValueError(f"{func}: only the last two axes can be masked (got axis {axis} of {dim})")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{func}: the value of p must be between 0.0 and 1.0 ({p} given).")
    return axis


def _mask_param(mask_param: int, p: float, length: int) -> int:
    return mask_param if p == 1.0 else min(mask_param, int(length * p))


def mask_along_axis(specgram: np.ndarray, mask_param: int, mask_value: float, axis: int,
                    p: float = 1.0, *, seed: SeedLike = None) -> np.ndarray:
    """SpecAugment's ``torchaudio.functional.mask_along_axis``: one band ``[v0, v0 + v)`` of
    the axis (frequency ``axis=ndim-2`` or time ``axis=ndim-1``) set to ``mask_value`` in
    every spectrogram of the batch, ``v = u1 · mask_param`` and
    ``v0 = u2 · (size - v)`` (both truncated), ``u1, u2`` uniform in ``[0, 1)``.

    Parameters
    ----------
    specgram : ndarray, float32 or float64, shape (..., freq, time)
    mask_param : int
        Maximum mask width (``min(mask_param, int(size * p))`` when ``p < 1``).
    mask_value : float
    axis : int
        One of the last two axes.
    p : float, default 1.0
        Maximum fraction of the axis that may be masked.
    seed : int, Generator or None, keyword-only
        Source of ``u1, u2`` (torchaudio uses ``torch.rand``); drawn in the spectrogram's dtype.

    Returns
    -------
    ndarray
        A masked copy.

    Raises
    ------
    ValueError
        Fewer than 2 dimensions, another axis, p outside [0, 1].

    Examples
    --------
    >>> s = sigkern.augment.mask_along_axis(np.ones((8, 10), np.float32), 4, 0.0, 1, seed=0)
    """
    func = "mask_along_axis"
    ax = _mask_checks(specgram, axis, p, 2, func)
    size = specgram.shape[ax]
    mp = _mask_param(int(mask_param), p, size)
    if mp < 1:
        return specgram
    rng = np.random.default_rng(seed)
    dt = specgram.dtype
    value = rng.random(dtype=dt) * dt.type(mp)
    min_value = rng.random(dtype=dt) * (dt.type(size) - value)
    start = int(min_value)
    end = int(min_value) + int(value)
    out = specgram.copy()
    idx = [slice(None)] * specgram.ndim
    idx[ax] = slice(start, end)
    out[tuple(idx)] = mask_value
    return out


def mask_along_axis_iid(specgrams: np.ndarray, mask_param: int, mask_value: float, axis: int,
                        p: float = 1.0, *, seed: SeedLike = None) -> np.ndarray:
    """SpecAugment's ``torchaudio.functional.mask_along_axis_iid``: as :func:`mask_along_axis`
    with an independent band for every spectrogram of the batch.

    Parameters
    ----------
    specgrams : ndarray, float32 or float64, shape (batch..., freq, time), ndim >= 3
    mask_param : int
    mask_value : float
    axis : int
        One of the last two axes.
    p : float, default 1.0
    seed : int, Generator or None, keyword-only
        Source of the uniforms (torchaudio: ``torch.rand`` of the batch shape, twice).

    Returns
    -------
    ndarray
        A masked copy.

    Raises
    ------
    ValueError
        Fewer than 3 dimensions, another axis, p outside [0, 1].

    Examples
    --------
    >>> s = sigkern.augment.mask_along_axis_iid(np.ones((2, 8, 10), np.float32), 4, 0.0, 2, seed=0)
    """
    func = "mask_along_axis_iid"
    ax = _mask_checks(specgrams, axis, p, 3, func)
    size = specgrams.shape[ax]
    mp = _mask_param(int(mask_param), p, size)
    if mp < 1:
        return specgrams
    rng = np.random.default_rng(seed)
    dt = specgrams.dtype
    lead = specgrams.shape[:-2]
    value = rng.random(lead, dtype=dt) * dt.type(mp)
    min_value = rng.random(lead, dtype=dt) * (dt.type(size) - value)
    start = min_value.astype(np.int64)[..., None]
    end = (min_value.astype(np.int64) + value.astype(np.int64))[..., None]
    k = np.arange(size)
    band = (k >= start) & (k < end)  # (batch..., size)
    band = band[..., :, None] if ax == specgrams.ndim - 2 else band[..., None, :]
    return np.where(band, dt.type(mask_value), specgrams)
