"""Fundamental-frequency estimation with librosa's names (C: ``sk_yin_*``, ``sk_pyin_*``; Rust:
``src/kernels/pitch/mod.rs``, ``src/kernels/pitch/pyin.rs``): :func:`yin` and :func:`pyin`;
:class:`YinStream` (C: ``sk_yin_stream_*``; Rust: ``src/kernels/pitch/stream.rs``), :func:`yin`
on a signal that arrives in chunks."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Optional, Tuple

import numpy as np

from . import _args as A
from . import _buffers as B
from ._args import F32, F64, SFX
from ._errors import error
from ._handle import Handle, closed_error
from ._lib import cfunc, ffi

if TYPE_CHECKING:
    from ._typing import ArrayLike, FloatArray

__all__ = ["yin", "pyin", "YinStream"]

_yin = {F32: cfunc("sk_yin_f32"), F64: cfunc("sk_yin_f64")}
_pyin = {F32: cfunc("sk_pyin_f32"), F64: cfunc("sk_pyin_f64")}
_PAD = {"constant": 0, "reflect": 1}
_stream_new = {F32: cfunc("sk_yin_stream_f32_new"), F64: cfunc("sk_yin_stream_f64_new")}
_stream_push = {F32: cfunc("sk_yin_stream_f32_push"), F64: cfunc("sk_yin_stream_f64_push")}
_stream_finish = {F32: cfunc("sk_yin_stream_f32_finish"), F64: cfunc("sk_yin_stream_f64_finish")}
_stream_push_frames = cfunc("sk_yin_stream_push_frames")
_stream_finish_frames = cfunc("sk_yin_stream_finish_frames")
_stream_reset = cfunc("sk_yin_stream_reset")


def yin(y: ArrayLike, *, fmin: float, fmax: float, sr: float = 22050, frame_length: int = 2048,
        win_length: Any = None, hop_length: Optional[int] = None, trough_threshold: float = 0.1,
        center: bool = True, pad_mode: str = "constant") -> FloatArray:
    """``librosa.yin``: the fundamental frequency of each frame by the YIN algorithm
    (``sk_yin_*``), in Hz.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Finite audio; leading axes are a batch, one C call.
    fmin, fmax : float
        Frequency range, ``0 < fmin < fmax <= sr / 2``.
    sr : float, default 22050
    frame_length : int, default 2048
    win_length : ignored
        Deprecated in librosa 0.11 (no effect); passing it warns, as librosa.
    hop_length : int, default frame_length // 4
    trough_threshold : float, default 0.1
    center : bool, default True
    pad_mode : "constant" or "reflect", default "constant"

    Returns
    -------
    ndarray or Tensor, shape (..., frames), y's dtype

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 220 * np.arange(22050) / 22050)
    >>> round(float(np.median(sigkern.yin(y, fmin=80, fmax=800))), 1)
    220.0
    """
    func = "yin"
    if win_length is not None:
        warnings.warn("The win_length parameter has been deprecated in version 0.11.0 and has no effect.",
                      FutureWarning, stacklevel=2)
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
    hop = fl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    if fl < 1 or hop < 1:
        raise ValueError(f"{func}: frame_length and hop_length must be positive, got {fl}, {hop}")
    pc = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
    if pc is None:
        raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
    lead = tuple(ya.shape[:-1])
    n = int(ya.shape[-1])
    rows = math.prod(lead)
    pad = fl // 2 if center else 0
    if n + 2 * pad < fl:
        raise ValueError(f"{func}: signal of {n} samples (padded to {n + 2 * pad}) is shorter than "
                         f"frame_length = {fl}")
    frames = 1 + (n + 2 * pad - fl) // hop
    out = B.new_like(ya, lead + (frames,), dt)
    st = _yin[dt](B.pointer(ya, dt, func, "y")[0], rows, n, A.rate(sr, func, "sr"), float(fmin),
                  float(fmax), fl, hop, float(trough_threshold), 1 if center else 0, pc,
                  B.pointer(out, dt, func, "out", writable=True)[0], rows * frames)
    if st:
        raise error(st, f"sk_yin_{SFX[dt]}")
    res: FloatArray = out
    return res


def pyin(y: ArrayLike, *, fmin: float, fmax: float, sr: float = 22050, frame_length: int = 2048,
         win_length: Any = None, hop_length: Optional[int] = None, n_thresholds: int = 100,
         beta_parameters: Tuple[float, float] = (2, 18), boltzmann_parameter: float = 2,
         resolution: float = 0.1, max_transition_rate: float = 35.92, switch_prob: float = 0.01,
         no_trough_prob: float = 0.01, fill_na: Optional[float] = np.nan, center: bool = True,
         pad_mode: str = "constant") -> Tuple[FloatArray, Any, FloatArray]:
    """``librosa.pyin``: the fundamental frequency of each frame by probabilistic YIN with
    librosa's voiced/unvoiced HMM and Viterbi decoding (``sk_pyin_*``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Finite audio; leading axes are a batch (each row decoded on its own), one C call.
    fmin, fmax : float
        Frequency range, ``0 < fmin < fmax <= sr / 2``.
    sr : float, default 22050
    frame_length : int, default 2048
    win_length : ignored
        Deprecated in librosa 0.11 (no effect); passing it warns, as librosa.
    hop_length : int, default frame_length // 4
    n_thresholds : int, default 100
    beta_parameters : (float, float), default (2, 18)
        The Beta prior over the thresholds.
    boltzmann_parameter : float, default 2
        The Boltzmann prior over trough positions.
    resolution : float in (0, 1), default 0.1
        Pitch-bin width in semitones.
    max_transition_rate : float, default 35.92
        Octaves per second the pitch may move.
    switch_prob, no_trough_prob : float in [0, 1], default 0.01
    fill_na : float or None, default np.nan
        f0 of unvoiced frames; None gives the decoded pitch bin's frequency.
    center : bool, default True
    pad_mode : "constant" or "reflect", default "constant"

    Returns
    -------
    f0 : ndarray or Tensor, shape (..., frames), y's dtype
    voiced_flag : ndarray or Tensor of bool, shape (..., frames)
    voiced_prob : ndarray or Tensor, shape (..., frames), y's dtype

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 220 * np.arange(22050) / 22050)
    >>> f0, vf, vp = sigkern.pyin(y, fmin=80, fmax=800)
    >>> round(float(np.median(f0[vf])), 1)
    220.0
    """
    func = "pyin"
    if win_length is not None:
        warnings.warn("The win_length parameter has been deprecated in version 0.11.0 and has no effect. "
                      "It will be removed in version 1.0.0.", FutureWarning, stacklevel=2)
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
    hop = fl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    if fl < 1 or hop < 1:
        raise ValueError(f"{func}: frame_length and hop_length must be positive, got {fl}, {hop}")
    pc = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
    if pc is None:
        raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
    ba, bb = (float(v) for v in beta_parameters)
    lead = tuple(ya.shape[:-1])
    n = int(ya.shape[-1])
    rows = math.prod(lead)
    pad = fl // 2 if center else 0
    if n + 2 * pad < fl:
        raise ValueError(f"{func}: signal of {n} samples (padded to {n + 2 * pad}) is shorter than "
                         f"frame_length = {fl}")
    frames = 1 + (n + 2 * pad - fl) // hop
    f0 = B.new_like(ya, lead + (frames,), dt)
    vp = B.new_like(ya, lead + (frames,), dt)
    vf = np.empty(lead + (frames,), np.uint8)
    st = _pyin[dt](B.pointer(ya, dt, func, "y")[0], rows, n, A.rate(sr, func, "sr"), float(fmin), float(fmax),
                   fl, hop, A.index(n_thresholds, func, "n_thresholds"), ba, bb, float(boltzmann_parameter),
                   float(resolution), float(max_transition_rate), float(switch_prob), float(no_trough_prob),
                   0 if fill_na is None else 1, 0.0 if fill_na is None else float(fill_na),
                   1 if center else 0, pc, B.pointer(f0, dt, func, "f0", writable=True)[0],
                   ffi.from_buffer("uint8_t[]", vf, require_writable=True),
                   B.pointer(vp, dt, func, "voiced_prob", writable=True)[0], rows * frames)
    if st:
        raise error(st, f"sk_pyin_{SFX[dt]}")
    flags: Any = vf.astype(bool)
    if A.is_tensor(ya):
        import torch

        flags = torch.from_numpy(flags)
    res: FloatArray = f0
    prob: FloatArray = vp
    return res, flags, prob


class YinStream(Handle, free="sk_yin_stream_free"):
    """:func:`yin` on one signal that arrives in chunks (``sk_yin_stream_*``): push blocks, get
    the f0 of each frame as soon as its samples are there; concatenated with :meth:`finish`'s,
    the values equal one :func:`yin` call on the whole signal, bit for bit, whatever the block
    sizes.

    With ``center=True`` the first frames start in the padding (zeros, or the reflection of the
    first ``frame_length // 2 + 1`` samples with ``pad_mode="reflect"``) and the frames whose
    window reaches past the end come from :meth:`finish`; with ``center=False`` every frame
    comes from :meth:`push` (finish returns none). A signal too short for one frame, which
    :func:`yin` refuses, gets no frame. Pushes run in the calling thread and allocate nothing in
    C (the stream holds the last ``frame_length`` samples and one frame's FFT scratch).

    Parameters
    ----------
    fmin, fmax, sr, frame_length, hop_length, trough_threshold, center, pad_mode
        As :func:`yin`.
    dtype : np.float32 or np.float64, default np.float32
        Sample type of the blocks and of the f0 values.

    Notes
    -----
    A stream holds the state of one signal; one call at a time (a concurrent call raises
    :class:`InvalidHandleError`). ``close()`` frees the C stream (also on ``with`` exit and
    garbage collection).

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 220 * np.arange(22050) / 22050)
    >>> with sigkern.YinStream(fmin=80, fmax=800, dtype=np.float64) as s:
    ...     f0 = np.concatenate([s.push(b) for b in np.array_split(y, 7)] + [s.finish()])
    >>> np.array_equal(f0, sigkern.yin(y, fmin=80, fmax=800))
    True
    """

    __slots__ = ("_h", "_dt", "_fr", "__weakref__")

    def __init__(self, *, fmin: float, fmax: float, sr: float = 22050, frame_length: int = 2048,
                 hop_length: Optional[int] = None, trough_threshold: float = 0.1,
                 center: bool = True, pad_mode: str = "constant", dtype: Any = np.float32) -> None:
        func = "YinStream"
        self._h = ffi.NULL
        dt = A.float_dtype_arg(dtype, func)
        fl = A.index(frame_length, func, "frame_length")
        hop = fl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
        if fl < 1 or hop < 1:
            raise ValueError(f"{func}: frame_length and hop_length must be positive, got {fl}, {hop}")
        pc = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
        if pc is None:
            raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
        pp = ffi.new("SkYinStream **")
        st = _stream_new[dt](A.rate(sr, func, "sr"), float(fmin), float(fmax), fl, hop,
                             float(trough_threshold), 1 if center else 0, pc, pp)
        if st:
            raise error(st, f"sk_yin_stream_{SFX[dt]}_new")
        self._h = pp[0]
        self._dt = dt
        self._fr = ffi.new("size_t *")

    @property
    def dtype(self) -> Any:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _live(self, cname: str) -> None:
        if self._h == ffi.NULL:
            raise closed_error(-7, cname, "this YinStream")

    def push(self, x: ArrayLike) -> FloatArray:
        """Appends samples and returns the f0 (Hz) of the frames they complete
        (``sk_yin_stream_*_push``).

        Parameters
        ----------
        x : ndarray or sequence of floats, shape (n,)
            Finite samples, converted to the stream's dtype.

        Returns
        -------
        ndarray, shape (k,), the stream's dtype
            k >= 0 values.

        Examples
        --------
        >>> s = sigkern.YinStream(fmin=80, fmax=800, center=False)
        >>> s.push(np.zeros(4096)).shape
        (5,)
        """
        func = "YinStream.push"
        cname = f"sk_yin_stream_{SFX[self._dt]}_push"
        self._live(cname)
        xa: Any = x.numpy() if A.is_tensor(x) else x
        xa = np.ascontiguousarray(xa, dtype=self._dt)
        if xa.ndim != 1:
            raise ValueError(f"{func}: x must be one-dimensional (one signal), got shape {xa.shape}")
        n = xa.size
        st = _stream_push_frames(self._h, self._fr, n)
        if st:
            raise error(st, "sk_yin_stream_push_frames")
        y = np.empty(int(self._fr[0]), self._dt)
        ct = "float[]" if self._dt == F32 else "double[]"
        st = _stream_push[self._dt](self._h, ffi.from_buffer(ct, xa), n,
                                    ffi.from_buffer(ct, y, require_writable=True), y.size, self._fr)
        if st:
            raise error(st, cname)
        res: FloatArray = y[:int(self._fr[0])]
        return res

    def finish(self) -> FloatArray:
        """Ends the signal and returns the f0 of the remaining frames (those reaching into the
        end padding; ``sk_yin_stream_*_finish``). Pushing again needs :meth:`reset`.

        Returns
        -------
        ndarray, shape (k,), the stream's dtype

        Examples
        --------
        >>> s = sigkern.YinStream(fmin=80, fmax=800)
        >>> _ = s.push(np.zeros(4096)); s.finish().shape
        (2,)
        """
        cname = f"sk_yin_stream_{SFX[self._dt]}_finish"
        self._live(cname)
        st = _stream_finish_frames(self._h, self._fr)
        if st:
            raise error(st, "sk_yin_stream_finish_frames")
        y = np.empty(int(self._fr[0]), self._dt)
        ct = "float[]" if self._dt == F32 else "double[]"
        st = _stream_finish[self._dt](self._h, ffi.from_buffer(ct, y, require_writable=True), y.size,
                                      self._fr)
        if st:
            raise error(st, cname)
        res: FloatArray = y[:int(self._fr[0])]
        return res

    def reset(self) -> None:
        """Forgets the signal (and a finish): the stream starts a new one
        (``sk_yin_stream_reset``).

        Examples
        --------
        >>> s = sigkern.YinStream(fmin=80, fmax=800); s.reset()
        """
        self._live("sk_yin_stream_reset")
        st = _stream_reset(self._h)
        if st:
            raise error(st, "sk_yin_stream_reset")
