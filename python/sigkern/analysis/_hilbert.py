"""The analytic signal (C: ``sk_hilbert_*``; Rust: ``src/kernels/analysis/hilbert.rs``):
``scipy.signal``'s :func:`hilbert`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .._lib import cfunc
from ._common import _D, _fb, _norm_axis, _raise, _rows64

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["hilbert"]

_hil = cfunc("sk_hilbert_f64")


def hilbert(x: ArrayLike, N: Optional[int] = None, axis: int = -1) -> np.ndarray:
    """``scipy.signal.hilbert``: the analytic signal ``x + i·H{x}`` along ``axis``
    (``sk_hilbert_f64``; rows split over the library's threads).

    Parameters
    ----------
    x : array_like, real
        Signal; float32 gives complex64, everything else complex128 (computed in double).
    N : int, optional
        Number of points: the signal is truncated or zero-padded to N (default: its length).
    axis : int, default -1

    Returns
    -------
    ndarray, complex
        The analytic signal, ``N`` points along ``axis``.

    Raises
    ------
    ValueError
        Complex input ("x must be real."), ``N <= 0``.

    Examples
    --------
    >>> z = sigkern.hilbert(np.cos(2 * np.pi * np.arange(8) / 8))
    >>> bool(np.allclose(z, np.exp(2j * np.pi * np.arange(8) / 8)))
    True
    """
    a: Any = np.asarray(x)
    if a.dtype.kind == "c":
        raise ValueError("x must be real.")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"hilbert: x must hold numbers, got dtype {a.dtype}")
    if a.ndim == 0:
        raise ValueError("hilbert: x must have at least one dimension")
    ax = _norm_axis(axis, a.ndim, "hilbert")
    if N is None:
        N = a.shape[ax]
    N = int(N)
    if N <= 0:
        raise ValueError("N must be positive.")
    rows, outer = _rows64(a, ax)
    z = np.empty(outer + (N,), np.complex128)
    nr, n = rows.shape
    if nr:
        st = _hil(_fb(_D, rows), N, _fb(_D, z.view(np.float64), True), nr, n, z.size)
        if st:
            _raise(st, "sk_hilbert_f64")
    if a.dtype == np.float32:
        z = z.astype(np.complex64)
    return np.moveaxis(z, -1, ax)
