"""What the spectral modules share: the real/complex input checks, the status check, small
array helpers (C: none of its own)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Tuple

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import C128, C64, F32
from .._errors import error
from .._lib import ffi

if TYPE_CHECKING:
    from .._typing import Array

__all__ = []

_fb = ffi.from_buffer
_new = ffi.new
_NULL = ffi.NULL
_INF = math.inf


def _flag(v: Any) -> int:
    return 1 if v else 0


def _swap(a: Any) -> Any:
    """The last two axes exchanged (a view)."""
    return a.swapaxes(-1, -2) if isinstance(a, np.ndarray) else a.transpose(-1, -2)


def _zeros(like: Any, shape: Tuple[int, ...], dt: np.dtype[Any]) -> Any:
    z = B.new_like(like, shape, dt)
    z[...] = 0
    return z


def _real_input(x: Any, func: str, name: str) -> Array:
    """A float32/float64 array or tensor (lists converted); complex data is a TypeError."""
    dt = A.dtype_of(x)
    if dt is not None and dt.kind == "c":
        raise TypeError(
            f"{func}: {name} must be real (float32 or float64), got {A.describe(x)}; "
            f"sigkern's {func} takes real signals only"
        )
    return A.as_input(x, func, name)


def _complex_input(x: Any, func: str, name: str) -> Array:
    """A complex64/complex128 array or tensor (lists converted); float data is a TypeError:
    it is never reinterpreted as interleaved re/im."""
    dt = A.dtype_of(x)
    if dt is not None and dt.kind == "f":
        view = "np.complex64" if dt == F32 else "np.complex128"
        raise TypeError(
            f"{func}: {name} must be complex64 or complex128, got {A.describe(x)}. A float array "
            f"is not reinterpreted as complex: if it holds interleaved re/im pairs, pass "
            f"{name}.view({view}) (torch: torch.view_as_complex); to convert real values, pass "
            f"{name}.astype({view})"
        )
    return A.as_input(x, func, name, (C64, C128))


def _raise(st: int, cname: str) -> None:
    raise error(st, cname)
