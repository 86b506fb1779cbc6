"""Cepstral mean and variance normalisation (C: ``sk_cmvn_*``, ``sk_sliding_cmn_*``,
``sk_sliding_cmn_stream_*``; Rust: ``src/kernels/speech/cmvn.rs``, ``cmvn_stream.rs``):
:func:`cmvn` per utterance as Kaldi's ``apply-cmvn``, :func:`sliding_window_cmn` with
``torchaudio.functional.sliding_window_cmn``'s signature, and :class:`SlidingWindowCmnStream`,
the same normalisation streamed."""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX, F32, F64
from .._errors import InvalidHandleError, error, status_name
from .._handle import Handle, closed_error
from .._lib import cfunc, ffi

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray

__all__ = ["cmvn", "sliding_window_cmn", "SlidingWindowCmnStream"]

_CMVN = {F32: cfunc("sk_cmvn_f32"), F64: cfunc("sk_cmvn_f64")}
_SLIDING = {F32: cfunc("sk_sliding_cmn_f32"), F64: cfunc("sk_sliding_cmn_f64")}
_S_NEW = {F32: cfunc("sk_sliding_cmn_stream_f32_new"), F64: cfunc("sk_sliding_cmn_stream_f64_new")}
_S_PUSH = {F32: cfunc("sk_sliding_cmn_stream_f32_push"),
           F64: cfunc("sk_sliding_cmn_stream_f64_push")}
_S_FINISH = {F32: cfunc("sk_sliding_cmn_stream_f32_finish"),
             F64: cfunc("sk_sliding_cmn_stream_f64_finish")}
_S_PUSH_FRAMES = cfunc("sk_sliding_cmn_stream_push_frames")
_S_FINISH_FRAMES = cfunc("sk_sliding_cmn_stream_finish_frames")
_S_RESET = cfunc("sk_sliding_cmn_stream_reset")
_CT = {F32: "float[]", F64: "double[]"}


def _prepare(func: str, x: Any) -> Any:
    """(contiguous input, output, channels, frames, feats, dtype) of a (..., frames, feats)
    array or tensor."""
    x = A.promote(x, func, "specgram", complex_ok=False)
    A.cpu_tensor(x, func, "specgram")
    dt = A.float_dtype(x, func, "specgram")
    if x.ndim < 2:
        raise ValueError(f"{func}: specgram must have shape (..., frames, feats), got "
                         f"{A.describe(x)}")
    x = A.contig(x)
    frames, feats = int(x.shape[-2]), int(x.shape[-1])
    channels = math.prod(x.shape[:-2])
    y = B.new_like(x, tuple(x.shape), dt)
    return x, y, channels, frames, feats, dt


def cmvn(specgram: ArrayLike, norm_vars: bool = False) -> FloatArray:
    """Per-utterance cepstral mean (and variance) normalisation, as Kaldi's ``apply-cmvn`` with
    per-utterance statistics (``sk_cmvn_*``): each feature minus its mean over the frames; with
    ``norm_vars`` divided by its standard deviation (variance floored at 1e-20).

    Parameters
    ----------
    specgram : ndarray or Tensor, float32 or float64, shape (..., frames, feats)
        Leading axes are utterances, each normalised on its own.
    norm_vars : bool, default False
        Normalise the variance too.

    Returns
    -------
    ndarray or Tensor, specgram's shape and dtype

    Examples
    --------
    >>> f = np.random.default_rng(0).standard_normal((100, 13)) + 5
    >>> np.abs(sigkern.feature.cmvn(f).mean(axis=0)).max() < 1e-12
    True
    """
    func = "feature.cmvn"
    x, y, ch, fr, fe, dt = _prepare(func, specgram)
    if ch and fr and fe:
        px, _ = B.pointer(x, dt, func, "specgram")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _CMVN[dt](px, py, ch, fr, fe, 1 if norm_vars else 0)
        if st:
            raise error(st, f"sk_cmvn_{SFX[dt]}")
    return y  # type: ignore[no-any-return]


