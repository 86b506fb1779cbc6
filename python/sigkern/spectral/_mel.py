"""Mel filterbanks and spectrograms (C: ``sk_mel_*``, ``sk_melspec_*``, ``sk_logmel_*``,
``sk_log10mel_*``; Rust: ``src/kernels/spectral/mel.rs``): librosa's :func:`mel_filters` and
:func:`melspectrogram`, the :class:`MelSpectrogram` plan, and Whisper's
:func:`log_mel_spectrogram`."""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, ndarray, SFX
from .._handle import Handle
from .._lib import cfunc
from ._common import _fb, _flag, _INF, _new, _NULL, _raise, _real_input
from ._power import power_to_db
from ._stft import _pad_code
from ._window import _window_spec, _WIN_SUPPORTED

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, DTypeLike, FloatArray, MelNorm, PadMode, WindowSpec

__all__ = ["mel_filters", "melspectrogram", "MelSpectrogram", "log_mel_spectrogram"]

_mel_fb = {F32: cfunc("sk_mel_filterbank_f32"), F64: cfunc("sk_mel_filterbank_f64")}
_mel_new = {F32: cfunc("sk_mel_plan_f32_new"), F64: cfunc("sk_mel_plan_f64_new")}
_mel_frames = cfunc("sk_mel_frames")
_melspec = {F32: cfunc("sk_melspec_f32"), F64: cfunc("sk_melspec_f64")}
_logmel = {F32: cfunc("sk_logmel_f32"), F64: cfunc("sk_logmel_f64")}
_melspec_b = {F32: cfunc("sk_melspec_batch_f32"), F64: cfunc("sk_melspec_batch_f64")}
_logmel_b = {F32: cfunc("sk_logmel_batch_f32"), F64: cfunc("sk_logmel_batch_f64")}
_log10mel_b = {F32: cfunc("sk_log10mel_batch_f32"), F64: cfunc("sk_log10mel_batch_f64")}


def _mel_norm(norm: Any, func: str) -> int:
    if norm is None:
        return 0
    if norm == "slaney":
        return 1
    if isinstance(norm, numbers.Number):
        raise NotImplementedError(
            f'{func}: norm={norm!r} (a p-norm) is not supported; sigkern supports "slaney" and None'
        )
    raise ValueError(f'{func}: norm must be "slaney" or None, got {norm!r}')


def _fmax(fmax: Any, func: str) -> float:
    if fmax is None:
        return 0.0  # the library's "sr / 2"
    f = float(fmax)
    if not f > 0:
        raise ValueError(f"{func}: fmax must be > 0 (or None for sr / 2), got {fmax!r}")
    return f


