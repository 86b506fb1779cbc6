"""Convolution and correlation of 1-D signals (C: ``sk_convolve_*``, ``sk_correlate_*``; Rust:
``src/kernels/spectral/conv.rs``): ``scipy.signal``'s :func:`convolve` and :func:`correlate`, and
:func:`correlation_lags` (index arithmetic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, ndarray, SFX
from .._lib import cfunc
from ._common import _fb, _new, _raise, _real_input

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, ConvMethod, ConvMode

__all__ = ["convolve", "correlate", "correlation_lags"]

_conv_len = cfunc("sk_convolve_len")
_conv = {F32: cfunc("sk_convolve_f32"), F64: cfunc("sk_convolve_f64")}
_corr = {F32: cfunc("sk_correlate_f32"), F64: cfunc("sk_correlate_f64")}
_MODE = {"full": 0, "same": 1, "valid": 2}
_METHOD = {"auto": 0, "direct": 1, "fft": 2}


def _conv_length(mc: int, na: int, nb: int) -> int:
    """The output length of a mode (as ``sk_convolve_len``), for checking ``out`` before C."""
    return na + nb - 1 if mc == 0 else (na if mc == 1 else abs(na - nb) + 1)


def _conv_checked(kind: str, in1: Any, in2: Any, mode: Any, method: Any, out: Any) -> Any:
    func = kind
    mc = _MODE.get(mode) if isinstance(mode, str) else None
    if mc is None:
        raise ValueError(f'{func}: mode must be "full", "same" or "valid", got {mode!r}')
    me = _METHOD.get(method) if isinstance(method, str) else None
    if me is None:
        raise ValueError(f'{func}: method must be "auto", "direct" or "fft", got {method!r}')
    a = _real_input(in1, func, "in1")
    b = _real_input(in2, func, "in2")
    dt = A.float_dtype(a, func, "in1")
    if A.dtype_of(b) != dt:
        raise TypeError(
            f"{func}: in2 has dtype {A.dtype_of(b)} but in1 has {dt}: pass arrays of one dtype "
            f"(convert with .astype)"
        )
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(
            f"{func}: sigkern convolves 1-D signals only; got shapes {tuple(a.shape)} and "
            f"{tuple(b.shape)} (loop over rows, or use scipy.signal for n-D)"
        )
    na, nb = a.shape[0], b.shape[0]
    if na == 0 or nb == 0:
        raise ValueError(f"{func}: in1 and in2 must not be empty (got lengths {na} and {nb})")
    pa, _ = B.pointer(a, dt, func, "in1")
    pb, _ = B.pointer(b, dt, func, "in2")
    if out is not None:
        A.check_out(out, (_conv_length(mc, na, nb),), dt, func)
        A.writable_out(out, func)
    ln = _new("size_t *")
    st = _conv_len(mc, ln, na, nb)
    if st:
        _raise(st, "sk_convolve_len")
    length = ln[0]
    if out is None:
        out = B.new_like(a, (length,), dt)
    po, _ = B.pointer(out, dt, func, "out", writable=True)
    if length:
        st = (_conv if kind == "convolve" else _corr)[dt](pa, pb, mc, me, po, na, nb, length)
        if st:
            _raise(st, f"sk_{kind}_{SFX[dt]}")
    return out


def _conv_fast(kind: str, fs: Dict[Any, Any], in1: Any, in2: Any, mode: Any, method: Any, out: Any) -> Any:
    if (type(in1) is ndarray and type(in2) is ndarray and out is None and in1.ndim == 1
            and in2.ndim == 1 and type(mode) is str and type(method) is str):
        dt = in1.dtype
        na, nb = in1.shape[0], in2.shape[0]
        mc, me = _MODE.get(mode), _METHOD.get(method)
        if ((dt is F32 or dt is F64) and in2.dtype is dt and na and nb and mc is not None
                and me is not None):
            ct = CARRAY[dt]
            try:
                pa, pb = _fb(ct, in1), _fb(ct, in2)
            except ValueError:  # not contiguous: the checked path says so
                return _conv_checked(kind, in1, in2, mode, method, out)
            ln = _new("size_t *")
            st = _conv_len(mc, ln, na, nb)
            if st:
                _raise(st, "sk_convolve_len")
            y = np.empty(ln[0], dt)
            st = fs[dt](pa, pb, mc, me, _fb(ct, y, True), na, nb, ln[0])
            if st:
                _raise(st, f"sk_{kind}_{SFX[dt]}")
            return y
    return _conv_checked(kind, in1, in2, mode, method, out)


def convolve(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full", method: ConvMethod = "auto",
             out: Optional[Array] = None) -> FloatArray:
    """``scipy.signal.convolve`` of two 1-D signals (``sk_convolve_*``).

    Parameters
    ----------
    in1, in2 : ndarray or Tensor, 1-D, float32 or float64 (one dtype), C-contiguous
        n-D input raises ``ValueError`` (1-D only).
    mode : {"full", "same", "valid"}
        full: ``len(in1) + len(in2) - 1`` samples; same: ``len(in1)``, centred as scipy;
        valid: ``|len(in1) - len(in2)| + 1``.
    method : {"auto", "direct", "fft"}
        auto picks the direct sum for short kernels and FFT overlap-save otherwise.
    out : ndarray or Tensor of the result's length and dtype, optional

    Returns
    -------
    ndarray or Tensor, 1-D, in1's dtype

    Raises
    ------
    ValueError
        n-D or empty input (as scipy), a bad mode or method, non-contiguous data.
    TypeError
        Complex input, or inputs of two dtypes.

    Examples
    --------
    >>> sigkern.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    ret: FloatArray = _conv_fast("convolve", _conv, in1, in2, mode, method, out)
    return ret


