"""Second-order notch and peak filters and comb filters: ``scipy.signal``'s :func:`iirnotch`,
:func:`iirpeak` and :func:`iircomb` (Orfanidis' closed forms of a few coefficients, computed
here in Python as scipy does; no C kernel: there is no numerical work beyond them)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Tuple, cast

import numpy as np

if TYPE_CHECKING:
    from .._typing import F64Array

__all__ = ["iirnotch", "iirpeak", "iircomb"]


def _fs(fs: Any) -> float:
    """scipy's ``_validate_fs(fs, allow_none=False)``."""
    if fs is None:
        raise ValueError("Sampling frequency can not be none.")
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(cast(Any, fs))


def _numpy_only(xp: Any, device: Any) -> None:
    """scipy's ``xp=``/``device=`` keywords: only numpy arrays on the CPU are produced."""
    name = getattr(xp, "__name__", "numpy") if xp is not None else "numpy"
    if "numpy" not in name:
        raise ValueError(f"xp = {name}: sigkern returns numpy arrays only")
    if device not in (None, "cpu"):
        raise ValueError(f"device = {device!r}: sigkern returns numpy arrays on the CPU only")


def _notch_peak(w0: Any, Q: Any, ftype: str, fs: Any) -> Tuple[F64Array, F64Array]:
    """scipy's ``_design_notch_peak_filter``."""
    fsv = _fs(fs)
    w = float(w0)
    q = float(Q)
    w = 2 * w / fsv
    if w > 1.0 or w < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w / q
    bw = bw * np.pi
    w = w * np.pi
    beta = math.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = gain * np.asarray([1.0, -2.0 * math.cos(w), 1.0])
    else:
        b = (1.0 - gain) * np.asarray([1.0, 0.0, -1.0])
    a = np.asarray([1.0, -2.0 * gain * math.cos(w), (2.0 * gain - 1.0)])
    return b, a


def iirnotch(w0: float, Q: float, fs: float = 2.0, *, xp: Any = None,
             device: Any = None) -> Tuple[F64Array, F64Array]:
    """Second-order IIR notch filter, ``scipy.signal.iirnotch`` (the same closed form, the
    same coefficients bit for bit).

    Parameters
    ----------
    w0 : float
        Frequency to remove, in the units of ``fs`` (``0 <= w0 <= fs/2``).
    Q : float
        Quality factor: ``w0`` over the -3 dB bandwidth.
    fs : float, default 2.0
        Sampling frequency.
    xp, device : optional
        scipy's array-namespace keywords: None or numpy (and None or "cpu") only.

    Returns
    -------
    b, a : ndarray, float64, shape (3,)
        Numerator and denominator.

    Raises
    ------
    ValueError
        ``w0`` outside ``[0, fs/2]``, ``fs`` None or not a scalar, ``xp`` other than numpy.

    Examples
    --------
    >>> b, a = sigkern.iirnotch(60.0, 30.0, fs=1000.0)
    >>> b.shape, a.shape
    ((3,), (3,))
    """
    _numpy_only(xp, device)
    return _notch_peak(w0, Q, "notch", fs)


def iirpeak(w0: float, Q: float, fs: float = 2.0, *, xp: Any = None,
            device: Any = None) -> Tuple[F64Array, F64Array]:
    """Second-order IIR peak (resonator) filter, ``scipy.signal.iirpeak`` (the same closed
    form, the same coefficients bit for bit).

    Parameters
    ----------
    w0 : float
        Frequency to keep, in the units of ``fs`` (``0 <= w0 <= fs/2``).
    Q : float
        Quality factor: ``w0`` over the -3 dB bandwidth.
    fs : float, default 2.0
        Sampling frequency.
    xp, device : optional
        scipy's array-namespace keywords: None or numpy (and None or "cpu") only.

    Returns
    -------
    b, a : ndarray, float64, shape (3,)
        Numerator and denominator.

    Raises
    ------
    ValueError
        As :func:`iirnotch`.

    Examples
    --------
    >>> b, a = sigkern.iirpeak(1000.0, 10.0, fs=48000.0)
    >>> float(b[1])
    0.0
    """
    _numpy_only(xp, device)
    return _notch_peak(w0, Q, "peak", fs)


def iircomb(w0: float, Q: float, ftype: str = "notch", fs: float = 2.0, *, pass_zero: bool = False,
            xp: Any = None, device: Any = None) -> Tuple[F64Array, F64Array]:
    """IIR comb filter (notching or peaking), ``scipy.signal.iircomb`` (the same closed form,
    the same coefficients bit for bit).

    Parameters
    ----------
    w0 : float
        Fundamental frequency of the comb, in the units of ``fs``; ``fs / w0`` must be an
        integer ``N`` (the filter's order).
    Q : float
        Quality factor of each notch/peak.
    ftype : {"notch", "peak"}, default "notch"
        Notches at the multiples of ``w0`` or peaks there.
    fs : float, default 2.0
        Sampling frequency.
    pass_zero : bool, default False
        False: the notches (peaks) sit at the multiples of ``w0`` including 0 Hz; True: between
        them (scipy's meaning).
    xp, device : optional
        scipy's array-namespace keywords: None or numpy (and None or "cpu") only.

    Returns
    -------
    b, a : ndarray, float64, shape (N + 1,)
        Numerator and denominator (nonzero at lags 0 and ``N`` only).

    Raises
    ------
    ValueError
        scipy's checks: ``w0`` outside ``(0, fs/2)``, ``fs`` not divisible by ``w0``, unknown
        ``ftype``.

    Examples
    --------
    >>> b, a = sigkern.iircomb(1000.0, 30.0, fs=8000.0)
    >>> len(b)
    9
    """
    _numpy_only(xp, device)
    w = float(w0)
    q = float(Q)
    fsv = _fs(fs)
    kind = ftype.lower()
    if not 0 < w < fsv / 2:
        raise ValueError(f"w0 must be between 0 and {fsv / 2} (Nyquist), but given {w}.")
    if kind not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    n = round(fsv / w)
    if abs(w - fsv / n) / fsv > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w = (2 * np.pi * w) / fsv
    w_delta = w / q
    g0, g = (1, 0) if kind == "notch" else (0, 1)
    beta = math.tan(n * w_delta / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (g0 + g * beta) / (1 + beta)
    cx = (g0 - g * beta) / (1 + beta)
    negative = (kind == "peak" and pass_zero) or (kind == "notch" and not pass_zero)
    sgn = -1.0 if negative else 1
    b = np.zeros(n + 1)
    b[0] = bx
    b[-1] = sgn * cx
    a = np.zeros(n + 1)
    a[0] = 1.0
    a[-1] = sgn * ax
    return b, a
