"""Sample-rate conversion (C: ``sk_resample_*``, ``sk_resampler_*``).

:func:`resample` converts a whole signal with the delay removed and the tail flushed: output
sample ``m`` is the signal at input time ``m * in_rate / out_rate`` and the output has
``ceil(n * out_rate / in_rate)`` samples (:func:`resample_size`). :class:`Resampler` converts a
stream block by block; its output is the one-shot output delayed by :attr:`Resampler.latency`
samples, bit for bit, whatever the block sizes, and :meth:`Resampler.set_ratio` changes the
ratio on a live stream without a click.

Quality presets (frequencies as fractions of the lower Nyquist frequency; see
``docs/resample.md``): ``"quick"`` (passband 0.70, 60 dB), ``"low"`` (0.80, 96 dB),
``"medium"`` (0.90, 110 dB), ``"high"`` (0.913, 135 dB), ``"very_high"`` (0.913, 175 dB;
float32 streams compute in float64 inside). soxr's names ``"QQ" "LQ" "MQ" "HQ" "VHQ"`` are
accepted too.
"""

from __future__ import annotations

import math
import operator
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Tuple

import numpy as np

from . import _args as A
from . import _buffers as B
from ._args import CARRAY, F32, F64, SFX, ndarray
from ._errors import error
from ._lib import cfunc, ffi
from ._args import index as _args_index
from ._handle import Handle, closed_error

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, DTypeLike, FloatArray, Phase, Quality

__all__ = ["resample", "resample_size", "Resampler", "upfirdn", "resample_poly", "decimate",
           "interpolate"]

_QUALITY = {
    "quick": 0, "qq": 0,
    "low": 1, "lq": 1,
    "medium": 2, "mq": 2,
    "high": 3, "hq": 3,
    "very_high": 4, "vhq": 4,
}
_fb = ffi.from_buffer
_tls = threading.local()


def _sizes() -> Tuple[Any, ...]:
    """This thread's three ``size_t *`` out-parameters for :meth:`Resampler.process` (made once
    per thread: a streaming call allocates no cdata)."""
    try:
        sizes: Tuple[Any, ...] = _tls.sizes
    except AttributeError:
        sizes = _tls.sizes = (ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("size_t *"))
    return sizes


_size = cfunc("sk_resample_size")
_oneshot = {F32: cfunc("sk_resample_f32"), F64: cfunc("sk_resample_f64")}
_oneshot_il = {F32: cfunc("sk_resample_f32_interleaved"), F64: cfunc("sk_resample_f64_interleaved")}
_upfirdn_size = cfunc("sk_upfirdn_size")
_upfirdn = {F32: cfunc("sk_upfirdn_f32"), F64: cfunc("sk_upfirdn_f64")}
_poly_size = cfunc("sk_resample_poly_size")
_poly = {F32: cfunc("sk_resample_poly_f32"), F64: cfunc("sk_resample_poly_f64")}
_decimate = {F32: cfunc("sk_decimate_f32"), F64: cfunc("sk_decimate_f64")}
_interpolate = {F32: cfunc("sk_interpolate_f32"), F64: cfunc("sk_interpolate_f64")}
_new = {F32: cfunc("sk_resampler_f32_new"), F64: cfunc("sk_resampler_f64_new")}
_new_spec = {F32: cfunc("sk_resampler_f32_new_spec"), F64: cfunc("sk_resampler_f64_new_spec")}
_new_phase = {F32: cfunc("sk_resampler_f32_new_spec_phase"),
              F64: cfunc("sk_resampler_f64_new_spec_phase")}
_quality_spec = cfunc("sk_resample_quality_spec")
_PHASE = {"linear": 0, "minimum": 1}
_reset = cfunc("sk_resampler_reset")
_reserve = cfunc("sk_resampler_reserve")
_latency = cfunc("sk_resampler_latency")
_out_size = cfunc("sk_resampler_output_size")
_flush_size = cfunc("sk_resampler_flush_size")
_set_ratio = cfunc("sk_resampler_set_ratio")
_process = {F32: cfunc("sk_resampler_f32_process"), F64: cfunc("sk_resampler_f64_process")}
_flush = {F32: cfunc("sk_resampler_f32_flush"), F64: cfunc("sk_resampler_f64_flush")}
_process_il = {F32: cfunc("sk_resampler_f32_process_interleaved"),
               F64: cfunc("sk_resampler_f64_process_interleaved")}
_flush_il = {F32: cfunc("sk_resampler_f32_flush_interleaved"),
             F64: cfunc("sk_resampler_f64_flush_interleaved")}


def _quality(q: Any, func: str) -> int:
    if isinstance(q, str) and q.lower() in _QUALITY:
        return _QUALITY[q.lower()]
    raise ValueError(
        f"{func}: quality must be one of 'quick', 'low', 'medium', 'high', 'very_high' "
        f"(or soxr's 'QQ', 'LQ', 'MQ', 'HQ', 'VHQ'), got {q!r}"
    )


def resample_size(n: int, in_rate: float, out_rate: float) -> int:
    """Length of :func:`resample`'s output for ``n`` input samples:
    ``ceil(n * out_rate / in_rate)`` for a rational ratio (exact arithmetic).

    Parameters
    ----------
    n : int
        Input samples.
    in_rate, out_rate : float
        Sample rates (Hz).

    Returns
    -------
    int
    """
    p = ffi.new("size_t *")
    st = _size(A.rate(in_rate, "resample_size", "in_rate"),
               A.rate(out_rate, "resample_size", "out_rate"), p, operator.index(n))
    if st:
        raise error(st, "sk_resample_size")
    return int(p[0])


