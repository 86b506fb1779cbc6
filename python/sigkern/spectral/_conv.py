"""Convolution and correlation (C: ``sk_convolve_*``, ``sk_correlate_*``; Rust:
``src/kernels/spectral/conv.rs``): ``scipy.signal``'s :func:`convolve`, :func:`correlate`,
:func:`fftconvolve` and :func:`oaconvolve` over arrays of any rank, and :func:`correlation_lags`
(index arithmetic).

An N-D convolution runs through the 1-D C kernels: along the convolved axes every axis but the
first is zero-padded to its full length and the array flattened, so that one 1-D convolution of
the two flattened arrays is the N-D result flattened (no index carries into the next row); the
axes not convolved are broadcast and run row by row. ``method="direct"`` instead sums the direct
1-D convolutions of every pair of rows (exact for integers, and a NaN stays local as in scipy).
Complex data is four real convolutions; integer and bool data run in float64 (exact while
``max|in1|·max|in2|·min(size) < 2**53``) and float16 in float32."""

from __future__ import annotations

import math
import operator
import warnings
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, ndarray, SFX
from .._lib import cfunc
from ._common import _fb, _new, _raise, _real_input

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, ConvMethod, ConvMode

__all__ = ["convolve", "correlate", "correlation_lags", "fftconvolve", "oaconvolve"]

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
        if me == 2:
            _fft_warn(out)
    return out


def _fft_warn(y: Any) -> None:
    """scipy's warning when an FFT convolution's first output is NaN or inf."""
    if not math.isfinite(abs(complex(y.reshape(-1)[0]))):
        warnings.warn("Use of fft convolution on input with NAN or inf results in NAN or inf output. "
                      "Consider using method='direct' instead.", RuntimeWarning, stacklevel=4)


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
            except ValueError:  # not contiguous: copied by the general path
                return _conv_general(kind, in1, in2, mode, method, out)
            ln = _new("size_t *")
            st = _conv_len(mc, ln, na, nb)
            if st:
                _raise(st, "sk_convolve_len")
            y = np.empty(ln[0], dt)
            st = fs[dt](pa, pb, mc, me, _fb(ct, y, True), na, nb, ln[0])
            if st:
                _raise(st, f"sk_{kind}_{SFX[dt]}")
            if me == 2:
                _fft_warn(y)
            return y
    if _one_float_1d(in1, in2):
        return _conv_checked(kind, in1, in2, mode, method, out)
    return _conv_general(kind, in1, in2, mode, method, out)


# ---------------------------------------------------------------------------------------------
# N-D convolution over the 1-D C kernels
# ---------------------------------------------------------------------------------------------

_F16 = np.dtype(np.float16)
_C64 = np.dtype(np.complex64)
_C128 = np.dtype(np.complex128)
_MODE_MSG = "acceptable mode flags are 'valid', 'same', or 'full'"
_EXACT = 2 ** 53 - 1  # the largest sum of integer products float64 holds exactly


def _as_array(x: Any, func: str, name: str) -> np.ndarray:
    """An ndarray view of any input (a CPU tensor's memory, or ``np.asarray``)."""
    if A.is_tensor(x):
        A.cpu_tensor(x, func, name)
        return np.asarray(x.detach().resolve_conj().resolve_neg().numpy())
    return np.asarray(x)


def _work(dt: np.dtype[Any], func: str) -> np.dtype[Any]:
    """The float dtype the C kernels compute a value of dtype ``dt`` in."""
    if dt.kind in "biu":
        return F64
    if dt in (_F16, F32, _C64):
        return F32
    if dt in (F64, _C128):
        return F64
    raise TypeError(
        f"{func}: sigkern convolves bool, integer, float16/32/64 and complex64/128 data, got "
        f"dtype {dt} (convert with .astype(np.float64))"
    )


def _flat(a: np.ndarray, k: int, full: Tuple[int, ...], dt: np.dtype[Any]) -> np.ndarray:
    """``a`` (``k`` broadcast axes, then the convolved ones) with every convolved axis but the
    first zero-padded to its ``full`` length and flattened, trailing zeros cut: rows of
    ``(s0 − 1)·P + Σ (s_i − 1)·stride_i + 1`` values (``P`` the padded row size)."""
    s = a.shape[k:]
    if len(s) == 1:
        return np.ascontiguousarray(a, dt)
    p = np.zeros(a.shape[:k] + (s[0],) + full[1:], dt)
    p[(Ellipsis,) + tuple(slice(0, m) for m in s)] = a
    p = p.reshape(a.shape[:k] + (-1,))
    stride, last = 1, 0
    for m, f in zip(s[:0:-1], full[:0:-1]):
        last += (m - 1) * stride
        stride *= f
    return p[..., : (s[0] - 1) * stride + last + 1]


