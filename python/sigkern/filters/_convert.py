"""Conversions between filter representations: ``scipy.signal``'s :func:`zpk2tf`,
:func:`tf2zpk`, :func:`tf2sos`, :func:`sos2tf`, :func:`sos2zpk`, :func:`bilinear` and
:func:`bilinear_zpk`.

scipy defines these results through numpy itself (``numpy.roots`` — the eigenvalues of the
companion matrix —, polynomial products by ``numpy.convolve``, numpy's ``Polynomial``
arithmetic), so they are computed here the same way, in numpy, and equal scipy's to the last
bit on the same numpy; there is no C kernel (the work is numpy's LAPACK call or a handful of
operations). :func:`tf2sos` pairs with the C ``zpk2sos`` (``sk_zpk2sos``)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Optional, Tuple, cast

import numpy as np

from ._design import _poly, zpk2sos

if TYPE_CHECKING:
    from .._typing import ArrayLike, F64Array

__all__ = ["BadCoefficients", "zpk2tf", "tf2zpk", "tf2sos", "sos2tf", "sos2zpk", "bilinear",
           "bilinear_zpk"]


class BadCoefficients(UserWarning):
    """Warning about badly conditioned filter coefficients (scipy's
    ``scipy.signal.BadCoefficients``)."""


def _fs(fs: Any) -> float:
    """scipy's ``_validate_fs(fs, allow_none=False)``."""
    if fs is None:
        raise ValueError("Sampling frequency can not be none.")
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(cast(Any, fs))


def _trim_front(a: Any) -> Any:
    first = 0
    for v in a:
        if v != 0.0:
            break
        first += 1
    return a[first:]


def _align_nums(nums: Any) -> Any:
    try:
        arr = np.asarray(nums)
        if not np.issubdtype(arr.dtype, np.number):
            raise ValueError("dtype of numerator is non-numeric")
        return arr
    except ValueError:
        rows = [np.atleast_1d(np.asarray(n)) for n in nums]
        width = max(r.size for r in rows)
        out = np.zeros((len(rows), width))
        for i, r in enumerate(rows):
            out[i, -r.size:] = r
        return out


def _normalize(b: Any, a: Any) -> Tuple[Any, Any]:
    """scipy's ``normalize(b, a)``: leading zeros off, ``a[0] = 1``."""
    den = np.atleast_1d(np.asarray(a))
    num = np.asarray(_align_nums(b))
    if num.ndim < 2:
        num = num.reshape((1,) * (2 - num.ndim) + num.shape)
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    if np.all(den == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = _trim_front(den)
    num, den = num / den[0], den / den[0]
    leading = 0
    for j in range(num.shape[-1]):
        if np.all(np.abs(num[:, j]) <= 1e-14):
            leading += 1
        else:
            break
    if leading > 0:
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may be meaningless",
                      BadCoefficients, stacklevel=3)
        if leading == num.shape[1]:
            leading -= 1
        num = num[:, leading:]
    if num.shape[0] == 1:
        num = num[0, :]
    return num, den


def _roots(coef: Any) -> Any:
    """scipy's ``polyroots``: ``numpy.roots``."""
    if coef.shape[0] < 2:
        return np.asarray([], dtype=coef.dtype)
    return np.roots(coef)


def zpk2tf(z: ArrayLike, p: ArrayLike, k: ArrayLike) -> Tuple[Any, Any]:
    """Numerator and denominator polynomials from zeros, poles and gain,
    ``scipy.signal.zpk2tf`` (numpy's ``poly`` by convolution, as scipy; bit for bit).

    Parameters
    ----------
    z : array_like
        Zeros, 1-D; or 2-D, one row of zeros per numerator (then ``k`` has one gain per row or
        one for all).
    p : array_like
        Poles, 1-D.
    k : float or array_like
        Gain(s).

    Returns
    -------
    b : ndarray
        Numerator coefficients (2-D for 2-D ``z``); real when the zeros come in conjugate
        pairs.
    a : ndarray
        Denominator coefficients.

    Raises
    ------
    ValueError
        Inputs numpy cannot broadcast as scipy does.

    Examples
    --------
    >>> b, a = sigkern.zpk2tf([-1.0], [0.5], 2.0)
    >>> b.tolist(), a.tolist()
    ([2.0, 2.0], [1.0, -0.5])
    """
    za = np.asarray(z)
    pa = np.asarray(p)
    kk = np.asarray(k, dtype=np.result_type(np.real(za), np.real(pa), k))
    if kk.dtype.kind in "iub":
        kk = kk.astype(np.float64)
    za = np.atleast_1d(za)
    kk = np.atleast_1d(kk)
    if za.ndim > 1:
        temp = _poly(za[0, ...])
        b = np.empty((za.shape[0], za.shape[1] + 1), dtype=temp.dtype)
        ks = [kk[0]] * za.shape[0] if kk.shape[0] == 1 else kk
        for i in range(za.shape[0]):
            b[i, ...] = np.asarray(ks[i], dtype=b.dtype) * _poly(za[i, ...])
    else:
        b = np.multiply(kk, _poly(za))
    a = np.atleast_1d(np.asarray(_poly(pa)))
    return b, a


