"""Short-time Fourier transforms (C: ``sk_stft_*``, ``sk_istft_*``, ``sk_stft_stream_*``; Rust:
``src/kernels/spectral/stft.rs``): :func:`stft`/:func:`istft` with ``torch.stft``'s parameters,
and :class:`StftStream` for one signal pushed block by block."""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, ndarray, SFX
from .._errors import InvalidHandleError, status_name
from .._handle import Handle
from .._lib import cfunc
from .._args import index as _args_index
from ._common import _complex_input, _fb, _flag, _new, _NULL, _raise, _real_input, _swap
from ._window import get_window

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, ComplexArray, DTypeLike, FloatArray, PadMode, WindowLike

__all__ = ["stft", "istft", "StftStream"]

_stft_frames = cfunc("sk_stft_frames")
_stft = {F32: cfunc("sk_stft_f32"), F64: cfunc("sk_stft_f64")}
_stft_batch = {F32: cfunc("sk_stft_batch_f32"), F64: cfunc("sk_stft_batch_f64")}
_istft_len = cfunc("sk_istft_len")
_istft = {F32: cfunc("sk_istft_f32"), F64: cfunc("sk_istft_f64")}
_stream_new = {F32: cfunc("sk_stft_stream_f32_new"), F64: cfunc("sk_stft_stream_f64_new")}
_stream_push = {F32: cfunc("sk_stft_stream_f32_push"), F64: cfunc("sk_stft_stream_f64_push")}
_stream_finish = {F32: cfunc("sk_stft_stream_f32_finish"), F64: cfunc("sk_stft_stream_f64_finish")}
_stream_push_frames = cfunc("sk_stft_stream_push_frames")
_stream_finish_frames = cfunc("sk_stft_stream_finish_frames")
_stream_reset = cfunc("sk_stft_stream_reset")
_stream_reserve = cfunc("sk_stft_stream_reserve")
_PAD = {"constant": 0, "reflect": 1}
_PAD_TORCH_ONLY = ("replicate", "circular")
_ONES: Dict[Tuple[int, np.dtype[Any]], Any] = {}
#: named windows already computed, read-only, by (name or (name, parameters), length, dtype)
_NAMED: Dict[Tuple[Any, int, np.dtype[Any]], Any] = {}
_NAMED_MAX = 32


def _stft_params(func: str, n_fft: Any, hop_length: Any, win_length: Any) -> Tuple[int, int, int]:
    n_fft = A.index(n_fft, func, "n_fft")
    if n_fft < 1:
        raise ValueError(f"{func}: n_fft must be at least 1, got {n_fft}")
    hop = n_fft // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
    if hop < 1:
        raise ValueError(f"{func}: hop_length must be at least 1, got {hop} (default n_fft // 4)")
    if not 1 <= wl <= n_fft:
        raise ValueError(f"{func}: win_length must be in 1..n_fft = {n_fft}, got {wl}")
    return n_fft, hop, wl


def _pad_code(pad_mode: Any, func: str) -> int:
    c = _PAD.get(pad_mode) if isinstance(pad_mode, str) else None
    if c is None:
        if pad_mode in _PAD_TORCH_ONLY:
            raise NotImplementedError(
                f'{func}: pad_mode {pad_mode!r} is not supported; sigkern pads with "reflect" or '
                f'"constant" (zeros)'
            )
        raise ValueError(f'{func}: pad_mode must be "reflect" or "constant", got {pad_mode!r}')
    return c


def _stft_window(window: Any, wl: int, dt: np.dtype[Any], func: str) -> Any:
    """The window as a contiguous array/tensor of ``wl`` values of ``dt`` (None -> ones)."""
    if window is None:
        w = _ONES.get((wl, dt))
        if w is None:
            w = np.ones(wl, dt)
            w.flags.writeable = False
            _ONES[(wl, dt)] = w
        return w
    if isinstance(window, (str, tuple)):
        try:
            key = (window, wl, dt)
            w = _NAMED.get(key)
        except TypeError:  # an unhashable parameter: computed each time (get_window checks it)
            return get_window(window, wl, True, dt)
        if w is None:
            w = get_window(window, wl, True, dt)
            if isinstance(w, np.ndarray):  # (always, without xp=)
                w.flags.writeable = False
            if len(_NAMED) >= _NAMED_MAX:
                _NAMED.clear()
            _NAMED[key] = w
        return w
    w = A.as_input(window, func, "window")
    wdt = A.dtype_of(w)
    if wdt != dt:
        raise TypeError(
            f"{func}: window has dtype {wdt} but the signal has {dt}; pass a window of the "
            f"signal's dtype (window.astype(np.{dt}) / window.to(torch.{dt}))"
        )
    if tuple(w.shape) != (wl,):
        raise ValueError(
            f"{func}: window must have shape ({wl},) (win_length), got {tuple(w.shape)}"
        )
    return w