def _call_full(dt: np.dtype[Any], me: int, x: np.ndarray, h: np.ndarray, y: np.ndarray) -> None:
    """``y`` = the full 1-D convolution of ``x`` and ``h`` (C, method ``me``)."""
    ct = CARRAY[dt]
    st = _conv[dt](_fb(ct, x), _fb(ct, h), 0, me, _fb(ct, y, True), x.shape[0], h.shape[0], y.shape[0])
    if st:
        _raise(st, f"sk_convolve_{SFX[dt]}")


def _full_real(a: np.ndarray, b: np.ndarray, axes: Sequence[int], me: int, dt: np.dtype[Any]) -> np.ndarray:
    """The full convolution of real ``a`` and ``b`` along ``axes``, the other axes broadcast,
    computed in ``dt`` by the C kernels (method ``me``)."""
    nd = a.ndim
    other = [i for i in range(nd) if i not in axes]
    perm = other + list(axes)
    k = len(other)
    a = np.transpose(a, perm)
    b = np.transpose(b, perm)
    lead = tuple(np.broadcast_shapes(a.shape[:k], b.shape[:k]))
    sa, sb = a.shape[k:], b.shape[k:]
    full = tuple(x + y - 1 for x, y in zip(sa, sb))
    if me == _METHOD["direct"] and len(axes) > 1:
        res = _direct_pairs(a, b, k, lead, full, dt)
    else:
        fa, fb = _flat(a, k, full, dt), _flat(b, k, full, dt)
        n = fa.shape[-1] + fb.shape[-1] - 1  # = prod(full)
        fa = np.broadcast_to(fa, lead + fa.shape[-1:])
        fb = np.broadcast_to(fb, lead + fb.shape[-1:])
        res = np.empty(lead + (n,), dt)
        for idx in np.ndindex(*lead):
            _call_full(dt, me, fa[idx], fb[idx], res[idx])
        res = res.reshape(lead + full)
    return np.transpose(res, np.argsort(perm))


def _direct_pairs(a: np.ndarray, b: np.ndarray, k: int, lead: Tuple[int, ...], full: Tuple[int, ...],
                  dt: np.dtype[Any]) -> np.ndarray:
    """The direct N-D convolution as the sum of the direct 1-D convolutions of every pair of
    rows along the last axis (C, one call per pair)."""
    a = np.ascontiguousarray(a, dt)
    b = np.ascontiguousarray(b, dt)
    sa, sb = a.shape[k:], b.shape[k:]
    res = np.zeros(lead + full, dt)
    buf = np.empty(full[-1], dt)
    me = _METHOD["direct"]
    for li in np.ndindex(*lead):
        la = tuple(0 if a.shape[d] == 1 else i for d, i in enumerate(li))
        lb = tuple(0 if b.shape[d] == 1 else i for d, i in enumerate(li))
        for ia in np.ndindex(*sa[:-1]):
            x = a[la + ia]
            for ib in np.ndindex(*sb[:-1]):
                _call_full(dt, me, x, b[lb + ib], buf)
                res[li + tuple(i + j for i, j in zip(ia, ib))] += buf
    return res


def _full(a: np.ndarray, b: np.ndarray, axes: Sequence[int], me: int, dt: np.dtype[Any]) -> np.ndarray:
    """:func:`_full_real` of any real or complex pair (complex: four real convolutions)."""
    ca, cb = a.dtype.kind == "c", b.dtype.kind == "c"
    if not (ca or cb):
        return _full_real(a, b, axes, me, dt)
    ar, ai = (a.real, a.imag) if ca else (a, None)
    br, bi = (b.real, b.imag) if cb else (b, None)
    re = _full_real(ar, br, axes, me, dt)
    parts = []
    if ai is not None:
        parts.append(_full_real(ai, br, axes, me, dt))
    if bi is not None:
        parts.append(_full_real(ar, bi, axes, me, dt))
    if ai is not None and bi is not None:
        re -= _full_real(ai, bi, axes, me, dt)
    res = np.empty(re.shape, _C64 if dt == F32 else _C128)
    res.real = re
    res.imag = parts[0] + parts[1] if len(parts) == 2 else parts[0]
    return res