def resample(x: ArrayLike, in_rate: float, out_rate: float, quality: Quality = "high", axis: int = -1,
             out: Optional[Array] = None) -> FloatArray:
    """Converts ``x`` from ``in_rate`` to ``out_rate`` along ``axis``.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
        Any shape; every 1-D slice along ``axis`` is one channel.
    in_rate, out_rate : float
        Positive and finite; ``out_rate / in_rate`` within [1/256, 256].
    quality : str, default "high"
        A preset (see the module documentation).
    axis : int, default -1
        The time axis. ``axis=-1`` on C-contiguous data, and ``axis=0`` on a C-contiguous
        ``(n, channels)`` array (interleaved frames), run without a copy.
    out : ndarray or Tensor, optional
        The output: ``x``'s shape with ``resample_size(n, in_rate, out_rate)`` along ``axis``,
        same dtype and kind, C-contiguous.

    Returns
    -------
    ndarray or Tensor like ``x``.

    Raises
    ------
    TypeError, ValueError
        Wrong dtype, shape or ``out``; :class:`BadArgumentError` for rates out of range.
    """
    func = "resample"
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    q = _quality(quality, func)
    fin, fout = A.rate(in_rate, func, "in_rate"), A.rate(out_rate, func, "out_rate")
    shape = tuple(x.shape)
    ax = A.axis(axis, len(shape), func)
    n = shape[ax]
    n_out = resample_size(n, fin, fout)
    out_shape = shape[:ax] + (n_out,) + shape[ax + 1:]
    if out is not None:
        A.check_out(out, out_shape, dt, func)
    channels = math.prod(shape) // n if n else math.prod(shape[:ax] + shape[ax + 1:])
    interleaved = len(shape) == 2 and ax == 0 and channels > 1 and A.is_contig(x)
    if not interleaved and ax != len(shape) - 1:
        xm = A.move_copy(x, ax, -1)
        om = resample(xm, fin, fout, quality, -1)
        res = A.move_copy(om, -1, ax)
        if out is not None:
            A.copy_into(out, res)
            return out
        ret: FloatArray = A.contig(res)
        return ret
    y = out if out is not None else B.new_like(x, out_shape, dt)
    if channels == 0:
        return y
    px, _ = B.pointer(x, dt, func, "x")
    py, _ = B.pointer(y, dt, func, "out", writable=True)
    if interleaved:
        st = _oneshot_il[dt](px, fin, fout, q, channels, py, n, n_out)
        name = f"sk_resample_{SFX[dt]}_interleaved"
    else:
        st = _oneshot[dt](px, n, fin, fout, q, channels, py, n_out, n, n_out)
        name = f"sk_resample_{SFX[dt]}"
    if st:
        raise error(st, name)
    return y


