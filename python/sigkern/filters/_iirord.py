"""Order selection for the IIR designs: ``scipy.signal``'s :func:`buttord`, :func:`cheb1ord`,
:func:`cheb2ord` and :func:`ellipord`.

These are scalar formulas on one or two band edges (and, for band-stop specifications, scipy's
bounded Brent minimisation ``optimize.fminbound`` of the order over the pass-band edges); they
are computed here in Python, step for step as scipy does, so the orders and natural frequencies
are scipy's to the last bit. The complete elliptic integral ``K`` that :func:`ellipord` needs
is Cephes' ``ellpk`` as scipy ships it (the same polynomial the C elliptic prototype uses)."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, cast

import numpy as np

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["buttord", "cheb1ord", "cheb2ord", "ellipord"]

_P = (1.37982864606273237150e-4, 2.28025724005875567385e-3, 7.97404013220415179367e-3,
      9.85821379021226008714e-3, 6.87489687449949877925e-3, 6.18901033637687613229e-3,
      8.79078273952743772254e-3, 1.49380448916805252718e-2, 3.08851465246711995998e-2,
      9.65735902811690126535e-2, 1.38629436111989062502e0)
_Q = (2.94078955048598507511e-5, 9.14184723865917226571e-4, 5.94058303753167793257e-3,
      1.54850516649762399335e-2, 2.39089602715924892727e-2, 3.01204715227604046988e-2,
      3.73774314173823228969e-2, 4.88280347570998239232e-2, 7.03124996963957469739e-2,
      1.24999999999870820058e-1, 4.99999999999999999821e-1)
_MACHEP = 1.11022302462515654042e-16


def _polevl(x: float, coef: Tuple[float, ...]) -> float:
    acc = 0.0
    for v in coef:
        acc = acc * x + v
    return acc


def _ellpk(x: float) -> float:
    """Cephes ``ellpk(x)`` = K(1 - x) (scipy's ``special.ellipkm1``)."""
    if math.isnan(x) or x < 0.0:
        return math.nan
    if x > 1.0:
        if math.isinf(x):
            return 0.0
        return _ellpk(1.0 / x) / math.sqrt(x)
    if x > _MACHEP:
        return _polevl(x, _P) - math.log(x) * _polevl(x, _Q)
    if x == 0.0:
        return math.inf
    return 1.3862943611198906188e0 - 0.5 * math.log(x)


def _ellipk(m: float) -> float:
    """scipy's ``special.ellipk(m)`` = K(m)."""
    return _ellpk(1.0 - m)


def _pow10m1(x: float) -> float:
    return math.expm1(math.log(10) * x)


def _fminbound(func: Callable[[float], float], x1: float, x2: float, xatol: float = 1e-5,
               maxfun: int = 500) -> float:
    """scipy's ``optimize.fminbound`` (``_minimize_scalar_bounded``): Brent's bounded method."""
    if not (np.isfinite(x1) and np.isfinite(x2)):
        raise ValueError("Optimization bounds must be finite scalars.")
    if x1 > x2:
        raise ValueError("The lower bound exceeds the upper bound.")
    sqrt_eps = math.sqrt(2.2e-16)
    golden_mean = 0.5 * (3.0 - math.sqrt(5.0))
    a, b = x1, x2
    fulc = a + golden_mean * (b - a)
    nfc, xf = fulc, fulc
    rat = e = 0.0
    x = xf
    fx = func(x)
    num = 1
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * np.abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    while np.abs(xf - xm) > (tol2 - 0.5 * (b - a)):
        golden = 1
        if np.abs(e) > tol1:
            golden = 0
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = np.abs(q)
            r = e
            e = rat
            if (np.abs(p) < np.abs(0.5 * q * r)) and (p > q * (a - xf)) and (p < q * (b - xf)):
                rat = (p + 0.0) / q
                x = xf + rat
                if ((x - a) < tol2) or ((b - x) < tol2):
                    si = np.sign(xm - xf) + ((xm - xf) == 0)
                    rat = tol1 * si
            else:
                golden = 1
        if golden:
            e = a - xf if xf >= xm else b - xf
            rat = golden_mean * e
        si = np.sign(rat) + (rat == 0)
        x = xf + si * np.maximum(np.abs(rat), tol1)
        fu = func(x)
        num += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if (fu <= fnfc) or (nfc == xf):
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif (fu <= ffulc) or (fulc == xf) or (fulc == nfc):
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * np.abs(xf) + xatol / 3.0
        tol2 = 2.0 * tol1
        if num >= maxfun:
            break
    return float(xf)


def _validate_gpass_gstop(gpass: Any, gstop: Any) -> None:
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    elif gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    elif gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _fs_opt(fs: Any) -> Optional[float]:
    if fs is None:
        return None
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(cast(Any, fs))


def _band_stop_obj(wp: float, ind: int, passb: Any, stopb: Any, gpass: float, gstop: float,
                   kind: str) -> float:
    """scipy's ``band_stop_obj``: the order a band-stop design needs with one pass edge moved."""
    _validate_gpass_gstop(gpass, gstop)
    passb_c = passb.copy()
    passb_c[ind] = wp
    nat = stopb * (passb_c[0] - passb_c[1]) / (stopb ** 2 - passb_c[0] * passb_c[1])
    nat = min(abs(nat))
    if kind == "butter":
        gs = 10 ** (0.1 * abs(gstop))
        gp = 10 ** (0.1 * abs(gpass))
        n = np.log10((gs - 1.0) / (gp - 1.0)) / (2 * np.log10(nat))
    elif kind == "cheby":
        gs = 10 ** (0.1 * abs(gstop))
        gp = 10 ** (0.1 * abs(gpass))
        n = np.arccosh(np.sqrt((gs - 1.0) / (gp - 1.0))) / np.arccosh(nat)
    else:
        gs = 10 ** (0.1 * gstop)
        gp = 10 ** (0.1 * gpass)
        arg1 = np.sqrt((gp - 1.0) / (gs - 1.0))
        arg0 = 1.0 / nat
        d0 = (_ellipk(float(arg0 ** 2)), _ellipk(float(1 - arg0 ** 2)))
        d1 = (_ellipk(float(arg1 ** 2)), _ellipk(float(1 - arg1 ** 2)))
        n = d0[0] * d1[1] / (d0[1] * d1[0])
    return float(n)


def _setup(wp: Any, ws: Any, gpass: Any, gstop: Any, analog: bool, fs: Any,
           gains_first: bool) -> Tuple[Any, Any, int, Optional[float]]:
    """scipy's argument handling (``_validate_gpass_gstop``, ``_validate_fs``,
    ``_validate_wp_ws``, ``_pre_warp``): pre-warped pass and stop edges and the filter type
    (1 low, 2 high, 3 band-stop, 4 band-pass)."""
    wpa, wsa = np.asarray(wp), np.asarray(ws)
    if gains_first:
        _validate_gpass_gstop(gpass, gstop)
        fsv = _fs_opt(fs)
    else:
        fsv = _fs_opt(fs)
        _validate_gpass_gstop(gpass, gstop)
    wpa, wsa = np.atleast_1d(wpa), np.atleast_1d(wsa)
    dt = np.result_type(wpa, wsa)
    if not np.issubdtype(dt, np.inexact):
        dt = np.dtype(np.float64)
    wpa, wsa = wpa.astype(dt), wsa.astype(dt)
    if fsv is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wpa = 2 * wpa / fsv
        wsa = 2 * wsa / fsv
    ftype = 2 * (wpa.shape[0] - 1) + 1
    if wpa[0] >= wsa[0]:
        ftype += 1
    if not analog:
        passb = np.tan(np.pi * wpa / 2.0)
        stopb = np.tan(np.pi * wsa / 2.0)
    else:
        passb, stopb = wpa, wsa
    return passb, stopb, ftype, fsv


def _nat_freq(stopb: Any, passb: Any, gpass: float, gstop: float, ftype: int,
              kind: str) -> Tuple[Any, Any]:
    """scipy's ``_find_nat_freq``."""
    if ftype == 1:
        nat = stopb / passb
    elif ftype == 2:
        nat = passb / stopb
    elif ftype == 3:
        passb, stopb = np.asarray(passb), np.asarray(stopb)
        wp0 = _fminbound(lambda w: _band_stop_obj(w, 0, passb, stopb, gpass, gstop, kind),
                         passb[0], stopb[0] - 1e-12)
        wp1 = _fminbound(lambda w: _band_stop_obj(w, 1, passb, stopb, gpass, gstop, kind),
                         stopb[1] + 1e-12, passb[1])
        passb = np.asarray([float(wp0), float(wp1)])
        stopb = np.asarray(stopb)
        nat = (stopb * (passb[0] - passb[1])) / (stopb ** 2 - passb[0] * passb[1])
    elif ftype == 4:
        nat = (stopb ** 2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    else:
        raise ValueError(f"should not happen: {ftype =}.")
    return np.min(np.abs(nat)), passb


def _post(wn: Any, analog: bool, fs: Optional[float]) -> Any:
    """scipy's ``_postprocess_wn``."""
    w = wn if analog else np.atan(wn) * 2.0 / np.pi
    if w.shape[0] == 1:
        w = w[0]
    if fs is not None:
        w = w * fs / 2
    return w


def buttord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
            fs: Optional[float] = None) -> Tuple[int, Any]:
    """Lowest Butterworth order meeting a specification, ``scipy.signal.buttord`` (scipy's
    algorithm step for step, its band-stop edge search included: scipy's result to the last
    bit).

    Parameters
    ----------
    wp, ws : float or pair of floats
        Pass-band and stop-band edges: low-pass ``wp < ws``; high-pass ``wp > ws``; band-pass
        ``ws[0] < wp[0] < wp[1] < ws[1]``; band-stop ``wp[0] < ws[0] < ws[1] < wp[1]``. Digital:
        in the units of ``fs`` (without ``fs``, normalised to the Nyquist frequency); analog:
        rad/s.
    gpass : float
        Largest pass-band loss, dB (> 0).
    gstop : float
        Smallest stop-band attenuation, dB (>= ``gpass``).
    analog : bool, default False
        Analog specification (``fs`` not allowed).
    fs : float, optional
        Sampling frequency of a digital specification.

    Returns
    -------
    ord : int
        The order.
    wn : float or ndarray
        The Butterworth natural frequency (-3 dB), for :func:`butter`, in the units of ``wp``.

    Raises
    ------
    ValueError
        scipy's checks (``gpass``/``gstop``, ``fs`` with ``analog``).

    Warns
    -----
    RuntimeWarning
        Order zero (scipy's "Order is zero...check input parameters.").

    Examples
    --------
    >>> sigkern.buttord(0.2, 0.3, 3, 40)[0]
    11
    """
    passb, stopb, ftype, fsv = _setup(wp, ws, gpass, gstop, analog, fs, True)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "butter")
    gs = 10 ** (0.1 * abs(gstop))
    gp = 10 ** (0.1 * abs(gpass))
    order = int(math.ceil(math.log10((gs - 1.0) / (gp - 1.0)) / (2 * math.log10(nat))))
    try:
        w0 = (gp - 1.0) ** (-1.0 / (2.0 * order))
    except ZeroDivisionError:
        w0 = 1.0
        warnings.warn("Order is zero...check input parameters.", RuntimeWarning, stacklevel=2)
    if ftype == 1:
        wn = w0 * passb
    elif ftype == 2:
        wn = passb / w0
    elif ftype == 3:
        discr = np.sqrt((passb[1] - passb[0]) ** 2 + 4 * w0 ** 2 * passb[0] * passb[1])
        wn0 = ((passb[1] - passb[0]) + discr) / (2 * w0)
        wn1 = ((passb[1] - passb[0]) - discr) / (2 * w0)
        wn = np.sort(np.abs(np.asarray([float(wn0), float(wn1)])))
    else:
        w0a = np.asarray([-w0, w0], dtype=np.float64)
        wn = (-w0a * (passb[1] - passb[0]) / 2.0
              + np.sqrt(w0a ** 2 / 4.0 * (passb[1] - passb[0]) ** 2 + passb[0] * passb[1]))
        wn = np.sort(np.abs(wn))
    return order, _post(wn, analog, fsv)