def _frames(n_fft: int, hop: int, wl: int, center: int, pad: int, n: int) -> int:
    fr = _new("size_t *")
    st = _stft_frames(n_fft, hop, wl, center, pad, fr, n)
    if st:
        _raise(st, "sk_stft_frames")
    frames: int = fr[0]
    return frames


def _spec_out(out: Any, shape: Tuple[int, ...], cdt: np.dtype[Any], func: str) -> Any:
    """``out`` of shape (..., n_freq, frames) whose swapped view (..., frames, n_freq) is
    C-contiguous: that view (the C layout)."""
    A.check_out(out, shape, cdt, func)
    A.writable_out(out, func)
    buf = _swap(out)
    if not A.is_contig(buf):
        raise ValueError(
            f"{func}: out must have the library's frame-major layout: out.swapaxes(-1, -2) "
            f"C-contiguous (e.g. np.empty((..., frames, n_freq), dtype).swapaxes(-1, -2), or "
            f"an earlier result of {func}); got strides {A.strides(out)}"
        )
    return buf


def _real_view(z: Any, buf: Any) -> Any:
    """return_complex=False: (..., n_freq, frames, 2) real view of a result."""
    if isinstance(z, np.ndarray):
        r = buf.view(A.REAL_OF[buf.dtype]).reshape(tuple(buf.shape) + (2,))
        return r.swapaxes(-2, -3)
    return A._torch().view_as_real(z)


def stft(x: ArrayLike, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
         window: Optional[WindowLike] = None, center: bool = True, pad_mode: PadMode = "reflect",
         normalized: bool = False, onesided: Optional[bool] = None, return_complex: bool = True,
         out: Optional[Array] = None) -> ComplexArray:
    """``torch.stft``: short-time Fourier transform with torch's parameters and defaults
    (``sk_stft_*``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
        Real signal(s); leading axes are batch/channels (one C call per row).
    n_fft : int
    hop_length : int, default ``n_fft // 4``
        At most ``win_length`` (the library refuses larger hops, which skip samples; torch
        allows them).
    win_length : int, default ``n_fft``
    window : ndarray or Tensor of shape (win_length,) and x's dtype, or a window name, optional
        None means ones (as torch). A name or tuple is made with :func:`get_window`
        (periodic). A window shorter than n_fft is centred, as torch.
    center : bool, default True
        Pad ``n_fft // 2`` samples on both sides.
    pad_mode : {"reflect", "constant"}
        torch's "replicate" and "circular" raise ``NotImplementedError``.
    normalized : bool
        Multiply by ``n_fft ** -0.5``.
    onesided : bool, default True
        ``n_fft // 2 + 1`` bins; False gives all ``n_fft``.
    return_complex : bool, default True
        False returns a real view of shape (..., n_freq, frames, 2).
    out : complex ndarray or Tensor, shape (..., n_freq, frames), optional
        Must have the frame-major layout: ``out.swapaxes(-1, -2)`` C-contiguous (an earlier
        result, or ``np.empty((..., frames, n_freq), dtype).swapaxes(-1, -2)``).

    Returns
    -------
    ndarray or Tensor, complex64/complex128, shape (..., n_freq, frames)
        A transposed view of a C-contiguous ``(..., frames, n_freq)`` buffer, exactly
        ``torch.stft(..., return_complex=True)``'s memory layout (strides ``(1, n_freq)``).
        ``np.ascontiguousarray(S)`` gives a row-major copy if needed.

    Raises
    ------
    TypeError
        Complex or integer input; a window of another dtype.
    ValueError
        Non-contiguous input, a bad window shape or parameters; :class:`BadArgumentError`
        from the library for a signal too short for one frame (e.g. reflect padding with
        ``n <= n_fft // 2``) or ``hop_length > win_length``.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> S = sigkern.stft(x, 512, window=sigkern.get_window("hann", 512))
    >>> S.shape, S.dtype
    ((257, 126), dtype('complex128'))
    """
    func = "stft"
    x = _real_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
    pad = _pad_code(pad_mode, func)
    ones = 1 if onesided is None or onesided else 0
    w = _stft_window(window, wl, dt, func)
    if x.ndim == 0:
        A.axis(-1, 0, func, "x")  # the zero-dimensional error
    px, _ = B.pointer(x, dt, func, "x")
    pw, _ = B.pointer(w, dt, func, "window")
    n = x.shape[-1]
    lead = tuple(x.shape[:-1])
    c = _flag(center)
    frames = _frames(n_fft, hop, wl, c, pad, n)
    n_freq = n_fft // 2 + 1 if ones else n_fft
    cdt = A.COMPLEX_OF[dt]
    if out is not None:
        if not return_complex:
            raise ValueError(f"{func}: out= needs return_complex=True (a complex array)")
        buf = _spec_out(out, lead + (n_freq, frames), cdt, func)
        res = out
    else:
        buf = B.new_like(x, lead + (frames, n_freq), cdt)
        res = _swap(buf)
    rows = math.prod(lead)
    if rows:
        pb, _ = B.pointer(buf, cdt, func, "out", writable=True)
        ylen = frames * n_freq
        nrm = _flag(normalized)
        if rows == 1:
            st = _stft[dt](px, pw, n_fft, hop, wl, c, pad, ones, nrm, pb, ylen, n)
            if st:
                _raise(st, f"sk_stft_{SFX[dt]}")
        else:  # one call for the batch
            st = _stft_batch[dt](px, n, rows, pw, n_fft, hop, wl, c, pad, ones, nrm, pb,
                                 rows * ylen, n)
            if st:
                _raise(st, f"sk_stft_batch_{SFX[dt]}")
    return res if return_complex else _real_view(res, buf)