class Resampler(Handle, free="sk_resampler_free"):
    """A streaming sample-rate converter (C: ``sk_resampler_*``).

    Parameters
    ----------
    in_rate, out_rate : float
        Positive and finite, ``out_rate / in_rate`` within [1/256, 256]. A rational ratio
        (48000 → 44100 = 147/160) runs exactly.
    channels : int, default 1
    quality : str, default "high"
        A preset (see the module documentation).
    dtype : np.float32 or np.float64, default np.float32
    spec : (passband_end, stopband_begin, attenuation_db), optional
        A custom filter instead of the preset: edges as fractions of the lower Nyquist
        frequency (``0 < passband_end < stopband_begin <= 1``), attenuation in [40, 200] dB.
    phase : "linear" or "minimum", default "linear"
        ``"minimum"`` makes the steep first-stage filter minimum phase with the same magnitude
        response (of the preset or of ``spec``): :attr:`latency` shrinks to the low-frequency
        group delay and ringing follows transients only, at the cost of a phase that is not
        linear near the passband edge.

    Notes
    -----
    Blocks are planar: shape ``(channels, n)``, or ``(n,)`` for one channel; rows must be
    contiguous (a time slice ``x[:, t0:t1]`` of a C-contiguous block is fine). The output of
    the stream is the one-shot :func:`resample` output delayed by :attr:`latency` samples, bit
    for bit, for any block sizes; :meth:`flush` (or ``process(x, last=True)``) returns the
    tail and readies the object for a new signal. One object must not be used from two
    threads at the same time (the second call raises :class:`InvalidHandleError`).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((2, 4800)).astype(np.float32)
    >>> r = sigkern.Resampler(48000, 44100, channels=2)
    >>> blocks = [r.process(x[:, i:i + 512]) for i in range(0, x.shape[1], 512)]
    >>> y = np.concatenate(blocks + [r.flush()], axis=1)[:, r.latency:]
    >>> np.array_equal(y[:, :4410], sigkern.resample(x, 48000, 44100))
    True
    """

    __slots__ = ("_h", "_dt", "_ct", "_channels", "_sfx", "__weakref__")

    def __init__(self, in_rate: float, out_rate: float, channels: int = 1,
                 quality: Quality = "high", dtype: DTypeLike = np.float32, spec: Optional[Tuple[float, float, float]] = None,
                 phase: Phase = "linear") -> None:
        self._h = ffi.NULL
        func = "Resampler"
        dt = A.float_dtype_arg(dtype, func)
        ch = A.index(channels, func, "channels")
        if ch < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        fin, fout = A.rate(in_rate, func, "in_rate"), A.rate(out_rate, func, "out_rate")
        if not isinstance(phase, str) or phase.lower() not in _PHASE:
            raise ValueError(f"{func}: phase must be 'linear' or 'minimum', got {phase!r}")
        ph = _PHASE[phase.lower()]
        hp = ffi.new("SkResampler **")
        if spec is None and ph == 0:
            st = _new[dt](fin, fout, ch, _quality(quality, func), hp)
            cname = f"sk_resampler_{SFX[dt]}_new"
        else:
            s = ffi.new("SkResampleSpec *")
            if spec is None:
                st = _quality_spec(_quality(quality, func), s)
                if st:
                    raise error(st, "sk_resample_quality_spec")
            else:
                try:
                    pe, sb, att = (float(v) for v in spec)
                except (TypeError, ValueError):
                    raise TypeError(f"{func}: spec must be (passband_end, stopband_begin, "
                                    f"attenuation_db), got {spec!r}") from None
                s.passband_end, s.stopband_begin, s.attenuation_db = pe, sb, att
            if ph == 0:
                st = _new_spec[dt](fin, fout, ch, s, hp)
                cname = f"sk_resampler_{SFX[dt]}_new_spec"
            else:
                st = _new_phase[dt](fin, fout, ch, s, ph, hp)
                cname = f"sk_resampler_{SFX[dt]}_new_spec_phase"
        if st:
            raise error(st, cname)
        self._h = hp[0]
        self._dt = dt
        self._ct = CARRAY[dt]
        self._sfx = SFX[dt]
        self._channels = ch

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def dtype(self) -> np.dtype[Any]:
        """The stream's dtype (float32 or float64)."""
        return self._dt

    @property
    def latency(self) -> int:
        """The delay of the stream in output samples (its exact group delay)."""
        p = ffi.new("size_t *")
        self._check(_latency(self._h, p), "sk_resampler_latency")
        return int(p[0])

    def _check(self, st: int, cname: str) -> None:
        if st:
            if self._h == ffi.NULL:
                raise closed_error(st, cname, "this Resampler")
            raise error(st, cname)

    def output_size(self, n: int) -> int:
        """How many samples :meth:`process` returns for ``n`` more input samples.

        Parameters
        ----------
        n : int
            Input samples (per channel).

        Returns
        -------
        int
        """
        p = ffi.new("size_t *")
        self._check(_out_size(self._h, p, operator.index(n)), "sk_resampler_output_size")
        return int(p[0])

    def _block(self, x: Any, func: str) -> Tuple[Any, int]:
        x = A.as_input(x, func, "x")
        shape = tuple(x.shape)
        if len(shape) == 1:
            if self._channels != 1:
                raise ValueError(f"{func}: a 1-D block needs a one-channel Resampler; this one "
                                 f"has {self._channels} channels (pass shape (channels, n))")
        elif len(shape) != 2 or shape[0] != self._channels:
            raise ValueError(f"{func}: x must have shape ({self._channels}, n), got {shape}")
        return x, shape[-1]

    def process(self, x: ArrayLike, last: bool = False) -> FloatArray:
        """Converts the next block and returns the output it completes.

        Parameters
        ----------
        x : ndarray or Tensor, the stream's dtype
            Planar ``(channels, n)``, or ``(n,)`` for one channel.
        last : bool, default False
            Also flush the tail (see :meth:`flush`).

        Returns
        -------
        ndarray or Tensor, ``(channels, m)`` or ``(m,)``, the stream's dtype
        """
        if type(x) is ndarray and x.dtype is self._dt and not last and B.is_block(
            x.shape, self._channels
        ):
            # fast path: a numpy block of the stream's dtype, C-contiguous or a time slice
            n = x.shape[-1]
            q, c, p = _sizes()
            self._check(_out_size(self._h, q, n), "sk_resampler_output_size")
            cap = q[0]
            y = np.empty(x.shape[:-1] + (cap,), self._dt)
            if not (n or cap):
                return y
            try:
                px, xs = B.block_ptr(x, self._ct)
            except ValueError:  # other layouts: the checked path says why
                px = None
            if px is not None:
                self._check(_process[self._dt](self._h, px, xs, _fb(self._ct, y, True), cap,
                                               c, p, n, cap),
                            f"sk_resampler_{self._sfx}_process")
                if c[0] != n or p[0] != cap:
                    raise RuntimeError(
                        f"Resampler.process: consumed {c[0]} of {n}, produced {p[0]} of {cap}"
                    )
                return y
        ret: FloatArray = self._process_checked(x, last)
        return ret

    def _process_checked(self, x: Any, last: bool) -> Any:
        """Every case of :meth:`process`: tensors, other layouts and dtypes (with the errors
        that name them), ``last=True``."""
        func = "Resampler.process"
        x, n = self._block(x, func)
        if A.dtype_of(x) != self._dt:
            raise TypeError(f"{func}: x must be {self._dt}, got {A.describe(x)}")
        cap = self.output_size(n)
        y = B.new_like(x, tuple(x.shape[:-1]) + (cap,), self._dt)
        c, p = ffi.new("size_t *"), ffi.new("size_t *")
        if n or cap:
            # planar rows: C-contiguous, or a time slice x[:, t0:t1] of a bigger block
            px, xs = B.planar(x, self._dt, func, "x")
            py, _ = B.pointer(y, self._dt, func, "out", writable=True)
            self._check(_process[self._dt](self._h, px, xs, py, cap, c, p, n, cap),
                        f"sk_resampler_{self._sfx}_process")
            if c[0] != n or p[0] != cap:
                raise RuntimeError(f"{func}: consumed {c[0]} of {n}, produced {p[0]} of {cap}")
        if last:
            tail = self.flush(like=x)
            if isinstance(y, np.ndarray):
                return np.concatenate([y, tail], axis=-1)
            return A._torch().cat([y, tail], dim=-1)
        return y

    def flush(self, like: Optional[Array] = None) -> FloatArray:
        """Ends the signal: returns the remaining output (the samples whose instants lie before
        the end of the input) and resets the stream for a new signal.

        Parameters
        ----------
        like : ndarray or Tensor, optional
            The kind of the result: a tensor gives a tensor (default: numpy); a 1-D ``like``
            gives a 1-D result for one channel (as does no ``like``).

        Returns
        -------
        ndarray or Tensor, ``(channels, m)``; ``(m,)`` for one channel unless ``like`` is 2-D
        """
        p = ffi.new("size_t *")
        self._check(_flush_size(self._h, p), "sk_resampler_flush_size")
        n = int(p[0])
        shape = (n,) if self._channels == 1 and (like is None or len(like.shape) == 1) \
            else (self._channels, n)
        y: FloatArray = B.new_like(like if like is not None else np.empty(0), shape, self._dt)
        py, _ = B.pointer(y, self._dt, "Resampler.flush", "out", writable=True)
        got = ffi.new("size_t *")
        self._check(_flush[self._dt](self._h, py, n, got, n), f"sk_resampler_{self._sfx}_flush")
        return y

    def process_interleaved(self, x: ArrayLike) -> FloatArray:
        """As :meth:`process` for interleaved frames.

        Parameters
        ----------
        x : ndarray or Tensor, the stream's dtype
            Shape ``(n, channels)``, C-contiguous.

        Returns
        -------
        ndarray or Tensor, ``(m, channels)``

        Examples
        --------
        >>> r = sigkern.Resampler(44100, 48000, channels=2)
        >>> y = r.process_interleaved(np.zeros((4410, 2), np.float32))
        >>> y.shape[1], y.dtype
        (2, dtype('float32'))
        """
        func = "Resampler.process_interleaved"
        x = A.as_input(x, func, "x")
        shape = tuple(x.shape)
        if len(shape) != 2 or shape[1] != self._channels:
            raise ValueError(f"{func}: x must have shape (n, {self._channels}), got {shape}")
        if A.dtype_of(x) != self._dt:
            raise TypeError(f"{func}: x must be {self._dt}, got {A.describe(x)}")
        n = shape[0]
        cap = self.output_size(n)
        y: FloatArray = B.new_like(x, (cap, self._channels), self._dt)
        if n or cap:
            px, _ = B.pointer(x, self._dt, func, "x")
            py, _ = B.pointer(y, self._dt, func, "out", writable=True)
            c, p = ffi.new("size_t *"), ffi.new("size_t *")
            self._check(_process_il[self._dt](self._h, px, py, c, p, n, cap),
                        f"sk_resampler_{self._sfx}_process_interleaved")
            if c[0] != n or p[0] != cap:
                raise RuntimeError(f"{func}: consumed {c[0]} of {n}, produced {p[0]} of {cap}")
        return y

    def flush_interleaved(self, like: Optional[Array] = None) -> FloatArray:
        """As :meth:`flush`, returning interleaved frames.

        Parameters
        ----------
        like : ndarray or Tensor, optional
            The kind of the result: a tensor gives a tensor (default: numpy); a 1-D ``like``
            gives a 1-D result for one channel (as does no ``like``).

        Returns
        -------
        ndarray or Tensor, ``(m, channels)``
        """
        p = ffi.new("size_t *")
        self._check(_flush_size(self._h, p), "sk_resampler_flush_size")
        n = int(p[0])
        y: FloatArray = B.new_like(like if like is not None else np.empty(0), (n, self._channels),
                                   self._dt)
        py, _ = B.pointer(y, self._dt, "Resampler.flush_interleaved", "out", writable=True)
        got = ffi.new("size_t *")
        self._check(_flush_il[self._dt](self._h, py, got, n),
                    f"sk_resampler_{self._sfx}_flush_interleaved")
        return y

    def set_ratio(self, ratio: float, ramp: int = 0) -> None:
        """Moves the ratio ``out_rate / in_rate`` to ``ratio`` linearly over the next ``ramp``
        output samples (0: at once), without a click. :meth:`reset` restores the creation
        ratio.

        Parameters
        ----------
        ratio : float
            The new ``out_rate / in_rate``.
        ramp : int, default 0
            Output samples over which the ratio moves.
        """
        self._check(_set_ratio(self._h, float(ratio), operator.index(ramp)),
                    "sk_resampler_set_ratio")

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_resampler_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_resampler_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_resampler_reserve: max_block = {n} is negative")
        self._check(_reserve(self._h, n), "sk_resampler_reserve")

    def reset(self) -> None:
        """Back to the state right after creation (empty history, the creation ratio)."""
        self._check(_reset(self._h), "sk_resampler_reset")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"latency={self.latency}"
        return f"<sigkern.Resampler channels={self._channels} dtype={self._dt} {state}>"


