"""Elementwise arithmetic and reductions (C: ``sk_<op>_<f32|f64>``, ``sk_<op>_strided_*``,
``sk_rows_*``).

Every function takes float32 or float64 numpy arrays or CPU torch tensors and picks the C
kernel from the dtype; outputs have the input's shape, dtype and kind. Contiguous data of any
shape is processed as one flat buffer; one-dimensional strided views (``x[::2]``, ``x[::-1]``,
a column ``m[:, j]``) go to the strided kernels, zero-copy. There is no broadcasting: the
arrays of one call have one shape. Results equal numpy's bit for bit for the elementwise
operations (one IEEE operation per element); reductions are pairwise in float64 (see each
docstring).
"""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

import numpy as np

from . import _args as A
from . import _buffers as B
from ._args import CARRAY, CPTR, F32, F64, SFX, ndarray
from ._errors import error
from ._lib import cfunc, ffi

if TYPE_CHECKING:
    from ._typing import Array, ArrayLike, FloatArray

__all__ = [
    "copy",
    "fill",
    "add",
    "sub",
    "mul",
    "div",
    "scale",
    "axpy",
    "clip",
    "abs",
    "sum",
    "mean",
    "min",
    "max",
    "peak",
    "rms",
    "dot",
    "normalize_peak",
]

_fb = ffi.from_buffer
_new = ffi.new
#: the shared CFFI types of the two float dtypes, bound once for the fast paths
_FA32, _FA64 = CARRAY[F32], CARRAY[F64]
_FP32, _FP64 = CPTR[F32], CPTR[F64]
_tls = threading.local()


def _outs() -> Tuple[Any, ...]:
    """This thread's scalar out-parameters (float *, double *) for the reductions: made once
    per thread, so a reduction allocates nothing."""
    try:
        outs: Tuple[Any, ...] = _tls.outs
    except AttributeError:
        outs = _tls.outs = (_new(_FP32), _new(_FP64))
    return outs


class Kernel:
    """The C functions of one operation: contiguous f32/f64 and (if any) strided f32/f64."""

    __slots__ = ("name", "f32", "f64", "s32", "s64")

    def __init__(self, op: str, strided: bool = False) -> None:
        self.name = op
        self.f32 = cfunc(f"sk_{op}_f32")
        self.f64 = cfunc(f"sk_{op}_f64")
        self.s32: Any = cfunc(f"sk_{op}_strided_f32") if strided else None
        self.s64: Any = cfunc(f"sk_{op}_strided_f64") if strided else None

    def cname(self, dt: np.dtype[Any], strided: bool = False) -> str:
        return f"sk_{self.name}{'_strided' if strided else ''}_{SFX[dt]}"


# ---------------------------------------------------------------------------------------------
# The generic paths: a fast one for contiguous numpy arrays, a checked one for the rest
# ---------------------------------------------------------------------------------------------


def _map(k: Kernel, ins: Tuple[Any, ...], scalars: Tuple[Any, ...], out: Any) -> Any:
    """``out = op(*ins, *scalars)`` elementwise; ``ins`` are one or two arrays of one shape."""
    x = ins[0]
    if type(x) is ndarray:
        dt = x.dtype
        if dt is F32:
            f, ct = k.f32, _FA32
        elif dt is F64:
            f, ct = k.f64, _FA64
        else:
            return _map_checked(k, ins, scalars, out)
        if out is None:
            out = np.empty(x.shape, dt)
        elif type(out) is not ndarray or out.dtype is not dt or out.shape != x.shape:
            return _map_checked(k, ins, scalars, out)
        try:
            if len(ins) == 1:
                st = f(_fb(ct, x), *scalars, _fb(ct, out, True), x.size)
            else:
                b = ins[1]
                if type(b) is not ndarray or b.dtype is not dt or b.shape != x.shape:
                    return _map_checked(k, ins, scalars, out)
                st = f(_fb(ct, x), _fb(ct, b), *scalars, _fb(ct, out, True), x.size)
        except ValueError:  # not contiguous, or a read-only output: the checked path says which
            return _map_checked(k, ins, scalars, out)
        if st:
            raise error(st, k.cname(dt))
        return out
    ti = A.TORCH or A.torch_info()
    if ti is not None and type(x) is ti[0]:
        return _map_tensor(k, ins, scalars, out, ti)
    return _map_checked(k, ins, scalars, out)


