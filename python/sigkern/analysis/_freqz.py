"""Frequency responses of digital filters (C: ``sk_freqz``, ``sk_freqz_sos``,
``sk_group_delay``; Rust: ``src/kernels/analysis/freqz.rs``): ``scipy.signal``'s
:func:`freqz`, :func:`freqz_sos` (and its older name :func:`sosfreqz`), :func:`group_delay`."""

from __future__ import annotations

import operator
import warnings
from math import pi
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

import numpy as np

from .._lib import cfunc
from ._common import _D, _NULL, _fb, _raise, _validate_fs

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["freqz", "freqz_sos", "sosfreqz", "group_delay"]

_freqz = cfunc("sk_freqz")
_freqz_sos = cfunc("sk_freqz_sos")
_group_delay = cfunc("sk_group_delay")

#: scipy's threshold for a near-singular group delay denominator
_EPSILON = 2e-16


def _is_int_type(x: Any) -> bool:
    """scipy's test for a number of frequencies (``5`` and ``array(5)``, not ``5.0``)."""
    if np.ndim(x) != 0:
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _numeric(a: np.ndarray, func: str, name: str) -> None:
    if a.dtype.kind not in "biufc":
        raise TypeError(f"{func}: {name} must hold numbers, got dtype {a.dtype}")


def _freq_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    """The real dtype of scipy's frequencies for coefficients of dtype ``dt``."""
    return np.dtype(np.float32) if dt == np.complex64 else (dt if dt.kind == "f" else np.dtype(np.float64))


def _radians(w: np.ndarray, func: str) -> np.ndarray:
    """Frequencies in radians/sample as the float64 the kernels take (complex ones must be real)."""
    if w.dtype.kind == "c":
        if np.any(w.imag != 0):
            raise ValueError(
                f"{func}: frequencies with a non-zero imaginary part are not supported "
                "(sigkern evaluates on the unit circle only)"
            )
        w = w.real
    return np.ascontiguousarray(w, dtype=np.float64)