def sliding_window_cmn(specgram: ArrayLike, cmn_window: int = 600, min_cmn_window: int = 100,
                       center: bool = False, norm_vars: bool = False) -> FloatArray:
    """``torchaudio.functional.sliding_window_cmn``: cepstral mean (and variance)
    normalisation over a sliding window of frames (``sk_sliding_cmn_*``).

    Parameters
    ----------
    specgram : ndarray or Tensor, float32 or float64, shape (..., frames, feats)
    cmn_window : int, default 600
        Window length in frames.
    min_cmn_window : int, default 100
        Smallest window at the start (ignored with ``center``).
    center : bool, default False
        Centre the window on the frame (else it ends at the frame).
    norm_vars : bool, default False
        Normalise the variance too.

    Returns
    -------
    ndarray or Tensor, specgram's shape and dtype

    Examples
    --------
    >>> f = np.random.default_rng(0).standard_normal((300, 13))
    >>> sigkern.feature.sliding_window_cmn(f, cmn_window=50).shape
    (300, 13)
    """
    func = "feature.sliding_window_cmn"
    cw = A.index(cmn_window, func, "cmn_window")
    mw = A.index(min_cmn_window, func, "min_cmn_window")
    x, y, ch, fr, fe, dt = _prepare(func, specgram)
    if ch and fr and fe:
        px, _ = B.pointer(x, dt, func, "specgram")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _SLIDING[dt](px, py, ch, fr, fe, cw, mw, 1 if center else 0, 1 if norm_vars else 0)
        if st:
            raise error(st, f"sk_sliding_cmn_{SFX[dt]}")
    return y  # type: ignore[no-any-return]