def _map_tensor(k: Kernel, ins: Tuple[Any, ...], scalars: Tuple[Any, ...], out: Any, ti: Tuple[Any, ...]) -> Any:
    """:func:`_map`'s fast path for contiguous CPU tensors."""
    x = ins[0]
    dt = x.dtype
    if dt is ti[1]:
        f, ct = k.f32, _FP32
    elif dt is ti[2]:
        f, ct = k.f64, _FP64
    else:
        return _map_checked(k, ins, scalars, out)
    if out is None:
        out = x.new_empty(x.shape)
    elif type(out) is not ti[0] or out.dtype is not dt or out.shape != x.shape:
        return _map_checked(k, ins, scalars, out)
    px = B.tensor_ptr(x, ti, ct)
    po = B.tensor_ptr(out, ti, ct, True)
    if px is None or po is None:
        return _map_checked(k, ins, scalars, out)
    if len(ins) == 1:
        st = f(px, *scalars, po, x.numel())
    else:
        b = ins[1]
        if type(b) is not ti[0] or b.dtype is not dt or b.shape != x.shape:
            return _map_checked(k, ins, scalars, out)
        pb = B.tensor_ptr(b, ti, ct)
        if pb is None:
            return _map_checked(k, ins, scalars, out)
        st = f(px, pb, *scalars, po, x.numel())
    if st:
        raise error(st, k.cname(F32 if dt is ti[1] else F64))
    return out


def _scale_like(k: Kernel, x: Any, a: Any, out: Any) -> Any:
    """:func:`_map` for one array and one scalar (``f(x, a, y, n)``), written out: the per-call
    cost of :func:`scale` is mostly this function."""
    if type(x) is ndarray:
        dt = x.dtype
        if dt is F32:
            f, ct = k.f32, _FA32
        elif dt is F64:
            f, ct = k.f64, _FA64
        else:
            return _map_checked(k, (x,), (a,), out)
        try:
            if out is None:
                out = np.empty(x.shape, dt)
                st = f(_fb(ct, x), a, _fb(ct, out), x.size)
            elif type(out) is ndarray and out.dtype is dt and out.shape == x.shape:
                st = f(_fb(ct, x), a, _fb(ct, out, True), x.size)
            else:
                return _map_checked(k, (x,), (a,), out)
        except ValueError:
            return _map_checked(k, (x,), (a,), out)
        if st:
            raise error(st, k.cname(dt))
        return out
    return _map(k, (x,), (a,), out)


def _binary(k: Kernel, a: Any, b: Any, out: Any) -> Any:
    """:func:`_map` for two arrays (``f(a, b, y, n)``), written out like :func:`_scale_like`."""
    if type(a) is ndarray and type(b) is ndarray:
        dt = a.dtype
        if dt is F32:
            f, ct = k.f32, _FA32
        elif dt is F64:
            f, ct = k.f64, _FA64
        else:
            return _map_checked(k, (a, b), (), out)
        if b.dtype is not dt or b.shape != a.shape:
            return _map_checked(k, (a, b), (), out)
        try:
            if out is None:
                out = np.empty(a.shape, dt)
                st = f(_fb(ct, a), _fb(ct, b), _fb(ct, out), a.size)
            elif type(out) is ndarray and out.dtype is dt and out.shape == a.shape:
                st = f(_fb(ct, a), _fb(ct, b), _fb(ct, out, True), a.size)
            else:
                return _map_checked(k, (a, b), (), out)
        except ValueError:
            return _map_checked(k, (a, b), (), out)
        if st:
            raise error(st, k.cname(dt))
        return out
    return _map(k, (a, b), (), out)