def cheb1ord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
             fs: Optional[float] = None) -> Tuple[int, Any]:
    """Lowest Chebyshev type I order meeting a specification, ``scipy.signal.cheb1ord``
    (scipy's algorithm step for step: scipy's result to the last bit).

    Parameters
    ----------
    wp, ws : float or pair of floats
        Pass-band and stop-band edges, as :func:`buttord`.
    gpass : float
        Largest pass-band loss, dB (> 0).
    gstop : float
        Smallest stop-band attenuation, dB (>= ``gpass``).
    analog : bool, default False
        Analog specification (``fs`` not allowed).
    fs : float, optional
        Sampling frequency of a digital specification.

    Returns
    -------
    ord : int
        The order.
    wn : float or ndarray
        The pass-band edge(s) for :func:`cheby1` (``rp = gpass``).

    Raises
    ------
    ValueError
        scipy's checks.

    Examples
    --------
    >>> sigkern.cheb1ord(0.2, 0.3, 3, 40)[0]
    6
    """
    passb, stopb, ftype, fsv = _setup(wp, ws, gpass, gstop, analog, fs, False)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "cheby")
    gs = 10 ** (0.1 * abs(gstop))
    gp = 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((gs - 1.0) / (gp - 1.0)))
    order = int(np.ceil(v / np.acosh(nat)))
    return order, _post(passb, analog, fsv)


