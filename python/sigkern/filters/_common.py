"""What the filter modules share: filter coefficients as float64 arrays, and the copy of a
result computed on another time axis into the caller's ``out``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F64
from .._lib import ffi

__all__ = []

_fb = ffi.from_buffer


def _coefs(c: Any, func: str, name: str, dtype: np.dtype[Any] = F64) -> np.ndarray:
    """Filter coefficients (array-like, numpy array or tensor) as a C-contiguous numpy copy."""
    if A.is_tensor(c):
        c = c.detach().cpu().numpy()
    try:
        a = np.array(c, dtype=dtype, order="C")
    except (TypeError, ValueError) as e:
        raise TypeError(f"{func}: {name} must be an array of real numbers, got {A.describe(c)}") from e
    return a


def _copy_out(out: Any, y: Any, dt: np.dtype[Any], func: str) -> Any:
    """Copies the result ``y`` (moved back from another time axis) into the caller's ``out``
    (which must be a contiguous, writable output, as on the last axis)."""
    B.pointer(out, dt, func, "out", writable=True)
    return A.copy_into(out, y)
