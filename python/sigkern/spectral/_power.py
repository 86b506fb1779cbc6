"""Spectra and decibels (C: ``sk_spec_power_*``, ``sk_power_to_db_*``, ``sk_log10_floor_*``; Rust:
``src/kernels/spectral/mel.rs`` and ``logtail.rs``): :func:`spec_power`, librosa's
:func:`power_to_db`, and :func:`log10_floor`, the log tail of Whisper-style features."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import C128, C64, CARRAY, F32, F64, ndarray, SFX
from .._lib import cfunc
from ._common import _complex_input, _fb, _INF, _raise, _real_input

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray

__all__ = ["spec_power", "power_to_db", "log10_floor"]

_spec_power = {F32: cfunc("sk_spec_power_f32"), F64: cfunc("sk_spec_power_f64")}
_power_to_db = {F32: cfunc("sk_power_to_db_f32"), F64: cfunc("sk_power_to_db_f64")}
#: the CFFI array types of the fast path, bound once (a dict lookup per call costs)
_A32, _A64 = CARRAY[F32], CARRAY[F64]
_log10_floor = {F32: cfunc("sk_log10_floor_f32"), F64: cfunc("sk_log10_floor_f64")}


def spec_power(X: ArrayLike, power: float = 2.0, out: Optional[Array] = None) -> FloatArray:
    """``np.abs(X) ** power`` of a complex spectrum (``sk_spec_power_*``): power 2 is
    re² + im² (no square root), power 1 the magnitude.

    Parameters
    ----------
    X : ndarray or Tensor, complex64 or complex128, any shape
        C-contiguous, or one dense block in another axis order (such as an :func:`stft`
        result); the result has X's memory layout.
        A float array is a ``TypeError``: complex data viewed as float is not accepted (pass
        ``X.view(np.complex64)``).
    power : float > 0, default 2.0
    out : ndarray or Tensor, float32 (complex64 input) / float64, X's shape, optional

    Returns
    -------
    ndarray or Tensor, X's shape, the real dtype of X's precision

    Examples
    --------
    >>> sigkern.spec_power(np.array([3 + 4j, 1j]))
    array([25.,  1.])
    """
    if type(X) is ndarray and out is None:
        dt = X.dtype
        if dt is C128:
            y = np.empty(X.shape, F64)
            try:
                st = _spec_power[F64](_fb(_A64, X), power, _fb(_A64, y, True), X.size)
            except (ValueError, TypeError):
                ret: FloatArray = _spec_power_checked(X, power, out)
                return ret
            if st:
                _raise(st, "sk_spec_power_f64")
            return y
        if dt is C64:
            y = np.empty(X.shape, F32)
            try:
                st = _spec_power[F32](_fb(_A32, X), power, _fb(_A32, y, True), X.size)
            except (ValueError, TypeError):
                ret = _spec_power_checked(X, power, out)
                return ret
            if st:
                _raise(st, "sk_spec_power_f32")
            return y
    ret = _spec_power_checked(X, power, out)
    return ret


def _dense(a: Any) -> Optional[Tuple[Any, ...]]:
    """The axis order in which ``a`` is C-contiguous (its memory one dense block, e.g. an
    :func:`stft` result or an elementwise function of one), or None."""
    if A.is_contig(a):
        return None
    st = A.strides(a)
    perm = tuple(sorted(range(len(st)), key=lambda i: -st[i]))
    v = a.transpose(perm) if isinstance(a, np.ndarray) else a.permute(perm)
    if not A.is_contig(v):
        raise ValueError(
            f"{A.describe(a)} is not one dense block of memory (strides {st}); pass a "
            f"contiguous copy (np.ascontiguousarray / .contiguous())"
        )
    return perm


def _elementwise(func: str, x: Any, name: str, xdt: np.dtype[Any], out: Any, odt: np.dtype[Any]) -> Tuple[Any, ...]:
    """Pointers of an elementwise input and its output of ``x``'s shape and memory layout:
    C-contiguous data, or any dense block (as an stft result, whose last two axes are
    transposed); the output is allocated, or checked, with the same layout."""
    shape = tuple(x.shape)
    try:
        perm = _dense(x)
    except ValueError as e:
        raise ValueError(f"{func}: {name} is {e}") from None
    if out is None:
        if perm is None:
            out = B.new_like(x, shape, odt)
        elif isinstance(x, np.ndarray):
            out = np.empty_like(x, dtype=odt)
        else:
            out = A._torch().empty_like(x, dtype=A.torch_dtype(odt))
    else:
        A.check_out(out, shape, odt, func)
        A.writable_out(out, func)
    xv, ov = x, out
    if perm is not None:
        xv = x.transpose(perm) if isinstance(x, np.ndarray) else x.permute(perm)
        ov = out.transpose(perm) if isinstance(out, np.ndarray) else out.permute(perm)
    if perm is not None and not A.is_contig(ov):
        raise ValueError(
            f"{func}: out must have the memory layout of {name} (strides {A.strides(x)} in "
            f"elements of {name}), got strides {A.strides(out)}"
        )
    px, _ = B.pointer(xv, xdt, func, name)
    py, _ = B.pointer(ov, odt, func, "out", writable=True)
    return px, py, out, math.prod(shape)


def _spec_power_checked(X: Any, power: Any, out: Any) -> Any:
    func = "spec_power"
    X = _complex_input(X, func, "X")
    A.cpu_tensor(X, func, "X")
    cdt = A.dtype_of(X)
    dt = A.REAL_OF[cdt]
    power = float(power)
    px, py, out, n = _elementwise(func, X, "X", cdt, out, dt)
    st = _spec_power[dt](px, power, py, n)
    if st:
        _raise(st, f"sk_spec_power_{SFX[dt]}")
    return out


def power_to_db(S: ArrayLike, ref: Union[float, Callable[[Any], Any]] = 1.0, amin: float = 1e-10,
                top_db: Optional[float] = 80.0, out: Optional[Array] = None) -> FloatArray:
    """``librosa.power_to_db``: ``10·log10(max(amin, S)) − 10·log10(max(amin, |ref|))``,
    floored at its maximum − ``top_db`` (``sk_power_to_db_*``).

    Parameters
    ----------
    S : ndarray or Tensor, float32 or float64, any shape
        C-contiguous, or one dense block in another axis order (such as
        ``spec_power(stft(x))``); the result has S's memory layout.
        A power spectrogram (complex input is a ``TypeError``: apply :func:`spec_power` first).
    ref : float or callable, default 1.0
        The reference power, or a function of S giving it, e.g. ``np.max`` (librosa's
        ``ref=np.max``).
    amin : float > 0, default 1e-10
    top_db : float >= 0 or None, default 80.0
        The floor is taken below the maximum of the whole array (as librosa); None: no floor.
    out : ndarray or Tensor of S's shape and dtype, optional; may be ``S`` (in place)

    Returns
    -------
    ndarray or Tensor of S's shape and dtype (float32 stays float32)

    Raises
    ------
    BadArgumentError
        ``amin <= 0``, ``top_db < 0``, a non-finite reference.

    Examples
    --------
    >>> sigkern.power_to_db(np.array([1.0, 10.0, 100.0]), ref=np.max)
    array([-20., -10.,   0.])
    """
    if type(S) is ndarray and out is None and type(ref) is float and type(top_db) is float:
        dt = S.dtype
        if dt is F32 or dt is F64:
            y = np.empty(S.shape, dt)
            ct = CARRAY[dt]
            try:
                st = _power_to_db[dt](_fb(ct, S), ref, amin, top_db, _fb(ct, y, True), S.size)
            except ValueError:
                ret: FloatArray = _power_to_db_checked(S, ref, amin, top_db, out)
                return ret
            if st:
                _raise(st, f"sk_power_to_db_{SFX[dt]}")
            return y
    ret = _power_to_db_checked(S, ref, amin, top_db, out)
    return ret


def _ref_value(ref: Callable[[Any], Any], S: Any) -> float:
    """``ref(S)`` as a float; numpy reductions such as ``np.max`` get a tensor's numpy view."""
    if A.is_tensor(S):
        try:
            return float(ref(S))
        except TypeError:
            return float(ref(S.detach().numpy()))
    return float(ref(S))