class SlidingWindowCmnStream(Handle, free="sk_sliding_cmn_stream_free"):
    """:func:`sliding_window_cmn` streamed (``sk_sliding_cmn_stream_*``): push feature frames
    in blocks of any size, get each normalised frame as soon as its window is complete; the
    frames, concatenated with :meth:`finish`'s, equal :func:`sliding_window_cmn` on the whole
    sequence bit for bit, whatever the blocking.

    Parameters
    ----------
    num_feats : int
        Values a frame (the last axis of the frames pushed).
    cmn_window, min_cmn_window, center, norm_vars
        As :func:`sliding_window_cmn` (torchaudio's names and defaults).
    dtype : np.float32 or np.float64 (default)
        The frames' dtype.

    Notes
    -----
    When a frame comes out, with ``n`` frames pushed so far:

    - without ``center`` (causal): frame ``t`` once ``n >= max(t + 1, min_cmn_window)``. The
      first ``min_cmn_window - 1`` frames wait until ``min_cmn_window`` frames are in (their
      window reaches that far); after that each frame comes out in the push that brings it.
    - with ``center``: frame ``t`` once ``n >= max(t + cmn_window - cmn_window // 2,
      cmn_window)``: a latency of ``ceil(cmn_window / 2) - 1`` frames, since its window reaches
      that far ahead. The last of them come out of :meth:`finish` (their windows end at the
      last frame, as offline); a centred stream cannot produce them before it knows the
      sequence has ended.

    :attr:`latency` gives these numbers. The stream holds ``max(cmn_window, min_cmn_window) + 2``
    frames, whatever the block size; pushes and finishes allocate nothing in C. One thread at
    a time per stream (a concurrent call raises :class:`InvalidHandleError`); ``close()``
    frees the C stream.

    Examples
    --------
    >>> f = np.random.default_rng(0).standard_normal((300, 13))
    >>> s = sigkern.feature.SlidingWindowCmnStream(13, cmn_window=50, min_cmn_window=10)
    >>> parts = [s.push(b) for b in np.split(f, 6)] + [s.finish()]
    >>> np.array_equal(np.concatenate(parts), sigkern.feature.sliding_window_cmn(f, 50, 10))
    True
    """

    __slots__ = ("_h", "_dt", "_feats", "_cw", "_mw", "_center", "_norm_vars", "_lock", "_fr",
                 "__weakref__")

    def __init__(self, num_feats: int, cmn_window: int = 600, min_cmn_window: int = 100,
                 center: bool = False, norm_vars: bool = False, *,
                 dtype: Any = np.float64) -> None:
        func = "SlidingWindowCmnStream"
        self._h = ffi.NULL
        dt = A.float_dtype_arg(dtype, func)
        nf = A.index(num_feats, func, "num_feats")
        cw = A.index(cmn_window, func, "cmn_window")
        mw = A.index(min_cmn_window, func, "min_cmn_window")
        for name, v in (("num_feats", nf), ("cmn_window", cw), ("min_cmn_window", mw)):
            if v < 0:
                raise ValueError(f"{func}: {name} = {v} is negative")
        pp = ffi.new("SkSlidingCmnStream **")
        st = _S_NEW[dt](nf, cw, mw, 1 if center else 0, 1 if norm_vars else 0, pp)
        if st:
            raise error(st, f"sk_sliding_cmn_stream_{SFX[dt]}_new")
        self._h = pp[0]
        self._dt, self._feats, self._cw, self._mw = dt, nf, cw, mw
        self._center, self._norm_vars = bool(center), bool(norm_vars)
        self._lock = threading.Lock()
        self._fr = ffi.new("size_t *")

    num_feats = property(lambda self: self._feats, doc="Values a frame.")
    dtype = property(lambda self: self._dt, doc="The frames' dtype.")

    @property
    def latency(self) -> int:
        """Frames a frame waits for once the window has filled: 0 without ``center``,
        ``ceil(cmn_window / 2) - 1`` with it."""
        if not self._center:
            return 0
        return max(self._cw - self._cw // 2 - 1, 0)

    def _call(self, meth: str, cname: str, fn: Any, *args: Any) -> None:
        if self._h == ffi.NULL:
            raise closed_error(-7, cname, "this SlidingWindowCmnStream")
        if not self._lock.acquire(False):
            raise InvalidHandleError(
                -7, status_name(-7),
                f"SlidingWindowCmnStream.{meth}: the stream is in use by another thread",
                f"SlidingWindowCmnStream.{meth}")
        try:
            st = fn(self._h, *args)
        finally:
            self._lock.release()
        if st:
            raise error(st, cname)

    def push(self, frames: ArrayLike) -> FloatArray:
        """Appends frames and returns every frame whose window is now complete, normalised
        (``sk_sliding_cmn_stream_*_push``).

        Parameters
        ----------
        frames : ndarray or Tensor of the stream's dtype, shape (k, num_feats)

        Returns
        -------
        ndarray or Tensor (frames' kind), shape (m, num_feats), m >= 0

        Examples
        --------
        >>> s = sigkern.feature.SlidingWindowCmnStream(4, 20, 5)
        >>> s.push(np.ones((3, 4))).shape, s.push(np.ones((3, 4))).shape
        ((0, 4), (6, 4))
        """
        func = "SlidingWindowCmnStream.push"
        x = A.as_input(frames, func, "frames", (self._dt,))
        A.cpu_tensor(x, func, "frames")
        if x.ndim != 2 or int(x.shape[1]) != self._feats:
            raise ValueError(f"{func}: frames must have shape (k, {self._feats}), got "
                             f"{A.describe(x)}")
        x = A.contig(x)
        k = int(x.shape[0])
        cname = f"sk_sliding_cmn_stream_{SFX[self._dt]}_push"
        self._call("push", "sk_sliding_cmn_stream_push_frames", _S_PUSH_FRAMES, self._fr, k)
        m = int(self._fr[0])
        y = B.new_like(x, (m, self._feats), self._dt)
        px, _ = B.pointer(x, self._dt, func, "frames")
        py, _ = B.pointer(y, self._dt, func, "out", writable=True)
        self._call("push", cname, _S_PUSH[self._dt], px, k, py, m * self._feats, self._fr)
        return y  # type: ignore[no-any-return]

    def finish(self) -> FloatArray:
        """Ends the sequence and returns its remaining frames (their windows end at its last
        frame, as offline) (``sk_sliding_cmn_stream_*_finish``). Pushing again needs
        :meth:`reset`.

        Returns
        -------
        ndarray, shape (m, num_feats)

        Examples
        --------
        >>> s = sigkern.feature.SlidingWindowCmnStream(4, 20, 5)
        >>> _ = s.push(np.ones((3, 4))); s.finish().shape
        (3, 4)
        """
        self._call("finish", "sk_sliding_cmn_stream_finish_frames", _S_FINISH_FRAMES, self._fr)
        m = int(self._fr[0])
        y = np.empty((m, self._feats), self._dt)
        self._call("finish", f"sk_sliding_cmn_stream_{SFX[self._dt]}_finish",
                   _S_FINISH[self._dt], ffi.from_buffer(_CT[self._dt], y, require_writable=True),
                   y.size, self._fr)
        return y

    def reset(self) -> None:
        """Forgets the sequence (and a finish): the stream starts a new one
        (``sk_sliding_cmn_stream_reset``).

        Examples
        --------
        >>> s = sigkern.feature.SlidingWindowCmnStream(4); s.reset()
        """
        self._call("reset", "sk_sliding_cmn_stream_reset", _S_RESET)

    def __repr__(self) -> str:
        return (f"SlidingWindowCmnStream({self._feats}, cmn_window={self._cw}, "
                f"min_cmn_window={self._mw}, center={self._center}, "
                f"norm_vars={self._norm_vars}, dtype=np.{self._dt}"
                f"{', closed' if self.closed else ''})")
