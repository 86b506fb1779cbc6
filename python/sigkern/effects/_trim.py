"""Silence trimming and splitting with librosa's names (C: ``sk_silence_rms_*``,
``sk_silence_flags_f32``; Rust: ``src/kernels/feature/trim.rs``): :func:`trim` and
:func:`split`, as ``librosa.effects.trim`` / ``librosa.effects.split``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F32, F64, SFX
from .._errors import error
from .._lib import cfunc, ffi

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["trim", "split"]

_rms = {F32: cfunc("sk_silence_rms_f32"), F64: cfunc("sk_silence_rms_f64")}
_flags = cfunc("sk_silence_flags_f32")

_REF_MAX, _REF_F32, _REF_F64 = 0, 1, 2
_AGG = {id(np.max): 0, id(np.amax): 0, id(np.min): 1, id(np.amin): 1}


def _nonsilent(func: str, y: Any, top_db: float, ref: Union[float, Callable[..., Any]],
               frame_length: int, hop_length: int, aggregate: Callable[..., Any]) -> Tuple[np.ndarray, int]:
    """librosa's ``_signal_to_frame_nonsilent``: the per-frame non-silent flags (bool) and n."""
    dt0 = A.dtype_of(y)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(f"{func}: y must be real audio, got {A.describe(y)}")
    ya = A.as_input(y, func, "y")
    A.cpu_tensor(ya, func, "y")
    dt = A.float_dtype(ya, func, "y")
    if ya.ndim == 0:
        raise ValueError(f"{func}: y is zero-dimensional; pass audio of shape (..., n)")
    ya = A.contig(ya)
    fl = A.index(frame_length, func, "frame_length")
    hop = A.index(hop_length, func, "hop_length")
    if fl < 1 or hop < 1:
        raise ValueError(f"{func}: frame_length and hop_length must be positive, got {fl}, {hop}")
    lead = tuple(ya.shape[:-1])
    n = int(ya.shape[-1])
    rows = math.prod(lead)
    if rows == 0:
        raise ValueError(f"{func}: y has shape {tuple(ya.shape)}: no channel to measure")
    padded = n + 2 * (fl // 2)
    if padded < fl:
        raise ValueError(f"{func}: signal of {n} samples (padded to {padded}) is shorter than "
                         f"frame_length = {fl}")
    frames = 1 + (padded - fl) // hop
    top = float(top_db)
    if math.isnan(top):
        raise ValueError(f"{func}: top_db is NaN")
    rms = np.empty(lead + (frames,), F32)
    st = _rms[dt](B.pointer(ya, dt, func, "y")[0], rows, n, fl, hop,
                  ffi.from_buffer("float[]", rms, require_writable=True), rows * frames)
    if st:
        raise error(st, f"sk_silence_rms_{SFX[dt]}")
    if callable(ref) and (ref is np.max or ref is np.amax):
        mode, rv = _REF_MAX, 0.0
    else:
        v = np.asarray(ref(np.abs(rms)) if callable(ref) else ref)
        if v.ndim != 0 or v.dtype.kind not in "biuf":
            raise ValueError(f"{func}: ref must be a real number or return one, got {v!r}")
        mode, rv = (_REF_F32 if v.dtype == F32 else _REF_F64), float(v)
    agg = _AGG.get(id(aggregate)) if rows > 1 else 0
    flags = np.empty(frames, np.uint8)
    db = np.empty(lead + (frames,), F32) if agg is None else None
    st = _flags(ffi.from_buffer("float[]", rms), rows, frames, top, mode, rv, 0 if agg is None else agg,
                ffi.NULL if db is None else ffi.from_buffer("float[]", db, require_writable=True),
                0 if db is None else db.size,
                ffi.from_buffer("uint8_t[]", flags, require_writable=True), frames)
    if st:
        raise error(st, "sk_silence_flags_f32")
    if db is not None:
        a = np.apply_over_axes(aggregate, db, range(db.ndim - 1))
        a = np.squeeze(a, axis=tuple(range(a.ndim - 1)))
        return np.asarray(a > -top), n
    return flags.astype(bool), n


def trim(y: ArrayLike, *, top_db: float = 60, ref: Union[float, Callable[..., Any]] = np.max,
         frame_length: int = 2048, hop_length: int = 512,
         aggregate: Callable[..., Any] = np.max) -> Tuple[Any, np.ndarray]:
    """``librosa.effects.trim``: the signal without its leading and trailing silence, and the
    interval kept (``sk_silence_rms_*``, ``sk_silence_flags_f32``).

    A frame is silent when its RMS (``librosa.feature.rms``, centred, in float32) is more than
    ``top_db`` dB below ``ref``; the kept interval runs from the first non-silent frame's
    start to one hop past the last non-silent frame's start (at most the signal's end).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Audio; the leading axes are channels, measured in one C call and combined per frame
        by ``aggregate``. NaN samples make their frames silent (and with ``ref=np.max``
        every frame: the reference is NaN), as librosa.
    top_db : float, default 60
        The threshold in dB below the reference.
    ref : float or callable, default np.max
        The reference amplitude, or a function of the ``(..., frames)`` RMS array returning it.
    frame_length : int, default 2048
    hop_length : int, default 512
    aggregate : callable, default np.max
        Combines the channels' dB values of each frame (``np.max`` and ``np.min`` run in C;
        any other callable is applied as librosa's ``np.apply_over_axes``).

    Returns
    -------
    y_trimmed : ndarray or Tensor, shape (..., m)
        ``y[..., index[0]:index[1]]`` (a view).
    index : ndarray of int64, shape (2,)
        ``[start, end]`` in samples; ``[0, 0]`` when every frame is silent.

    Examples
    --------
    >>> y = np.concatenate([np.zeros(4096), np.ones(4096), np.zeros(4096)])
    >>> sigkern.effects.trim(y)[1]
    array([3072, 9216])
    """
    flags, n = _nonsilent("trim", y, top_db, ref, frame_length, hop_length, aggregate)
    nz = np.flatnonzero(flags)
    hop = int(hop_length)
    if nz.size > 0:
        start = int(nz[0]) * hop
        end = min(n, (int(nz[-1]) + 1) * hop)
    else:
        start, end = 0, 0
    ya: Any = y
    return ya[..., start:end], np.asarray([start, end])


def split(y: ArrayLike, *, top_db: float = 60, ref: Union[float, Callable[..., Any]] = np.max,
          frame_length: int = 2048, hop_length: int = 512,
          aggregate: Callable[..., Any] = np.max) -> np.ndarray:
    """``librosa.effects.split``: the non-silent intervals of a signal, in samples
    (``sk_silence_rms_*``, ``sk_silence_flags_f32``).

    Parameters
    ----------
    y, top_db, ref, frame_length, hop_length, aggregate
        As :func:`trim`.

    Returns
    -------
    ndarray of int64, shape (m, 2)
        ``[start_i, end_i]`` of each run of non-silent frames (frame starts times
        ``hop_length``, clipped to the signal's length); ``m = 0`` when all is silent.

    Examples
    --------
    >>> y = np.concatenate([np.ones(4096), np.zeros(8192), np.ones(4096)])
    >>> sigkern.effects.split(y)
    array([[    0,  5120],
           [ 11264, 16384]])
    """
    flags, n = _nonsilent("split", y, top_db, ref, frame_length, hop_length, aggregate)
    hop = int(hop_length)
    edges = [np.flatnonzero(np.diff(flags.astype(int))) + 1]
    if flags[0]:
        edges.insert(0, np.array([0]))
    if flags[-1]:
        edges.append(np.array([flags.size]))
    e = np.minimum(np.concatenate(edges).astype(np.int64) * hop, n)
    res: np.ndarray = e.reshape((-1, 2))
    return res