def tf2zpk(b: ArrayLike, a: ArrayLike) -> Tuple[Any, Any, Any]:
    """Zeros, poles and gain of a transfer function, ``scipy.signal.tf2zpk`` (scipy's
    ``normalize``, then ``numpy.roots`` of numerator and denominator, as scipy; bit for bit).

    Parameters
    ----------
    b : array_like
        Numerator coefficients, highest power first.
    a : array_like
        Denominator coefficients, highest power first.

    Returns
    -------
    z : ndarray
        Zeros.
    p : ndarray
        Poles.
    k : float
        Gain (numerator's leading coefficient over the denominator's).

    Raises
    ------
    ValueError
        scipy's checks (a denominator of zeros, wrong ranks).

    Warns
    -----
    BadCoefficients
        Leading numerator coefficients below 1e-14 (removed), as scipy.

    Examples
    --------
    >>> z, p, k = sigkern.tf2zpk([2.0, 2.0], [1.0, -0.5])
    >>> z.tolist(), p.tolist(), float(k)
    ([-1.0], [0.5], 2.0)
    """
    bn, an = _normalize(b, a)
    dt = np.result_type(an, bn)
    if not np.issubdtype(dt, np.inexact):
        dt = np.dtype(np.float64)
    an = an.astype(dt, copy=False)
    bn = bn.astype(dt, copy=False)
    k = bn[0]
    bn = bn / bn[0]
    return _roots(bn), _roots(an), k


def tf2sos(b: ArrayLike, a: ArrayLike, pairing: Optional[str] = None, *, analog: bool = False) -> F64Array:
    """Second-order sections of a transfer function, ``scipy.signal.tf2sos``:
    ``zpk2sos(*tf2zpk(b, a), pairing, analog=analog)``.

    Parameters
    ----------
    b, a : array_like
        Numerator and denominator coefficients, highest power first.
    pairing : {None, "nearest", "keep_odd", "minimal"}, optional
        As :func:`zpk2sos`.
    analog : bool, default False
        As :func:`zpk2sos`.

    Returns
    -------
    sos : ndarray, shape (n_sections, 6), float64

    Raises
    ------
    ValueError
        The checks of :func:`tf2zpk` and :func:`zpk2sos`.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.2)
    >>> sigkern.tf2sos(b, a).shape
    (2, 6)
    """
    return zpk2sos(*tf2zpk(b, a), pairing=pairing, analog=analog)


def sos2tf(sos: ArrayLike) -> Tuple[Any, Any]:
    """Transfer function of second-order sections, ``scipy.signal.sos2tf`` (the sections'
    polynomials multiplied by ``numpy.convolve``, as scipy; bit for bit).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)

    Returns
    -------
    b, a : ndarray
        Numerator and denominator (float64 for integer input, else the input's type).

    Raises
    ------
    ValueError
        ``sos`` not of shape ``(n_sections, 6)``.

    Examples
    --------
    >>> b, a = sigkern.sos2tf([[1.0, 2.0, 1.0, 1.0, 0.0, 0.25]])
    >>> b.tolist(), a.tolist()
    ([1.0, 2.0, 1.0], [1.0, 0.0, 0.25])
    """
    s = np.asarray(sos)
    _check_sos(s)
    dt = np.float64 if s.dtype.kind in "iub" else s.dtype
    b = np.asarray([1], dtype=dt)
    a = np.asarray([1], dtype=dt)
    for row in s:
        b = np.convolve(_poly1d(b), _poly1d(row[:3]))
        a = np.convolve(_poly1d(a), _poly1d(row[3:]))
    return b, a


def _poly1d(c: Any) -> Any:
    c = _trim_front(np.atleast_1d(c))
    if c.shape[0] == 0:
        c = np.asarray([0], dtype=c.dtype)
    return c


def _check_sos(s: Any) -> None:
    if s.ndim != 2 or s.shape[1] != 6:
        raise ValueError(f"sos array must be shape (n_sections, 6), got {s.shape}")