def _rows(x: Any, axis: int, func: str) -> Any:
    x = A.as_input(x, func, "x")
    dt = A.float_dtype(x, func, "x")
    return A.move_copy(x, A.axis(axis, x.ndim, func), -1), dt


def _per_row(xm: Any, dt: np.dtype[Any], n_out: int, call: Callable[..., Any], cname: str, axis: int) -> Any:
    lead = tuple(xm.shape[:-1])
    y = B.new_like(xm, lead + (n_out,), dt)
    xr = xm.reshape(-1, xm.shape[-1])
    yr = y.reshape(-1, n_out)
    for i in range(xr.shape[0]):
        px, _ = B.pointer(xr[i], dt, cname, "x")
        py, _ = B.pointer(yr[i], dt, cname, "out", writable=True)
        st = call(px, py)
        if st:
            raise error(st, cname)
    return A.move_copy(y, -1, axis)


# ---------------------------------------------------------------------------------------------
# scipy's dtype rules, complex signals and signal extension for upfirdn / resample_poly /
# decimate
# ---------------------------------------------------------------------------------------------

#: scipy's signal extension modes of ``upfirdn`` (``scipy.signal._upfirdn._upfirdn_modes``)
UPFIRDN_MODES = ("constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric",
                 "antireflect", "line")