def istft(X: ArrayLike, n_fft: int, hop_length: Optional[int] = None, win_length: Optional[int] = None,
          window: Optional[WindowLike] = None, center: bool = True, normalized: bool = False,
          onesided: Optional[bool] = None, length: Optional[int] = None,
          out: Optional[Array] = None) -> FloatArray:
    """``torch.istft``: inverse STFT by windowed overlap-add (``sk_istft_*``).

    Parameters
    ----------
    X : ndarray or Tensor, complex64 or complex128, shape (..., n_freq, frames)
        A spectrogram in :func:`stft`'s layout (frame-major memory; other layouts are copied
        once). Leading axes are batch/channels.
    n_fft, hop_length, win_length, window, center, normalized
        As given to :func:`stft` (window None = ones; its dtype is X's real dtype).
    onesided : bool, optional
        Default: ``n_freq != n_fft`` (torch's rule). n_freq must be ``n_fft // 2 + 1``
        (onesided) or ``n_fft``.
    length : int, optional
        Output length (default: torch's, ``n_fft + hop * (frames - 1)`` minus the centre
        padding); a longer one is padded with zeros.
    out : ndarray or Tensor, float32/float64, shape (..., length), optional

    Returns
    -------
    ndarray or Tensor, float32 (complex64 input) or float64, shape (..., length)

    Raises
    ------
    BadArgumentError
        The window fails the NOLA condition (its overlap-added square vanishes somewhere).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> w = sigkern.get_window("hann", 512)
    >>> y = sigkern.istft(sigkern.stft(x, 512, window=w), 512, window=w, length=16000)
    >>> np.allclose(x, y)
    True
    """
    func = "istft"
    X = _complex_input(X, func, "X")
    A.cpu_tensor(X, func, "X")
    cdt = A.dtype_of(X)
    dt = A.REAL_OF[cdt]
    n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
    if X.ndim < 2:
        raise ValueError(f"{func}: X must have shape (..., n_freq, frames), got {tuple(X.shape)}")
    n_freq, frames = X.shape[-2], X.shape[-1]
    ones = (n_freq != n_fft) if onesided is None else bool(onesided)
    want = n_fft // 2 + 1 if ones else n_fft
    if n_freq != want:
        raise ValueError(
            f"{func}: X has {n_freq} frequency bins but n_fft = {n_fft} with onesided={ones} "
            f"needs {want}"
        )
    w = _stft_window(window, wl, dt, func)
    c = _flag(center)
    if length is None:
        ln = _new("size_t *")
        st = _istft_len(n_fft, hop, wl, c, frames, ln)
        if st:
            _raise(st, "sk_istft_len")
        length = ln[0]
    else:
        length = A.index(length, func, "length")
        if length < 0:
            raise ValueError(f"{func}: length must be >= 0, got {length}")
    lead = tuple(X.shape[:-2])
    if out is not None:
        A.check_out(out, lead + (length,), dt, func)
        A.writable_out(out, func)
        y = out
    else:
        y = B.new_like(X, lead + (length,), dt)
    Xt = _swap(X)
    if not A.is_contig(Xt):
        Xt = A.contig(Xt)
    rows = math.prod(lead)
    if rows:
        px, _ = B.pointer(Xt, cdt, func, "X")
        pw, _ = B.pointer(w, dt, func, "window")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        f = _istft[dt]
        step = 2 * frames * n_freq
        nrm = _flag(normalized)
        for r in range(rows):
            st = f(px + r * step, pw, frames, n_fft, hop, wl, c, _flag(ones), nrm,
                   py + r * length, length)
            if st:
                _raise(st, f"sk_istft_{SFX[dt]}")
    return y


