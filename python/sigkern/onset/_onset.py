"""Onset envelope and peak picking (C: ``sk_onset_strength_*``, ``sk_peak_pick_*``; Rust:
``src/kernels/onset/mod.rs``)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F32, F64, SFX
from .._errors import error
from .._lib import cfunc, ffi
from ..spectral._mel import melspectrogram
from ..spectral._power import power_to_db

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray

__all__ = ["onset_strength", "onset_strength_multi", "onset_detect", "peak_pick"]

_flux = {F32: cfunc("sk_onset_strength_f32"), F64: cfunc("sk_onset_strength_f64")}
_peaks = {F32: cfunc("sk_peak_pick_f32"), F64: cfunc("sk_peak_pick_f64")}
_SIZE_MAX = 2**64 - 1 if ffi.sizeof("size_t") == 8 else 2**32 - 1
_AGG = {np.mean: 1, np.median: 2, np.max: 3, np.amax: 3, np.min: 4, np.amin: 4}


def _check(st: int, cname: str) -> None:
    if st:
        raise error(st, cname)


def _to_numpy(x: Any) -> Any:
    return x.detach().numpy() if A.is_tensor(x) else x


def onset_strength_multi(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                         n_fft: int = 2048, hop_length: int = 512, lag: int = 1, max_size: int = 1,
                         ref: Optional[ArrayLike] = None, detrend: bool = False, center: bool = True,
                         feature: Optional[Callable[..., Any]] = None,
                         aggregate: Optional[Union[Callable[..., Any], bool]] = None,
                         channels: Optional[Union[Sequence[int], Sequence[slice]]] = None,
                         **kwargs: Any) -> FloatArray:
    """``librosa.onset.onset_strength_multi``: spectral flux per channel of a (log-mel)
    spectrogram (``sk_onset_strength_*``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
    sr : float, default 22050
    S : ndarray, shape (..., n_bins, frames), optional
        A spectrogram used as is (librosa passes a dB mel spectrogram).
    n_fft, hop_length : int, default 2048, 512
    lag : int >= 1, default 1
    max_size : int >= 1, default 1
        Size of the local maximum over frequency taken as the reference.
    ref : ndarray of S's shape, optional
    detrend : bool, default False
    center : bool, default True
    feature : callable, optional
        Default :func:`sigkern.melspectrogram` (with ``fmax=sr/2``); its magnitude goes through
        :func:`sigkern.power_to_db`.
    aggregate : callable or False, default np.mean
        ``np.mean``, ``np.median``, ``np.max``, ``np.min`` run in C; other callables in numpy on
        the per-bin flux; False: no aggregation.
    channels : sequence of int bin boundaries or of slices, optional
    **kwargs
        Passed to ``feature``.

    Returns
    -------
    ndarray, shape (..., channels, frames)

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.onset.onset_strength_multi(y=y, channels=[0, 32, 64, 96, 128]).shape
    (4, 44)
    """
    func = "onset_strength_multi"
    if not (isinstance(lag, (int, np.integer)) and lag > 0):
        raise ValueError(f"{func}: lag={lag} must be a positive integer")
    if not (isinstance(max_size, (int, np.integer)) and max_size > 0):
        raise ValueError(f"{func}: max_size={max_size} must be a positive integer")
    if S is None:
        if y is None:
            raise ValueError(f"{func}: pass y or S")
        if feature is None:
            kwargs.setdefault("fmax", 0.5 * sr)
            M = melspectrogram(y, sr=sr, n_fft=n_fft, hop_length=hop_length, **kwargs)
        else:
            M = np.abs(feature(y=y, sr=sr, n_fft=n_fft, hop_length=hop_length, **kwargs))
        S = power_to_db(M)
    S = np.atleast_2d(_to_numpy(S))
    if S.dtype not in (F32, F64):
        S = S.astype(F64)
    S = np.ascontiguousarray(S)
    dt = S.dtype
    lead, n_bins, frames = S.shape[:-2], S.shape[-2], S.shape[-1]
    batch = math.prod(lead)
    rp = ffi.NULL
    if ref is not None:
        R = np.ascontiguousarray(_to_numpy(ref), dtype=dt)
        if R.shape != S.shape:
            raise ValueError(f"{func}: reference spectrum shape {R.shape} must match input spectrum {S.shape}")
        rp = B.pointer(R, dt, func, "ref")[0]
    code = 1 if aggregate is None else _AGG.get(aggregate) if callable(aggregate) else (
        0 if aggregate is False else None)
    if code is None and not callable(aggregate):
        raise ValueError(f"{func}: aggregate must be a callable, None or False, got {aggregate!r}")
    bounds = None
    slices: Optional[List[Any]] = None
    if channels is not None and code != 0:
        ch = list(channels)
        if all(isinstance(c, slice) for c in ch):
            slices = ch
        elif all(isinstance(c, (int, np.integer)) for c in ch):
            b = np.asarray(ch, dtype=np.int64)
            if np.any(b < 0):
                raise ValueError(f"{func}: channel boundaries must be non-negative, got {ch}")
            # librosa's fix_frames without padding: indices beyond n_bins are dropped
            bounds = np.unique(b[b <= n_bins]).astype(np.uintp)
        else:
            raise TypeError(f"{func}: channels must be all integers or all slices, got {ch!r}")
    if code is None or slices is not None:
        code_c = 0  # per-bin flux from C, aggregated here
    else:
        code_c = code
    pad = lag + (n_fft // (2 * hop_length) if center else 0)
    if bounds is not None and len(bounds) < 2:  # no channel at all, as librosa
        n_empty = min(frames - lag + pad, frames) if center else frames - lag + pad
        return np.zeros(lead + (0, max(n_empty, 0)), dt)
    if code_c == 0:
        n_ch = n_bins
    elif bounds is not None:
        n_ch = len(bounds) - 1
    else:
        n_ch = 1
    n_out = frames - lag + pad if frames > lag else 0
    if center:
        n_out = min(n_out, frames)
    out = np.empty(lead + (n_ch, n_out), dt)
    bp = ffi.NULL if bounds is None else ffi.from_buffer("size_t[]", bounds)
    nb = 0 if bounds is None else len(bounds)
    if code_c == 0 and (code is None or slices is not None):
        # per-bin flux without padding/detrend, aggregated in numpy, then padded/detrended
        raw = np.empty(lead + (n_bins, frames - lag if frames > lag else 0), dt)
        st = _flux[dt](B.pointer(S, dt, func, "S")[0], batch, n_bins, frames, rp, lag, max_size, 0,
                       ffi.NULL, 0, 0, 0, _SIZE_MAX, B.pointer(raw, dt, func, "out", True)[0], raw.size)
        _check(st, f"sk_onset_strength_{SFX[dt]}")
        agg: Callable[..., Any] = aggregate if callable(aggregate) else np.mean
        if slices is None:
            slices = [slice(None)] if bounds is None else [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]
        env = np.stack([agg(raw[(Ellipsis, s, slice(None))], axis=-2) for s in slices], axis=-2)
        env = np.pad(env, [(0, 0)] * (env.ndim - 1) + [(pad, 0)], mode="constant")
        if detrend:  # lfilter([1, -1], [1, -0.99]) along time
            d = np.empty(env.shape, np.float64)
            xp = np.zeros(env.shape[:-1])
            yp = np.zeros(env.shape[:-1])
            for t in range(env.shape[-1]):
                yp = env[..., t] - xp + 0.99 * yp
                xp = env[..., t]
                d[..., t] = yp
            env = d
        if center:
            env = env[..., :frames]
        return env.astype(dt, copy=False)
    st = _flux[dt](B.pointer(S, dt, func, "S")[0], batch, n_bins, frames, rp, lag, max_size, code_c,
                   bp, nb, pad, 1 if detrend else 0, frames if center else _SIZE_MAX,
                   B.pointer(out, dt, func, "out", True)[0], out.size)
    _check(st, f"sk_onset_strength_{SFX[dt]}")
    return out


def onset_strength(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                   lag: int = 1, max_size: int = 1, ref: Optional[ArrayLike] = None, detrend: bool = False,
                   center: bool = True, feature: Optional[Callable[..., Any]] = None,
                   aggregate: Optional[Union[Callable[..., Any], bool]] = None, **kwargs: Any) -> FloatArray:
    """``librosa.onset.onset_strength``: the spectral-flux onset envelope over all bins
    (``sk_onset_strength_*``).

    Parameters
    ----------
    y, sr, S, lag, max_size, ref, detrend, center, feature, aggregate
        As :func:`onset_strength_multi` (``aggregate=False`` is an error, as in librosa).
    **kwargs
        ``n_fft``, ``hop_length`` and the parameters of ``feature``.

    Returns
    -------
    ndarray, shape (..., frames)

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.onset.onset_strength(y=y).shape
    (44,)
    """
    if aggregate is False:
        raise ValueError("onset_strength: aggregate cannot be False when computing full-spectrum onset strength")
    env = onset_strength_multi(y=y, sr=sr, S=S, lag=lag, max_size=max_size, ref=ref, detrend=detrend,
                               center=center, feature=feature, aggregate=aggregate, channels=None, **kwargs)
    ret: FloatArray = env[..., 0, :]
    return ret


def _ceil_int(v: Any, func: str, name: str) -> int:
    try:
        return int(np.ceil(v))
    except (TypeError, ValueError):
        raise TypeError(f"{func}: {name} must be a number, got {v!r}") from None


def peak_pick(x: ArrayLike, *, pre_max: int, post_max: int, pre_avg: int, post_avg: int, delta: float,
              wait: int, sparse: bool = True, axis: int = -1) -> Any:
    """``librosa.util.peak_pick``: librosa's greedy peak picker (``sk_peak_pick_*``).

    Parameters
    ----------
    x : ndarray, float32 or float64
    pre_max, post_max, pre_avg, post_avg, wait : numbers (rounded up, as librosa)
        ``pre_max, pre_avg, wait >= 0``; ``post_max, post_avg >= 1``.
    delta : float >= 0
    sparse : bool, default True
        Return the peak indices (1-d ``x`` only), else a boolean mask of x's shape.
    axis : int, default -1

    Returns
    -------
    ndarray of int (sparse) or bool

    Examples
    --------
    >>> x = np.array([0.0, 1.0, 0.0, 0.0, 2.0, 0.0])
    >>> sigkern.onset.peak_pick(x, pre_max=1, post_max=1, pre_avg=1, post_avg=1, delta=0.1, wait=1)
    array([1, 4])
    """
    func = "peak_pick"
    for nm, v in (("pre_max", pre_max), ("pre_avg", pre_avg), ("delta", delta), ("wait", wait)):
        if v < 0:
            raise ValueError(f"{func}: {nm} must be non-negative")
    for nm, v in (("post_max", post_max), ("post_avg", post_avg)):
        if v <= 0:
            raise ValueError(f"{func}: {nm} must be positive")
    x = np.asarray(_to_numpy(x))
    if sparse and x.ndim != 1:
        raise ValueError(f"{func}: sparse=True (default) does not support {x.ndim}-dimensional inputs; "
                         f"set sparse=False or process each row")
    if x.dtype not in (F32, F64):
        x = x.astype(F64)
    dt = x.dtype
    ax = A.axis(axis, x.ndim, func)
    xv = np.ascontiguousarray(np.moveaxis(x, ax, -1))
    n = xv.shape[-1]
    rows = math.prod(xv.shape[:-1])
    flags = np.zeros(xv.shape, np.uint8)
    st = _peaks[dt](B.pointer(xv, dt, func, "x")[0], rows, n, _ceil_int(pre_max, func, "pre_max"),
                    _ceil_int(post_max, func, "post_max"), _ceil_int(pre_avg, func, "pre_avg"),
                    _ceil_int(post_avg, func, "post_avg"), float(delta), _ceil_int(wait, func, "wait"),
                    ffi.from_buffer("uint8_t[]", flags), flags.size)
    _check(st, f"sk_peak_pick_{SFX[dt]}")
    mask = np.moveaxis(flags.astype(bool), -1, ax)
    if sparse:
        return np.flatnonzero(mask)
    return mask


def onset_detect(*, y: Optional[ArrayLike] = None, sr: float = 22050, onset_envelope: Optional[ArrayLike] = None,
                 hop_length: int = 512, backtrack: bool = False, energy: Optional[ArrayLike] = None,
                 units: str = "frames", normalize: bool = True, sparse: bool = True, **kwargs: Any) -> Any:
    """``librosa.onset.onset_detect``: onsets as the peaks of the normalised onset envelope
    (``sk_onset_strength_*``, ``sk_peak_pick_*``).

    Parameters
    ----------
    y, sr, onset_envelope, hop_length, units, normalize, sparse
        As librosa (``units``: "frames", "samples" or "time").
    backtrack, energy
        Backtracking is not supported: ``backtrack=True`` raises ``NotImplementedError``.
    **kwargs
        :func:`peak_pick`'s parameters (librosa's defaults: 30 ms / 100 ms windows, delta 0.07).

    Returns
    -------
    ndarray of onset positions (sparse) or a boolean mask

    Examples
    --------
    >>> y = np.zeros(22050); y[11025:11100] = 1.0
    >>> sigkern.onset.onset_detect(y=y)
    array([22])
    """
    func = "onset_detect"
    if backtrack:
        raise NotImplementedError(f"{func}: backtrack=True is not supported")
    if onset_envelope is None:
        if y is None:
            raise ValueError(f"{func}: y or onset_envelope must be provided")
        onset_envelope = onset_strength(y=y, sr=sr, hop_length=hop_length)
    env = np.asarray(_to_numpy(onset_envelope))
    if env.dtype not in (F32, F64):
        env = env.astype(F64)
    if normalize:
        env = env - np.min(env, keepdims=True, axis=-1)
        env /= np.max(env, keepdims=True, axis=-1) + np.finfo(env.dtype).tiny
    if not env.any() or not np.all(np.isfinite(env)):
        onsets: Any = np.array([], dtype=int) if sparse else np.zeros_like(env, dtype=bool)
    else:
        kwargs.setdefault("pre_max", 0.03 * sr // hop_length)
        kwargs.setdefault("post_max", 0.00 * sr // hop_length + 1)
        kwargs.setdefault("pre_avg", 0.10 * sr // hop_length)
        kwargs.setdefault("post_avg", 0.10 * sr // hop_length + 1)
        kwargs.setdefault("wait", 0.03 * sr // hop_length)
        kwargs.setdefault("delta", 0.07)
        onsets = peak_pick(env, sparse=sparse, axis=-1, **kwargs)
    if sparse:
        if units == "frames":
            pass
        elif units == "samples":
            onsets = (np.asanyarray(onsets) * hop_length).astype(int)
        elif units == "time":
            onsets = np.asanyarray(onsets) * hop_length / float(sr)
        else:
            raise ValueError(f"{func}: invalid unit type: {units}")
    return onsets
