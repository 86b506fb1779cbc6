"""What the filter modules share: filter coefficients as float64 arrays, and the copy of a
result computed on another time axis into the caller's ``out``."""

from __future__ import annotations

import numbers
from typing import Any, Callable, Tuple

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F64
from .._lib import ffi

__all__ = []

_fb = ffi.from_buffer


def _coefs(c: Any, func: str, name: str, dtype: np.dtype[Any] = F64, complex_ok: bool = False) -> np.ndarray:
    """Filter coefficients (array-like, numpy array or tensor) as a C-contiguous numpy copy of
    ``dtype``. Non-numbers (``None``, strings) are a ``TypeError`` (numpy would read ``None`` as
    NaN); complex coefficients are returned as complex128 when ``complex_ok``, else refused
    with a ``TypeError`` (never with their imaginary part dropped)."""
    if A.is_tensor(c):
        c = c.detach().cpu().numpy()
    try:
        raw = np.asarray(c)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{func}: {name} must be an array of real numbers, got {A.describe(c)}") from e
    if raw.dtype.kind == "O":
        if not all(isinstance(v, (numbers.Number, np.generic)) for v in raw.flat):
            raise TypeError(f"{func}: {name} must be an array of numbers, got {raw.tolist()!r}")
        raw = raw.astype(np.complex128 if any(isinstance(v, complex) for v in raw.flat) else dtype)
    elif raw.dtype.kind not in "biufc":
        raise TypeError(f"{func}: {name} must be an array of real numbers, got {A.describe(c)}")
    if raw.dtype.kind == "c" and np.any(raw.imag != 0):
        if complex_ok:
            return np.array(raw, dtype=np.complex128, order="C")
        raise TypeError(f"{func}: {name} has complex values; sigkern filters with real "
                        f"coefficients only (complex signals are fine)")
    return np.array(raw.real if raw.dtype.kind == "c" else raw, dtype=dtype, order="C")


def _signal(x: Any, func: str) -> Any:
    """The signal of a scipy-named filter function: numpy/scipy's promotion (integers, bool,
    float16 → float64; complex kept, see :func:`_split_complex`)."""
    return A.promote(x, func, "x")


def _planar_in(x: Any, dt: np.dtype[Any], func: str) -> Tuple[Any, Any, int]:
    """(``x`` or its contiguous copy, pointer, channel stride): data the planar kernels take as
    it is (C-contiguous, or rows contiguous at a stride), other layouts copied into a
    contiguous workspace (never refused)."""
    A.cpu_tensor(x, func, "x")
    try:
        px, sx = B.planar(x, dt, func, "x")
        return x, px, sx
    except ValueError:
        if A.is_contig(x):
            raise
    x = A.contig(x)
    px, sx = B.planar(x, dt, func, "x")
    return x, px, sx


def _complex_tensor(call: Callable[[Any], Any], x: Any) -> Any:
    """A complex CPU tensor through the numpy path (``call(ndarray)``), results back as
    tensors; None when ``x`` is not a complex tensor."""
    if not (A.is_tensor(x) and x.is_complex()):
        return None
    A.cpu_tensor(x, "sigkern", "x")
    t = A._torch()
    res = call(x.detach().resolve_conj().numpy())
    if isinstance(res, tuple):
        return tuple(t.from_numpy(np.ascontiguousarray(r)) for r in res)
    return t.from_numpy(np.ascontiguousarray(res))


def _is_complex(a: Any) -> bool:
    return isinstance(a, np.ndarray) and a.dtype.kind == "c"


def _split_complex(call: Callable[[Any, Any], Any], x: np.ndarray, zi: Any) -> Any:
    """A linear filter with real coefficients of a complex signal: the real and imaginary parts
    (and of ``zi``) stacked as channels of one real call, ``call(planes, zi_planes)`` on a new
    leading axis (``x``'s axes shifted by one), recombined in ``x``'s complex dtype."""
    rdt = A.REAL_OF[x.dtype]
    planes = np.empty((2,) + x.shape, rdt)
    planes[0], planes[1] = x.real, x.imag
    zp = None
    if zi is not None:
        z = np.asarray(zi)
        zp = np.empty((2,) + z.shape, rdt)
        zp[0] = z.real
        zp[1] = z.imag if z.dtype.kind == "c" else 0
    res = call(planes, zp)
    y = res[0] if zi is not None else res
    yc = np.empty(x.shape, x.dtype)
    yc.real, yc.imag = y[0], y[1]
    if zi is None:
        return yc
    zf = res[1]
    zc = np.empty(zf.shape[1:], x.dtype)
    zc.real, zc.imag = zf[0], zf[1]
    return yc, zc


def _copy_out(out: Any, y: Any, dt: np.dtype[Any], func: str) -> Any:
    """Copies the result ``y`` (moved back from another time axis) into the caller's ``out``
    (which must be a contiguous, writable output, as on the last axis)."""
    B.pointer(out, dt, func, "out", writable=True)
    return A.copy_into(out, y)