_NAMES = {1: ("x",), 2: ("a", "b")}


def _common(k: Any, ins: Tuple[Any, ...], names: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """Inputs converted/checked, their common float dtype and shape."""
    func = k.name
    arrs = tuple(A.as_input(a, func, n) for a, n in zip(ins, names))
    dt = A.float_dtype(arrs[0], func, names[0])
    shape = tuple(arrs[0].shape)
    for a, n in zip(arrs[1:], names[1:]):
        if A.dtype_of(a) != dt:
            raise TypeError(
                f"{func}: {n} has dtype {A.dtype_of(a)} but {names[0]} has {dt}: "
                f"pass arrays of one dtype (convert with .astype)"
            )
        if tuple(a.shape) != shape:
            raise ValueError(
                f"{func}: {n} has shape {tuple(a.shape)} but {names[0]} has {shape} "
                "(sigkern does not broadcast)"
            )
    return arrs, dt, shape


def _ptrs(k: Kernel, arrs: Tuple[Any, ...], names: Tuple[Any, ...], dt: np.dtype[Any], out: Any) -> Tuple[Any, ...]:
    """(strided?, [(ptr, stride) of each input and of out])."""
    strided = k.s32 is not None and any(A.is_strided_1d(a) for a in arrs + ((out,) if out is not None else ()))
    ps = [B.pointer(a, dt, k.name, n, strided=strided) for a, n in zip(arrs, names)]
    if out is not None:
        ps.append(B.pointer(out, dt, k.name, "out", writable=True, strided=strided))
    return strided, ps


def _map_checked(k: Kernel, ins: Tuple[Any, ...], scalars: Tuple[Any, ...], out: Any) -> Any:
    names = _NAMES[len(ins)]
    arrs, dt, shape = _common(k, ins, names)
    if out is None:
        out = B.new_like(arrs[0], shape, dt)
    else:
        A.check_out(out, shape, dt, k.name)
    strided, ps = _ptrs(k, arrs, names, dt, out)
    n = math.prod(shape)
    if strided:
        f = k.s32 if dt == F32 else k.s64
        args = [v for p in ps[:-1] for v in p] + list(scalars) + list(ps[-1])
    else:
        f = k.f32 if dt == F32 else k.f64
        args = [p[0] for p in ps[:-1]] + list(scalars) + [ps[-1][0]]
    st = f(*args, n)
    if st:
        raise error(st, k.cname(dt, strided))
    return out


def _reduce(k: Kernel, x: Any) -> float:
    """``op(x)`` over all elements, as a Python float."""
    if type(x) is ndarray:
        dt = x.dtype
        try:
            if dt is F32:
                r = _outs()[0]
                st = k.f32(_fb(_FA32, x), r, x.size)
            elif dt is F64:
                r = _outs()[1]
                st = k.f64(_fb(_FA64, x), r, x.size)
            else:
                return _reduce_checked(k, (x,))
        except ValueError:
            return _reduce_checked(k, (x,))
        if st:
            raise error(st, k.cname(dt))
        v: float = r[0]
        return v
    return _reduce_checked(k, (x,))


def _reduce_checked(k: Kernel, ins: Tuple[Any, ...]) -> float:
    names = ("a", "b") if len(ins) == 2 else ("x",)
    arrs, dt, shape = _common(k, ins, names)
    strided, ps = _ptrs(k, arrs, names, dt, None)
    r = _new(_FP32 if dt == F32 else _FP64)
    if strided:
        f = k.s32 if dt == F32 else k.s64
        args = [v for p in ps for v in p]
    else:
        f = k.f32 if dt == F32 else k.f64
        args = [p[0] for p in ps]
    st = f(*args, r, math.prod(shape))
    if st:
        raise error(st, k.cname(dt, strided))
    return float(r[0])


class RowKernel:
    """``sk_rows_<op>_<f32|f64>(x, ld, out, rows, cols)``."""

    __slots__ = ("name", "f32", "f64")

    def __init__(self, op: str) -> None:
        self.name = op
        self.f32 = cfunc(f"sk_rows_{op}_f32")
        self.f64 = cfunc(f"sk_rows_{op}_f64")


def _rows2d(x: Any, func: str, name: str = "x", writable: bool = False) -> Any:
    """``x`` (ndim >= 1) viewed as (rows, cols) with a row stride in elements: returns
    (dtype, ptr, ld, rows, cols, leading shape). Contiguous rows are required."""
    dt = A.float_dtype(x, func, name)
    shape = tuple(x.shape)
    if not shape:
        raise ValueError(f"{func}: {name} is zero-dimensional; per-row reductions need ndim >= 1")
    cols = shape[-1]
    lead = shape[:-1]
    rows = math.prod(lead)
    if isinstance(x, np.ndarray) and x.ndim == 2 and x.strides[1] == dt.itemsize and not x.flags.c_contiguous:
        # a row slice m[:, a:b] of a C-contiguous matrix: rows at a stride
        if x.strides[0] % dt.itemsize or x.strides[0] < 0:
            raise ValueError(f"{func}: {name} rows are not at a whole, positive element stride; "
                             f"pass np.ascontiguousarray({name})")
        addr = x.__array_interface__["data"][0]
        if writable and not x.flags.writeable:
            raise A.read_only(func, name)
        ptr = ffi.cast(CPTR[dt], addr) if x.size else ffi.NULL
        return dt, ptr, x.strides[0] // dt.itemsize, rows, cols, lead
    ptr, _ = B.pointer(x, dt, func, name, writable=writable)
    return dt, ptr, cols, rows, cols, lead


def _rows(k: RowKernel, x: Any) -> Any:
    x = A.as_input(x, k.name, "x")
    dt, ptr, ld, rows, cols, lead = _rows2d(x, k.name)
    out = B.new_like(x, lead, dt)
    po, _ = B.pointer(out, dt, k.name, "out", writable=True)
    st = (k.f32 if dt == F32 else k.f64)(ptr, ld, po, rows, cols)
    if st:
        raise error(st, f"sk_rows_{k.name}_{SFX[dt]}")
    return out


def _axis_last(x: Any, axis: Any, func: str) -> bool:
    """True for a per-row reduction (axis = -1 or ndim - 1), False for axis=None."""
    if axis is None:
        return False
    nd = x.ndim if hasattr(x, "ndim") else np.ndim(x)
    if A.axis(axis, nd, func) == nd - 1:
        return True
    raise ValueError(
        f"{func}: axis must be None (all elements) or -1 (the last axis, per row), got {axis!r}; "
        "move the axis last first (np.moveaxis / tensor.movedim)"
    )


# ---------------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------------

_COPY = Kernel("copy", strided=True)
_FILL = Kernel("fill", strided=True)
_ADD = Kernel("add", strided=True)
_SUB = Kernel("sub")
_MUL = Kernel("mul", strided=True)
_DIV = Kernel("div")
_SCALE = Kernel("scale", strided=True)
_AXPY = Kernel("axpy", strided=True)
_CLIP = Kernel("clip", strided=True)
_ABS = Kernel("abs")


def copy(x: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """Copy of ``x`` (``sk_copy_*``; memmove semantics, so ``out`` may overlap ``x``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape (1-D views may be strided)
    out : same shape and dtype as ``x``, optional

    Returns
    -------
    out, or a new array/tensor like ``x``.

    Examples
    --------
    >>> y = sigkern.copy(np.arange(4.0))
    """
    ret: FloatArray = _map(_COPY, (x,), (), out)
    return ret


def fill(out: Array, value: float) -> Array:
    """Sets every element of ``out`` to ``value`` in place and returns ``out`` (``sk_fill_*``).

    Parameters
    ----------
    out : ndarray or Tensor, float32 or float64, writable (1-D views may be strided)
    value : float

    Returns
    -------
    out

    Examples
    --------
    >>> y = sigkern.fill(np.empty(8, np.float32), 0.25)
    """
    dt = A.float_dtype(out, "fill", "out")
    strided = A.is_strided_1d(out)
    p, s = B.pointer(out, dt, "fill", "out", writable=True, strided=True)
    n = math.prod(tuple(out.shape))
    if strided:
        st = (_FILL.s32 if dt == F32 else _FILL.s64)(value, p, s, n)
    else:
        st = (_FILL.f32 if dt == F32 else _FILL.f64)(value, p, n)
    if st:
        raise error(st, _FILL.cname(dt, strided))
    return out


def add(a: ArrayLike, b: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """``a + b`` elementwise (``sk_add_*``), bit-identical to numpy.

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (no broadcasting)
    out : same shape and dtype, optional; may be ``a`` or ``b`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``a``.

    Examples
    --------
    >>> sigkern.add(np.ones(3), np.ones(3))
    array([2., 2., 2.])
    """
    ret: FloatArray = _binary(_ADD, a, b, out)
    return ret


def sub(a: ArrayLike, b: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """``a - b`` elementwise (``sk_sub_*``), bit-identical to numpy.

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (no broadcasting;
        contiguous only)
    out : same shape and dtype, optional; may be ``a`` or ``b`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``a``.
    """
    ret: FloatArray = _binary(_SUB, a, b, out)
    return ret


def mul(a: ArrayLike, b: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """``a * b`` elementwise (``sk_mul_*``), bit-identical to numpy.

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (no broadcasting;
        1-D views may be strided)
    out : same shape and dtype, optional; may be ``a`` or ``b`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``a``.
    """
    ret: FloatArray = _binary(_MUL, a, b, out)
    return ret


def div(a: ArrayLike, b: ArrayLike, out: Optional[Array] = None) -> FloatArray:
    """``a / b`` elementwise (``sk_div_*``; ``x / 0`` is ±inf as in numpy), bit-identical to
    numpy.

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (no broadcasting;
        contiguous only)
    out : same shape and dtype, optional; may be ``a`` or ``b`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``a``.
    """
    ret: FloatArray = _binary(_DIV, a, b, out)
    return ret


def scale(x: ArrayLike, a: float, out: Optional[Array] = None) -> FloatArray:
    """``a * x`` elementwise (``sk_scale_*``), bit-identical to ``np.multiply(x, a)``.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape (1-D views may be strided)
    a : float (rounded to float32 for float32 data)
    out : same shape and dtype as ``x``, optional; may be ``x`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``x``.

    Examples
    --------
    >>> x = np.ones(4, np.float32)
    >>> y = np.empty_like(x)
    >>> sigkern.scale(x, 0.5, out=y)
    array([0.5, 0.5, 0.5, 0.5], dtype=float32)
    """
    ret: FloatArray = _scale_like(_SCALE, x, a, out)
    return ret


def axpy(x: ArrayLike, a: float, y: Array) -> Array:
    """``y += a * x`` in place (``sk_axpy_*``) and returns ``y``.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64
    a : float
    y : same shape and dtype as ``x``, writable; may be ``x``

    Returns
    -------
    y

    Examples
    --------
    >>> y = np.zeros(3); sigkern.axpy(np.ones(3), 2.0, y)
    array([2., 2., 2.])
    """
    arrs, dt, shape = _common(_AXPY, (x, y), ("x", "y"))
    x, y = arrs
    strided, ps = _ptrs(_AXPY, (x,), ("x",), dt, y)
    n = math.prod(shape)
    if strided:
        st = (_AXPY.s32 if dt == F32 else _AXPY.s64)(ps[0][0], ps[0][1], a, ps[1][0], ps[1][1], n)
    else:
        st = (_AXPY.f32 if dt == F32 else _AXPY.f64)(ps[0][0], a, ps[1][0], n)
    if st:
        raise error(st, _AXPY.cname(dt, strided))
    return y


def clip(x: ArrayLike, lo: float, hi: float, out: Optional[Array] = None) -> FloatArray:
    """``np.clip(x, lo, hi)`` (``sk_clip_*``): NaN elements stay NaN.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape (1-D views may be strided)
    lo, hi : float
        The bounds (rounded to float32 for float32 data).
    out : same shape and dtype as ``x``, optional; may be ``x`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``x``.

    Raises
    ------
    BadArgumentError
        ``lo > hi`` or a NaN bound.

    Examples
    --------
    >>> sigkern.clip(np.array([-2.0, 0.5, 3.0]), -1.0, 1.0)
    array([-1. ,  0.5,  1. ])
    """
    ret: FloatArray = _map(_CLIP, (x,), (lo, hi), out)
    return ret


def abs(x: ArrayLike, out: Optional[Array] = None) -> FloatArray:  # noqa: A001 - numpy's name
    """``np.abs(x)`` (``sk_abs_*``).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, any shape (contiguous only)
    out : same shape and dtype as ``x``, optional; may be ``x`` (in place)

    Returns
    -------
    out, or a new array/tensor like ``x``.

    Examples
    --------
    >>> sigkern.abs(np.array([-1.5, 2.0]))
    array([1.5, 2. ])
    """
    ret: FloatArray = _map(_ABS, (x,), (), out)
    return ret


# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------

_SUM = Kernel("sum", strided=True)
_MEAN = Kernel("mean")
_MIN = Kernel("min", strided=True)
_MAX = Kernel("max", strided=True)
_PEAK = Kernel("peak", strided=True)
_RMS = Kernel("rms", strided=True)
_DOT = Kernel("dot", strided=True)
_ROWS_SUM = RowKernel("sum")
_ROWS_MEAN = RowKernel("mean")
_ROWS_PEAK = RowKernel("peak")
_ROWS_RMS = RowKernel("rms")
_ROWS_NORMALIZE = RowKernel("normalize_peak")

_REDUCE_DOC = """{what} (C: ``sk_{op}_*``{rows}).

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64 (1-D views may be strided)
    axis : None or -1
        None: over all elements, returning a Python float. -1: per row over the last axis,
        returning an array/tensor of shape ``x.shape[:-1]`` and ``x``'s dtype.

    Returns
    -------
    float, or (axis=-1) ndarray or Tensor of shape ``x.shape[:-1]``

    {notes}

    Examples
    --------
    >>> sigkern.{op}(np.array([3.0, -4.0]))
    {example}
    """


def _per_row(k: Kernel, rk: Optional[RowKernel], x: Any, axis: Any) -> Any:
    x = A.as_input(x, k.name, "x")
    _axis_last(x, axis, k.name)
    if rk is not None:
        return _rows(rk, x)
    # min/max per row: one strided reduction per row
    dt = A.float_dtype(x, k.name, "x")
    lead = tuple(x.shape[:-1])
    out = B.new_like(x, lead, dt)
    flat_in = x.reshape(-1, x.shape[-1])
    flat_out = out.reshape(-1)
    for i in range(flat_in.shape[0]):
        flat_out[i] = _reduce(k, flat_in[i])
    return out


def sum(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:  # noqa: A001
    return _reduce(_SUM, x) if axis is None else _per_row(_SUM, _ROWS_SUM, x, axis)


def mean(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:
    return _reduce(_MEAN, x) if axis is None else _per_row(_MEAN, _ROWS_MEAN, x, axis)


def min(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:  # noqa: A001
    return _reduce(_MIN, x) if axis is None else _per_row(_MIN, None, x, axis)


def max(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:  # noqa: A001
    return _reduce(_MAX, x) if axis is None else _per_row(_MAX, None, x, axis)


def peak(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:
    return _reduce(_PEAK, x) if axis is None else _per_row(_PEAK, _ROWS_PEAK, x, axis)


def rms(x: ArrayLike, axis: Optional[int] = None) -> Union[float, FloatArray]:
    return _reduce(_RMS, x) if axis is None else _per_row(_RMS, _ROWS_RMS, x, axis)


_PAIRWISE = (
    "Notes\n    -----\n    Pairwise summation with float64 accumulation across blocks: relative error about\n"
    "    11·eps·Σ|x| (below numpy's); finite data never overflows in an intermediate sum."
)
_EMPTY = "An empty ``x`` raises :class:`LengthError` (numpy returns NaN or raises)."
for _f, _what, _rows_c, _notes, _ex in (
    (sum, "Sum of the elements", ", ``sk_rows_sum_*`` per row", _PAIRWISE + " Zero elements sum to 0.", "-1.0"),
    (mean, "Mean of the elements", ", ``sk_rows_mean_*`` per row", _PAIRWISE + " " + _EMPTY, "-0.5"),
    (min, "Minimum (NaN if any element is NaN, as numpy)", "", _EMPTY, "-4.0"),
    (max, "Maximum (NaN if any element is NaN, as numpy)", "", _EMPTY, "3.0"),
    (peak, "Peak magnitude ``max(abs(x))`` (NaN if any element is NaN)", ", ``sk_rows_peak_*`` per row",
     _EMPTY, "4.0"),
    (rms, "Root mean square ``sqrt(mean(x**2))``", ", ``sk_rows_rms_*`` per row",
     "Notes\n    -----\n    float32: squares summed in float32 inside blocks of 512, in float64 across blocks\n"
     "    (a few ulp; sums that overflow or underflow are redone in float64, so FLT_MAX and\n"
     "    denormal data lose nothing); float64 data whose squares overflow or underflow is\n"
     "    rescaled. " + _EMPTY, "3.5355..."),
):
    _f.__doc__ = _REDUCE_DOC.format(what=_what, op=_f.__name__, rows=_rows_c, notes=_notes, example=_ex)


def dot(a: ArrayLike, b: ArrayLike) -> float:
    """``Σ a·b`` (``sk_dot_*``), pairwise with float64 accumulation, as a Python float.

    Parameters
    ----------
    a, b : ndarray or Tensor, float32 or float64, one shape and dtype (1-D views may be strided)

    Returns
    -------
    float

    Examples
    --------
    >>> sigkern.dot(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    11.0
    """
    if type(a) is ndarray and type(b) is ndarray and a.dtype is b.dtype and a.shape == b.shape:
        dt = a.dtype
        try:
            if dt is F32:
                r = _outs()[0]
                st = _DOT.f32(_fb(_FA32, a), _fb(_FA32, b), r, a.size)
            elif dt is F64:
                r = _outs()[1]
                st = _DOT.f64(_fb(_FA64, a), _fb(_FA64, b), r, a.size)
            else:
                return _reduce_checked(_DOT, (a, b))
        except ValueError:
            return _reduce_checked(_DOT, (a, b))
        if st:
            raise error(st, _DOT.cname(dt))
        v: float = r[0]
        return v
    return _reduce_checked(_DOT, (a, b))


def normalize_peak(x: ArrayLike) -> FloatArray:
    """Divides every row (last axis) of ``x`` by its peak magnitude, in place, and returns ``x``
    (``sk_rows_normalize_peak_*``). Rows that are all zero stay zero.

    Parameters
    ----------
    x : ndarray or Tensor, float32 or float64, ndim >= 1, writable, rows contiguous

    Returns
    -------
    x

    Examples
    --------
    >>> sigkern.normalize_peak(np.array([[0.5, -2.0], [1.0, 0.25]]))
    array([[ 0.25, -1.  ],
           [ 1.  ,  0.25]])
    """
    x = A.as_input(x, "normalize_peak", "x")
    dt, ptr, ld, rows, cols, _ = _rows2d(x, "normalize_peak", writable=True)
    st = (_ROWS_NORMALIZE.f32 if dt == F32 else _ROWS_NORMALIZE.f64)(ptr, ld, rows, cols)
    if st:
        raise error(st, f"sk_rows_normalize_peak_{SFX[dt]}")
    return x