def mel_filters(sr: float, n_fft: int, n_mels: int = 128, fmin: float = 0.0,
                fmax: Optional[float] = None, htk: bool = False,
                norm: MelNorm = "slaney", dtype: DTypeLike = np.float32) -> FloatArray:
    """``librosa.filters.mel``: the mel filterbank (``sk_mel_filterbank_*``).

    Parameters
    ----------
    sr : float
        Sample rate (> 0).
    n_fft : int
    n_mels : int, default 128
    fmin, fmax : float
        Band edges in Hz (fmax None: sr / 2).
    htk : bool
        HTK mel scale instead of Slaney's.
    norm : {"slaney", None}
        Slaney (constant energy) or no normalisation (peaks of 1); a numeric p-norm raises
        ``NotImplementedError``.
    dtype : np.float32 (librosa's default) or np.float64

    Returns
    -------
    ndarray, shape (n_mels, n_fft // 2 + 1)

    Examples
    --------
    >>> sigkern.mel_filters(22050, 2048).shape
    (128, 1025)
    """
    func = "mel_filters"
    rate = A.rate(sr, func, "sr")
    dt = A.float_dtype_arg(dtype, func)
    n_fft = A.index(n_fft, func, "n_fft")
    n_mels = A.index(n_mels, func, "n_mels")
    if n_fft < 1 or n_mels < 1:
        raise ValueError(f"{func}: n_fft and n_mels must be at least 1, got {n_fft}, {n_mels}")
    nb = _mel_norm(norm, func)
    w = np.empty((n_mels, n_fft // 2 + 1), dt)
    st = _mel_fb[dt](rate, n_fft, n_mels, float(fmin), _fmax(fmax, func), _flag(htk), nb,
                     _fb(CARRAY[dt], w, True), w.size)
    if st:
        _raise(st, f"sk_mel_filterbank_{SFX[dt]}")
    return w


class MelSpectrogram(Handle, free="sk_mel_plan_free"):
    """A mel-spectrogram plan (``sk_mel_plan_*``): ``librosa.feature.melspectrogram`` and its
    log (``power_to_db``) with fixed parameters, for repeated calls.

    Parameters
    ----------
    sr, n_fft, hop_length, win_length, window, center, pad_mode, power, n_mels, fmin, fmax,
    htk, norm
        librosa's, with its defaults. ``window`` is a :func:`get_window` name/tuple/float
        (periodic; arrays are not supported); ``pad_mode`` "constant" or "reflect".
    dtype : np.float32 or np.float64
        Sample type of the signals (and of the result).

    Notes
    -----
    Thread safety: the plan is immutable in C; one object may be called from any number of
    threads at once. ``close()`` frees it (also on ``with`` exit and garbage collection); a
    closed plan raises :class:`InvalidHandleError`.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050).astype(np.float32)
    >>> with sigkern.MelSpectrogram(sr=22050, n_mels=64) as mel:
    ...     M = mel(y)
    ...     L = mel.log_mel(y, ref=np.max)
    >>> M.shape, L.shape
    ((64, 44), (64, 44))
    """

    __slots__ = ("_h", "_dtype", "_params", "__weakref__")

    def __init__(self, sr: float = 22050, n_fft: int = 2048, hop_length: int = 512,
                 win_length: Optional[int] = None, window: WindowSpec = "hann", center: bool = True,
                 pad_mode: PadMode = "constant", power: float = 2.0, n_mels: int = 128,
                 fmin: float = 0.0, fmax: Optional[float] = None, htk: bool = False,
                 norm: MelNorm = "slaney", dtype: DTypeLike = np.float32) -> None:
        func = "MelSpectrogram"
        self._h = _NULL
        rate = A.rate(sr, func, "sr")
        dt = A.float_dtype_arg(dtype, func)
        n_fft = A.index(n_fft, func, "n_fft")
        hop = A.index(hop_length, func, "hop_length")
        wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
        n_mels = A.index(n_mels, func, "n_mels")
        if n_fft < 1 or hop < 1 or wl < 1 or n_mels < 1:
            raise ValueError(
                f"{func}: n_fft, hop_length, win_length and n_mels must be at least 1, got "
                f"{n_fft}, {hop}, {wl}, {n_mels}"
            )
        if A.dtype_of(window) is not None or isinstance(window, (list, np.ndarray)):
            raise NotImplementedError(
                f"{func}: window arrays are not supported; pass a window name, tuple or Kaiser "
                f"beta ({_WIN_SUPPORTED})"
            )
        kind, param = _window_spec(window, func)
        pad = _pad_code(pad_mode, func)
        nb = _mel_norm(norm, func)
        pp = _new("SkMelPlan **")
        st = _mel_new[dt](rate, n_fft, hop, wl, kind, param, _flag(center), pad, float(power),
                          n_mels, float(fmin), _fmax(fmax, func), _flag(htk), nb, pp)
        if st:
            _raise(st, f"sk_mel_plan_{SFX[dt]}_new")
        self._h = pp[0]
        self._dtype = dt
        self._params: Dict[str, Any] = dict(sr=sr, n_fft=n_fft, hop_length=hop, win_length=wl, window=window,
                            center=bool(center), pad_mode=pad_mode, power=float(power),
                            n_mels=n_mels, fmin=float(fmin), fmax=fmax, htk=bool(htk), norm=norm)

    sr = property(lambda self: self._params["sr"], doc="Sample rate.")
    n_fft = property(lambda self: self._params["n_fft"], doc="FFT length.")
    hop_length = property(lambda self: self._params["hop_length"], doc="Hop in samples.")
    win_length = property(lambda self: self._params["win_length"], doc="Window length.")
    n_mels = property(lambda self: self._params["n_mels"], doc="Mel bands.")
    power = property(lambda self: self._params["power"], doc="Exponent of the magnitude.")
    dtype = property(lambda self: self._dtype, doc="Sample and result dtype.")

    @property
    def params(self) -> Dict[str, Any]:
        """All parameters, as given to the constructor (a copy)."""
        return dict(self._params)

    def frames(self, n: int) -> int:
        """Frames of an ``n``-sample signal (``sk_mel_frames``).

        Parameters
        ----------
        n : int
            Samples of the signal.

        Returns
        -------
        int

        Examples
        --------
        >>> sigkern.MelSpectrogram().frames(22050)
        44
        """
        fr = _new("size_t *")
        st = _mel_frames(self._h, fr, A.index(n, "MelSpectrogram.frames", "n"))
        if st:
            _raise(st, "sk_mel_frames")
        frames: int = fr[0]
        return frames

    def _prepare(self, y: Any, out: Any, func: str,
                 n_frames: Optional[int]) -> Tuple[Any, Any, Any, int, int, int, int]:
        if type(y) is not ndarray or y.dtype is not self._dtype:
            y = A.as_input(y, func, "y", (self._dtype,))
        if y.ndim == 0:
            A.axis(-1, 0, func, "y")  # the zero-dimensional error
        py, _ = B.pointer(y, self._dtype, func, "y")
        n = y.shape[-1]
        fr = self.frames(n)
        if n_frames is not None:
            k = A.index(n_frames, func, "n_frames")
            if not 1 <= k <= fr:
                raise ValueError(f"{func}: n_frames = {k} must be between 1 and the {fr} frames "
                                 f"of an {n}-sample signal")
            fr = k
        nm = self._params["n_mels"]
        shape = tuple(y.shape[:-1]) + (nm, fr)
        if out is None:
            out = B.new_like(y, shape, self._dtype)
        else:
            A.check_out(out, shape, self._dtype, func)
        po, _ = B.pointer(out, self._dtype, func, "out", writable=True)
        return y, out, (py, po), n, fr, nm * fr, math.prod(shape[:-2])

    def __call__(self, y: ArrayLike, out: Optional[Array] = None, n_frames: Optional[int] = None) -> FloatArray:
        """The mel spectrogram (``sk_melspec_batch_*``: one call for all rows), equal to
        ``librosa.feature.melspectrogram``.

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n), C-contiguous
        out : ndarray or Tensor, shape (..., n_mels, frames), optional
        n_frames : int, optional
            Keep only the first ``n_frames`` frames (at most :meth:`frames` of n), e.g. one less
            to drop the last centred frame as Whisper-style recipes do.

        Returns
        -------
        ndarray or Tensor (y's kind), shape (..., n_mels, frames), the plan's dtype

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(n_mels=40, dtype=np.float64)
        >>> mel(np.zeros((2, 22050))).shape
        (2, 40, 44)
        >>> mel(np.zeros(22050), n_frames=43).shape
        (40, 43)
        """
        func = "MelSpectrogram"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if rows:
            st = _melspec_b[self._dtype](self._h, py, n, rows, fr, po, rows * size, n)
            if st:
                _raise(st, f"sk_melspec_batch_{SFX[self._dtype]}")
        return out

    melspectrogram = __call__

    def log_mel(self, y: ArrayLike, ref: Union[float, Callable[[Any], Any]] = 1.0, amin: float = 1e-10,
                top_db: Optional[float] = 80.0, out: Optional[Array] = None,
                n_frames: Optional[int] = None, per_row: bool = False) -> FloatArray:
        """``power_to_db(melspectrogram(y), ref, amin, top_db)`` (``sk_logmel_*``).

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n)
        ref : float or callable (e.g. ``np.max``), default 1.0
        amin : float > 0, default 1e-10
        top_db : float >= 0 or None, default 80.0
        out : ndarray or Tensor, shape (..., n_mels, frames), optional
        n_frames : int, optional
            As in :meth:`__call__`; dropped frames never count toward the floor.
        per_row : bool, default False
            False (librosa): the ``top_db`` floor is relative to the maximum of the whole
            result (all rows); True: to each signal's own maximum.

        Returns
        -------
        ndarray or Tensor, shape (..., n_mels, frames), in dB

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(n_mels=40)
        >>> L = mel.log_mel(np.ones(22050, np.float32), ref=np.max)
        >>> float(L.max())
        0.0
        """
        func = "MelSpectrogram.log_mel"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if not rows:
            return out
        if callable(ref):
            # the reference depends on the result: mel, then dB (per row or over all)
            self(y, out=out, n_frames=n_frames)
            if per_row and rows > 1:
                flat = out.reshape((rows,) + tuple(out.shape[-2:]))
                for r in range(rows):
                    power_to_db(flat[r], ref=ref, amin=amin, top_db=top_db, out=flat[r])
                return out
            return power_to_db(out, ref=ref, amin=amin, top_db=top_db, out=out)
        td = _INF if top_db is None else float(top_db)
        if rows == 1 and n_frames is None:
            st = _logmel[self._dtype](self._h, py, float(ref), float(amin), td, po, size, n)
            if st:
                _raise(st, f"sk_logmel_{SFX[self._dtype]}")
            return out
        st = _logmel_b[self._dtype](self._h, py, n, rows, fr, float(ref), float(amin), td,
                                    _flag(per_row), po, rows * size, n)
        if st:
            _raise(st, f"sk_logmel_batch_{SFX[self._dtype]}")
        return out

    def log10_mel(self, y: ArrayLike, amin: float = 1e-10, top: Optional[float] = 8.0,
                  scale: float = 0.25, offset: float = 1.0, per_row: bool = True,
                  n_frames: Optional[int] = None, out: Optional[Array] = None) -> FloatArray:
        """The log10 form speech models use, in one call (``sk_log10mel_batch_*``):
        ``l = log10(max(S, amin))``, floored at ``max(l) − top``, then ``scale·l + offset``.

        The defaults are OpenAI Whisper's (``(max(l, l.max() − 8) + 4) / 4``); pass
        ``n_frames=self.frames(n) - 1`` to drop the last frame as Whisper does (see
        :func:`log_mel_spectrogram`, which does all of it).

        Parameters
        ----------
        y : ndarray or Tensor of the plan's dtype, shape (..., n)
        amin : float > 0, default 1e-10
        top : float >= 0 or None (no floor), default 8.0
        scale : float > 0, default 0.25
        offset : float, default 1.0
        per_row : bool, default True
            The floor relative to each signal's maximum (True) or the whole batch's (False).
        n_frames : int, optional
            As in :meth:`__call__`; dropped frames never count toward the floor.
        out : ndarray or Tensor, shape (..., n_mels, frames), optional

        Returns
        -------
        ndarray or Tensor, shape (..., n_mels, frames)

        Examples
        --------
        >>> mel = sigkern.MelSpectrogram(sr=16000, n_fft=400, hop_length=160, n_mels=80)
        >>> mel.log10_mel(np.zeros(16000, np.float32)).max()
        np.float32(-1.5)
        """
        func = "MelSpectrogram.log10_mel"
        y, out, (py, po), n, fr, size, rows = self._prepare(y, out, func, n_frames)
        if rows:
            tp = _INF if top is None else float(top)
            st = _log10mel_b[self._dtype](self._h, py, n, rows, fr, float(amin), float(scale),
                                          float(offset), tp, _flag(per_row), po, rows * size, n)
            if st:
                _raise(st, f"sk_log10mel_batch_{SFX[self._dtype]}")
        return out

    def __repr__(self) -> str:
        p = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"MelSpectrogram({p}, dtype=np.{self._dtype}{', closed' if self.closed else ''})"


#: recently used plans of melspectrogram(): key -> MelSpectrogram
_MEL_PLANS: Dict[Tuple[Any, ...], MelSpectrogram] = {}
_MEL_CACHE_MAX = 8


def melspectrogram(y: ArrayLike, sr: float = 22050, n_fft: int = 2048, hop_length: int = 512,
                   win_length: Optional[int] = None, window: WindowSpec = "hann", center: bool = True,
                   pad_mode: PadMode = "constant", power: float = 2.0, n_mels: int = 128,
                   fmin: float = 0.0, fmax: Optional[float] = None, htk: bool = False,
                   norm: MelNorm = "slaney", out: Optional[Array] = None) -> FloatArray:
    """``librosa.feature.melspectrogram(y=y, ...)`` with librosa's parameters and defaults
    (``sk_melspec_*`` through a :class:`MelSpectrogram` plan, cached for repeated calls).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
        Leading axes are channels/batch.
    sr, n_fft, hop_length, win_length, window, center, pad_mode, power
        As librosa (``window``: a :func:`get_window` name/tuple/float; ``pad_mode``
        "constant" or "reflect").
    n_mels, fmin, fmax, htk, norm
        The filterbank, as :func:`mel_filters`.
    out : ndarray or Tensor, shape (..., n_mels, frames), y's dtype, optional

    Returns
    -------
    ndarray or Tensor, shape (..., n_mels, frames), y's dtype

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.melspectrogram(y, sr=22050).shape
    (128, 44)
    """
    func = "melspectrogram"
    A.rate(sr, func, "sr")
    if type(y) is not ndarray:
        y = _real_input(y, func, "y")
    dt = A.float_dtype(y, func, "y")
    try:
        key = (dt, sr, n_fft, hop_length, win_length, window, center, pad_mode, power, n_mels,
               fmin, fmax, htk, norm)
        plan = _MEL_PLANS.get(key)
    except TypeError:  # unhashable arguments: the constructor explains
        key, plan = None, None
    if plan is None:
        plan = MelSpectrogram(sr, n_fft, hop_length, win_length, window, center, pad_mode, power,
                              n_mels, fmin, fmax, htk, norm, dtype=dt)
        if key is not None:
            if len(_MEL_PLANS) >= _MEL_CACHE_MAX:
                try:
                    _MEL_PLANS.pop(next(iter(_MEL_PLANS)), None)
                except (StopIteration, RuntimeError):
                    pass
            _MEL_PLANS[key] = plan
    return plan(y, out=out)


def _cached_plan(dt: np.dtype[Any], *args: Any) -> "MelSpectrogram":
    """A :class:`MelSpectrogram` of these parameters from the cache of recent plans."""
    key = (dt,) + args
    plan = _MEL_PLANS.get(key)
    if plan is None:
        plan = MelSpectrogram(*args, dtype=dt)  # type: ignore[misc]  # (args has no dtype)
        if len(_MEL_PLANS) >= _MEL_CACHE_MAX:
            try:
                _MEL_PLANS.pop(next(iter(_MEL_PLANS)), None)
            except (StopIteration, RuntimeError):
                pass
        _MEL_PLANS[key] = plan
    return plan


def log_mel_spectrogram(audio: ArrayLike, sr: float = 16000, n_fft: int = 400, hop_length: int = 160,
                        n_mels: int = 80, *, length: Optional[int] = None,
                        drop_last: bool = True, amin: float = 1e-10,
                        top: Optional[float] = 8.0, scale: float = 0.25, offset: float = 1.0,
                        per_row: bool = True, out: Optional[Array] = None) -> FloatArray:
    """Speech-model log-mel features in one C call, OpenAI Whisper's recipe by default.

    The recipe: a centred, reflect-padded STFT with a periodic Hann window of ``n_fft``
    (``torch.stft(..., center=True)``), power spectrum, Slaney mel filters
    (``librosa.filters.mel(sr=sr, n_fft=n_fft, n_mels=n_mels)``), the last frame dropped, then
    ``l = log10(max(S, amin))``, floored at ``max(l) − top``, and ``scale·l + offset``
    (Whisper: ``(max(l, l.max() − 8) + 4) / 4``). Batches run in one call
    (``sk_log10mel_batch_*``), with the floor per signal (``per_row=True``, as Whisper computes
    each clip) or over the whole batch.

    Parameters
    ----------
    audio : ndarray or Tensor, float32 or float64, shape (..., n), C-contiguous
    sr, n_fft, hop_length, n_mels : the STFT and filterbank (Whisper: 16000, 400, 160, 80 or 128)
    length : int, optional
        Zero-pad or trim the last axis to this many samples first (Whisper: 480000 = 30 s).
    drop_last : bool, default True
        Drop the last STFT frame (Whisper's ``stft[..., :-1]``).
    amin, top, scale, offset, per_row
        The log tail, as :meth:`MelSpectrogram.log10_mel` (``top=None``: no floor).
    out : ndarray or Tensor, shape (..., n_mels, frames), optional

    Returns
    -------
    ndarray or Tensor (audio's kind and dtype), shape (..., n_mels, frames)

    Examples
    --------
    >>> audio = np.random.default_rng(0).standard_normal(16000).astype(np.float32) * 0.1
    >>> sigkern.log_mel_spectrogram(audio, length=480000).shape
    (80, 3000)
    """
    func = "log_mel_spectrogram"
    A.rate(sr, func, "sr")
    if type(audio) is not ndarray:
        audio = _real_input(audio, func, "audio")
    dt = A.float_dtype(audio, func, "audio")
    if length is not None:
        length = A.index(length, func, "length")
        n = audio.shape[-1]
        if length != n:
            if A.is_tensor(audio):
                import torch

                fixed: Array = torch.zeros(tuple(audio.shape[:-1]) + (length,), dtype=audio.dtype)
            else:
                fixed = np.zeros(tuple(audio.shape[:-1]) + (length,), dt)
            k = min(length, n)
            fixed[..., :k] = audio[..., :k]  # type: ignore[assignment]  # (both tensors or both arrays)
            audio = fixed
    plan = _cached_plan(dt, sr, n_fft, hop_length, None, "hann", True, "reflect", 2.0, n_mels,
                        0.0, None, False, "slaney")
    n_frames = None
    if drop_last:
        fr = plan.frames(audio.shape[-1])
        if fr < 2:
            raise ValueError(f"{func}: a signal of {audio.shape[-1]} samples has {fr} frame(s); "
                             "drop_last=True needs at least 2")
        n_frames = fr - 1
    return plan.log10_mel(audio, amin=amin, top=top, scale=scale, offset=offset,
                          per_row=per_row, n_frames=n_frames, out=out)