def sos2zpk(sos: ArrayLike) -> Tuple[Any, Any, Any]:
    """Zeros, poles and gain of second-order sections, ``scipy.signal.sos2zpk`` (each
    section through :func:`tf2zpk`, two roots per section, zero-padded where a section has
    fewer, as scipy; bit for bit).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)

    Returns
    -------
    z, p : ndarray, complex128, shape (2·n_sections,)
    k : float
        Product of the sections' gains.

    Raises
    ------
    ValueError
        ``sos`` not of shape ``(n_sections, 6)``.

    Examples
    --------
    >>> z, p, k = sigkern.sos2zpk([[1.0, 2.0, 1.0, 1.0, 0.0, 0.25]])
    >>> z.real.tolist(), float(k)
    ([-1.0, -1.0], 1.0)
    """
    s = np.asarray(sos)
    _check_sos(s)
    n = s.shape[0]
    z = np.zeros(n * 2, dtype=np.complex128)
    p = np.zeros(n * 2, dtype=np.complex128)
    k: Any = 1.0
    for i in range(n):
        zz, pp, kk = tf2zpk(s[i, :3], s[i, 3:])
        z[2 * i: 2 * i + zz.shape[0]] = zz
        p[2 * i: 2 * i + pp.shape[0]] = pp
        k *= kk
    return z, p, k


def bilinear_zpk(z: ArrayLike, p: ArrayLike, k: float, fs: float) -> Tuple[Any, Any, Any]:
    """Analog zeros/poles/gain to digital by the bilinear transform,
    ``scipy.signal.bilinear_zpk`` (no pre-warp; the same operations as scipy; bit for bit).

    Parameters
    ----------
    z, p : array_like
        Analog zeros and poles (at least as many poles as zeros).
    k : float
        Analog gain.
    fs : float
        Sampling frequency.

    Returns
    -------
    z, p : ndarray
        Digital zeros (the zeros at infinity moved to -1) and poles.
    k : float
        Digital gain.

    Raises
    ------
    ValueError
        More zeros than poles; ``fs`` None or not a scalar.

    Examples
    --------
    >>> z, p, k = sigkern.bilinear_zpk([], [-1.0], 1.0, fs=10.0)
    >>> z.tolist()
    [-1.0]
    """
    za = np.atleast_1d(np.asarray(z))
    pa = np.atleast_1d(np.asarray(p))
    fsv = _fs(fs)
    degree = pa.shape[0] - za.shape[0]
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as zeros.")
    fs2 = 2.0 * fsv
    z_z = (fs2 + za) / (fs2 - za)
    p_z = (fs2 + pa) / (fs2 - pa)
    z_z = np.concatenate((z_z, -np.ones(degree)))
    k_z = k * np.real(np.prod(fs2 - za) / np.prod(fs2 - pa))
    return z_z, p_z, k_z


def bilinear(b: ArrayLike, a: ArrayLike, fs: float = 1.0) -> Tuple[Any, Any]:
    """Analog transfer function to digital by the bilinear transform, ``scipy.signal.bilinear``
    (numpy ``Polynomial`` arithmetic in ``(z ± 1)``, then scipy's ``normalize``, as scipy; bit
    for bit).

    Parameters
    ----------
    b, a : array_like
        Analog numerator and denominator, highest power of s first (1-D).
    fs : float, default 1.0
        Sampling frequency.

    Returns
    -------
    b, a : ndarray
        Digital numerator and denominator (``a[0] == 1``).

    Raises
    ------
    ValueError
        ``b`` or ``a`` not 1-D; ``fs`` None or not a scalar; an all-zero denominator.

    Examples
    --------
    >>> b, a = sigkern.bilinear([1.0], [1.0, 1.0], fs=10.0)
    >>> a.shape
    (2,)
    """
    ba, aa = np.atleast_1d(np.asarray(b)), np.atleast_1d(np.asarray(a))
    if not aa.ndim == 1:
        raise ValueError(f"Parameter a is not a 1d array since {aa.shape=}")
    if not ba.ndim == 1:
        raise ValueError(f"Parameter b is not a 1d array since {ba.shape=}")
    ba, aa = np.trim_zeros(ba, "f"), np.trim_zeros(aa, "f")
    fsv = _fs(fs)
    fac = np.sqrt(fsv * 2)
    zp1 = np.polynomial.Polynomial((+1, 1)) / fac
    zm1 = np.polynomial.Polynomial((-1, 1)) * fac
    n = max(len(aa), len(ba)) - 1
    numerator = sum(b_ * zp1 ** (n - q) * zm1 ** q for q, b_ in enumerate(ba[::-1]))
    denominator = sum(a_ * zp1 ** (n - q) * zm1 ** q for q, a_ in enumerate(aa[::-1]))
    return _normalize(np.asarray(numerator.coef[::-1].copy()), np.asarray(denominator.coef[::-1].copy()))