def correlate(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full", method: ConvMethod = "auto",
              out: Optional[Array] = None) -> FloatArray:
    """``scipy.signal.correlate`` of two real 1-D signals (``sk_correlate_*``): the
    convolution of ``in1`` with ``in2`` reversed.

    Parameters
    ----------
    in1, in2 : ndarray or Tensor, 1-D, float32 or float64 (one dtype), C-contiguous
    mode : {"full", "same", "valid"}
        As :func:`convolve`.
    method : {"auto", "direct", "fft"}
        As :func:`convolve`.
    out : ndarray or Tensor of the result's length and dtype, optional

    Returns
    -------
    ndarray or Tensor, 1-D, in1's dtype

    Raises
    ------
    ValueError, TypeError
        As :func:`convolve`.

    Examples
    --------
    >>> sigkern.correlate(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    ret: FloatArray = _conv_fast("correlate", _corr, in1, in2, mode, method, out)
    return ret


def correlation_lags(in1_len: int, in2_len: int, mode: ConvMode = "full") -> np.ndarray:
    """``scipy.signal.correlation_lags``: the lag of each output sample of
    ``correlate(in1, in2, mode)`` for 1-D inputs of lengths ``in1_len`` and ``in2_len`` (index
    arithmetic; no C call).

    Parameters
    ----------
    in1_len, in2_len : int
        The input lengths.
    mode : {"full", "same", "valid"}, default "full"

    Returns
    -------
    ndarray of int
        The lags, one per output sample: ``correlate(x, y)[i]`` pairs ``x[k + lags[i]]`` with
        ``y[k]``.

    Raises
    ------
    ValueError
        An unknown mode (scipy's message).

    Examples
    --------
    >>> sigkern.correlation_lags(4, 3).tolist()
    [-2, -1, 0, 1, 2, 3]
    >>> sigkern.correlation_lags(4, 3, "same").tolist()
    [-1, 0, 1, 2]
    """
    if mode == "full":
        lags = np.arange(-in2_len + 1, in1_len)
    elif mode == "same":
        lags = np.arange(-in2_len + 1, in1_len)
        mid = lags.size // 2
        lag_bound = in1_len // 2
        if in1_len % 2 == 0:
            lags = lags[(mid - lag_bound):(mid + lag_bound)]
        else:
            lags = lags[(mid - lag_bound):(mid + lag_bound) + 1]
    elif mode == "valid":
        lag_bound = in1_len - in2_len
        lags = np.arange(lag_bound + 1) if lag_bound >= 0 else np.arange(lag_bound, 1)
    else:
        raise ValueError(f"Mode {mode} is invalid")
    return lags
