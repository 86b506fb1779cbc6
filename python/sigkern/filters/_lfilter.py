"""Transfer-function IIR filters (C: ``sk_lfilter_*``; Rust: ``src/kernels/filter/lfilter.rs``):
``scipy.signal``'s :func:`lfilter` and :func:`lfilter_zi`, and the streaming :class:`Lfilter`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, ndarray, SFX
from .._errors import error
from .._handle import closed_error, Handle
from .._lib import cfunc, ffi
from .._args import index as _args_index
from ._common import _coefs, _complex_tensor, _copy_out, _fb, _is_complex, _planar_in, _signal, _split_complex

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, DTypeLike

__all__ = ["lfilter", "lfilter_zi", "Lfilter"]

_lfilter = {F32: cfunc("sk_lfilter_f32"), F64: cfunc("sk_lfilter_f64")}
_lfilter_zi = {F32: cfunc("sk_lfilter_zi_f32"), F64: cfunc("sk_lfilter_zi_f64")}


def _ba(b: Any, a: Any, func: str, complex_ok: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    bb = np.atleast_1d(_coefs(b, func, "b", complex_ok=complex_ok))
    aa = np.atleast_1d(_coefs(a, func, "a", complex_ok=complex_ok))
    for name, v in (("b", bb), ("a", aa)):
        if v.ndim != 1 or v.size == 0:
            # (scipy's words: its tests match them)
            raise ValueError(f"Parameter {name} is not a non-empty 1d array, since "
                             f"{name}.shape={v.shape}! ({func})")
    if aa.dtype.kind == "c":
        raise NotImplementedError(
            f"{func}: a complex denominator a is not supported (complex b with a real a is, "
            f"and so are complex signals)"
        )
    return bb, aa


def _state_arg(z: Any, shape: Tuple[int, ...], dt: np.dtype[Any], func: str, name: str, what: str,
               axis: Optional[int] = None) -> Any:
    """An initial state of ``shape``: scipy's broadcasting (``z`` has ``shape``'s ndim and
    length 1 on other axes than ``axis``, as ``np.lib.stride_tricks.as_strided`` with stride 0
    in scipy), converted to the signal's dtype ``dt``."""
    if not (isinstance(z, np.ndarray) or A.is_tensor(z)):
        z = np.asarray(z)
    zs = tuple(z.shape)
    if zs != shape:
        ok = len(zs) == len(shape) and all(
            zs[k] == shape[k] or (zs[k] == 1 and k != axis) for k in range(len(shape)))
        if not ok:
            raise ValueError(f"{func}: {name} must have shape {what} = {shape}, got {zs}")
        if A.is_tensor(z):
            z = z.expand(*shape).contiguous()
        else:
            z = np.broadcast_to(z, shape)
    if A.dtype_of(z) != dt:
        z = z.to(A.torch_dtype(dt)) if A.is_tensor(z) else np.asarray(z).astype(dt)
    return z


def lfilter(b: ArrayLike, a: ArrayLike, x: ArrayLike, axis: int = -1, zi: Optional[ArrayLike] = None,
            out: Optional[Array] = None) -> Union[FloatArray, Tuple[FloatArray, FloatArray]]:
    """Filters ``x`` along an axis with the IIR filter ``b/a`` (transfer-function form), like
    ``scipy.signal.lfilter(b, a, x, axis, zi)`` (C: ``sk_lfilter_f32/f64``; transposed direct
    form II in scipy's order, every channel in one call, in SIMD lanes).

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator (float64); divided by ``a[0]`` (``a[0] == 0`` raises
        :class:`BadArgumentError`). No stability check: marginal and unstable filters run, as
        in scipy. ``b`` may be complex (the real and imaginary parts are filtered apart and
        combined); a complex ``a`` raises ``NotImplementedError``; non-numbers ``TypeError``.
    x : array_like, ndarray or Tensor, ndim >= 1
        The signal; ``axis`` is time. float32/float64 run as they are; complex signals as
        their real and imaginary parts in one call; integer and bool input is read as
        float64 (as scipy). Any strides (a layout the kernel cannot read is copied).
    axis : int, default -1
    zi : array_like, optional
        Initial state: ``x``'s shape with the length of ``axis`` replaced by
        ``max(len(a), len(b)) - 1`` (scipy's layout; length-1 axes broadcast, as scipy), e.g.
        ``lfilter_zi(b, a) * x[..., :1]``; converted to ``x``'s dtype (complex makes the
        result complex).
    out : ndarray or Tensor, optional
        Output of ``x``'s shape and dtype; may be ``x`` itself (in place). Saves allocating the
        result, which for large arrays costs as much as the filter.

    Returns
    -------
    y : ndarray or Tensor (``x``'s shape and dtype; ``out`` if given)
    zf : final state, ``zi``'s shape; only when ``zi`` is given.

    Notes
    -----
    A float32 signal gives a float32 result (scipy returns float64 when ``b``/``a`` are
    float64): the filter runs in float32 with float64 coefficients rounded once.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.2)
    >>> y = sigkern.lfilter(b, a, np.ones(8))
    """
    result = _lfilter_any(b, a, x, axis, zi, out)
    return result  # type: ignore[no-any-return]


