"""Second-order sections (C: ``sk_sosfilt_*``, ``sk_sosfilt_zi_*``, ``sk_biquad_*``; Rust:
``src/kernels/filter/sos.rs``): ``scipy.signal``'s :func:`sosfilt` and :func:`sosfilt_zi`, and
the streaming :class:`Biquad` cascade (alias :class:`SosFilter`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, CPTR, F32, F64, ndarray, SFX
from .._errors import error
from .._handle import closed_error, Handle
from .._lib import cfunc, ffi
from .._args import index as _args_index
from ._common import _coefs, _complex_tensor, _copy_out, _fb, _is_complex, _planar_in, _signal, _split_complex

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, DTypeLike

__all__ = ["sosfilt", "sosfilt_zi", "Biquad", "SosFilter"]

_sosfilt = {F32: cfunc("sk_sosfilt_f32"), F64: cfunc("sk_sosfilt_f64")}
_bq_new = {F32: cfunc("sk_biquad_f32_new"), F64: cfunc("sk_biquad_f64_new")}
_bq_reset = cfunc("sk_biquad_reset")
_bq_reserve = cfunc("sk_biquad_reserve")
_bq_info = cfunc("sk_biquad_info")
_bq_process = {F32: cfunc("sk_biquad_f32_process"), F64: cfunc("sk_biquad_f64_process")}
_bq_process_il = {
    F32: cfunc("sk_biquad_f32_process_interleaved"),
    F64: cfunc("sk_biquad_f64_process_interleaved"),
}
_bq_get = {F32: cfunc("sk_biquad_f32_get_state"), F64: cfunc("sk_biquad_f64_get_state")}
_bq_set = {F32: cfunc("sk_biquad_f32_set_state"), F64: cfunc("sk_biquad_f64_set_state")}


def _state_dtype(z: Any, dt: np.dtype[Any]) -> Any:
    """An initial state in the signal's dtype ``dt`` (scipy's ``sosfilt_zi(sos) * x[0]`` is
    float64 for a float32 signal: converted, not refused)."""
    if not (isinstance(z, np.ndarray) or A.is_tensor(z)):
        return np.asarray(z, dtype=dt)
    if A.dtype_of(z) != dt:
        return z.to(A.torch_dtype(dt)) if A.is_tensor(z) else np.asarray(z).astype(dt)
    return z


def _sos_array(sos: Any, func: str, scipy_rules: bool = True) -> np.ndarray:
    a = _coefs(sos, func, "sos")
    if a.ndim != 2 or a.shape[1] != 6 or a.shape[0] < 1:
        raise ValueError(
            f"{func}: sos must have shape (n_sections, 6) with n_sections >= 1 "
            f"(rows b0 b1 b2 a0 a1 a2, as scipy.signal.butter(..., output='sos')), got shape {a.shape}"
        )
    if scipy_rules and not a[:, 3].all():
        # the scipy-named functions: checked before any other argument, with scipy's words
        # (its tests match them); the handles leave a0 = 0 to the C library's check
        raise ValueError(f"{func}: sos[:, 3] should be all ones (a0 = 0 cannot be normalised)")
    return a


def sosfilt(
    sos: ArrayLike,
    x: ArrayLike,
    axis: int = -1,
    zi: Optional[ArrayLike] = None,
    out: Optional[Array] = None,
) -> Union[FloatArray, Tuple[FloatArray, FloatArray]]:
    """Filters ``x`` along an axis with a cascade of second-order sections, like
    ``scipy.signal.sosfilt(sos, x, axis, zi)`` (C: ``sk_sosfilt_f32/f64``).

    All channels (every index of the other axes) are filtered in one C call, in SIMD lanes.

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``b0 b1 b2 a0 a1 a2`` (float64; e.g. from :func:`butter` with
        ``output="sos"``). Each section is divided by its ``a0``; unstable sections raise
        :class:`BadArgumentError`.
    x : ndarray or Tensor, float32 or float64, ndim >= 1
        The signal; ``axis`` is time. C-contiguous, or a 2-D ``(channels, n)`` view with
        contiguous rows (``x[:, t0:t1]``) when ``axis=-1``.
    axis : int, default -1
        Time axis. Another axis than the last is moved last (a copy) and back.
    zi : array_like, optional
        Initial state, scipy's shape: ``(n_sections, *x.shape)`` with the length of ``axis``
        replaced by 2, i.e. ``(n_sections, ..., 2)`` for ``axis=-1`` (e.g.
        ``sosfilt_zi(sos)[:, None, :] * x[:, :1]`` for ``(channels, n)`` data); ``x``'s dtype
        (a list is converted).
    out : ndarray or Tensor, optional
        Output of ``x``'s shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

    Returns
    -------
    y : ndarray or Tensor
        Filtered signal, shape and dtype of ``x`` (``out`` if given).
    zf : ndarray or Tensor
        Final state, the shape of ``zi``; returned only when ``zi`` is given.

    Raises
    ------
    TypeError
        ``x``, ``zi`` or ``out`` of a wrong dtype or kind.
    ValueError
        Wrong shapes, non-contiguous data; :class:`BadArgumentError` for an unstable or
        non-finite ``sos``; :class:`NonFiniteError` for a NaN/inf ``zi``.

    Examples
    --------
    >>> sos = sigkern.butter(4, 1000.0, "low", fs=48000.0, output="sos")
    >>> x = np.random.default_rng(0).standard_normal((2, 4800)).astype(np.float32)
    >>> y = sigkern.sosfilt(sos, x)
    >>> y, zf = sigkern.sosfilt(sos, x, zi=np.zeros((2, 2, 2), np.float32))
    """
    result = _sosfilt_any(sos, x, axis, zi, out)
    return result  # type: ignore[no-any-return]


def _sosfilt_any(sos: Any, x: Any, axis: Any = -1, zi: Any = None, out: Any = None) -> Any:
    func = "sosfilt"
    sos_a = _sos_array(sos, func)
    ns = sos_a.shape[0]
    ct = _complex_tensor(lambda v: _sosfilt_any(sos_a, v, axis, zi, out), x)
    if ct is not None:
        return ct
    x = _signal(x, func)
    nd = len(x.shape)
    ax = A.axis(axis, nd, func)
    if _is_complex(x) or (zi is not None and np.iscomplexobj(zi)):
        if out is not None:
            raise TypeError(f"{func}: out= is not supported with complex data")
        xc = np.asarray(x)
        if xc.dtype.kind != "c":
            xc = xc.astype(A.COMPLEX_OF[xc.dtype])
        if zi is not None:
            zi = np.asarray(zi)
            if zi.dtype.kind != "c":
                zi = zi.astype(xc.dtype)

        def call(p: Any, z: Any) -> Any:
            # the planes axis leads x; scipy's zi has n_sections first: planes go second
            zz = None if z is None else np.ascontiguousarray(np.moveaxis(z, 0, 1))
            res = _sosfilt_any(sos_a, p, ax + 1, zz)
            if z is None:
                return res
            return res[0], np.moveaxis(res[1], 1, 0)

        ret: Any = _split_complex(call, xc, zi)
        return ret
    dt = A.float_dtype(x, func, "x")
    if ax != nd - 1:
        xm = A.move_copy(x, ax, -1)
        if out is not None:
            A.check_out(out, tuple(x.shape), dt, func)
        zim = None
        if zi is not None:  # scipy's zi has its 2 where x has the time axis
            zi = _state_dtype(zi, dt)
            zshape = (sos_a.shape[0],) + tuple(x.shape[:ax]) + (2,) + tuple(x.shape[ax + 1:])
            if tuple(zi.shape) != zshape:
                raise ValueError(
                    f"{func}: Invalid zi shape: it must be (n_sections, *x.shape with axis {axis} -> 2) = "
                    f"{zshape}, got {tuple(zi.shape)}"
                )
            zim = A.move_copy(zi, ax + 1, -1)
        res = _sosfilt_any(sos_a, xm, -1, zim, None)
        ym = res[0] if zi is not None else res
        yb = A.moveback(ym, ax)
        if out is None:
            out = A.contig(yb)
        else:
            out = _copy_out(out, yb, dt, func)
        if zi is None:
            return out
        zf = A.move_copy(res[1], -1, ax + 1)
        return out, zf

    shape = tuple(x.shape)
    lead = shape[:-1]
    n = shape[-1]
    channels = math.prod(lead)
    zshape = (ns,) + lead + (2,)
    if out is None:
        out = B.new_like(x, shape, dt)
    else:
        A.check_out(out, shape, dt, func)
    x, px, sx = _planar_in(x, dt, func)
    py, sy = B.planar(out, dt, func, "out", writable=True)
    zf = None
    pzi = pzf = ffi.NULL
    if zi is not None:
        zi = _state_dtype(zi, dt)
        if tuple(zi.shape) != zshape:
            raise ValueError(
                f"{func}: Invalid zi shape: it must be (n_sections, *x.shape without axis, 2) = {zshape}, "
                f"got {tuple(zi.shape)}"
            )
        zi = A.contig(zi)
        pzi, _ = B.pointer(zi, dt, func, "zi")
        zf = B.new_like(x, zshape, dt)
        pzf, _ = B.pointer(zf, dt, func, "zf", writable=True)
    if channels == 0:
        if zf is not None:
            zf[...] = zi
        return (out, zf) if zi is not None else out
    st = _sosfilt[dt](_fb(CARRAY[F64], sos_a), px, sx, pzi, channels, py, sy, pzf, ns, n)
    if st:
        raise error(st, f"sk_sosfilt_{SFX[dt]}")
    return (out, zf) if zi is not None else out


class Biquad(Handle, free="sk_biquad_free"):
    """A streaming multi-channel biquad cascade (C: ``sk_biquad_*``): scipy's ``sosfilt`` with
    its state carried from call to call.

    Processing a signal block by block gives exactly (bit for bit) the output of one call,
    and equals ``scipy.signal.sosfilt(sos, x, zi=zi)`` with the state passed along (to
    rounding: float64 to about 1e-12, float32 within the bound of ``docs/filters.md``).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``b0 b1 b2 a0 a1 a2`` (e.g. :func:`butter` with ``output="sos"``,
        :func:`rbj_biquad`); normalised by ``a0``. Unstable or non-finite sections raise
        :class:`BadArgumentError`.
    channels : int, default 1
        Number of channels filtered together (in SIMD lanes).
    dtype : np.float32 or np.float64, default np.float32
        Sample type; :meth:`process` takes only this dtype.

    Notes
    -----
    Thread safety: one object must not be used from two threads at the same time; if it is,
    the second call raises :class:`InvalidHandleError` ("in use by another thread") and
    changes nothing. Different objects run fully in parallel (the GIL is released during the
    C call). Use it as a context manager, or call :meth:`close`, to free the C handle
    promptly (it is also freed when the object is garbage-collected).

    Examples
    --------
    >>> sos = sigkern.butter(8, 2000.0, "low", fs=48000.0, output="sos")
    >>> x = np.random.default_rng(0).standard_normal((2, 4096)).astype(np.float32)
    >>> with sigkern.Biquad(sos, channels=2) as f:
    ...     y = np.concatenate([f.process(x[:, i:i + 256]) for i in range(0, 4096, 256)], axis=1)
    """

    __slots__ = ("_h", "_proc", "_proc_il", "_dt", "_ct", "_channels", "_n_sections", "_sfx", "__weakref__")

    def __init__(self, sos: ArrayLike, channels: int = 1, dtype: DTypeLike = np.float32) -> None:
        self._h = ffi.NULL
        func = "Biquad"
        dt = A.float_dtype_arg(dtype, func)
        sos_a = _sos_array(sos, func, scipy_rules=False)
        ch = A.index(channels, func, "channels")
        if ch < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        hp = ffi.new("SkBiquad **")
        st = _bq_new[dt](_fb(CARRAY[F64], sos_a), ch, hp, sos_a.shape[0])
        if st:
            raise error(st, f"sk_biquad_{SFX[dt]}_new")
        self._h = hp[0]
        self._dt = dt
        self._ct = CARRAY[dt]
        self._sfx = SFX[dt]
        self._proc = _bq_process[dt]
        self._proc_il = _bq_process_il[dt]
        self._channels = ch
        self._n_sections: int = sos_a.shape[0]

    # -- properties -----------------------------------------------------------------------

    @property
    def n_sections(self) -> int:
        """Number of second-order sections."""
        return self._n_sections

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def dtype(self) -> np.dtype[Any]:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, what: str) -> Any:
        cname = f"sk_biquad_{self._sfx}_{what}" if what else "sk_biquad_reset"
        if self._h == ffi.NULL:
            return closed_error(st, cname, "this Biquad")
        return error(st, cname)

    # -- processing -----------------------------------------------------------------------

    def process(self, x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
        """Filters a block of planar samples, carrying the state to the next call.

        Parameters
        ----------
        x : ndarray or Tensor of the filter's dtype
            Shape ``(channels, n)``, or ``(n,)`` for a one-channel filter. C-contiguous, or
            rows contiguous at a row stride (a time slice ``x[:, t0:t1]`` of a bigger block).
        out : ndarray or Tensor, optional
            Same shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

        Returns
        -------
        ndarray or Tensor
            ``out``, or a new array/tensor like ``x``.

        Raises
        ------
        TypeError
            A dtype other than the filter's.
        ValueError
            A wrong shape, non-contiguous rows, a read-only ``out``;
            :class:`InvalidHandleError` when closed or in use by another thread.

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.rbj_biquad("lowpass", 48000.0, 1000.0, 0.707), channels=2)
        >>> y = f.process(np.zeros((2, 256), np.float32))
        """
        if type(x) is ndarray and x.dtype is self._dt and B.is_block(x.shape, self._channels):
            io = B.block_io(x, out, self._dt, self._ct)
            if io is not None:
                y: FloatArray
                px, sx, y, po, so = io
                st = self._proc(self._h, px, sx, po, so, x.shape[-1])
                if st:
                    raise self._fail(st, "process")
                return y
            ret: FloatArray = self._process_checked(x, out)
            return ret
        ti = A.TORCH or A.torch_info()
        if ti is not None and type(x) is ti[0]:
            ret = self._process_tensor(x, out, ti)
            return ret
        ret = self._process_checked(x, out)
        return ret

    def _process_tensor(self, x: Any, out: Any, ti: Tuple[Any, ...]) -> Any:
        """:meth:`process`'s fast path for contiguous CPU tensors."""
        tdt = ti[1] if self._dt is F32 else ti[2]
        shape = x.shape
        if x.dtype is not tdt or not self._shape_ok(tuple(shape), False):
            return self._process_checked(x, out)
        if out is None:
            out = x.new_empty(shape)
        elif type(out) is not ti[0] or out.dtype is not tdt or out.shape != shape:
            return self._process_checked(x, out)
        ct = CPTR[self._dt]
        px = B.tensor_ptr(x, ti, ct)
        po = B.tensor_ptr(out, ti, ct, True)
        if px is None or po is None:
            return self._process_checked(x, out)
        n = shape[-1]
        st = self._proc(self._h, px, n, po, n, n)
        if st:
            raise self._fail(st, "process")
        return out

    def _shape_ok(self, shape: Tuple[Any, ...], interleaved: bool) -> bool:
        if len(shape) == 1:
            return self._channels == 1
        return len(shape) == 2 and shape[1 if interleaved else 0] == self._channels

    def _check_x(self, x: Any, func: str, interleaved: bool) -> Array:
        x = A.as_input(x, func, "x")
        dt = A.dtype_of(x)
        if dt != self._dt:
            conv = f"x.astype(np.{self._dt})" if isinstance(x, np.ndarray) else f"x.to(torch.{self._dt})"
            raise TypeError(
                f"{func}: this filter was made for {self._dt} (dtype=np.{self._dt}); x is "
                f"{A.describe(x)}; convert with {conv} or make a Biquad with dtype=np.{dt}"
            )
        shape = tuple(x.shape)
        if not self._shape_ok(shape, interleaved):
            want = "(frames, channels)" if interleaved else "(channels, n)"
            one = " or (n,)" if self._channels == 1 else ""
            raise ValueError(
                f"{func}: x must have shape {want} = {want.replace('channels', str(self._channels))}"
                f"{one} for this {self._channels}-channel filter, got {shape}"
            )
        checked: Array = x
        return checked

    def _process_checked(self, x: Any, out: Any) -> Any:
        func = "Biquad.process"
        x = self._check_x(x, func, False)
        shape = tuple(x.shape)
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            A.check_out(out, shape, self._dt, func)
        px, sx = B.planar(x, self._dt, func, "x")
        py, sy = B.planar(out, self._dt, func, "out", writable=True)
        st = self._proc(self._h, px, sx, py, sy, shape[-1])
        if st:
            raise self._fail(st, "process")
        return out

    def process_interleaved(self, x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
        """Filters a block of interleaved frames, carrying the state to the next call.

        Parameters
        ----------
        x : ndarray or Tensor of the filter's dtype, C-contiguous
            Shape ``(frames, channels)``, or ``(frames,)`` for a one-channel filter.
        out : ndarray or Tensor, optional
            Same shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

        Returns
        -------
        ndarray or Tensor
            ``out``, or a new array/tensor like ``x``.

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.butter(4, 0.2, output="sos"), channels=2)
        >>> y = f.process_interleaved(np.zeros((480, 2), np.float32))
        """
        func = "Biquad.process_interleaved"
        x = self._check_x(x, func, True)
        shape = tuple(x.shape)
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            A.check_out(out, shape, self._dt, func)
        px, _ = B.pointer(x, self._dt, func, "x")
        py, _ = B.pointer(out, self._dt, func, "out", writable=True)
        st = self._proc_il(self._h, px, py, shape[0])
        if st:
            raise self._fail(st, "process_interleaved")
        return out

    # -- state ----------------------------------------------------------------------------

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_biquad_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_biquad_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_biquad_reserve: max_block = {n} is negative")
        st = _bq_reserve(self._h, n)
        if st:
            raise self._fail(st, "sk_biquad_reserve")

    def reset(self) -> None:
        """Zeroes the state (the next block starts from rest).

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.butter(2, 0.1, output="sos")); f.reset()
        """
        st = _bq_reset(self._h)
        if st:
            raise self._fail(st, "")

    @property
    def state(self) -> FloatArray:
        """The state in scipy's ``zi`` layout: ndarray ``(n_sections, channels, 2)`` of the
        filter's dtype (a copy), equal to the ``zf`` of ``scipy.signal.sosfilt`` for the same
        input. Assign an array of that shape (or ``(n_sections, 2)`` for one channel) and dtype
        to load a state, e.g. ``sosfilt_zi(sos)[:, None, :] * x0`` (NaN/inf raise
        :class:`NonFiniteError`)."""
        z = np.empty((self._n_sections, self._channels, 2), self._dt)
        st = _bq_get[self._dt](self._h, _fb(self._ct, z, True), z.size)
        if st:
            raise self._fail(st, "get_state")
        return z

    @state.setter
    def state(self, zi: ArrayLike) -> None:
        func = "Biquad.state"
        if not (isinstance(zi, np.ndarray) or A.is_tensor(zi)):
            zi = np.asarray(zi, dtype=self._dt)
        shape = tuple(zi.shape)
        full = (self._n_sections, self._channels, 2)
        if shape != full and not (self._channels == 1 and shape == (self._n_sections, 2)):
            raise ValueError(f"{func}: the state must have shape {full}, got {shape}")
        p, _ = B.pointer(zi, self._dt, func, "state")
        st = _bq_set[self._dt](self._h, p, math.prod(full))
        if st:
            raise self._fail(st, "set_state")

    # -- lifetime -------------------------------------------------------------------------

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"n_sections={self._n_sections}"
        return f"Biquad({state}, channels={self._channels}, dtype={self._dt})"


SosFilter = Biquad
"""Alias of :class:`Biquad`."""
_sosfilt_zi = {F32: cfunc("sk_sosfilt_zi_f32"), F64: cfunc("sk_sosfilt_zi_f64")}


def sosfilt_zi(sos: ArrayLike, dtype: DTypeLike = np.float64) -> FloatArray:
    """``scipy.signal.sosfilt_zi(sos)``: the ``(n_sections, 2)`` initial state for which
    :func:`sosfilt` of a unit step starts in steady state (C: ``sk_sosfilt_zi_f64/f32``;
    computed in float64, returned as ``dtype``).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Second-order sections ``b0 b1 b2 a0 a1 a2``.
    dtype : np.float32 or np.float64, default np.float64
        The dtype of the result.

    Returns
    -------
    ndarray, shape (n_sections, 2), ``dtype``

    Examples
    --------
    >>> sos = sigkern.butter(4, 0.2, output="sos")
    >>> zi = sigkern.sosfilt_zi(sos)          # (2, 2)
    """
    func = "sosfilt_zi"
    dt = A.float_dtype_arg(dtype, func)
    s = _sos_array(sos, func)
    zi = np.empty((s.shape[0], 2), dt)
    st = _sosfilt_zi[dt](_fb(CARRAY[F64], s), _fb(CARRAY[dt], zi, True), s.shape[0], zi.size)
    if st:
        raise error(st, f"sk_sosfilt_zi_{SFX[dt]}")
    return zi
