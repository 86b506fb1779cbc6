"""The analytic signal (C: ``sk_hilbert_*``; Rust: ``src/kernels/analysis/hilbert.rs``; the
envelope through sigkern's FFTs): ``scipy.signal``'s :func:`hilbert` and :func:`envelope`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Tuple

import numpy as np

from .._lib import cfunc
from ._common import CT, _fb, _norm_axis, _raise, _rows64, _single

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["hilbert", "envelope"]

_hil = {np.dtype(np.float64): cfunc("sk_hilbert_f64"), np.dtype(np.float32): cfunc("sk_hilbert_f32")}


def hilbert(x: ArrayLike, N: Optional[int] = None, axis: int = -1) -> np.ndarray:
    """``scipy.signal.hilbert``: the analytic signal ``x + i·H{x}`` along ``axis``
    (``sk_hilbert_f64``; rows split over the library's threads).

    Parameters
    ----------
    x : array_like, real
        Signal; float32 is computed in single precision and gives complex64 (as scipy),
        everything else complex128 (computed in double).
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
    single = _single(a)
    dt = np.dtype(np.float32 if single else np.float64)
    rows, outer = _rows64(a, ax, dt)
    z = np.empty(outer + (N,), np.complex64 if single else np.complex128)
    nr, n = rows.shape
    if nr:
        st = _hil[dt](_fb(CT[dt], rows), N, _fb(CT[dt], z.view(dt), True), nr, n, z.size)
        if st:
            _raise(st, f"sk_hilbert_{'f32' if single else 'f64'}")
    return np.moveaxis(z, -1, ax)


def envelope(
    z: ArrayLike,
    bp_in: Tuple[Optional[int], Optional[int]] = (1, None),
    *,
    n_out: Optional[int] = None,
    squared: bool = False,
    residual: Optional[str] = "lowpass",
    axis: int = -1,
) -> np.ndarray:
    """``scipy.signal.envelope``: the envelope of a real or complex signal, the magnitude of its
    analytic signal restricted to the band ``bp_in`` (computed with sigkern's FFTs, bin for bin as scipy
    does), optionally resampled to ``n_out`` points, with the residual of the band filter.

    Parameters
    ----------
    z : array_like, real or complex
        Signal of ``n`` samples along ``axis``.
    bp_in : (int or None, int or None), default (1, None)
        The band ``bp_in[0]:bp_in[1]`` of the input filter in multiples of ``1/(n·T)``;
        ``-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2`` (None: that limit).
    n_out : int, optional
        Number of output samples (default ``n``); the envelope is resampled in the frequency
        domain.
    squared : bool, default False
        Return the squared envelope.
    residual : {"lowpass", "all", None}, default "lowpass"
        None: the envelope only. "lowpass": also the part of the signal below the band;
        "all": also everything outside the band. Then the result is ``stack((envelope,
        residual))``.
    axis : int, default -1

    Returns
    -------
    ndarray
        The envelope (``n_out`` samples along ``axis``), or envelope and residual stacked along
        a new first axis. The envelope is float64 (float32 for float32/complex64 input), the
        residual of the input's kind (real or complex), as scipy.

    Raises
    ------
    ValueError
        scipy's checks (axis, empty signal, ``bp_in``, ``n_out``, ``residual``).
    TypeError
        Input that is not numbers.

    Examples
    --------
    >>> t = np.arange(200) / 200
    >>> x = (1 + 0.5 * np.cos(2 * np.pi * 2 * t)) * np.cos(2 * np.pi * 40 * t)
    >>> env = sigkern.envelope(x, residual=None)
    >>> bool(np.allclose(env, 1 + 0.5 * np.cos(2 * np.pi * 2 * t)))
    True
    """
    from ..spectral import fft, ifft, irfft, rfft

    a: Any = np.asarray(z)
    if not (-a.ndim <= axis < a.ndim):
        raise ValueError(f"Invalid parameter {axis=} for z.shape={a.shape}!")
    if not (a.shape[axis] > 0):
        raise ValueError(f"z.shape[axis] not > 0 for z.shape={a.shape}, {axis=}!")
    if len(bp_in) != 2 or not all((isinstance(b_, int) or b_ is None) for b_ in bp_in):
        raise ValueError(f"{bp_in=} isn't a 2-tuple of type (int | None, int | None)!")
    if not ((isinstance(n_out, int) and 0 < n_out) or n_out is None):
        raise ValueError(f"{n_out=} is not a positive integer or None!")
    if residual not in ("lowpass", "all", None):
        raise ValueError(f"{residual=} not in ['lowpass', 'all', None]!")
    if a.dtype.kind not in "biufc":
        raise TypeError(f"envelope: z must hold numbers, got dtype {a.dtype}")
    n = a.shape[axis]
    n_out = n if n_out is None else n_out
    fak = n_out / n
    bp = slice(bp_in[0] if bp_in[0] is not None else -(n // 2), bp_in[1] if bp_in[1] is not None else (n + 1) // 2)
    if not (-n // 2 <= bp.start < bp.stop <= (n + 1) // 2):
        raise ValueError(
            "`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does not hold "
            + f"for n=z.shape[axis]={a.shape[axis]} and {bp_in=}!"
        )
    m = np.moveaxis(a, axis, -1)
    cplx = a.dtype.kind == "c"
    if cplx:
        Z: Any = fft(np.ascontiguousarray(m, dtype=np.complex64 if a.dtype == np.complex64 else np.complex128))
    else:
        m = np.ascontiguousarray(m, dtype=np.float32 if a.dtype == np.float32 else np.float64)
        Zr: Any = rfft(m)
        Z = np.zeros(m.shape, Zr.dtype)
        Z[..., : n // 2 + 1] = Zr
        if bp.start > 0:
            Z[..., bp] *= 2
        elif bp.stop > 0:
            Z[..., 1 : bp.stop] *= 2
    if not (bp.start <= 0 < bp.stop):
        z_bb: Any = ifft(np.ascontiguousarray(Z[..., bp]), n=n_out) * fak
    else:
        bp_shift = slice(bp.start + n // 2, bp.stop + n // 2)
        z_bb = ifft(np.ascontiguousarray(np.fft.fftshift(Z, axes=-1)[..., bp_shift]), n=n_out) * fak
    z_env: Any = np.abs(z_bb) if not squared else np.real(z_bb) ** 2 + np.imag(z_bb) ** 2
    z_env = np.moveaxis(z_env, -1, axis)
    if residual is None:
        return np.asarray(z_env)
    if not (bp.start <= 0 < bp.stop):
        Z[..., bp] = 0
    else:
        Z[..., : bp.stop], Z[..., bp.start :] = 0, 0
    if residual == "lowpass":
        if bp.stop > 0:
            Z[..., bp.stop : (n + 1) // 2] = 0
        else:
            Z[..., bp.start :], Z[..., 0 : (n + 1) // 2] = 0, 0
    mm = min(n, n_out)
    if cplx:  # scipy's resample(Z, n_out, domain="freq"): the unpaired bin united or split
        m2 = mm // 2 + 1
        Y = np.zeros(Z.shape[:-1] + (n_out,), Z.dtype)
        Y[..., :m2] = Z[..., :m2]
        if m2 < mm:
            Y[..., m2 - mm :] = Z[..., m2 - mm :]
        if mm % 2 == 0:
            if n_out < n:
                Y[..., -mm // 2] += Z[..., -mm // 2]
            elif n < n_out:
                Y[..., mm // 2] /= 2
                Y[..., n_out - mm // 2] = Y[..., mm // 2]
        z_res: Any = ifft(np.ascontiguousarray(Y / (n / n_out)), n=n_out)
    else:
        if n_out != n and mm % 2 == 0:
            Z[..., mm // 2] *= 2 if n_out < n else 0.5
        z_res = fak * irfft(np.ascontiguousarray(Z), n=n_out)
    return np.stack((z_env, np.moveaxis(z_res, -1, axis)), axis=0)