def _lfilter_any(b: Any, a: Any, x: Any, axis: Any = -1, zi: Any = None, out: Any = None) -> Any:
    func = "lfilter"
    bb, aa = _ba(b, a, func, complex_ok=True)
    ct = _complex_tensor(lambda v: _lfilter_any(bb, aa, v, axis, zi, out), x)
    if ct is not None:
        return ct
    x = _signal(x, func)
    ax = A.axis(axis, len(x.shape), func)
    nd = len(x.shape)
    k = max(bb.size, aa.size) - 1
    zc = zi is not None and np.iscomplexobj(zi)
    if bb.dtype.kind == "c" or _is_complex(x) or zc:
        if out is not None:
            raise TypeError(f"{func}: out= is not supported with complex data or coefficients")
        if bb.dtype.kind == "c":
            # linear in (b, zi): b.real with zi, plus 1j * b.imag from rest
            r = _lfilter_any(bb.real, aa, x, ax, zi)
            i = _lfilter_any(bb.imag, aa, x, ax, None if zi is None else np.zeros(np.shape(zi)))
            if zi is None:
                return r + 1j * i
            return r[0] + 1j * i[0], r[1] + 1j * i[1]
        xc = np.asarray(x)
        if xc.dtype.kind != "c":
            xc = xc.astype(A.COMPLEX_OF[xc.dtype])
        if zi is not None:
            zshape = xc.shape[:ax] + (k,) + xc.shape[ax + 1:]
            zi = _state_arg(zi, zshape, xc.dtype, func, "zi", "x.shape with axis -> order", ax)
        ret: Any = _split_complex(lambda p, z: _lfilter_any(bb, aa, p, ax + 1, z), xc, zi)
        return ret
    dt = A.float_dtype(x, func, "x")
    if out is not None:
        A.check_out(out, tuple(x.shape), dt, func)
    if ax != nd - 1:
        zshape = tuple(x.shape[:ax]) + (k,) + tuple(x.shape[ax + 1:])
        zim = None
        if zi is not None:
            zim = A.move_copy(_state_arg(zi, zshape, dt, func, "zi", "x.shape with axis -> order", ax),
                              ax, -1)
        res = _lfilter_any(bb, aa, A.move_copy(x, ax, -1), -1, zim)
        y = A.move_copy(res if zi is None else res[0], -1, ax)
        if out is not None:
            y = _copy_out(out, y, dt, func)
        return y if zi is None else (y, A.move_copy(res[1], -1, ax))
    shape = tuple(x.shape)
    lead, n = shape[:-1], shape[-1]
    channels = math.prod(lead)
    if out is None:
        out = B.new_like(x, shape, dt)
    zshape = lead + (k,)
    pzi = pzf = ffi.NULL
    zf: Any = None
    if zi is not None:
        zi = A.contig(_state_arg(zi, zshape, dt, func, "zi", "(*x.shape[:-1], order)", nd - 1))
        pzi, _ = B.pointer(zi, dt, func, "zi")
        zf = B.new_like(x, zshape, dt)
        pzf, _ = B.pointer(zf, dt, func, "zf", writable=True)
    if channels == 0:
        if zf is not None:
            zf[...] = zi
        return (out, zf) if zi is not None else out
    if A.is_strided_1d(x) and channels == 1:
        x = A.contig(x)
    x, px, sx = _planar_in(x, dt, func)
    py, sy = B.planar(out, dt, func, "out", writable=True)
    st = _lfilter[dt](_fb(CARRAY[F64], bb), _fb(CARRAY[F64], aa), px, sx, pzi, channels, py, sy, pzf,
                      bb.size, aa.size, n)
    if st:
        raise error(st, f"sk_lfilter_{SFX[dt]}")
    return (out, zf) if zi is not None else out


