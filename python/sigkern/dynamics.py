"""Dynamics processors (C: ``sk_envelope_new``, ``sk_compressor_new``, ``sk_gate_new``,
``sk_limiter_new``, ``sk_dynamics_*``).

:class:`EnvelopeFollower`, :class:`Compressor`, :class:`NoiseGate` and :class:`Limiter` are
streaming objects: call :meth:`~Compressor.process` block after block (the output of a signal
processed in chunks of any sizes is bit for bit that of one call), :meth:`~Compressor.reset` to
start over. The state is float64; float32 and float64 blocks are accepted (the output has the
input's dtype).

Where pedalboard (JUCE) has the same parameter it has the same meaning: ``threshold_db``,
``ratio``, ``attack_ms``, ``release_ms`` of ``pedalboard.Compressor`` and
``pedalboard.NoiseGate``. ``Compressor(threshold_db, ratio, attack_ms=..., release_ms=...)``
with the defaults ``knee_db=0``, ``makeup_db=0``, ``detector="peak"``, ``link=False`` computes
JUCE's formula. :class:`Limiter` is a lookahead true-peak limiter, not pedalboard's ``Limiter``.

Arrays: shape ``(channels, n)`` (planar; the last axis is time) or ``(n,)`` for one channel;
:meth:`~Compressor.process_interleaved` takes ``(frames, channels)``. NaN or infinity in the
input raise :class:`NonFiniteError` and change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import numpy as np

from . import _args as A
from . import _buffers as B
from ._args import CARRAY, F32, F64, SFX, ndarray
from ._errors import error
from ._lib import cfunc, ffi
from ._args import index as _args_index
from ._handle import Handle, closed_error

if TYPE_CHECKING:
    from ._typing import ArrayLike, FloatArray, Detector

__all__ = ["EnvelopeFollower", "Compressor", "NoiseGate", "Limiter"]

_NULL = ffi.NULL
_env_new = cfunc("sk_envelope_new")
_comp_new = cfunc("sk_compressor_new")
_gate_new = cfunc("sk_gate_new")
_lim_new = cfunc("sk_limiter_new")
_reset = cfunc("sk_dynamics_reset")
_reserve = cfunc("sk_dynamics_reserve")
_latency = cfunc("sk_dynamics_latency")
_channels = cfunc("sk_dynamics_channels")
_proc = {dt: cfunc(f"sk_dynamics_process_{s}") for dt, s in SFX.items()}
_proc_il = {dt: cfunc(f"sk_dynamics_process_interleaved_{s}") for dt, s in SFX.items()}
_DET = {"peak": 0, "rms": 1}


def _det(detector: str, func: str) -> int:
    try:
        return _DET[detector]
    except (KeyError, TypeError):
        raise ValueError(f"{func}: detector must be 'peak' or 'rms', got {detector!r}") from None


class _Dynamics(Handle, free="sk_dynamics_free"):
    """Common handle behaviour (process, reset, latency, close)."""

    __slots__ = ("_h", "_channels", "_rate", "__weakref__")
    _what = "dynamics processor"

    def _open(self, rate: Any, channels: Any, make: Callable[..., Any]) -> None:
        self._h = ffi.NULL
        func = type(self).__name__
        ch = A.index(channels, func, "channels")
        if ch < 0:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        r = A.rate(rate, func)
        hp = ffi.new("SkDynamics **")
        st, cname = make(r, hp, ch)
        if st:
            raise error(st, cname)
        self._h = hp[0]
        self._channels = ch
        self._rate = r

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def rate(self) -> float:
        """Sample rate (Hz)."""
        return self._rate

    @property
    def latency(self) -> int:
        """Latency in frames: output frame ``t`` is input frame ``t - latency`` (0 except for
        :class:`Limiter`)."""
        p = ffi.new("size_t *")
        st = _latency(self._h, p)
        if st:
            raise self._fail(st, "sk_dynamics_latency")
        return int(p[0])

    def _fail(self, st: int, cname: str) -> Any:
        if self._h == ffi.NULL:
            return closed_error(st, cname, f"this {type(self).__name__}")
        return error(st, cname)

    def _shape(self, x: Any, func: str, interleaved: bool) -> Any:
        x = A.as_input(x, func, "x")
        dt = A.float_dtype(x, func, "x")
        shape = tuple(x.shape)
        if len(shape) == 1:
            ch, n = 1, shape[0]
        elif len(shape) == 2:
            ch, n = (shape[1], shape[0]) if interleaved else shape
        else:
            want = "(frames, channels)" if interleaved else "(channels, n)"
            raise ValueError(f"{func}: x must have shape {want} or (n,), got {shape}")
        if ch != self._channels:
            raise ValueError(f"{func}: x has {ch} channels (shape {shape}), the processor {self._channels}")
        return x, dt, shape, n

    def process(self, x: ArrayLike, sidechain: Optional[ArrayLike] = None) -> FloatArray:
        """Processes a block of planar samples, shape ``(channels, n)`` (or ``(n,)`` for one
        channel), float32 or float64, and returns the output block (a new numpy array of the
        same shape and dtype). ``sidechain``: an optional key input of the same shape that
        drives the detector instead of ``x`` (not for :class:`Limiter`).

        Examples
        --------
        >>> c = sigkern.Compressor(48000, threshold_db=-20, ratio=4, channels=1)
        >>> y = c.process(np.zeros(480, np.float32))
        """
        if type(x) is ndarray and sidechain is None:
            # fast path: a float numpy block, C-contiguous or a time slice x[:, t0:t1]
            dt = x.dtype
            if (dt is F32 or dt is F64) and B.is_block(x.shape, self._channels):
                io = B.block_io(x, None, dt, CARRAY[dt])
                if io is not None:
                    y: FloatArray
                    px, sx, y, py, n = io
                    st = _proc[dt](self._h, px, sx, _NULL, 0, py, n, n)
                    if st:
                        raise self._fail(st, f"sk_dynamics_process_{SFX[dt]}")
                    return y
        return self._process_checked(x, sidechain)

    def _process_checked(self, x: Any, sidechain: Any) -> np.ndarray:
        """Every case of :meth:`process`: tensors, sidechains, other layouts and dtypes (with
        the errors that name them)."""
        func = f"{type(self).__name__}.process"
        x, dt, shape, n = self._shape(x, func, False)
        px, sx = B.planar(x, dt, func, "x")
        keep = None
        pk, sk = ffi.NULL, 0
        if sidechain is not None:
            keep = np.ascontiguousarray(A.as_input(sidechain, func, "sidechain"), dtype=dt)
            if tuple(keep.shape) != shape:
                raise ValueError(f"{func}: sidechain must have the shape of x {shape}, got {tuple(keep.shape)}")
            pk, sk = B.planar(keep, dt, func, "sidechain")
        y = np.empty(shape, dtype=dt)
        py, sy = B.planar(y, dt, func, "y", writable=True)
        st = _proc[dt](self._h, px, sx, pk, sk, py, sy, n)
        if st:
            raise self._fail(st, f"sk_dynamics_process_{SFX[dt]}")
        return y

    def process_interleaved(self, x: ArrayLike, sidechain: Optional[ArrayLike] = None) -> FloatArray:
        """As :meth:`process` for interleaved frames, shape ``(frames, channels)``,
        C-contiguous (the sidechain likewise)."""
        func = f"{type(self).__name__}.process_interleaved"
        x, dt, shape, n = self._shape(x, func, True)
        px, _ = B.pointer(x, dt, func, "x")
        keep = None
        pk = ffi.NULL
        if sidechain is not None:
            keep = np.ascontiguousarray(A.as_input(sidechain, func, "sidechain"), dtype=dt)
            if tuple(keep.shape) != shape:
                raise ValueError(f"{func}: sidechain must have the shape of x {shape}, got {tuple(keep.shape)}")
            pk, _ = B.pointer(keep, dt, func, "sidechain")
        y = np.empty(shape, dtype=dt)
        py, _ = B.pointer(y, dt, func, "y", writable=True)
        st = _proc_il[dt](self._h, px, pk, py, n)
        if st:
            raise self._fail(st, f"sk_dynamics_process_interleaved_{SFX[dt]}")
        return y

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_dynamics_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_dynamics_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_dynamics_reserve: max_block = {n} is negative")
        st = _reserve(self._h, n)
        if st:
            raise self._fail(st, "sk_dynamics_reserve")

    def reset(self) -> None:
        """Forgets the signal history (as new, same settings)."""
        st = _reset(self._h)
        if st:
            raise self._fail(st, "sk_dynamics_reset")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"rate={self._rate:g}"
        return f"{type(self).__name__}({state}, channels={self._channels})"


class EnvelopeFollower(_Dynamics):
    """Envelope follower (C: ``sk_envelope_new``): outputs, per channel, the level smoothed
    as JUCE's ``BallisticsFilter``: ``e ← v + a·(e − v)`` with ``v = |x|`` (peak) or ``x²``
    (RMS, output ``√e``), ``a = exp(−2π·1000/(rate·ms))`` with ``attack_ms`` while the level
    rises and ``release_ms`` while it falls.

    Parameters
    ----------
    rate : float
        Sample rate, 1000 to 768000 Hz.
    attack_ms, release_ms : float
        Attack and release times (ms, 0 to 60000).
    detector : {"peak", "rms"}
    link : bool, default False
        One envelope from the loudest channel, written to every channel.
    channels : int, default 1

    Examples
    --------
    >>> env = sigkern.EnvelopeFollower(48000, attack_ms=1, release_ms=100, channels=1)
    >>> bool(env.process(np.ones(4800)).max() <= 1.0)
    True
    """

    __slots__ = ()

    def __init__(self, rate: float, attack_ms: float = 1.0, release_ms: float = 100.0,
                 detector: Detector = "peak", link: bool = False, channels: int = 1) -> None:
        d = _det(detector, "EnvelopeFollower")
        self._open(rate, channels, lambda r, hp, ch: (
            _env_new(r, float(attack_ms), float(release_ms), d, 1 if link else 0, hp, ch), "sk_envelope_new"))


class Compressor(_Dynamics):
    """Compressor (C: ``sk_compressor_new``).

    Gain in dB, with ``L`` the detector envelope in dB (see :class:`EnvelopeFollower`; of the
    sidechain when given), ``T = threshold_db``, ``R = ratio``, ``W = knee_db``: 0 for
    ``2(L−T) <= −W``, ``(1/R − 1)(L − T + W/2)²/(2W)`` in the knee, ``(1/R − 1)(L − T)``
    above, plus ``makeup_db``. ``threshold_db``, ``ratio``, ``attack_ms``, ``release_ms`` mean
    what they mean in ``pedalboard.Compressor`` (defaults too); with the other parameters at
    their defaults the output is JUCE's ``dsp::Compressor``.

    Parameters
    ----------
    rate : float
        Sample rate, 1000 to 768000 Hz.
    threshold_db, ratio, attack_ms, release_ms : float
        Threshold (dBFS), ratio (>= 1), attack and release times (ms, 0 to 60000).
    knee_db : float, default 0
        Soft knee width in dB (0 = hard knee).
    makeup_db : float, default 0
        Gain added after compression, dB.
    detector : {"peak", "rms"}
    link : bool, default False
        One gain for all channels, from the loudest (stereo / all-channel linking).
    channels : int, default 2
    """

    __slots__ = ()

    def __init__(self, rate: float, threshold_db: float = 0.0, ratio: float = 1.0, attack_ms: float = 1.0,
                 release_ms: float = 100.0, knee_db: float = 0.0, makeup_db: float = 0.0,
                 detector: Detector = "peak", link: bool = False, channels: int = 2) -> None:
        d = _det(detector, "Compressor")
        self._open(rate, channels, lambda r, hp, ch: (
            _comp_new(r, float(threshold_db), float(ratio), float(knee_db), float(attack_ms), float(release_ms),
                      float(makeup_db), d, 1 if link else 0, hp, ch), "sk_compressor_new"))


class NoiseGate(_Dynamics):
    """Noise gate / downward expander with hold (C: ``sk_gate_new``), as JUCE's
    ``dsp::NoiseGate`` / ``pedalboard.NoiseGate`` (same ``threshold_db``, ``ratio``,
    ``attack_ms``, ``release_ms`` and defaults): an RMS detector (instant attack, 50 ms
    release) feeds the ballistics; below the threshold the gain is
    ``(envelope/threshold)^(ratio − 1)``. ``hold_ms`` keeps the gate open that long after the
    envelope falls below the threshold (0 = JUCE's behaviour).

    Parameters
    ----------
    rate : float
        Sample rate, 1000 to 768000 Hz.
    threshold_db, ratio, attack_ms, release_ms : float
        Threshold (dBFS), ratio (>= 1), attack and release times (ms, 0 to 60000).
    hold_ms : float, default 0
        How long the gate stays open after the envelope falls below the threshold (ms).
    link : bool, default False
        One gain for all channels, from the loudest.
    channels : int, default 2
    """

    __slots__ = ()

    def __init__(self, rate: float, threshold_db: float = -100.0, ratio: float = 10.0, attack_ms: float = 1.0,
                 release_ms: float = 100.0, hold_ms: float = 0.0, link: bool = False, channels: int = 2) -> None:
        self._open(rate, channels, lambda r, hp, ch: (
            _gate_new(r, float(threshold_db), float(ratio), float(attack_ms), float(release_ms), float(hold_ms),
                      1 if link else 0, hp, ch), "sk_gate_new"))


class Limiter(_Dynamics):
    """Lookahead true-peak limiter (C: ``sk_limiter_new``). One gain for all channels; the
    output's true peak (BS.1770-4, as :class:`Meter` measures it) stays at or below
    ``ceiling_db`` dBTP. The output is delayed by :attr:`latency` frames (zeros first); feed
    ``latency`` frames of silence at the end to get the tail. Unlike ``pedalboard.Limiter``
    (two compressors and a clipper), nothing is boosted.

    Parameters
    ----------
    rate : float
        1000 to 768000 Hz.
    ceiling_db : float, default -1
        dBTP.
    lookahead_ms : float, default 5
        1 to 1000 ms: the attack ramp (and most of the latency).
    release_ms : float, default 100
        10 to 60000 ms.
    channels : int, default 2
    """

    __slots__ = ()

    def __init__(self, rate: float, ceiling_db: float = -1.0, lookahead_ms: float = 5.0,
                 release_ms: float = 100.0, channels: int = 2) -> None:
        self._open(rate, channels, lambda r, hp, ch: (
            _lim_new(r, float(ceiling_db), float(lookahead_ms), float(release_ms), hp, ch), "sk_limiter_new"))