def _centered(arr: np.ndarray, newshape: Sequence[int]) -> np.ndarray:
    """scipy's ``_centered``: the centre ``newshape`` of ``arr``."""
    start = [(c - n) // 2 for c, n in zip(arr.shape, newshape)]
    return arr[tuple(slice(s0, s0 + n) for s0, n in zip(start, newshape))]


def _apply_mode(ret: np.ndarray, s1: Tuple[int, ...], s2: Tuple[int, ...], mode: str,
                axes: Sequence[int]) -> np.ndarray:
    """scipy's ``_apply_conv_mode``: full, the centre of ``s1`` (same) or of the valid shape."""
    if mode == "full":
        return ret
    if mode == "same":
        return _centered(ret, s1)
    return _centered(ret, [ret.shape[a] if a not in axes else s1[a] - s2[a] + 1 for a in range(ret.ndim)])


def _swap_needed(mode: str, s1: Tuple[int, ...], s2: Tuple[int, ...], axes: Optional[Sequence[int]] = None) -> bool:
    """scipy's ``_inputs_swap_needed``: "valid" needs one input at least as large as the other
    along every convolved axis (``ValueError`` otherwise); True when that is ``in2``."""
    if mode != "valid" or not s1:
        return False
    ax = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in ax)
    ok2 = all(s2[i] >= s1[i] for i in ax)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not ok1


def _fft_faster(s1: Tuple[int, ...], s2: Tuple[int, ...], mode: str) -> bool:
    """scipy's ``choose_conv_method`` cost model for N-D inputs (FFT or direct)."""
    out = [n + k - 1 for n, k in zip(s1, s2)] if mode == "full" else (
        [abs(n - k) + 1 for n, k in zip(s1, s2)] if mode == "valid" else list(s1))
    p1, p2 = math.prod(s1), math.prod(s2)
    direct = p1 * p2 if mode == "same" else min(p1, p2) * math.prod(out)
    big = math.prod(n + k - 1 for n, k in zip(s1, s2))
    c_fft, c_direct = {"valid": (1.85927e-9, 2.11242e-8), "full": (1.99817e-9, 1.66174e-8),
                       "same": (2.04735e-9, 1.55367e-8)}[mode]
    return bool(c_fft * 3 * big * math.log(big) < c_direct * direct - 1e-4)


def _out_result(res: np.ndarray, in1: Any, out: Any, func: str) -> Any:
    """``res`` copied into ``out`` (checked), or as a tensor when ``in1`` is one."""
    if out is not None:
        A.check_out(out, res.shape, res.dtype, func)
        A.writable_out(out, func)
        return A.copy_into(out, res)
    res = np.ascontiguousarray(res)
    if A.is_tensor(in1):
        return A._torch().from_numpy(res)
    return res


def _conv_general(kind: str, in1: Any, in2: Any, mode: Any, method: Any, out: Any) -> Any:
    """convolve/correlate of any rank and dtype: scipy's checks and dispatch, the C kernels."""
    func = kind
    a, b = _as_array(in1, func, "in1"), _as_array(in2, func, "in2")
    if a.ndim == b.ndim == 0:
        return a * (np.conj(b) if kind == "correlate" and b.dtype.kind == "c" else b)
    if a.ndim != b.ndim:
        raise ValueError(f"{func}: in1 and in2 should have the same dimensionality (got {a.ndim} and {b.ndim})")
    if not isinstance(mode, str) or mode not in _MODE:
        raise ValueError(f'{func}: mode must be "full", "same" or "valid", got {mode!r}')
    if not isinstance(method, str) or method not in _METHOD:
        raise ValueError(f'{func}: method must be "auto", "direct" or "fft", got {method!r}')
    if a.size == 0 or b.size == 0:
        raise ValueError(f"{func}: in1 and in2 must not be empty (got shapes {a.shape} and {b.shape})")
    rt = np.result_type(a, b)
    dt = _work(rt, func)
    _work(a.dtype, func)
    _work(b.dtype, func)
    if kind == "correlate":
        b = b[(slice(None, None, -1),) * b.ndim]
        if b.dtype.kind == "c":
            b = np.conj(b)
    if _swap_needed(mode, a.shape, b.shape):
        a, b = b, a
    exact = rt.kind in "biu"
    if exact and min(a.size, b.size) == 1:  # one element: a product in integer arithmetic (scipy's)
        return _out_result(_apply_mode(np.asarray(a * b, rt), a.shape, b.shape, mode, list(range(a.ndim))),
                           in1, out, func)
    if exact:
        big = int(np.max(np.abs(a.astype(np.int64)))) * int(np.max(np.abs(b.astype(np.int64))))
        if big * min(a.size, b.size) > _EXACT and method != "fft":
            raise ValueError(
                f"{func}: integer inputs whose products sum beyond 2**53 cannot be convolved exactly "
                f"in float64 (sigkern's kernels); pass method='fft' for the rounded float result, or "
                f"convert to float"
            )
        me = _METHOD["fft"] if method == "fft" else _METHOD["direct"]
    elif method == "auto" and a.ndim > 1:
        me = _METHOD["fft" if _fft_faster(a.shape, b.shape, mode) else "direct"]
    else:
        me = _METHOD[method]
    axes = list(range(a.ndim))
    res = _apply_mode(_full(a, b, axes, me, dt), a.shape, b.shape, mode, axes)
    if me == _METHOD["fft"]:
        _fft_warn(res)
    if exact:
        res = res != 0 if rt.kind == "b" else np.rint(res).astype(np.int64).astype(rt)
    elif res.dtype != rt:
        res = res.astype(rt)
    return _out_result(res, in1, out, func)