def lfilter_zi(b: ArrayLike, a: ArrayLike, dtype: Optional[DTypeLike] = None) -> FloatArray:
    """``scipy.signal.lfilter_zi(b, a)``: the initial state for which :func:`lfilter` of a unit
    step starts in steady state (C: ``sk_lfilter_zi_f64/f32``).

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator coefficients; ``b`` may be complex (``zi`` is linear in
        ``b``).
    dtype : np.float32 or np.float64, optional
        The dtype of the result (computed in float64). Default: scipy's, float32 when ``b``
        and ``a`` are both float32 arrays, else float64 (complex64/complex128 for a complex
        ``b``).

    Returns
    -------
    ndarray, shape (max(len(a), len(b)) - 1,)

    Raises
    ------
    BadArgumentError
        A pole at z = 1 (no steady state) or ``a[0] == 0``.

    Examples
    --------
    >>> b, a = sigkern.butter(2, 0.3)
    >>> zi = sigkern.lfilter_zi(b, a)
    """
    func = "lfilter_zi"
    if dtype is None:
        kinds = [np.asarray(v).dtype if not A.is_tensor(v) else A.dtype_of(v) for v in (b, a)]
        dt = F32 if all(k == F32 or k == A.C64 for k in kinds) else F64
    else:
        dt = A.float_dtype_arg(dtype, func)
    bb, aa = _ba(b, a, func, complex_ok=True)
    if bb.dtype.kind == "c":
        zr = lfilter_zi(bb.real, aa, dt)
        zc = zr + 1j * lfilter_zi(bb.imag, aa, dt)
        return np.asarray(zc).astype(A.COMPLEX_OF[dt])
    zi = np.empty(max(bb.size, aa.size) - 1, dt)
    st = _lfilter_zi[dt](_fb(CARRAY[F64], bb), _fb(CARRAY[F64], aa),
                         _fb(CARRAY[dt], zi, True) if zi.size else ffi.NULL, bb.size, aa.size, zi.size)
    if st:
        raise error(st, f"sk_lfilter_zi_{SFX[dt]}")
    return zi


_lf_new = {F32: cfunc("sk_lfilter_f32_new"), F64: cfunc("sk_lfilter_f64_new")}
_lf_reset = cfunc("sk_lfilter_reset")
_lf_reserve = cfunc("sk_lfilter_reserve")
_lf_info = cfunc("sk_lfilter_info")
_lf_process = {F32: cfunc("sk_lfilter_f32_process"), F64: cfunc("sk_lfilter_f64_process")}
_lf_get = {F32: cfunc("sk_lfilter_f32_get_state"), F64: cfunc("sk_lfilter_f64_get_state")}
_lf_set = {F32: cfunc("sk_lfilter_f32_set_state"), F64: cfunc("sk_lfilter_f64_set_state")}