def cheb2ord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
             fs: Optional[float] = None) -> Tuple[int, Any]:
    """Lowest Chebyshev type II order meeting a specification, ``scipy.signal.cheb2ord``
    (scipy's algorithm step for step: scipy's result to the last bit).

    Parameters
    ----------
    wp, ws : float or pair of floats
        Pass-band and stop-band edges, as :func:`buttord`.
    gpass : float
        Largest pass-band loss, dB (> 0).
    gstop : float
        Smallest stop-band attenuation, dB (>= ``gpass``).
    analog : bool, default False
        Analog specification (``fs`` not allowed).
    fs : float, optional
        Sampling frequency of a digital specification.

    Returns
    -------
    ord : int
        The order.
    wn : float or ndarray
        The stop-band edge(s) for :func:`cheby2` (``rs = gstop``).

    Raises
    ------
    ValueError
        scipy's checks.

    Examples
    --------
    >>> sigkern.cheb2ord(0.2, 0.3, 3, 40)[0]
    6
    """
    passb, stopb, ftype, fsv = _setup(wp, ws, gpass, gstop, analog, fs, False)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "cheby")
    gs = 10 ** (0.1 * abs(gstop))
    gp = 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((gs - 1.0) / (gp - 1.0)))
    order = int(np.ceil(v / np.acosh(nat)))
    new_freq = 1.0 / math.cosh(1.0 / order * v)
    if ftype == 1:
        wn = passb / new_freq
    elif ftype == 2:
        wn = passb * new_freq
    elif ftype == 3:
        nat0 = (new_freq / 2.0 * (passb[0] - passb[1])
                + math.sqrt(new_freq ** 2 * (passb[1] - passb[0]) ** 2 / 4.0 + passb[1] * passb[0]))
        nat1 = passb[1] * passb[0] / nat0
        wn = np.asarray([float(nat0), float(nat1)])
    else:
        nat0 = (1.0 / (2.0 * new_freq) * (passb[0] - passb[1])
                + math.sqrt((passb[1] - passb[0]) ** 2 / (4.0 * new_freq ** 2) + passb[1] * passb[0]))
        nat1 = passb[0] * passb[1] / nat0
        wn = np.asarray([float(nat0), float(nat1)])
    return order, _post(wn, analog, fsv)