def _factor(v: Any, func: str, name: str) -> int:
    """An up/down factor as scipy takes it: an integral number (``2.0`` is fine), >= 1."""
    try:
        iv = int(v)
        ok = iv == v
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{func}: {name} must be an integer, got {v!r}")
    if iv < 1:
        raise ValueError(f"{func}: {name} must be >= 1, got {iv}")
    return iv


def _as_numpy(x: Any) -> Tuple[np.ndarray, Callable[[np.ndarray], Any]]:
    """``x`` as a numpy array and the function that turns a result back into ``x``'s kind (a
    CPU tensor gives a tensor)."""
    if A.is_tensor(x):
        A.cpu_tensor(x, "sigkern", "x")
        t = A._torch()
        return x.detach().numpy(), lambda y: t.from_numpy(np.ascontiguousarray(y))
    return x, lambda y: y


def _real_kernel_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    """The float kernel (F32/F64) that computes a result of dtype ``dt``."""
    return F32 if dt in (F32, A.C64) else F64


def _extend(x: np.ndarray, npre: int, npost: int, mode: str, cval: Any) -> np.ndarray:
    """``x`` (time last) extended by ``npre``/``npost`` samples as scipy's upfirdn extends it."""
    n = x.shape[-1]
    widths = [(0, 0)] * (x.ndim - 1) + [(npre, npost)]
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=cval)
    if mode in ("wrap", "edge", "symmetric", "reflect"):
        padded: np.ndarray = np.pad(x, widths, mode=mode)  # type: ignore[call-overload]
        return padded
    if mode == "antireflect":
        return np.pad(x, widths, mode="reflect", reflect_type="odd")
    if mode == "antisymmetric":
        base = np.concatenate([x, -x[..., ::-1]], axis=-1)
        return base[..., np.arange(-npre, n + npost) % (2 * n)]
    # "smooth" (the slope of the two end samples) and "line" (the first-to-last slope)
    if n < 2:
        lo = hi = np.zeros_like(x[..., :1])
    elif mode == "smooth":
        lo, hi = x[..., 1:2] - x[..., :1], x[..., -1:] - x[..., -2:-1]
    else:
        lo = hi = (x[..., -1:] - x[..., :1]) / (n - 1)
    left = x[..., :1] + np.arange(-npre, 0, dtype=x.real.dtype) * lo
    right = x[..., -1:] + np.arange(1, npost + 1, dtype=x.real.dtype) * hi
    return np.concatenate([left, x, right], axis=-1)


def _upfirdn_real(hh: np.ndarray, xm: Any, up: int, down: int, dt: np.dtype[Any], func: str,
                  axis: int = -1) -> Any:
    """The kernel over every row of ``xm`` (time last, dtype ``dt``), zero extension; the
    result's time axis moved to ``axis``."""
    hh = np.ascontiguousarray(hh, dtype=dt)
    p = ffi.new("size_t *")
    st = _upfirdn_size(up, down, p, hh.size, xm.shape[-1])
    if st:
        raise error(st, "sk_upfirdn_size")
    n_out = int(p[0])
    ph = ffi.from_buffer(CARRAY[dt], hh)
    n = xm.shape[-1]
    return _per_row(xm, dt, n_out, lambda px, py: _upfirdn[dt](ph, px, up, down, py, hh.size, n, n_out),
                    f"sk_upfirdn_{SFX[dt]}", axis)


def upfirdn(h: ArrayLike, x: ArrayLike, up: int = 1, down: int = 1, axis: int = -1,
            mode: str = "constant", cval: float = 0) -> FloatArray:
    """``scipy.signal.upfirdn(h, x, up, down, axis, mode, cval)``: upsample, FIR filter,
    downsample (C: ``sk_upfirdn_*``).

    Parameters
    ----------
    h : array_like, 1-D, non-empty
        FIR taps, real or complex.
    x : array_like, ndarray or Tensor
        The signal, real or complex; integer and bool input is read as float64, as scipy.
    up, down : int, default 1
        Upsampling and downsampling factors (>= 1).
    axis : int, default -1
        The time axis.
    mode : str, default "constant"
        How the signal is extended beyond its ends, scipy's modes: ``"constant"`` (``cval``),
        ``"wrap"``, ``"edge"``, ``"symmetric"``, ``"reflect"`` (as ``numpy.pad``),
        ``"antisymmetric"``, ``"antireflect"``, ``"smooth"``, ``"line"``.
    cval : float, default 0
        The value outside the signal for ``mode="constant"``.

    Returns
    -------
    ndarray or Tensor
        scipy's dtype, ``result_type(h, x, float32)`` (float32 only when both are float32;
        extended precision computed and returned as float64/complex128), scipy's output length
        along ``axis``.

    Raises
    ------
    ValueError
        ``h`` not 1-D or empty, ``up``/``down`` < 1, an unknown ``mode``.
    """
    result = _upfirdn_any(h, x, up, down, axis, mode, cval)
    return result  # type: ignore[no-any-return]