class Lfilter(Handle, free="sk_lfilter_free"):
    """A streaming multi-channel IIR filter in transfer-function form (C: ``sk_lfilter_*``):
    ``scipy.signal.lfilter(b, a, x, zi=zi)`` with its state carried from call to call.

    Processing a signal block by block gives exactly (bit for bit) the output of one call, and
    equals :func:`lfilter` (and scipy, to rounding) with the state passed along.

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator (float64), divided by ``a[0]``; no stability check.
    channels : int, default 1
        Number of channels filtered together (in SIMD lanes).
    dtype : np.float32 or np.float64, default np.float32

    Notes
    -----
    Thread safety as :class:`Biquad`: one object must not be used from two threads at once
    (the second call raises :class:`InvalidHandleError`). Use it as a context manager or call
    :meth:`close` to free the C handle promptly.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.1)
    >>> with sigkern.Lfilter(b, a, channels=2, dtype=np.float64) as f:
    ...     y = f.process(np.zeros((2, 256)))
    """

    __slots__ = ("_h", "_dt", "_ct", "_channels", "_order", "_sfx", "__weakref__")

    def __init__(self, b: ArrayLike, a: ArrayLike, channels: int = 1, dtype: DTypeLike = np.float32) -> None:
        self._h = ffi.NULL
        func = "Lfilter"
        dt = A.float_dtype_arg(dtype, func)
        bb, aa = _ba(b, a, func)
        ch = A.index(channels, func, "channels")
        if ch < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        hp = ffi.new("SkLfilter **")
        st = _lf_new[dt](_fb(CARRAY[F64], bb), _fb(CARRAY[F64], aa), ch, hp, bb.size, aa.size)
        if st:
            raise error(st, f"sk_lfilter_{SFX[dt]}_new")
        self._h = hp[0]
        order, chans = ffi.new("size_t *"), ffi.new("size_t *")
        st = _lf_info(self._h, order, chans)
        if st:
            raise error(st, "sk_lfilter_info")
        self._dt, self._ct, self._sfx = dt, CARRAY[dt], SFX[dt]
        self._channels, self._order = int(chans[0]), int(order[0])

    @property
    def order(self) -> int:
        """The filter order ``max(len(a), len(b)) - 1`` (state values per channel)."""
        return self._order

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def dtype(self) -> np.dtype[Any]:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, cname: str) -> Any:
        if self._h == ffi.NULL:
            return closed_error(st, cname, "this Lfilter")
        return error(st, cname)

    def process(self, x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
        """Filters a block of planar samples, carrying the state.

        Parameters
        ----------
        x : ndarray or Tensor, (channels, n) or (n,) for one channel, the filter's dtype
        out : ndarray or Tensor of ``x``'s shape and dtype, optional; may be ``x``

        Returns
        -------
        ndarray or Tensor of ``x``'s shape (``out`` when given)

        Examples
        --------
        >>> f = sigkern.Lfilter([0.5, 0.5], [1.0], dtype=np.float64)
        >>> f.process(np.ones(4))
        array([0.5, 1. , 1. , 1. ])
        """
        if type(x) is ndarray and x.dtype is self._dt and B.is_block(x.shape, self._channels):
            io = B.block_io(x, out, self._dt, self._ct)  # as Biquad.process
            if io is not None:
                y: FloatArray
                px, sx, y, po, so = io
                st = _lf_process[self._dt](self._h, px, sx, po, so, x.shape[-1])
                if st:
                    raise self._fail(st, f"sk_lfilter_{self._sfx}_process")
                return y
        ret: FloatArray = self._process_checked(x, out)
        return ret

    def _process_checked(self, x: Any, out: Any) -> Any:
        """Every case of :meth:`process`, with the errors that name what is wrong."""
        func = "Lfilter.process"
        x = A.as_input(x, func, "x")
        dt = A.dtype_of(x)
        if dt != self._dt:
            raise TypeError(f"{func}: this filter was made for {self._dt}; x is {A.describe(x)}")
        shape = tuple(x.shape)
        if not ((len(shape) == 2 and shape[0] == self._channels) or (len(shape) == 1 and self._channels == 1)):
            raise ValueError(f"{func}: x must have shape ({self._channels}, n), got {shape}")
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            A.check_out(out, shape, self._dt, func)
        px, sx = B.planar(x, self._dt, func, "x")
        py, sy = B.planar(out, self._dt, func, "out", writable=True)
        st = _lf_process[self._dt](self._h, px, sx, py, sy, shape[-1])
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_process")
        return out

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_lfilter_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_lfilter_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_lfilter_reserve: max_block = {n} is negative")
        st = _lf_reserve(self._h, n)
        if st:
            raise self._fail(st, "sk_lfilter_reserve")

    def reset(self) -> None:
        """Zeroes the state."""
        st = _lf_reset(self._h)
        if st:
            raise self._fail(st, "sk_lfilter_reset")

    @property
    def state(self) -> FloatArray:
        """The state in scipy's ``zi`` layout ``(channels, order)`` (a copy): the ``zf`` of
        ``scipy.signal.lfilter`` for the same input. Assign an array of that shape (or
        ``(order,)`` for one channel) to load one, e.g. ``lfilter_zi(b, a) * x[:, :1]``."""
        z = np.empty((self._channels, self._order), self._dt)
        st = _lf_get[self._dt](self._h, _fb(self._ct, z, True) if z.size else ffi.NULL, z.size)
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_get_state")
        return z

    @state.setter
    def state(self, zi: ArrayLike) -> None:
        func = "Lfilter.state"
        if not (isinstance(zi, np.ndarray) or A.is_tensor(zi)):
            zi = np.asarray(zi, dtype=self._dt)
        full = (self._channels, self._order)
        shape = tuple(zi.shape)
        if shape != full and not (self._channels == 1 and shape == (self._order,)):
            raise ValueError(f"{func}: the state must have shape {full}, got {shape}")
        p, _ = B.pointer(zi, self._dt, func, "state") if zi.size else (ffi.NULL, 0)
        st = _lf_set[self._dt](self._h, p, math.prod(full))
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_set_state")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"order={self._order}"
        return f"Lfilter({state}, channels={self._channels}, dtype={self._dt})"