def _power_to_db_checked(S: Any, ref: Any, amin: Any, top_db: Any, out: Any) -> Any:
    func = "power_to_db"
    dt0 = A.dtype_of(S)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(
            f"{func}: S must be a real power spectrogram (float32 or float64), got "
            f"{A.describe(S)}; compute sigkern.spec_power(S) first"
        )
    S = A.as_input(S, func, "S")
    A.cpu_tensor(S, func, "S")
    dt = A.float_dtype(S, func, "S")
    r = _ref_value(ref, S) if callable(ref) else float(ref)
    td = _INF if top_db is None else float(top_db)
    px, py, out, n = _elementwise(func, S, "S", dt, out, dt)
    st = _power_to_db[dt](px, r, float(amin), td, py, n)
    if st:
        _raise(st, f"sk_power_to_db_{SFX[dt]}")
    return out


def log10_floor(x: ArrayLike, amin: float = 1e-10, top: Optional[float] = 8.0, scale: float = 0.25,
                offset: float = 1.0, out: Optional[Array] = None) -> FloatArray:
    """``scale·max(l, l.max() − top) + offset`` with ``l = log10(max(x, amin))``, in one pass
    and a clamp (``sk_log10_floor_*``): the log tail of Whisper-style features (the defaults)
    on a spectrogram you computed yourself.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape, C-contiguous
    amin : float > 0, default 1e-10
    top : float >= 0 or None (no floor), default 8.0
    scale : float > 0, default 0.25
    offset : float, default 1.0
    out : same shape and dtype, optional; may be ``x`` (in place)

    Returns
    -------
    ndarray or Tensor like ``x``

    Notes
    -----
    float32 data is computed in float32 (``log10`` within about 2 ulp). NaN anywhere makes the
    result all NaN when ``top`` is finite, as ``np.maximum`` does.

    Examples
    --------
    >>> y = sigkern.log10_floor(np.array([1e-12, 1.0, 1e4]))   # l = [-10, 0, 4] → [-4, 0, 4]
    >>> np.allclose(y, [0.0, 1.0, 2.0], rtol=0, atol=1e-15)
    True
    """
    func = "log10_floor"
    x = _real_input(x, func, "x") if type(x) is not ndarray else x
    dt = A.float_dtype(x, func, "x")
    px, _ = B.pointer(x, dt, func, "x")
    if out is None:
        out = B.new_like(x, tuple(x.shape), dt)
    else:
        A.check_out(out, tuple(x.shape), dt, func)
    po, _ = B.pointer(out, dt, func, "out", writable=True)
    tp = _INF if top is None else float(top)
    st = _log10_floor[dt](px, float(amin), float(scale), float(offset), tp, po, math.prod(x.shape))
    if st:
        _raise(st, f"sk_log10_floor_{SFX[dt]}")
    return out