def _upfirdn_any(h: Any, x: Any, up: Any = 1, down: Any = 1, axis: Any = -1, mode: Any = "constant", cval: Any = 0) -> Any:
    func = "upfirdn"
    ha = h.detach().cpu().numpy() if A.is_tensor(h) else np.asarray(h)
    if ha.ndim != 1 or ha.size == 0:
        raise ValueError(f"{func}: h must be 1-D with non-zero length, got shape {ha.shape}")
    ha = A.promote(ha, func, "h")
    x = A.promote(x, func, "x")
    up, down = _factor(up, func, "up"), _factor(down, func, "down")
    if not isinstance(mode, str) or mode.lower() not in UPFIRDN_MODES:
        raise ValueError(f"{func}: mode must be one of {', '.join(UPFIRDN_MODES)}, got {mode!r}")
    mode = mode.lower()
    ax = A.axis(axis, len(x.shape), func)
    xdt = A.dtype_of(x)
    out_dt = xdt if ha.dtype == xdt and xdt in (F32, F64) else np.result_type(ha.dtype, xdt, np.float32)
    kdt = _real_kernel_dtype(out_dt)
    if out_dt.kind == "f" and xdt == out_dt and A.is_contig(x) and mode == "constant" and cval == 0:
        # the common case: a real signal in the result's dtype, zero extension
        ret: FloatArray = _upfirdn_real(ha, A.move_copy(x, ax, -1), up, down, kdt, func, ax)
        return ret
    xn, back = _as_numpy(x)
    xm = np.moveaxis(xn, ax, -1)
    n = xm.shape[-1]
    cv = np.asarray(cval)
    if mode != "constant" or cv != 0:
        # extend the signal by whole input samples at both ends, enough for the filter's
        # reach, with the offset a multiple of ``down`` so the output grid stays aligned
        step = down // math.gcd(up, down)
        pre = -(-(ha.size - 1) // up)
        pre = -(-pre // step) * step
        xm = _extend(xm, pre, pre, mode, cval)
        skip = pre * up // down
    else:
        skip = 0
    p = ffi.new("size_t *")
    st = _upfirdn_size(up, down, p, ha.size, n)
    if st:
        raise error(st, "sk_upfirdn_size")
    n_out = int(p[0])
    parts = [xm.real, xm.imag] if xm.dtype.kind == "c" else [xm]
    planes = np.stack(parts).astype(kdt) if len(parts) > 1 else np.ascontiguousarray(parts[0], kdt)
    hp = [ha.real, ha.imag] if ha.dtype.kind == "c" else [ha]
    ys = [_upfirdn_real(hc, planes, up, down, kdt, func)[..., skip:skip + n_out] for hc in hp]
    if len(parts) == 1:
        y = ys[0] if len(hp) == 1 else ys[0] + 1j * ys[1]
    elif len(hp) == 1:
        y = ys[0][0] + 1j * ys[0][1]
    else:  # (xr + i xi) * (hr + i hi)
        y = (ys[0][0] - ys[1][1]) + 1j * (ys[0][1] + ys[1][0])
    y = np.ascontiguousarray(np.moveaxis(y.astype(out_dt, copy=False), -1, ax))
    return back(y)


def _integer(x: Any, q: int, axis: int, up: bool) -> Any:
    func = "interpolate" if up else "decimate"
    xm, dt = _rows(x, axis, func)
    q = operator.index(q)
    if q < 1:
        raise ValueError(f"{func}: q = {q} must be at least 1")
    n = xm.shape[-1]
    n_out = n * q if up else -(-n // q)
    f = (_interpolate if up else _decimate)[dt]
    return _per_row(xm, dt, n_out, lambda px, py: f(px, q, py, n, n_out),
                    f"sk_{func}_{SFX[dt]}", axis)


def _pad_median(x: np.ndarray) -> np.ndarray:
    med: np.ndarray = np.median(x, axis=-1, keepdims=True)
    return med


_BACKGROUND: Dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mean": lambda v: np.mean(v, axis=-1, keepdims=True),
    "median": _pad_median,
    "minimum": lambda v: np.min(v, axis=-1, keepdims=True),
    "maximum": lambda v: np.max(v, axis=-1, keepdims=True),
}


def resample_poly(x: ArrayLike, up: int, down: int, axis: int = 0, window: Any = ("kaiser", 5.0),
                  padtype: str = "constant", cval: Optional[float] = None) -> FloatArray:
    """``scipy.signal.resample_poly(x, up, down, axis, window, padtype, cval)``: polyphase
    resampling by ``up / down`` (C: ``sk_resample_poly_*`` for scipy's default filter and
    padding, ``sk_upfirdn_*`` otherwise).

    Parameters
    ----------
    x : array_like, ndarray or Tensor
        The signal, real or complex; integer and bool input is read as float64, as scipy.
    up, down : int
        Upsampling and downsampling factors (>= 1; integral floats are accepted).
    axis : int, default 0
        The time axis (scipy's default: the first axis).
    window : str, tuple or 1-D array_like, default ("kaiser", 5.0)
        A window for :func:`sigkern.get_window` (the filter is then
        ``firwin(20 * max(up, down) + 1, 1 / max(up, down), window=window)``, in ``x``'s
        dtype), or the FIR taps themselves.
    padtype : str, default "constant"
        ``"constant"`` (``cval``), one of :func:`upfirdn`'s modes, or ``"mean"``,
        ``"median"``, ``"minimum"``, ``"maximum"`` (that statistic of the signal is removed
        before filtering and added back).
    cval : float, optional
        The value outside the signal for ``padtype="constant"`` (default 0).

    Returns
    -------
    ndarray or Tensor
        ``ceil(n * up / down)`` samples along ``axis`` (a copy of ``x`` when ``up == down``);
        ``x``'s dtype for the default window (float64 for integer input), scipy's
        ``result_type`` of taps and signal for given taps.

    Raises
    ------
    ValueError
        Factors not integral or < 1, a 2-D window, an unknown ``padtype``, ``cval`` with a
        ``padtype`` other than ``"constant"``.
    """
    result = _resample_poly_any(x, up, down, axis, window, padtype, cval)
    return result  # type: ignore[no-any-return]


def _resample_poly_any(x: Any, up: Any, down: Any, axis: Any = 0, window: Any = ("kaiser", 5.0), padtype: Any = "constant", cval: Any = None) -> Any:
    func = "resample_poly"
    x = A.promote(x, func, "x")
    up, down = _factor(up, func, "up"), _factor(down, func, "down")
    if cval is not None and padtype != "constant":
        raise ValueError(f"{func}: cval has no effect when padtype is {padtype!r}")
    if not isinstance(padtype, str) or (padtype not in UPFIRDN_MODES and padtype not in _BACKGROUND):
        raise ValueError(f"{func}: padtype must be one of: maximum, mean, median, minimum, "
                         f"{', '.join(UPFIRDN_MODES)}; got {padtype!r}")
    ax = A.axis(axis, len(x.shape), func)
    g = math.gcd(up, down)
    up, down = up // g, down // g
    taps = isinstance(window, list) or isinstance(window, np.ndarray) or A.is_tensor(window)
    if taps:
        h = np.array(window.detach().cpu().numpy() if A.is_tensor(window) else window)
        if h.ndim != 1:
            raise ValueError(f"{func}: window must be 1-D, got shape {h.shape}")
    xdt = A.dtype_of(x)
    if up == down == 1:
        xn, back = _as_numpy(x)
        return back(np.array(xn, copy=True))
    kaiser5 = (not taps and isinstance(window, tuple) and len(window) == 2
               and window[0] == "kaiser" and float(window[1]) == 5.0)
    if kaiser5 and xdt in (F32, F64) and padtype == "constant" and not cval:
        # scipy's defaults: one C call per channel
        return _poly_c(A.move_copy(x, ax, -1), up, down, xdt, ax)
    if kaiser5 and xdt in (F32, F64) and padtype in _BACKGROUND and isinstance(x, np.ndarray):
        # the filter is linear: the statistic removed, the default C path, the statistic back
        xl = np.moveaxis(x, ax, -1)
        bgl = _BACKGROUND[padtype](xl)
        yl = _poly_c(np.ascontiguousarray(xl - bgl), up, down, xdt, -1)
        yl += bgl
        return np.moveaxis(yl, -1, ax)
    n_in = x.shape[ax]
    n_out = -(-n_in * up // down)
    if taps:
        half_len = (h.size - 1) // 2
    else:
        from .filters import firwin

        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = np.asarray(firwin(2 * half_len + 1, 1.0 / max_rate, window=window)).astype(xdt)
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _upfirdn_len(h.size + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = np.concatenate([np.zeros(n_pre_pad, h.dtype), h, np.zeros(n_post_pad, h.dtype)])
    xn, back = _as_numpy(x)
    bg = None
    mode, cv = "constant", 0.0
    if padtype in _BACKGROUND:
        bg = np.moveaxis(_BACKGROUND[padtype](np.moveaxis(xn, ax, -1)), -1, ax)
        xn = xn - bg
    else:
        mode = padtype
        if padtype == "constant" and cval is not None:
            cv = cval
    y = _upfirdn_any(h, xn, up, down, axis=ax, mode=mode, cval=cv)
    keep = [slice(None)] * y.ndim
    keep[ax] = slice(n_pre_remove, n_pre_remove + n_out)
    yk = y[tuple(keep)]
    if bg is not None:
        yk = yk + bg
    return back(yk)  # (a view of the filtered signal, as scipy returns)


def _poly_c(xm: Any, up: int, down: int, dt: np.dtype[Any], ax: int) -> Any:
    """``sk_resample_poly_*`` (scipy's default filter and zero padding) over every row of
    ``xm`` (time last, C-contiguous), the result's time axis moved to ``ax``."""
    p = ffi.new("size_t *")
    st = _poly_size(up, down, p, xm.shape[-1])
    if st:
        raise error(st, "sk_resample_poly_size")
    n_out = int(p[0])
    n = xm.shape[-1]
    return _per_row(xm, dt, n_out, lambda px, py: _poly[dt](px, up, down, py, n, n_out),
                    f"sk_resample_poly_{SFX[dt]}", ax)


def _upfirdn_len(len_h: int, n: int, up: int, down: int) -> int:
    """scipy's ``_output_len``: samples of ``upfirdn`` output."""
    return ((n - 1) * up + len_h - 1) // down + 1


def _system(ftype: Any, func: str) -> Tuple[str, Any]:
    """A ``scipy.signal.dlti`` system (or anything with ``to_zpk()`` and ``to_tf()``, scipy's
    LTI interface) as ``("fir", b)``, ``("sos", sos)`` or ``("ba", (b, a))``, as scipy's
    decimate reads it."""
    try:
        zpk = ftype.to_zpk()
        z, p, k = (np.atleast_1d(np.asarray(v)) for v in (zpk.zeros, zpk.poles, zpk.gain))
        tf = ftype.to_tf()
        num, den = np.asarray(tf.num), np.asarray(tf.den)
    except AttributeError:
        raise ValueError(f"{func}: ftype must be 'iir', 'fir' or a dlti instance, got {ftype!r}") from None
    if getattr(ftype, "dt", 1) is None:
        raise ValueError(f"{func}: ftype must be a discrete-time (dlti) system")
    if p.shape[0] == 0:
        return "fir", (num / den[0] if den.size else num)
    if np.any(np.iscomplex(p)) or np.any(np.iscomplex(z)) or np.any(np.iscomplex(k)):
        return "ba", (num, den)
    from .filters import zpk2sos

    return "sos", zpk2sos(z, p, k)


def decimate(x: ArrayLike, q: int, n: Optional[int] = None, ftype: Any = "iir", axis: int = -1,
             zero_phase: bool = True) -> FloatArray:
    """``scipy.signal.decimate(x, q, n, ftype, axis, zero_phase)``: an anti-aliasing filter,
    then every ``q``-th sample.

    The default filter is scipy's: an order-8 (``n``) Chebyshev type I IIR lowpass with 0.05 dB
    ripple and its edge at ``0.8 / q`` of Nyquist (``cheby1(n, 0.05, 0.8 / q, output='sos')``,
    designed as scipy designs it), run forward and backward (``sosfiltfilt``, C:
    ``sk_sosfiltfilt_*``) or forward only (``sosfilt``). ``ftype="fir"`` uses
    ``firwin(n + 1, 1 / q, window='hamming')`` with ``n = 20 * q`` by default, through
    ``resample_poly`` (C: ``sk_decimate_*`` for the default length) or ``upfirdn``.

    Parameters
    ----------
    x : array_like, ndarray or Tensor
        The signal, real or complex; integer, bool and float16 input is read as float64, as
        scipy.
    q : int
        The downsampling factor (an integer; >= 1).
    n : int, optional
        The filter order (``ftype="iir"``: 8; ``"fir"``: ``20 * q``).
    ftype : {"iir", "fir"} or dlti, default "iir"
        The filter; a ``scipy.signal.dlti`` system (anything with ``to_zpk()`` and
        ``to_tf()``) is used as scipy uses it: FIR when it has no poles, else second-order
        sections (transfer function when its poles or zeros do not come in conjugate pairs).
    axis : int, default -1
        The time axis.
    zero_phase : bool, default True
        Filter forward and backward (no delay) instead of forward only.

    Returns
    -------
    ndarray or Tensor
        ``ceil(len / q)`` samples along ``axis``; ``x``'s float or complex dtype (float64 for
        integer, bool and float16 input).

    Raises
    ------
    TypeError
        ``q`` or ``n`` not an integer.
    ValueError
        ``q`` < 1, an unknown ``ftype``; :class:`LengthError` (a ``ValueError``) when
        ``zero_phase`` filtering needs a longer signal (as scipy's ``sosfiltfilt``).

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(4800)
    >>> y = sigkern.decimate(x, 4)            # scipy.signal.decimate(x, 4)
    """
    result = _decimate_any(x, q, n, ftype, axis, zero_phase)
    return result  # type: ignore[no-any-return]


def _decimate_any(x: Any, q: Any, n: Any, ftype: Any, axis: Any, zero_phase: Any) -> Any:
    func = "decimate"
    q = A.index(q, func, "q")
    if n is not None:
        n = A.index(n, func, "n")
    if q < 1:
        raise ValueError(f"{func}: q = {q} must be at least 1")
    x = A.promote(x, func, "x")
    ax = A.axis(axis, len(x.shape), func)
    xdt = A.dtype_of(x)
    if isinstance(ftype, str) and ftype == "fir":
        kind, filt = "fir", None
    elif isinstance(ftype, str) and ftype == "iir":
        from .filters import cheby1

        kind, filt = "sos", cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos")
    elif isinstance(ftype, str):
        raise ValueError(f"{func}: invalid ftype {ftype!r} (use 'iir', 'fir' or a dlti system)")
    else:
        kind, filt = _system(ftype, func)
    if kind == "fir":
        if filt is None and n is None and zero_phase and xdt in (F32, F64):
            ret: FloatArray = _integer(x, q, ax, False)  # firwin(20q + 1), no delay: one C call
            return ret
        if filt is None:
            from .filters import firwin

            filt = np.asarray(firwin((20 * q if n is None else n) + 1, 1.0 / q, window="hamming")).astype(xdt)
        if zero_phase:
            ret = _resample_poly_any(x, 1, q, axis=ax, window=np.asarray(filt))
            return ret
        n_out = -(-x.shape[ax] // q)
        yf = _upfirdn_any(np.asarray(filt), x, 1, q, axis=ax)
        keep = [slice(None)] * len(x.shape)
        keep[ax] = slice(0, n_out)
        ret = A.contig(yf[tuple(keep)])
        return ret
    from .filters import filtfilt, sosfilt, sosfiltfilt
    from .filters._lfilter import _lfilter_any

    if kind == "sos":
        # scipy runs the sections in the signal's precision
        sos = np.asarray(filt, dtype=A.REAL_OF.get(xdt, xdt)).astype(F64)
        y: Any = sosfiltfilt(sos, x, axis=ax) if zero_phase else sosfilt(sos, x, axis=ax)
    else:
        b, a = filt  # type: ignore[misc]
        y = filtfilt(b, a, x, axis=ax) if zero_phase else _lfilter_any(b, a, x, axis=ax)
    keep = [slice(None)] * len(x.shape)
    keep[ax] = slice(None, None, q)
    ret = A.contig(y[tuple(keep)])
    return ret


def interpolate(x: ArrayLike, q: int, axis: int = -1) -> FloatArray:
    """The counterpart of :func:`decimate`: ``n * q`` samples, equal to
    ``scipy.signal.resample_poly(x, q, 1, axis, window=firwin(20*q + 1, 1/q,
    window='hamming'))`` (C: ``sk_interpolate_*``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
    q : int
        The upsampling factor.
    axis : int, default -1
        The time axis.

    Returns
    -------
    ndarray or Tensor, ``x``'s dtype; ``n * q`` samples along ``axis``
    """
    ret: FloatArray = _integer(x, q, axis, True)
    return ret