def ellipord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
             fs: Optional[float] = None) -> Tuple[int, Any]:
    """Lowest elliptic order meeting a specification, ``scipy.signal.ellipord`` (scipy's
    algorithm step for step, with Cephes' complete elliptic integral as scipy's
    ``special.ellipk``/``ellipkm1``: scipy's result to the last bit).

    Parameters
    ----------
    wp, ws : float or pair of floats
        Pass-band and stop-band edges, as :func:`buttord`.
    gpass : float
        Largest pass-band loss, dB (> 0).
    gstop : float
        Smallest stop-band attenuation, dB (>= ``gpass``).
    analog : bool, default False
        Analog specification (``fs`` not allowed).
    fs : float, optional
        Sampling frequency of a digital specification.

    Returns
    -------
    ord : int
        The order.
    wn : float or ndarray
        The pass-band edge(s) for :func:`ellip` (``rp = gpass``, ``rs = gstop``).

    Raises
    ------
    ValueError
        scipy's checks.

    Examples
    --------
    >>> sigkern.ellipord(0.2, 0.3, 3, 40)[0]
    4
    """
    passb, stopb, ftype, fsv = _setup(wp, ws, gpass, gstop, analog, fs, False)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "ellip")
    arg1_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    arg0 = float(1.0 / nat)
    d0 = (_ellipk(arg0 ** 2), _ellpk(arg0 ** 2))
    d1 = (_ellipk(arg1_sq), _ellpk(arg1_sq))
    order = int(np.ceil(d0[0] * d1[1] / (d0[1] * d1[0])))
    return order, _post(passb, analog, fsv)