def _one_float_1d(in1: Any, in2: Any) -> bool:
    """Both 1-D C-contiguous float32 or both float64 (the C kernels' own case, modes in C)."""
    d1 = A.dtype_of(in1)
    return (d1 is not None and (d1 == F32 or d1 == F64) and A.dtype_of(in2) == d1
            and getattr(in1, "ndim", 0) == 1 and getattr(in2, "ndim", 0) == 1
            and A.is_contig(in1) and A.is_contig(in2))


def _freq_axes(func: str, in1: Any, in2: Any, mode: Any, axes: Any) -> Any:
    """fftconvolve/oaconvolve: scipy's checks and axes rules, then the C convolution."""
    a, b = _as_array(in1, func, "in1"), _as_array(in2, func, "in2")
    if a.ndim == b.ndim == 0:
        return a * b
    if a.ndim != b.ndim:
        raise ValueError(f"{func}: in1 and in2 should have the same dimensionality (got {a.ndim} and {b.ndim})")
    if a.size == 0 or b.size == 0:
        return np.array([])
    if not isinstance(mode, str) or mode not in _MODE:
        raise ValueError(f"{func}: {_MODE_MSG}, got {mode!r}")
    dt = np.result_type(_work(a.dtype, func), _work(b.dtype, func))
    s1, s2 = a.shape, b.shape
    if axes is None:
        ax = list(range(a.ndim))
    else:
        try:
            ax = [operator.index(v) for v in ((axes,) if isinstance(axes, (int, np.integer)) else axes)]
        except TypeError:
            raise ValueError(f"{func}: axes must be a scalar or iterable of integers, got {axes!r}") from None
        ax = [v + a.ndim if v < 0 else v for v in ax]
        if any(v >= a.ndim or v < 0 for v in ax):
            raise ValueError(f"{func}: axes exceeds dimensionality of input ({axes!r} for {a.ndim}-D input)")
        if len(set(ax)) != len(ax):
            raise ValueError(f"{func}: all axes must be unique, got {axes!r}")
        if not ax:
            raise ValueError(f"{func}: when provided, axes cannot be empty")
    ax = [v for v in ax if s1[v] != 1 and s2[v] != 1]
    if not all(s1[v] == s2[v] or s1[v] == 1 or s2[v] == 1 for v in range(a.ndim) if v not in ax):
        raise ValueError(f"{func}: incompatible shapes for in1 and in2: {s1} and {s2}")
    if _swap_needed(mode, s1, s2, ax):
        a, b = b, a
        s1, s2 = s2, s1
    if not ax:
        ret = a * b
    else:
        ret = _full(a, b, ax, _METHOD["fft"], dt)
    return np.ascontiguousarray(_apply_mode(ret, s1, s2, mode, ax))


def convolve(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full", method: ConvMethod = "auto",
             out: Optional[Array] = None) -> FloatArray:
    """``scipy.signal.convolve``: the N-D convolution of two arrays of one rank
    (``sk_convolve_*``).

    Parameters
    ----------
    in1, in2 : array_like or Tensor, the same number of dimensions
        bool, integer, float16/32/64 or complex64/128 (two 0-D inputs: their product, as
        scipy). A 1-D C-contiguous float32/float64 pair of one dtype runs in one C call; anything
        else is copied and promoted as scipy does (``np.result_type``).
    mode : {"full", "same", "valid"}
        full: ``len(in1) + len(in2) - 1`` per axis; same: ``in1``'s shape, centred as scipy;
        valid: ``|len(in1) - len(in2)| + 1`` per axis (one input at least as large as the other
        along every axis).
    method : {"auto", "direct", "fft"}
        1-D: auto picks the direct sum for short kernels and FFT overlap-save otherwise. N-D:
        auto follows scipy's cost model. Integer and bool data always run direct in float64 and
        are exact (their result dtype is scipy's); ``ValueError`` when
        ``max|in1|·max|in2|·min(size)`` exceeds ``2**53 - 1``, unless ``method="fft"``.
    out : ndarray or Tensor of the result's shape and dtype, optional

    Returns
    -------
    ndarray or Tensor (when ``in1`` is one), dtype ``np.result_type(in1, in2)``

    Raises
    ------
    ValueError
        Ranks that differ, empty input, a bad mode or method, shapes "valid" cannot pair,
        integer sums beyond ``2**53`` (direct), a tensor not on the CPU.
    TypeError
        Other dtypes (object, strings, long double).

    Warns
    -----
    RuntimeWarning
        ``method="fft"`` with a NaN or inf first output (scipy's warning).

    Examples
    --------
    >>> sigkern.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    >>> sigkern.convolve(np.array([[1, 2], [3, 4]]), np.array([[1, 1]]))
    array([[1, 3, 2],
           [3, 7, 4]])
    """
    ret: FloatArray = _conv_fast("convolve", _conv, in1, in2, mode, method, out)
    return ret


