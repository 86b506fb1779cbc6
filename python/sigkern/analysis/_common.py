"""What the analysis modules share (C: none of its own): scipy-style input conversion, the
float64 working copy of a signal with the analysis axis last, and the status check."""

from __future__ import annotations

from typing import Any, Tuple, cast

import numpy as np

from .. import _args as A
from .._args import CARRAY, F64
from .._errors import error
from .._lib import ffi

__all__: list[str] = []

_fb = ffi.from_buffer
_NULL = ffi.NULL
_D = CARRAY[F64]


def _raise(st: int, cname: str) -> None:
    raise error(st, cname)


def _asarray(x: Any, func: str, name: str = "x", complex_ok: bool = False) -> np.ndarray:
    """``np.asarray(x)`` as scipy does it. Complex data is refused (``TypeError``: sigkern's
    analysis kernels take real signals) unless ``complex_ok``, where the caller refuses it with
    :func:`_refuse_complex` after checking the other arguments in scipy's order."""
    a = np.asarray(x)
    if a.dtype.kind == "c":
        if not complex_ok:
            _refuse_complex(a, func, name)
    elif a.dtype.kind not in "biuf":
        raise TypeError(f"{func}: {name} must hold numbers, got dtype {a.dtype}")
    return a


def _refuse_complex(a: np.ndarray, func: str, name: str) -> None:
    if a.dtype.kind == "c":
        raise TypeError(
            f"{func}: {name} is complex ({a.dtype}); sigkern's {func} takes real signals only "
            f"(use scipy.signal.{func} for complex data)"
        )


def _rows64(a: np.ndarray, axis: int, dtype: Any = np.float64) -> Tuple[np.ndarray, Tuple[int, ...]]:
    """``a`` with ``axis`` last as a C-contiguous array of ``dtype`` (float64 unless given) and
    shape ``(rows, n)``, and the shape of the other axes."""
    m = np.moveaxis(a, axis, -1)
    outer = m.shape[:-1]
    r = np.ascontiguousarray(m, dtype=dtype).reshape(-1, m.shape[-1])
    return r, tuple(outer)


#: the C array type of each working dtype
CT = {np.dtype(np.float64): _D, np.dtype(np.float32): CARRAY[np.dtype(np.float32)]}


def _single(a: np.ndarray) -> bool:
    """Whether ``a`` is float32 (then the ``_f32`` kernel runs, as scipy computes in single)."""
    return bool(a.dtype == np.float32)


def _norm_axis(axis: Any, ndim: int, func: str, name: str = "x") -> int:
    """An axis of an ``ndim``-dimensional array as a non-negative index (``_args.axis``: numpy's
    ``AxisError`` out of range, ``TypeError`` for a non-integer)."""
    return A.axis(axis, ndim, func, name)


def _fs(fs: Any, func: str, positive: bool = True) -> float:
    """A sampling frequency (``_args.rate``); ``positive``: scipy's check of ``fs > 0``."""
    f = A.rate(fs, func, "fs")
    if positive and not f > 0:
        raise ValueError(f"Sampling frequency fs={fs} must be positive!")
    return f


def _validate_fs(fs: Any) -> float:
    """scipy's ``_validate_fs(fs, allow_none=False)`` (the frequency-response functions): any real
    scalar, as a float; ``None`` or an array is a ``ValueError`` with scipy's message."""
    if fs is None:
        raise ValueError("Sampling frequency can not be none.")
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(cast(Any, fs))