def _cplx(c: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(c, dtype=np.complex128)


def _eval(b: np.ndarray, a: np.ndarray, w: np.ndarray, func: str) -> np.ndarray:
    """``polyval(e^{-iw}, b, tensor=False) / polyval(e^{-iw}, a, tensor=False)`` (scipy's
    broadcasting: coefficients along the first axis, the other axes broadcast with ``w``), as
    complex128 (``sk_freqz``)."""
    if b.shape[0] == 0:  # the empty sum: the zero polynomial
        b = np.zeros((1,) + b.shape[1:], b.dtype)
    if a.shape[0] == 0:
        raise ValueError(f"{func}: a cannot be empty")
    if b.ndim == 1 and a.ndim == 1:
        shape = w.shape
        bb, bs, aa, as_ = _cplx(b), 0, _cplx(a), 0
        wf = _radians(w, func).reshape(-1)
    else:
        shape = np.broadcast_shapes(b.shape[1:], a.shape[1:], w.shape)
        p = int(np.prod(shape))

        def lift(c: np.ndarray) -> np.ndarray:  # coefficients first, the rest right-aligned
            full = c.reshape(c.shape[:1] + (1,) * (len(shape) - c.ndim + 1) + c.shape[1:])
            return _cplx(np.broadcast_to(full, c.shape[:1] + shape).reshape(c.shape[0], p).T)

        bb, aa = lift(b), lift(a)
        bs, as_ = b.shape[0], a.shape[0]
        wf = _radians(np.broadcast_to(w, shape), func).reshape(-1)
    h = np.empty(wf.size, np.complex128)
    st = _freqz(
        _fb(_D, bb.view(np.float64)), b.shape[0], bs, _fb(_D, aa.view(np.float64)), a.shape[0], as_,
        _fb(_D, wf), wf.size, _fb(_D, h.view(np.float64), True),
    )
    if st:
        _raise(st, "sk_freqz")
    return h.reshape(shape)


def _fft_path(b: np.ndarray, a: np.ndarray, N: int, n_fft: int, whole: bool) -> np.ndarray:
    """scipy's FFT evaluation of an FIR filter at ``N`` equally spaced points (sigkern's FFT)."""
    from ..spectral import fft, rfft

    real = b.dtype.kind == "f" and a.dtype.kind == "f"
    if b.dtype.kind in "biu":  # scipy transforms integers as complex128
        b = b.astype(np.complex128)
    elif b.dtype.itemsize < 4 or (b.dtype.kind == "c" and b.dtype.itemsize < 8):
        b = b.astype(np.float32 if b.dtype.kind == "f" else np.complex64)
    h: Any = (rfft if real else fft)(b, n=n_fft, axis=0)
    h = h[: min(N, h.shape[0]), ...]
    h /= a
    if real and whole:
        stop = None if n_fft % 2 == 1 else -1
        h = np.concatenate((h, np.conj(np.flip(h[1:stop, ...], axis=0))))
    if b.ndim > 1:
        h = np.moveaxis(h[..., 0], 0, -1)
    return np.asarray(h)


def freqz(
    b: ArrayLike,
    a: ArrayLike = 1,
    worN: Any = 512,
    whole: bool = False,
    plot: Optional[Callable[[np.ndarray, np.ndarray], Any]] = None,
    fs: float = 2 * pi,
    include_nyquist: bool = False,
) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.freqz``: the frequency response ``H(e^{jw}) = B(e^{-jw}) / A(e^{-jw})`` of
    a digital filter (``sk_freqz``; an FIR filter at ``worN`` equally spaced points goes through
    sigkern's FFT, as scipy's goes through its FFT).

    Parameters
    ----------
    b : array_like
        Numerator coefficients (of ``z^0, z^-1, ...``). With more than one dimension the
        coefficients are along the first axis and ``b.shape[1:]``, ``a.shape[1:]`` and the
        frequencies' shape broadcast (scipy's rule).
    a : array_like, default 1
        Denominator coefficients, as ``b``.
    worN : int or array_like, default 512
        A number of frequencies (equally spaced from 0 to the Nyquist frequency, or to ``fs``
        with ``whole``), or the frequencies themselves in the units of ``fs``.
    whole : bool, default False
        Frequencies from 0 to ``fs`` instead of 0 to ``fs/2``.
    plot : callable, optional
        Called as ``plot(w, h)`` before returning (scipy's hook).
    fs : float, default 2*pi
        Sampling frequency.
    include_nyquist : bool, default False
        With an integer ``worN`` and ``whole=False``, include the Nyquist frequency as last
        point.

    Returns
    -------
    w : ndarray
        The frequencies, in the units of ``fs``.
    h : ndarray, complex
        The response. Computed in double precision; float32 (complex64) coefficients give a
        complex64 result, as scipy's.

    Raises
    ------
    ValueError
        ``worN`` negative, ``fs`` None or not a scalar, shapes that do not broadcast, an empty
        ``a``, frequencies with a non-zero imaginary part (not supported).
    TypeError
        Coefficients that are not numbers.

    Examples
    --------
    >>> w, h = sigkern.freqz([0.5, 0.5], worN=4)
    >>> bool(np.allclose(abs(h), np.cos(w / 2)))
    True
    """
    func = "freqz"
    bb = np.asarray(b)
    aa = np.asarray(a)
    _numeric(bb, func, "b")
    _numeric(aa, func, "a")
    if aa.dtype.kind in "iu":
        aa = aa.astype(np.float64)
    res_dtype = np.result_type(bb, aa)
    real_dtype = _freq_dtype(res_dtype)
    bb = np.atleast_1d(bb)
    aa = np.atleast_1d(aa)
    fsv = _validate_fs(fs)
    if worN is None:
        worN = 512
    h: Optional[np.ndarray] = None
    if _is_int_type(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        lastpoint = 2 * pi if whole else pi
        w = np.linspace(0, lastpoint, N, endpoint=bool(include_nyquist and not whole), dtype=real_dtype)
        n_fft = N if whole else 2 * (N - 1) if include_nyquist else 2 * N
        if aa.size == 1 and (bb.ndim == 1 or bb.shape[-1] == 1) and n_fft >= bb.shape[0] and n_fft > 0:
            h = _fft_path(bb, aa, N, n_fft, whole)
    else:
        if isinstance(worN, complex):
            worN = worN.real
        w = np.atleast_1d(np.asarray(worN, dtype=res_dtype))
        if w.dtype.kind in "iu":
            w = w.astype(np.float64)
        w = 2 * pi * w / fsv
    if h is None:
        h = _eval(bb, aa, w, func)
        if np.dtype(res_dtype) in (np.float32, np.complex64) and w.dtype in (np.float32, np.complex64):
            h = h.astype(np.complex64)
    w = w * (fsv / (2 * pi))
    if plot is not None:
        plot(w, h)
    return w, h


def _validate_sos(sos: Any) -> np.ndarray:
    s = np.atleast_2d(np.asarray(sos))
    if s.ndim != 2:
        raise ValueError("sos array must be 2D")
    if s.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    _numeric(s, "freqz_sos", "sos")
    if not np.all(s[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    return s


def freqz_sos(sos: ArrayLike, worN: Any = 512, whole: bool = False, fs: float = 2 * pi) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.freqz_sos``: the frequency response of a cascade of second-order sections
    (``sk_freqz_sos``: each section's ratio evaluated and multiplied in section order, as scipy).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``[b0, b1, b2, a0, a1, a2]`` with ``a0 == 1``.
    worN : int or array_like, default 512
        A number of frequencies (equally spaced from 0 to ``fs/2``, or to ``fs`` with
        ``whole``), or the frequencies themselves in the units of ``fs``.
    whole : bool, default False
        Frequencies from 0 to ``fs`` instead of 0 to ``fs/2``.
    fs : float, default 2*pi
        Sampling frequency.

    Returns
    -------
    w : ndarray
        The frequencies, in the units of ``fs``.
    h : ndarray, complex
        The response (computed in double; float32 sections give complex64, as scipy's).

    Raises
    ------
    ValueError
        A malformed ``sos`` (scipy's messages), no sections, ``worN`` negative, ``fs`` None or
        not a scalar.

    Examples
    --------
    >>> sos = sigkern.butter(4, 0.2, output="sos")
    >>> w, h = sigkern.freqz_sos(sos, worN=8)
    >>> round(float(abs(h[0])), 12)
    1.0
    """
    fsv = _validate_fs(fs)
    s = _validate_sos(sos)
    if s.shape[0] == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    res_dtype = np.result_type(s, np.float64) if s.dtype.kind in "iub" else s.dtype
    if worN is None:
        worN = 512
    if _is_int_type(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        w = np.linspace(0, 2 * pi if whole else pi, N, endpoint=False, dtype=_freq_dtype(res_dtype))
    else:
        if isinstance(worN, complex):
            worN = worN.real
        w = np.atleast_1d(np.asarray(worN, dtype=res_dtype))
        w = 2 * pi * w / fsv
    if s.dtype.kind == "c":
        h: Any = 1.0
        for row in s:
            h = h * _eval(row[:3], row[3:], w, "freqz_sos")
    else:
        wf = _radians(w, "freqz_sos").reshape(-1)
        sf = np.ascontiguousarray(s, dtype=np.float64)
        h = np.empty(wf.size, np.complex128)
        st = _freqz_sos(_fb(_D, sf), sf.shape[0], _fb(_D, wf), wf.size, _fb(_D, h.view(np.float64), True))
        if st:
            _raise(st, "sk_freqz_sos")
        h = h.reshape(w.shape)
    if np.dtype(res_dtype) in (np.float32, np.complex64) and w.dtype in (np.float32, np.complex64):
        h = h.astype(np.complex64)
    return w * (fsv / (2 * pi)), h


def sosfreqz(sos: ArrayLike, worN: Any = 512, whole: bool = False, fs: float = 2 * pi) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.sosfreqz``: the older name of :func:`freqz_sos` (same arguments, same
    result).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``[b0, b1, b2, a0, a1, a2]`` with ``a0 == 1``.
    worN : int or array_like, default 512
        Number of frequencies or the frequencies (units of ``fs``).
    whole : bool, default False
        Frequencies from 0 to ``fs`` instead of 0 to ``fs/2``.
    fs : float, default 2*pi
        Sampling frequency.

    Returns
    -------
    w : ndarray
    h : ndarray, complex

    Raises
    ------
    ValueError
        As :func:`freqz_sos`.

    Examples
    --------
    >>> w, h = sigkern.sosfreqz([[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]], worN=2)
    >>> bool(np.isclose(h[0], 2.0))
    True
    """
    return freqz_sos(sos, worN=worN, whole=whole, fs=fs)


def group_delay(system: Tuple[ArrayLike, ArrayLike], w: Any = 512, whole: bool = False,
                fs: float = 2 * pi) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.group_delay``: the group delay ``-d(phase)/dw`` of a digital filter in
    samples (``sk_group_delay``, scipy's formula evaluated in double).

    Parameters
    ----------
    system : tuple of array_like (b, a)
        Numerator and denominator coefficients (1-D; complex allowed).
    w : int or array_like, default 512
        A number of frequencies (equally spaced from 0 to the Nyquist frequency, or to ``fs``
        with ``whole``), or the frequencies in the units of ``fs``.
    whole : bool, default False
        Frequencies from 0 to ``fs`` instead of 0 to ``fs/2``.
    fs : float, default 2*pi
        Sampling frequency.

    Returns
    -------
    w : ndarray
        The frequencies, in the units of ``fs``.
    gd : ndarray
        The group delay in samples. Where the filter has a zero or pole on the unit circle the
        delay is singular: 0 there and a ``UserWarning`` (as scipy); a warning also when the
        denominator is merely tiny (below ``10 * 2e-16``).

    Raises
    ------
    ValueError
        Empty or multi-dimensional coefficients, ``fs`` None or not a scalar, frequencies with
        a non-zero imaginary part (not supported).

    Examples
    --------
    >>> w, gd = sigkern.group_delay(([0.0, 0.0, 1.0], [1.0]), w=4)
    >>> gd.tolist()
    [2.0, 2.0, 2.0, 2.0]
    """
    func = "group_delay"
    b, a = map(np.atleast_1d, system)
    _numeric(b, func, "b")
    _numeric(a, func, "a")
    if w is None:
        w = 512
    fsv = _validate_fs(fs)
    if _is_int_type(w):
        wr = np.linspace(0, 2 * pi if whole else pi, w, endpoint=False)
    else:
        wr = np.atleast_1d(w)
        wr = 2 * pi * wr / fsv
    if b.ndim != 1 or a.ndim != 1:
        raise ValueError("object too deep for desired array")
    if b.size == 0:
        raise ValueError("a cannot be empty")
    if a.size == 0:
        raise ValueError("v cannot be empty")
    bb, aa = _cplx(b), _cplx(a)
    wf = _radians(wr, func).reshape(-1)
    gd: Any = np.empty(wf.size, np.float64)
    den: Any = np.empty(wf.size, np.float64)
    st = _group_delay(
        _fb(_D, bb.view(np.float64)), b.size, _fb(_D, aa.view(np.float64)), a.size,
        _fb(_D, wf), wf.size, _fb(_D, gd, True), _fb(_D, den, True) if den.size else _NULL,
    )
    if st:
        _raise(st, "sk_group_delay")
    gd = gd.reshape(wr.shape)
    den = den.reshape(wr.shape)
    singular = ~np.isfinite(gd)
    near_singular = den < 10 * _EPSILON
    if np.any(singular):
        gd[singular] = 0
        warnings.warn(
            "The group delay is singular at frequencies "
            f"[{', '.join(f'{ws:.3f}' for ws in wr[singular])}], setting to 0",
            stacklevel=2,
        )
    elif np.any(near_singular):
        warnings.warn(
            "The filter's denominator is extremely small at frequencies "
            f"[{', '.join(f'{ws:.3f}' for ws in wr[near_singular])}], "
            "around which a singularity may be present",
            stacklevel=2,
        )
    out_dt = np.real(np.empty(0, np.result_type(b.dtype, a.dtype, wr.dtype, np.complex64))).dtype
    return wr * (fsv / (2 * pi)), gd.astype(out_dt, copy=False)