def correlate(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full", method: ConvMethod = "auto",
              out: Optional[Array] = None) -> FloatArray:
    """``scipy.signal.correlate``: the N-D cross-correlation of two arrays of one rank
    (``sk_correlate_*``; N-D: the convolution of ``in1`` with ``in2`` reversed along every axis
    and conjugated).

    Parameters
    ----------
    in1, in2 : array_like or Tensor, the same number of dimensions
        As :func:`convolve` (two 0-D inputs: ``in1 * conj(in2)``).
    mode : {"full", "same", "valid"}
        As :func:`convolve`.
    method : {"auto", "direct", "fft"}
        As :func:`convolve`.
    out : ndarray or Tensor of the result's shape and dtype, optional

    Returns
    -------
    ndarray or Tensor (when ``in1`` is one), dtype ``np.result_type(in1, in2)``

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


def fftconvolve(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full",
                axes: Union[int, Sequence[int], None] = None) -> np.ndarray:
    """``scipy.signal.fftconvolve``: the FFT convolution of two arrays of one rank along
    ``axes``, the other axes broadcast (``sk_convolve_*``, FFT overlap-save, one call per
    broadcast row).

    Parameters
    ----------
    in1, in2 : array_like or Tensor, the same number of dimensions
        bool, integer (computed in float64), float16 (computed in float32), float32/64,
        complex64/128. Two 0-D inputs: their product; an empty input: an empty array (as scipy).
    mode : {"full", "same", "valid"}
        As :func:`convolve`, along ``axes``; "valid" keeps the broadcast length of the other axes.
    axes : int or sequence of int, optional
        The axes to convolve along (default all). Along every other axis the lengths must be
        equal or 1.

    Returns
    -------
    ndarray
        float32/float64, or complex64/complex128 when an input is complex (scipy's dtype).

    Raises
    ------
    ValueError
        Ranks that differ, a bad mode or axes (scipy's messages), incompatible shapes along the
        other axes, shapes "valid" cannot pair.
    TypeError
        Other dtypes (object, strings, long double).

    Examples
    --------
    >>> x = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    >>> np.round(sigkern.fftconvolve(x, np.array([[1.0, -1.0]]), axes=1), 12)
    array([[ 1.,  1.,  1., -3.],
           [ 0.,  1., -1.,  0.]])
    """
    return _freq_axes("fftconvolve", in1, in2, mode, axes)  # type: ignore[no-any-return]


def oaconvolve(in1: ArrayLike, in2: ArrayLike, mode: ConvMode = "full",
               axes: Union[int, Sequence[int], None] = None) -> np.ndarray:
    """``scipy.signal.oaconvolve``: the same convolution as :func:`fftconvolve` (the C kernel
    blocks long inputs itself, by overlap-save; results equal scipy's overlap-add within FFT
    rounding).

    Parameters
    ----------
    in1, in2 : array_like or Tensor, the same number of dimensions
        As :func:`fftconvolve`.
    mode : {"full", "same", "valid"}
        As :func:`fftconvolve`.
    axes : int or sequence of int, optional
        As :func:`fftconvolve`.

    Returns
    -------
    ndarray
        As :func:`fftconvolve`.

    Raises
    ------
    ValueError, TypeError
        As :func:`fftconvolve`.

    Examples
    --------
    >>> np.round(sigkern.oaconvolve(np.ones(5), np.ones(3)), 12)
    array([1., 2., 3., 3., 3., 2., 1.])
    """
    return _freq_axes("oaconvolve", in1, in2, mode, axes)  # type: ignore[no-any-return]


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
