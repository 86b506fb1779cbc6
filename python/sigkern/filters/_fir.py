"""Streaming FIR filters (C: ``sk_fir_*``; Rust: ``src/kernels/filter/fir.rs``): :class:`Fir`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, CPTR, F32, F64, ndarray, SFX
from .._errors import error
from .._handle import closed_error, Handle
from .._lib import cfunc, ffi
from .._args import index as _args_index
from ._common import _coefs, _fb

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, DTypeLike

__all__ = ["Fir"]

_fir_new = {F32: cfunc("sk_fir_f32_new"), F64: cfunc("sk_fir_f64_new")}
_fir_reset = cfunc("sk_fir_reset")
_fir_reserve = cfunc("sk_fir_reserve")
_fir_info = cfunc("sk_fir_info")
_fir_process = {F32: cfunc("sk_fir_f32_process"), F64: cfunc("sk_fir_f64_process")}
_fir_get = {F32: cfunc("sk_fir_f32_get_state"), F64: cfunc("sk_fir_f64_get_state")}
_fir_set = {F32: cfunc("sk_fir_f32_set_state"), F64: cfunc("sk_fir_f64_set_state")}


class Fir(Handle, free="sk_fir_free"):
    """A streaming single-channel FIR filter (C: ``sk_fir_*``): ``scipy.signal.lfilter(taps, 1,
    x)`` with the last ``n_taps - 1`` inputs carried from call to call.

    Up to 160 taps run in direct form (chunked calls bit-identical to one call); longer filters
    use FFT overlap-save (:attr:`uses_fft`; chunked calls equal one call to rounding).

    Parameters
    ----------
    taps : array_like, shape (n_taps,)
        Impulse response (e.g. :func:`firwin`), finite; converted to ``dtype``.
    dtype : np.float32 or np.float64, default np.float32
        Sample type; :meth:`process` takes only this dtype.

    Notes
    -----
    Thread safety: one object must not be used from two threads at the same time; if it is,
    the second call raises :class:`InvalidHandleError` ("in use by another thread") and
    changes nothing. Different objects run fully in parallel. Use it as a context manager, or
    call :meth:`close`, to free the C handle promptly.

    Examples
    --------
    >>> h = sigkern.firwin(63, 0.25)
    >>> x = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
    >>> with sigkern.Fir(h) as f:
    ...     y = np.concatenate([f.process(x[i:i + 512]) for i in range(0, 4096, 512)])
    """

    __slots__ = ("_h", "_proc", "_dt", "_ct", "_sfx", "_n_taps", "_uses_fft", "__weakref__")

    def __init__(self, taps: ArrayLike, dtype: DTypeLike = np.float32) -> None:
        self._h = ffi.NULL
        func = "Fir"
        dt = A.float_dtype_arg(dtype, func)
        t = _coefs(taps, func, "taps", dt)
        if t.ndim != 1 or t.size < 1:
            raise ValueError(f"{func}: taps must be 1-D with at least one tap, got shape {t.shape}")
        hp = ffi.new("SkFir **")
        st = _fir_new[dt](_fb(CARRAY[dt], t), hp, t.size)
        if st:
            raise error(st, f"sk_fir_{SFX[dt]}_new")
        self._h = hp[0]
        self._dt = dt
        self._ct = CARRAY[dt]
        self._sfx = SFX[dt]
        self._proc = _fir_process[dt]
        n = ffi.new("size_t *")
        u = ffi.new("int32_t *")
        st = _fir_info(self._h, n, u)
        if st:  # pragma: no cover - a fresh handle is valid
            raise error(st, "sk_fir_info")
        self._n_taps = int(n[0])
        self._uses_fft = bool(u[0])

    @property
    def n_taps(self) -> int:
        """Number of taps."""
        return self._n_taps

    @property
    def uses_fft(self) -> bool:
        """Whether the FFT overlap-save form is in use (more than 160 taps)."""
        return self._uses_fft

    @property
    def dtype(self) -> np.dtype[Any]:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, what: str) -> Any:
        cname = f"sk_fir_{self._sfx}_{what}" if what else "sk_fir_reset"
        if self._h == ffi.NULL:
            return closed_error(st, cname, "this Fir")
        return error(st, cname)

    def process(self, x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
        """Filters the next block of the stream.

        Parameters
        ----------
        x : ndarray or Tensor, shape (n,), the filter's dtype, contiguous
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
            Not 1-D, not contiguous, a read-only ``out``; :class:`InvalidHandleError` when
            closed or in use by another thread.

        Examples
        --------
        >>> f = sigkern.Fir([0.25, 0.5, 0.25])
        >>> f.process(np.array([1.0, 0.0, 0.0, 0.0], np.float32))
        array([0.25, 0.5 , 0.25, 0.  ], dtype=float32)
        """
        if type(x) is ndarray and x.dtype is self._dt and x.ndim == 1:
            ct = self._ct
            try:
                if out is None:
                    out = np.empty(x.shape, self._dt)
                    po = _fb(ct, out)
                elif type(out) is ndarray and out.dtype is self._dt and out.shape == x.shape:
                    po = _fb(ct, out, True)
                else:
                    ret: FloatArray = self._process_checked(x, out)
                    return ret
                st = self._proc(self._h, _fb(ct, x), po, x.shape[0])
            except ValueError:
                ret = self._process_checked(x, out)
                return ret
            if st:
                raise self._fail(st, "process")
            return out
        ti = A.TORCH or A.torch_info()
        if ti is not None and type(x) is ti[0]:
            t: Any = x  # a tensor (type(x) is torch.Tensor)
            tdt = ti[1] if self._dt is F32 else ti[2]
            if t.dtype is tdt and t.dim() == 1:
                if out is None:
                    out = t.new_empty(t.shape)
                if type(out) is ti[0] and out.dtype is tdt and out.shape == t.shape:
                    ct = CPTR[self._dt]
                    px = B.tensor_ptr(t, ti, ct)
                    po = B.tensor_ptr(out, ti, ct, True)
                    if px is not None and po is not None:
                        st = self._proc(self._h, px, po, t.shape[0])
                        if st:
                            raise self._fail(st, "process")
                        return out
        ret = self._process_checked(x, out)
        return ret

    def _process_checked(self, x: Any, out: Any) -> Any:
        func = "Fir.process"
        x = A.as_input(x, func, "x")
        dt = A.dtype_of(x)
        if dt != self._dt:
            conv = f"x.astype(np.{self._dt})" if isinstance(x, np.ndarray) else f"x.to(torch.{self._dt})"
            raise TypeError(
                f"{func}: this filter was made for {self._dt}; x is {A.describe(x)}; convert "
                f"with {conv} or make a Fir with dtype=np.{dt}"
            )
        shape = tuple(x.shape)
        if len(shape) != 1:
            raise ValueError(
                f"{func}: x must be one channel of shape (n,), got {shape}; use one Fir per channel"
            )
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            A.check_out(out, shape, self._dt, func)
        px, _ = B.pointer(x, self._dt, func, "x")
        py, _ = B.pointer(out, self._dt, func, "out", writable=True)
        st = self._proc(self._h, px, py, shape[0])
        if st:
            raise self._fail(st, "process")
        return out

    def reserve(self, max_block: int) -> None:
        """Makes the object real-time safe for blocks of up to ``max_block`` frames
        (``sk_fir_reserve``): reserves every buffer such calls need and keeps its calls on the calling
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
        n = _args_index(max_block, "sk_fir_reserve", "max_block")
        if n < 0:
            raise ValueError(f"sk_fir_reserve: max_block = {n} is negative")
        st = _fir_reserve(self._h, n)
        if st:
            raise self._fail(st, "sk_fir_reserve")

    def reset(self) -> None:
        """Zeroes the history (the next block starts from silence)."""
        st = _fir_reset(self._h)
        if st:
            raise self._fail(st, "")

    @property
    def state(self) -> FloatArray:
        """The history: ndarray ``(n_taps - 1,)`` of the filter's dtype (a copy), the last
        inputs, oldest first. Assign an array of that shape and dtype to load one (NaN/inf
        raise :class:`NonFiniteError`)."""
        s = np.empty(self._n_taps - 1, self._dt)
        st = _fir_get[self._dt](self._h, _fb(self._ct, s, True), s.size)
        if st:
            raise self._fail(st, "get_state")
        return s

    @state.setter
    def state(self, s: ArrayLike) -> None:
        func = "Fir.state"
        if not (isinstance(s, np.ndarray) or A.is_tensor(s)):
            s = np.asarray(s, dtype=self._dt)
        if tuple(s.shape) != (self._n_taps - 1,):
            raise ValueError(f"{func}: the state must have shape ({self._n_taps - 1},), got {tuple(s.shape)}")
        p, _ = B.pointer(s, self._dt, func, "state")
        st = _fir_set[self._dt](self._h, p, self._n_taps - 1)
        if st:
            raise self._fail(st, "set_state")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"n_taps={self._n_taps}"
        return f"Fir({state}, uses_fft={self._uses_fft}, dtype={self._dt})"
