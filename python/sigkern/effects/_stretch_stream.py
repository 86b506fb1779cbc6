"""A streaming time-stretch with a live rate (C: ``sk_stretch_stream_*``; Rust:
``src/kernels/spectral/stretch_stream.rs``): :func:`sigkern.effects.time_stretch` fed block by
block."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX
from .._errors import InvalidHandleError, status_name
from .._handle import Handle
from .._lib import cfunc
from ..spectral._common import _new, _raise
from ..spectral._vocoder import _stretch_rate, _window64

if TYPE_CHECKING:
    from .._typing import ArrayLike, DTypeLike, FloatArray, WindowLike

__all__ = ["TimeStretchStream"]

_NULL: Any = None
_new_fn = cfunc("sk_stretch_stream_new")
_max_out = cfunc("sk_stretch_stream_max_out")
_frames = cfunc("sk_stretch_stream_frames")
_set_rate = cfunc("sk_stretch_stream_set_rate")
_reset = cfunc("sk_stretch_stream_reset")
_process = {A.F32: cfunc("sk_stretch_stream_process_f32"),
             A.F64: cfunc("sk_stretch_stream_process_f64")}
_flush = {A.F32: cfunc("sk_stretch_stream_flush_f32"),
          A.F64: cfunc("sk_stretch_stream_flush_f64")}
_PAD = {"constant": 0, "reflect": 1}


class TimeStretchStream(Handle, free="sk_stretch_stream_free"):
    """Streaming :func:`sigkern.effects.time_stretch` (``sk_stretch_stream_*``): push blocks of
    one signal, get the stretched samples as they become final, :meth:`flush` at the end. At a
    fixed rate the concatenated output equals ``time_stretch`` of the whole signal bit for bit;
    :attr:`rate` may be changed between blocks and applies from the next output frame (hop) on.

    Parameters
    ----------
    rate : float
        Speed-up factor (> 1 shortens), within ``[min_rate, max_rate]``.
    n_fft, hop_length, win_length, window, center, pad_mode
        As :func:`sigkern.effects.time_stretch`.
    min_rate, max_rate : float, optional
        The range :attr:`rate` may later take (default ``min(rate, 0.5)`` and
        ``max(rate, 2.0)``); with ``max_block`` they fix the memory, all taken at creation.
    max_block : int, default 4096
        The most samples one C call takes (longer blocks are split).
    dtype : np.float32 or np.float64, default float32
        Sample type of the blocks and the output (the state is float64).

    Notes
    -----
    A rate change makes the next output frame read the input one ``rate`` of frames after the
    previous output frame's position; the signal's final length is its length mapped through
    that piecewise clock. Use from one thread at a time.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> s = sigkern.effects.TimeStretchStream(1.25, dtype=np.float64)
    >>> y = np.concatenate([s.process(b) for b in np.split(x, 4)] + [s.flush()])
    >>> np.array_equal(y, sigkern.effects.time_stretch(x, rate=1.25))
    True
    """

    __slots__ = ("_h", "_dtype", "_rate", "_min", "_max", "_block", "_y", "_w", "_lock",
                 "__weakref__")

    def __init__(self, rate: float, *, n_fft: int = 2048, hop_length: Optional[int] = None,
                 win_length: Optional[int] = None, window: WindowLike = "hann",
                 center: bool = True, pad_mode: str = "constant",
                 min_rate: Optional[float] = None, max_rate: Optional[float] = None,
                 max_block: int = 4096, dtype: DTypeLike = np.float32) -> None:
        func = "TimeStretchStream"
        self._h = _NULL
        dt = A.float_dtype_arg(dtype, func)
        r = _stretch_rate(rate, func)
        lo = min(r, 0.5) if min_rate is None else _stretch_rate(min_rate, func)
        hi = max(r, 2.0) if max_rate is None else _stretch_rate(max_rate, func)
        n_fft = A.index(n_fft, func, "n_fft")
        wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
        hop = wl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
        if n_fft < 1 or not 1 <= wl <= n_fft or hop < 1:
            raise ValueError(f"{func}: need n_fft >= 1, 1 <= win_length <= n_fft, "
                             f"hop_length >= 1; got {n_fft}, {wl}, {hop}")
        if pad_mode not in _PAD:
            raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
        blk = A.index(max_block, func, "max_block")
        w = _window64(window, wl, func)
        pw, _ = B.pointer(w, A.F64, func, "window")
        pp = _new("SkStretchStream **")
        st = _new_fn(pw, n_fft, hop, wl, 1 if center else 0, _PAD[pad_mode], r, lo, hi, blk, pp)
        if st:
            _raise(st, "sk_stretch_stream_new")
        self._h = pp[0]
        self._dtype, self._rate, self._min, self._max, self._block = dt, r, lo, hi, blk
        m = _new("size_t *")
        st = _max_out(self._h, m)
        if st:
            _raise(st, "sk_stretch_stream_max_out")
        self._y: Any = np.empty(int(m[0]), dt)
        self._w = _new("size_t *")
        self._lock = threading.Lock()

    dtype = property(lambda self: self._dtype, doc="Sample dtype (float32 or float64).")
    max_block = property(lambda self: self._block, doc="Samples per C call.")

    def _busy(self, meth: str) -> InvalidHandleError:
        return InvalidHandleError(
            -7, status_name(-7),
            f"TimeStretchStream.{meth}: the stream is in use by another thread",
            f"TimeStretchStream.{meth}")

    @property
    def rate(self) -> float:
        """The stretch rate of the output frames made from now on (settable)."""
        r: float = self._rate
        return r

    @rate.setter
    def rate(self, value: float) -> None:
        r = _stretch_rate(value, "TimeStretchStream.rate")
        if not self._lock.acquire(False):
            raise self._busy("rate")
        try:
            st = _set_rate(self._h, r)
        finally:
            self._lock.release()
        if st:
            _raise(st, "sk_stretch_stream_set_rate")
        self._rate = r

    @property
    def frames(self) -> int:
        """Output frames (hops) made since the signal started (``sk_stretch_stream_frames``)."""
        st = _frames(self._h, self._w)
        if st:
            _raise(st, "sk_stretch_stream_frames")
        return int(self._w[0])

    def _call(self, x: Optional[Any]) -> FloatArray:
        dt = self._dtype
        py, _ = B.pointer(self._y, dt, "TimeStretchStream", "out", writable=True)
        cap = self._y.shape[0]
        if x is None:
            st = _flush[dt](self._h, py, cap, self._w)
            name = f"sk_stretch_stream_flush_{SFX[dt]}"
        else:
            px, _ = B.pointer(x, dt, "TimeStretchStream", "x")
            st = _process[dt](self._h, px, x.shape[0], py, cap, self._w)
            name = f"sk_stretch_stream_process_{SFX[dt]}"
        if st:
            _raise(st, name)
        out: FloatArray = self._y[:int(self._w[0])].copy()
        return out

    def process(self, x: ArrayLike) -> FloatArray:
        """Appends samples and returns the stretched samples now final
        (``sk_stretch_stream_process_*``).

        Parameters
        ----------
        x : ndarray of the stream's dtype, shape (n,)

        Returns
        -------
        ndarray, the stream's dtype, shape (k,)
        """
        func = "TimeStretchStream.process"
        xa: Any = A.contig(A.as_input(x, func, "x", (self._dtype,)))
        if xa.ndim != 1:
            raise ValueError(f"{func}: x must be one-dimensional, got shape {tuple(xa.shape)}")
        if not self._lock.acquire(False):
            raise self._busy("process")
        try:
            parts = [self._call(xa[i:i + self._block])
                     for i in range(0, max(xa.shape[0], 1), self._block)]
        finally:
            self._lock.release()
        out: FloatArray = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return out

    def flush(self) -> FloatArray:
        """Ends the signal and returns its last samples (``sk_stretch_stream_flush_*``); the
        stream then starts a new signal at the current rate.

        Returns
        -------
        ndarray, the stream's dtype, shape (k,)

        Raises
        ------
        LengthError, BadArgumentError
            No samples since the start, or a signal shorter than a frame.
        """
        if not self._lock.acquire(False):
            raise self._busy("flush")
        try:
            return self._call(None)
        finally:
            self._lock.release()

    def reset(self) -> None:
        """Forgets the signal (``sk_stretch_stream_reset``); the rate stays."""
        st = _reset(self._h)
        if st:
            _raise(st, "sk_stretch_stream_reset")

    def __repr__(self) -> str:
        return (f"TimeStretchStream(rate={self._rate}, dtype=np.{self._dtype}"
                f"{', closed' if self.closed else ''})")