class StftStream(Handle, free="sk_stft_stream_free"):
    """Streaming STFT (``sk_stft_stream_*``): push blocks of one signal, get its frames as they
    complete; concatenated, they equal one :func:`stft` call on the whole signal (bit for bit).

    Parameters
    ----------
    n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided
        As :func:`stft` (window None = ones; a name is made with :func:`get_window`).
    dtype : np.float32 or np.float64
        Sample type of the blocks; frames are complex64/complex128.

    Notes
    -----
    Thread safety: a stream holds the state of one signal. Use it from one thread at a time:
    a call made while another thread is inside push/finish/reset of the same stream raises
    :class:`InvalidHandleError` ("in use") without touching the stream. Different streams
    run in parallel. ``close()`` frees the C stream (also on ``with`` exit and garbage
    collection); a closed stream raises :class:`InvalidHandleError`.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(8000).astype(np.float32)
    >>> with sigkern.StftStream(512, 128, dtype=np.float32) as s:
    ...     parts = [s.push(b) for b in np.split(x, 4)] + [s.finish()]
    >>> S = np.concatenate(parts, axis=-1)
    >>> np.array_equal(S, sigkern.stft(x, 512, 128))
    True
    """

    __slots__ = ("_h", "_dtype", "_cdt", "_n_fft", "_hop", "_wl", "_n_freq", "_center",
                 "_pad_mode", "_onesided", "_normalized", "_lock", "_tensor", "_fr",
                 "__weakref__")

    def __init__(self, n_fft: int, hop_length: Optional[int] = None,
                 win_length: Optional[int] = None, window: Optional[WindowLike] = None, center: bool = True,
                 pad_mode: PadMode = "reflect", normalized: bool = False, onesided: bool = True,
                 dtype: DTypeLike = np.float32) -> None:
        func = "StftStream"
        self._h = _NULL
        dt = A.float_dtype_arg(dtype, func)
        n_fft, hop, wl = _stft_params(func, n_fft, hop_length, win_length)
        pad = _pad_code(pad_mode, func)
        ones = 1 if onesided is None or onesided else 0
        w = _stft_window(window, wl, dt, func)
        pw, _ = B.pointer(w, dt, func, "window")
        pp = _new("SkStftStream **")
        st = _stream_new[dt](pw, n_fft, hop, wl, _flag(center), pad, ones, _flag(normalized), pp)
        if st:
            _raise(st, f"sk_stft_stream_{SFX[dt]}_new")
        self._h = pp[0]
        self._dtype, self._cdt = dt, A.COMPLEX_OF[dt]
        self._n_fft, self._hop, self._wl = n_fft, hop, wl
        self._n_freq = n_fft // 2 + 1 if ones else n_fft
        self._center, self._pad_mode = bool(center), pad_mode
        self._onesided, self._normalized = bool(ones), bool(normalized)
        self._lock = threading.Lock()
        self._tensor = False
        # the frame-count out-parameter, made once: push/finish use it under self._lock
        self._fr = _new("size_t *")

    n_fft = property(lambda self: self._n_fft, doc="FFT length.")
    hop_length = property(lambda self: self._hop, doc="Hop between frames, in samples.")
    win_length = property(lambda self: self._wl, doc="Window length.")
    n_freq = property(lambda self: self._n_freq, doc="Frequency bins per frame.")
    dtype = property(lambda self: self._dtype, doc="Sample dtype (float32 or float64).")
    center = property(lambda self: self._center, doc="Whether the signal is centre-padded.")
    pad_mode = property(lambda self: self._pad_mode, doc='"reflect" or "constant".')
    onesided = property(lambda self: self._onesided, doc="Whether frames hold n_fft//2+1 bins.")
    normalized = property(lambda self: self._normalized, doc="Whether frames are scaled by n_fft**-0.5.")

    def _busy(self, meth: str) -> InvalidHandleError:
        return InvalidHandleError(
            -7, status_name(-7),
            f"StftStream.{meth}: the stream is in use by another thread (one stream per thread)",
            f"StftStream.{meth}",
        )

    def push(self, x: ArrayLike) -> ComplexArray:
        """Appends samples and returns the frames they complete (``sk_stft_stream_*_push``).

        Parameters
        ----------
        x : ndarray or Tensor of the stream's dtype, shape (n,), C-contiguous

        Returns
        -------
        ndarray or Tensor (x's kind), complex64/complex128, shape (n_freq, k)
            k >= 0 frames, in :func:`stft`'s layout (a transposed frame-major buffer).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64, dtype=np.float64)
        >>> s.push(np.zeros(1000)).shape
        (129, 14)
        """
        func = "StftStream.push"
        if type(x) is ndarray and x.dtype is self._dtype and x.ndim == 1 and x.flags.c_contiguous:
            px = _fb(CARRAY[self._dtype], x)
            self._tensor = False
        else:
            x = A.as_input(x, func, "x", (self._dtype,))
            if x.ndim != 1:
                raise ValueError(
                    f"{func}: x must be one-dimensional (one signal), got shape {tuple(x.shape)}"
                )
            px, _ = B.pointer(x, self._dtype, func, "x")
            self._tensor = A.is_tensor(x)
        if not self._lock.acquire(False):
            raise self._busy("push")
        try:
            n = x.shape[0]
            fr = self._fr
            st = _stream_push_frames(self._h, fr, n)
            if st:
                _raise(st, "sk_stft_stream_push_frames")
            k = fr[0]
            if self._tensor:
                y = B.new_like(x, (k, self._n_freq), self._cdt)
                py, _ = B.pointer(y, self._cdt, func, "out", writable=True)
            else:
                y = np.empty((k, self._n_freq), self._cdt)
                py = _fb(CARRAY[self._dtype], y, True)
            st = _stream_push[self._dtype](self._h, px, py, k * self._n_freq, fr, n)
            if st:
                _raise(st, f"sk_stft_stream_{SFX[self._dtype]}_push")
            got = fr[0]
        finally:
            self._lock.release()
        ret: ComplexArray = _swap(y[:got])
        return ret

    def finish(self) -> ComplexArray:
        """Ends the signal: pads its end as ``center``/``pad_mode`` say and returns the last
        frames (``sk_stft_stream_*_finish``), shape (n_freq, k), of the kind of the last push.
        Pushing again needs :meth:`reset`.

        Returns
        -------
        ndarray or Tensor, complex, shape (n_freq, k)

        Raises
        ------
        BadArgumentError
            The whole signal is too short for one frame (the stream is unchanged).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64, dtype=np.float64)
        >>> _ = s.push(np.zeros(1000)); s.finish().shape
        (129, 2)
        """
        if not self._lock.acquire(False):
            raise self._busy("finish")
        try:
            fr = self._fr
            st = _stream_finish_frames(self._h, fr)
            if st:
                _raise(st, "sk_stft_stream_finish_frames")
            k = fr[0]
            y = np.empty((k, self._n_freq), self._cdt)
            st = _stream_finish[self._dtype](self._h, _fb(CARRAY[self._dtype], y, True),
                                              k * self._n_freq, fr)
            if st:
                _raise(st, f"sk_stft_stream_{SFX[self._dtype]}_finish")
            got = fr[0]
        finally:
            self._lock.release()
        y = y[:got]
        if self._tensor:
            y = A._torch().from_numpy(y)
        ret: ComplexArray = _swap(y)
        return ret

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_stft_stream_reserve``): reserves every buffer such calls need and keeps its calls on the calling
        thread. Results do not change. See docs/c.md, "Real-time use".

        Parameters
        ----------
        max_block : int
            The largest block (frames per channel) later calls will pass.

        Returns
        -------
        None

        Raises
        ------
        ValueError
            ``max_block`` is negative.
        SigkernError
            The library refused (e.g. buffers beyond the address space), with its message.
        """
        n = _args_index(max_block, "sk_stft_stream_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_stft_stream_reserve: max_block = {n} is negative")
        if not self._lock.acquire(False):
            raise self._busy("reserve")
        try:
            st = _stream_reserve(self._h, n)
        finally:
            self._lock.release()
        if st:
            _raise(st, "sk_stft_stream_reserve")

    def reset(self) -> None:
        """Forgets all input (and a finish): the stream starts a new signal
        (``sk_stft_stream_reset``).

        Examples
        --------
        >>> s = sigkern.StftStream(256, 64); s.reset()
        """
        if not self._lock.acquire(False):
            raise self._busy("reset")
        try:
            st = _stream_reset(self._h)
        finally:
            self._lock.release()
        if st:
            _raise(st, "sk_stft_stream_reset")

    def __repr__(self) -> str:
        return (f"StftStream(n_fft={self._n_fft}, hop_length={self._hop}, win_length={self._wl}, "
                f"dtype=np.{self._dtype}{', closed' if self.closed else ''})")
