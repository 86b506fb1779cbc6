"""Loudness metering (ITU-R BS.1770-4 / EBU R 128) and normalisation (C: ``sk_meter_*``,
``sk_loudness_*``, ``sk_loudness_normalize_gain``).

:class:`Meter` is a streaming meter: feed blocks, read the momentary, short-term, integrated
loudness, the loudness range, the maxima and the sample/true peaks at any time. The one-shot
functions (:func:`loudness_stats`, :func:`integrated_loudness`, :func:`loudness_range`,
:func:`true_peak`) measure a whole array; :func:`normalize_loudness` and
:func:`peak_normalize` return scaled copies (:func:`normalize_peak` of :mod:`sigkern.core` normalises each row separately, in place).

Arrays: float32 or float64 numpy arrays or CPU torch tensors, shape ``(channels, n)`` (planar;
the last axis is time) or ``(n,)`` for one channel; :meth:`Meter.add_interleaved` and
``interleaved=True`` take ``(frames, channels)``. Units: LUFS, LU, dBFS / dBTP; a value that is
not defined (nothing measured, silence, all gated out) is ``-inf`` (the range ``0.0``). NaN or
infinity in the input raise :class:`NonFiniteError` and change nothing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _args as A
from . import _buffers as B
from . import core as _core
from ._args import CARRAY, F32, F64, SFX, ndarray
from ._errors import error
from ._lib import cfunc, ffi
from ._args import index as _args_index
from ._handle import Handle, closed_error

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, F64Array, FloatArray

__all__ = [
    "Meter",
    "LoudnessStats",
    "loudness_stats",
    "integrated_loudness",
    "loudness_range",
    "true_peak",
    "normalize_gain",
    "normalize_loudness",
    "peak_normalize",
]

_new = cfunc("sk_meter_new")
_reset = cfunc("sk_meter_reset")
_reserve = cfunc("sk_meter_reserve")
_stats = cfunc("sk_meter_stats")
_peaks = cfunc("sk_meter_peaks")
_add = {dt: cfunc(f"sk_meter_add_{s}") for dt, s in SFX.items()}
_add_il = {dt: cfunc(f"sk_meter_add_interleaved_{s}") for dt, s in SFX.items()}
_one = {dt: cfunc(f"sk_loudness_{s}") for dt, s in SFX.items()}
_one_il = {dt: cfunc(f"sk_loudness_interleaved_{s}") for dt, s in SFX.items()}
_gain = cfunc("sk_loudness_normalize_gain")


class LoudnessStats(NamedTuple):
    """Every value of a measurement (fields of ``SkLoudnessStats``)."""

    integrated: float
    """Integrated loudness, LUFS (gated: −70 LUFS absolute, −10 LU relative)."""
    loudness_range: float
    """Loudness range (EBU Tech 3342), LU."""
    momentary: float
    """Loudness of the last 400 ms, LUFS (updated every 100 ms)."""
    short_term: float
    """Loudness of the last 3 s, LUFS (updated every 100 ms)."""
    max_momentary: float
    """Largest momentary loudness so far, LUFS."""
    max_short_term: float
    """Largest short-term loudness so far, LUFS."""
    sample_peak: float
    """Largest sample magnitude of any channel, dBFS."""
    true_peak: float
    """Largest true peak of any channel, dBTP (the sample peak when true peak is off)."""


def _stats_of(p: Any) -> LoudnessStats:
    return LoudnessStats(
        p.integrated, p.loudness_range, p.momentary, p.short_term,
        p.max_momentary, p.max_short_term, p.sample_peak, p.true_peak,
    )


def _weights(weights: Optional[Sequence[float]], channels: int, func: str) -> Any:
    """(cdata pointer or NULL, keep-alive array)."""
    if weights is None:
        return ffi.NULL, None
    w = np.ascontiguousarray(np.asarray(weights, dtype=np.float64))
    if w.shape != (channels,):
        raise ValueError(f"{func}: weights must have shape ({channels},) (one per channel), got {w.shape}")
    return ffi.from_buffer(CARRAY[F64], w), w


def _layout(x: Any, func: str, interleaved: bool) -> Tuple[Array, np.dtype[Any], int, int]:
    """(x, dtype, channels, n) of a planar (channels, n) / (n,) or interleaved (frames, channels)
    array."""
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    shape = tuple(x.shape)
    if len(shape) == 1:
        return x, dt, 1, shape[0]
    if len(shape) != 2:
        want = "(frames, channels)" if interleaved else "(channels, n)"
        raise ValueError(f"{func}: x must have shape {want} or (n,), got {shape}")
    return (x, dt, shape[1], shape[0]) if interleaved else (x, dt, shape[0], shape[1])


class Meter(Handle, free="sk_meter_free"):
    """A streaming loudness meter (ITU-R BS.1770-4, EBU R 128; C: ``sk_meter_*``).

    Feeding a signal block by block gives bit for bit the values of one call.

    Parameters
    ----------
    rate : float
        Sample rate in Hz, 8000 to 384000 (the K-weighting is designed for it).
    channels : int, default 2
        1 to 64.
    weights : sequence of float, optional
        One weight per channel (finite, ``>= 0``). Default: the BS.1770 weights for the channel
        count in WAV order (5 = L R C Ls Rs, 6 = L R C LFE Ls Rs, 8 = 7.1: surround 1.41,
        LFE 0; other counts 1.0).
    true_peak : bool, default True
        Measure the true peak (4× oversampling below 96 kHz, 2× below 192 kHz); otherwise
        only the sample peak.

    Notes
    -----
    Thread safety: one object must not be used from two threads at the same time (the second
    call raises :class:`InvalidHandleError`, "in use"); different meters run in parallel.

    Examples
    --------
    >>> m = sigkern.Meter(48000, channels=2)
    >>> m.add(np.zeros((2, 48000), np.float32))
    >>> m.integrated
    -inf
    """

    __slots__ = ("_h", "_channels", "_rate", "_true_peak", "__weakref__")

    def __init__(self, rate: float, channels: int = 2, weights: Optional[Sequence[float]] = None,
                 true_peak: bool = True) -> None:
        self._h = ffi.NULL
        func = "Meter"
        ch = A.index(channels, func, "channels")
        if ch < 0:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        r = A.rate(rate, func)
        pw, _keep = _weights(weights, ch, func)
        hp = ffi.new("SkMeter **")
        st = _new(pw, r, 1 if true_peak else 0, hp, ch)
        if st:
            raise error(st, "sk_meter_new")
        self._h = hp[0]
        self._channels = ch
        self._rate = r
        self._true_peak = bool(true_peak)

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def rate(self) -> float:
        """Sample rate (Hz)."""
        return self._rate

    def _fail(self, st: int, cname: str) -> Any:
        if self._h == ffi.NULL:
            return closed_error(st, cname, "this Meter")
        return error(st, cname)

    def add(self, x: ArrayLike) -> None:
        """Feeds a block of planar samples.

        Parameters
        ----------
        x : ndarray or Tensor, float32 or float64
            Shape ``(channels, n)`` (or ``(n,)`` for one channel). Rows may be a time slice
            of a bigger array.

        Examples
        --------
        >>> m = sigkern.Meter(44100, channels=1); m.add(np.ones(4410))
        """
        if type(x) is ndarray:
            # fast path: a float numpy block, C-contiguous or a time slice x[:, t0:t1]
            dt = x.dtype
            if (dt is F32 or dt is F64) and B.is_block(x.shape, self._channels):
                try:
                    px, sx = B.block_ptr(x, CARRAY[dt])
                except ValueError:  # other layouts: the checked path says why
                    px = None
                if px is not None:
                    st = _add[dt](self._h, px, sx, x.shape[-1])
                    if st:
                        raise self._fail(st, f"sk_meter_add_{SFX[dt]}")
                    return
        self._add_checked(x)

    def _add_checked(self, x: Any) -> None:
        """Every case of :meth:`add`, with the errors that name what is wrong."""
        func = "Meter.add"
        x, dt, ch, n = _layout(x, func, False)
        if ch != self._channels:
            raise ValueError(f"{func}: x has {ch} channels (shape {tuple(x.shape)}), the meter {self._channels}")
        px, sx = B.planar(x, dt, func, "x")
        st = _add[dt](self._h, px, sx, n)
        if st:
            raise self._fail(st, f"sk_meter_add_{SFX[dt]}")

    def add_interleaved(self, x: ArrayLike) -> None:
        """Feeds a block of interleaved frames.

        Parameters
        ----------
        x : ndarray or Tensor, float32 or float64
            Shape ``(frames, channels)``, C-contiguous.

        Examples
        --------
        >>> m = sigkern.Meter(48000); m.add_interleaved(np.zeros((480, 2), np.float32))
        """
        func = "Meter.add_interleaved"
        x, dt, ch, n = _layout(x, func, True)
        if ch != self._channels:
            raise ValueError(f"{func}: x has {ch} channels (shape {tuple(x.shape)}), the meter {self._channels}")
        px, _ = B.pointer(x, dt, func, "x")
        st = _add_il[dt](self._h, px, n)
        if st:
            raise self._fail(st, f"sk_meter_add_interleaved_{SFX[dt]}")

    def stats(self) -> LoudnessStats:
        """Every value at once.

        Returns
        -------
        LoudnessStats
        """
        p = ffi.new("SkLoudnessStats *")
        st = _stats(self._h, p)
        if st:
            raise self._fail(st, "sk_meter_stats")
        return _stats_of(p)

    integrated = property(lambda self: self.stats().integrated, doc="Integrated loudness, LUFS.")
    loudness_range = property(lambda self: self.stats().loudness_range, doc="Loudness range, LU.")
    momentary = property(lambda self: self.stats().momentary, doc="Momentary loudness, LUFS.")
    short_term = property(lambda self: self.stats().short_term, doc="Short-term loudness, LUFS.")
    max_momentary = property(lambda self: self.stats().max_momentary, doc="Maximum momentary loudness, LUFS.")
    max_short_term = property(lambda self: self.stats().max_short_term, doc="Maximum short-term loudness, LUFS.")
    sample_peak = property(lambda self: self.stats().sample_peak, doc="Sample peak over all channels, dBFS.")
    true_peak = property(lambda self: self.stats().true_peak, doc="True peak over all channels, dBTP.")

    def peaks(self) -> Tuple[F64Array, F64Array]:
        """Per-channel sample and true peaks.

        Returns
        -------
        sample_peaks, true_peaks : ndarray, float64, shape (channels,)
            dB.
        """
        sp = np.empty(self._channels)
        tp = np.empty(self._channels)
        st = _peaks(self._h, ffi.from_buffer(CARRAY[F64], sp, True), ffi.from_buffer(CARRAY[F64], tp, True),
                    self._channels)
        if st:
            raise self._fail(st, "sk_meter_peaks")
        return sp, tp

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_meter_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_meter_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_meter_reserve: max_block = {n} is negative")
        st = _reserve(self._h, n)
        if st:
            raise self._fail(st, "sk_meter_reserve")

    def reset(self) -> None:
        """Forgets everything fed so far."""
        st = _reset(self._h)
        if st:
            raise self._fail(st, "sk_meter_reset")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"rate={self._rate:g}"
        return f"Meter({state}, channels={self._channels}, true_peak={self._true_peak})"


def loudness_stats(x: ArrayLike, rate: float, *, weights: Optional[Sequence[float]] = None, true_peak: bool = True,
             interleaved: bool = False) -> LoudnessStats:
    """Every loudness value of a whole signal (C: ``sk_loudness_*``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        ``(channels, n)`` or ``(n,)``; ``(frames, channels)`` with ``interleaved=True``.
    rate : float
        Sample rate (Hz), 8000 to 384000.
    weights : sequence of float, optional
        One weight per channel, as :class:`Meter`.
    true_peak : bool, default True
        As :class:`Meter`.
    interleaved : bool, default False
        ``x`` is ``(frames, channels)``.

    Returns
    -------
    LoudnessStats

    Examples
    --------
    >>> t = np.arange(48000 * 5) / 48000
    >>> x = np.tile(10 ** (-23 / 20) * np.sin(2 * np.pi * 1000 * t), (2, 1))
    >>> round(sigkern.loudness_stats(x, 48000).integrated, 1)
    -23.0
    """
    return _whole(x, rate, weights, true_peak, interleaved, "loudness_stats")


def _whole(x: Any, rate: Any, weights: Any, true_peak: bool, interleaved: bool, func: str) -> LoudnessStats:
    """:func:`loudness_stats` for every function of a whole signal (``func``: its name)."""
    x, dt, ch, n = _layout(x, func, interleaved)
    r = A.rate(rate, func)
    pw, _keep = _weights(weights, ch, func)
    out = ffi.new("SkLoudnessStats *")
    tp = 1 if true_peak else 0
    if interleaved:
        px, _ = B.pointer(x, dt, func, "x")
        st = _one_il[dt](px, pw, r, tp, out, ch, n)
        cname = f"sk_loudness_interleaved_{SFX[dt]}"
    else:
        px, sx = B.planar(x, dt, func, "x")
        st = _one[dt](px, sx, pw, r, tp, out, ch, n)
        cname = f"sk_loudness_{SFX[dt]}"
    if st:
        raise error(st, cname)
    return _stats_of(out)


def integrated_loudness(x: ArrayLike, rate: float, *, weights: Optional[Sequence[float]] = None,
                        interleaved: bool = False) -> float:
    """Integrated loudness (LUFS) of a whole signal; ``-inf`` for silence.
    ``pyloudnorm.Meter(rate).integrated_loudness(x.T)`` computes the same quantity.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        ``(channels, n)`` or ``(n,)``; ``(frames, channels)`` with ``interleaved=True``.
    rate : float
        Sample rate (Hz), 8000 to 384000.
    weights : sequence of float, optional
        One weight per channel, as :class:`Meter`.
    interleaved : bool, default False
        ``x`` is ``(frames, channels)``.

    Returns
    -------
    float
        LUFS.

    Examples
    --------
    >>> sigkern.integrated_loudness(np.zeros((2, 48000), np.float32), 48000)
    -inf
    """
    return _whole(x, rate, weights, False, interleaved, "integrated_loudness").integrated


def loudness_range(x: ArrayLike, rate: float, *, weights: Optional[Sequence[float]] = None,
                   interleaved: bool = False) -> float:
    """Loudness range (LU, EBU Tech 3342) of a whole signal.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        ``(channels, n)`` or ``(n,)``; ``(frames, channels)`` with ``interleaved=True``.
    rate : float
        Sample rate (Hz), 8000 to 384000.
    weights : sequence of float, optional
        One weight per channel, as :class:`Meter`.
    interleaved : bool, default False
        ``x`` is ``(frames, channels)``.

    Returns
    -------
    float
        LU.

    Examples
    --------
    >>> sigkern.loudness_range(np.zeros(48000 * 4), 48000)
    0.0
    """
    return _whole(x, rate, weights, False, interleaved, "loudness_range").loudness_range


def true_peak(x: ArrayLike, rate: float, *, interleaved: bool = False) -> float:
    """True peak (dBTP) over all channels of a whole signal (BS.1770-4 Annex 2).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        ``(channels, n)`` or ``(n,)``; ``(frames, channels)`` with ``interleaved=True``.
    rate : float
        Sample rate (Hz), 8000 to 384000.
    interleaved : bool, default False
        ``x`` is ``(frames, channels)``.

    Returns
    -------
    float
        dBTP.

    Examples
    --------
    A sine at a quarter of the rate, sampled 45° off its peaks (with a fade-in):

    >>> t = np.arange(48000)
    >>> x = 0.5 * np.sin(np.pi / 2 * t + np.pi / 4) * np.minimum(t / 960, 1)
    >>> s = sigkern.loudness_stats(x, 48000)
    >>> round(s.sample_peak, 1), round(s.true_peak, 1)  # -9.03 and -6.06 (-6.02 exactly)
    (-9.0, -6.1)
    """
    return _whole(x, rate, None, True, interleaved, "true_peak").true_peak


def normalize_gain(integrated: float, true_peak: float, target: float = -23.0, ceiling: float = -1.0) -> float:
    """The linear gain that brings a programme of ``integrated`` LUFS and ``true_peak`` dBTP to
    ``target`` LUFS without its true peak exceeding ``ceiling`` dBTP (the smaller of the two
    gains; ``-inf`` inputs set no limit). C: ``sk_loudness_normalize_gain``.

    Parameters
    ----------
    integrated : float
        Integrated loudness of the programme, LUFS.
    true_peak : float
        Its true peak, dBTP.
    target : float, default -23.0
        Target loudness, LUFS.
    ceiling : float, default -1.0
        Highest true peak allowed, dBTP.

    Returns
    -------
    float
        The linear gain.

    Examples
    --------
    >>> round(sigkern.normalize_gain(-30.0, -10.0, target=-23.0, ceiling=-1.0), 4)
    2.2387
    """
    g = ffi.new("double *")
    st = _gain(float(integrated), float(true_peak), float(target), float(ceiling), g)
    if st:
        raise error(st, "sk_loudness_normalize_gain")
    gain: float = g[0]
    return gain


def normalize_loudness(x: ArrayLike, rate: float, target: float = -23.0, ceiling: float = -1.0, *,
                       weights: Optional[Sequence[float]] = None, interleaved: bool = False,
                       out: Optional[Array] = None) -> FloatArray:
    """``x`` scaled to ``target`` LUFS integrated loudness, with the gain lowered if needed so
    that the true peak stays at or below ``ceiling`` dBTP (every channel by the same gain).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        ``(channels, n)`` or ``(n,)``; ``(frames, channels)`` with ``interleaved=True``.
    rate : float
        Sample rate (Hz), 8000 to 384000.
    target : float, default -23.0
        Target loudness, LUFS.
    ceiling : float, default -1.0
        Highest true peak allowed, dBTP.
    weights : sequence of float, optional
        One weight per channel, as :class:`Meter`.
    interleaved : bool, default False
        ``x`` is ``(frames, channels)``.
    out : ndarray or Tensor of ``x``'s shape and dtype, optional; may be ``x``

    Returns
    -------
    ndarray or Tensor of ``x``'s shape and dtype (``out`` when given)

    Examples
    --------
    >>> t = np.arange(48000 * 5) / 48000
    >>> x = np.tile(0.01 * np.sin(2 * np.pi * 1000 * t), (2, 1))
    >>> y = sigkern.normalize_loudness(x, 48000, target=-16.0)
    >>> round(sigkern.integrated_loudness(y, 48000), 2)
    -16.0
    """
    s = _whole(x, rate, weights, True, interleaved, "normalize_loudness")
    return _core.scale(x, normalize_gain(s.integrated, s.true_peak, target, ceiling), out=out)


def peak_normalize(x: ArrayLike, target_db: float = 0.0, *, out: Optional[Array] = None) -> FloatArray:
    """``x`` scaled so that its largest sample magnitude over all channels is ``target_db``
    dBFS (one gain for every channel, so the balance is kept). An all-zero signal is returned
    unchanged (scaled by 1).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape
    target_db : float, default 0.0
        The peak after scaling, dBFS (finite).
    out : ndarray or Tensor of ``x``'s shape and dtype, optional; may be ``x``

    Returns
    -------
    ndarray or Tensor of ``x``'s shape and dtype (``out`` when given)

    Examples
    --------
    >>> sigkern.peak_normalize(np.array([[0.5, -0.25], [0.1, 0.2]]), 0.0)
    array([[ 1. , -0.5],
           [ 0.2,  0.4]])
    """
    if not math.isfinite(float(target_db)):
        raise ValueError(f"peak_normalize: target_db must be finite, got {target_db!r}")
    p = float(_core.peak(x))
    g = 1.0 if p == 0.0 else 10.0 ** (float(target_db) / 20.0) / p
    return _core.scale(x, g, out=out)
