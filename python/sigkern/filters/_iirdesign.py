"""IIR filter design in Python over numpy, step for step as ``scipy.signal`` computes it (analog
prototype → frequency transform → bilinear transform → ``zpk2sos``), so the coefficients equal
scipy's to rounding (about 1e-15 relative): :func:`cheby1` (used by :func:`sigkern.decimate`'s
default filter) and the conversions it needs, :func:`zpk2tf` and :func:`zpk2sos`.

Private to the package for now: the public design functions are :func:`sigkern.butter` (C:
``sk_butter_sos``) and :func:`sigkern.firwin`.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = ["cheb1ap", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk", "bilinear_zpk",
           "zpk2tf", "zpk2sos", "cheby1"]

Zpk = Tuple[np.ndarray, np.ndarray, float]


def cheb1ap(N: int, rp: float) -> Zpk:
    """scipy's ``cheb1ap``: zeros, poles and gain of the order-``N`` Chebyshev type I analog
    lowpass prototype with ``rp`` dB of passband ripple (cutoff 1 rad/s)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return np.array([]), np.array([], complex), 10 ** (-rp / 20)
    eps = math.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * math.asinh(1 / eps)
    m = np.arange(-N + 1, N, 2, dtype=np.float64)
    theta = np.pi * m / (2 * N)
    p = -np.sinh(mu + 1j * theta)
    k = float(np.real(np.prod(-p, axis=0)))
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps * eps)
    return np.array([]), p, k


def _degree(z: np.ndarray, p: np.ndarray) -> int:
    d = p.shape[0] - z.shape[0]
    if d < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as zeros.")
    return int(d)


def lp2lp_zpk(z: np.ndarray, p: np.ndarray, k: float, wo: float = 1.0) -> Zpk:
    """scipy's ``lp2lp_zpk``: the prototype's cutoff moved to ``wo``."""
    wo = float(wo)
    d = _degree(z, p)
    return wo * z, wo * p, k * wo ** d


def lp2hp_zpk(z: np.ndarray, p: np.ndarray, k: float, wo: float = 1.0) -> Zpk:
    """scipy's ``lp2hp_zpk``: lowpass prototype → highpass at ``wo``."""
    wo = float(wo)
    d = _degree(z, p)
    z_hp = np.append(wo / z, np.zeros(d))
    p_hp = wo / p
    k_hp = k * np.real(np.prod(-z) / np.prod(-p))
    return z_hp, p_hp, float(k_hp)


def lp2bp_zpk(z: np.ndarray, p: np.ndarray, k: float, wo: float = 1.0, bw: float = 1.0) -> Zpk:
    """scipy's ``lp2bp_zpk``: lowpass prototype → bandpass at ``wo`` of width ``bw``."""
    wo, bw = float(wo), float(bw)
    d = _degree(z, p)
    z_lp = z * bw / 2
    p_lp = p * bw / 2
    z_lp = z_lp.astype(complex)
    p_lp = p_lp.astype(complex)
    z_bp = np.concatenate((z_lp + np.sqrt(z_lp ** 2 - wo ** 2), z_lp - np.sqrt(z_lp ** 2 - wo ** 2)))
    p_bp = np.concatenate((p_lp + np.sqrt(p_lp ** 2 - wo ** 2), p_lp - np.sqrt(p_lp ** 2 - wo ** 2)))
    z_bp = np.append(z_bp, np.zeros(d))
    return z_bp, p_bp, k * bw ** d


def lp2bs_zpk(z: np.ndarray, p: np.ndarray, k: float, wo: float = 1.0, bw: float = 1.0) -> Zpk:
    """scipy's ``lp2bs_zpk``: lowpass prototype → bandstop at ``wo`` of width ``bw``."""
    wo, bw = float(wo), float(bw)
    d = _degree(z, p)
    z_hp = (bw / 2) / z
    p_hp = (bw / 2) / p
    z_hp = z_hp.astype(complex)
    p_hp = p_hp.astype(complex)
    z_bs = np.concatenate((z_hp + np.sqrt(z_hp ** 2 - wo ** 2), z_hp - np.sqrt(z_hp ** 2 - wo ** 2)))
    p_bs = np.concatenate((p_hp + np.sqrt(p_hp ** 2 - wo ** 2), p_hp - np.sqrt(p_hp ** 2 - wo ** 2)))
    z_bs = np.append(z_bs, np.full(d, +1j * wo))
    z_bs = np.append(z_bs, np.full(d, -1j * wo))
    k_bs = k * np.real(np.prod(-z) / np.prod(-p))
    return z_bs, p_bs, float(k_bs)


def bilinear_zpk(z: np.ndarray, p: np.ndarray, k: float, fs: float) -> Zpk:
    """scipy's ``bilinear_zpk``: the analog system mapped to a digital one at rate ``fs``."""
    z = np.atleast_1d(z)
    p = np.atleast_1d(p)
    d = _degree(z, p)
    fs2 = 2.0 * fs
    z_z = (fs2 + z) / (fs2 - z)
    p_z = (fs2 + p) / (fs2 - p)
    z_z = np.concatenate((z_z, -np.ones(d)))
    k_z = k * np.real(np.prod(fs2 - z) / np.prod(fs2 - p))
    return z_z, p_z, float(k_z)


def _poly(zeros: Any) -> np.ndarray:
    """scipy's ``_polyutils.poly`` (numpy's ``np.poly`` of a 1-D sequence of roots)."""
    s = np.atleast_1d(np.asarray(zeros))
    if s.shape[0] == 0:
        return np.asarray(1.0, dtype=np.real(s).dtype)
    a = np.ones((1,), dtype=s.dtype)
    one = np.ones_like(s[0])
    for zero in s:
        a = np.convolve(a, np.stack((one, -zero)), mode="full")
    if np.iscomplexobj(a):
        roots = np.asarray(s, dtype=np.complex128)
        if np.all(np.sort(np.imag(roots)) == np.sort(np.imag(np.conj(roots)))):
            a = np.real(a).copy()
    return a


def zpk2tf(z: Any, p: Any, k: Any) -> Tuple[np.ndarray, np.ndarray]:
    """scipy's ``zpk2tf`` for one system: numerator and denominator polynomials."""
    z, p = np.asarray(z), np.asarray(p)
    k = np.asarray(k, dtype=np.result_type(np.real(z), np.real(p), k))
    if k.dtype.kind in "biu":
        k = k.astype(np.float64)
    b = np.multiply(k, _poly(z))
    a = np.atleast_1d(_poly(p))
    return np.atleast_1d(b), a


def _cplxreal(z: Any, tol: Optional[float] = None) -> Tuple[np.ndarray, np.ndarray]:
    """scipy's ``_cplxreal``: complex-conjugate pairs (one of each, positive imaginary part)
    and real values, sorted as scipy sorts them."""
    z = np.atleast_1d(z)
    if z.size == 0:
        return z, z
    if z.ndim != 1:
        raise ValueError("_cplxreal only accepts 1-D input")
    if tol is None:
        tol = 100 * np.finfo((1.0 * z).dtype).eps
    z = z[np.lexsort((abs(z.imag), z.real))]
    real_indices = abs(z.imag) <= tol * abs(z)
    zr = z[real_indices].real
    if len(zr) == len(z):
        return np.array([]), zr
    z = z[~real_indices]
    zp = z[z.imag > 0]
    zn = z[z.imag < 0]
    if len(zp) != len(zn):
        raise ValueError("Array contains complex value with no matching conjugate.")
    same_real = np.diff(zp.real) <= tol * abs(zp[:-1])
    diffs = np.diff(np.concatenate(([0], same_real, [0])))
    run_starts = np.nonzero(diffs > 0)[0]
    run_stops = np.nonzero(diffs < 0)[0]
    for i in range(len(run_starts)):
        start = run_starts[i]
        stop = run_stops[i] + 1
        for chunk in (zp[start:stop], zn[start:stop]):
            chunk[...] = chunk[np.lexsort([abs(chunk.imag)])]
    if any(abs(zp - zn.conj()) > tol * abs(zn)):
        raise ValueError("Array contains complex value with no matching conjugate.")
    zc = (zp + zn.conj()) / 2
    return zc, zr


def _nearest_idx(fro: np.ndarray, to: Any, which: str) -> int:
    order = np.argsort(np.abs(fro - to))
    if which == "any":
        return int(order[0])
    mask = np.isreal(fro[order])
    if which == "complex":
        mask = ~mask
    return int(order[np.nonzero(mask)[0][0]])


def _single_zpksos(z: Sequence[Any], p: Sequence[Any], k: float) -> np.ndarray:
    sos = np.zeros(6)
    b, a = zpk2tf(z, p, k)
    sos[3 - len(b):3] = b
    sos[6 - len(a):6] = a
    return sos


def zpk2sos(z: Any, p: Any, k: Any, pairing: Optional[str] = None, *, analog: bool = False) -> np.ndarray:
    """scipy's ``zpk2sos``: second-order sections ``(n_sections, 6)`` from zeros, poles and gain,
    paired as scipy pairs them (``'nearest'`` by default for a digital system)."""
    z, p = np.asarray(z), np.asarray(p)
    k = np.asarray(k)
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    valid = ["nearest", "keep_odd", "minimal"]
    if pairing not in valid:
        raise ValueError(f"pairing must be one of {valid}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    if len(z) == len(p) == 0:
        if not analog:
            return np.array([[k, 0.0, 0.0, 1.0, 0.0, 0.0]])
        return np.array([[0.0, 0.0, k, 0.0, 0.0, 1.0]])
    if pairing != "minimal":
        p = np.concatenate((p, np.zeros(max(len(z) - len(p), 0))))
        z = np.concatenate((z, np.zeros(max(len(p) - len(z), 0))))
        n_sections = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == "nearest":
            p = np.concatenate((p, [0.0]))
            z = np.concatenate((z, [0.0]))
    else:
        if len(p) < len(z):
            raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
        n_sections = (len(p) + 1) // 2
    z = np.concatenate(_cplxreal(z))
    p = np.concatenate(_cplxreal(p))
    if not np.isreal(k):
        raise ValueError("k must be real")
    k = k.real

    def idx_worst(q: np.ndarray) -> int:
        return int(np.argmin(np.abs(np.real(q)))) if analog else int(np.argmin(np.abs(1 - np.abs(q))))

    sos = np.zeros((n_sections, 6))
    for si in range(n_sections - 1, -1, -1):
        p1_idx = idx_worst(p)
        p1 = p[p1_idx]
        p = np.delete(p, p1_idx)
        if np.isreal(p1) and np.isreal(p).sum() == 0:
            if pairing != "minimal":
                z1_idx = _nearest_idx(z, p1, "real")
                z1 = z[z1_idx]
                z = np.delete(z, z1_idx)
                sos[si] = _single_zpksos([z1, 0], [p1, 0], 1)
            elif len(z) > 0:
                z1_idx = _nearest_idx(z, p1, "real")
                z1 = z[z1_idx]
                z = np.delete(z, z1_idx)
                sos[si] = _single_zpksos([z1], [p1], 1)
            else:
                sos[si] = _single_zpksos([], [p1], 1)
        elif (len(p) + 1 == len(z) and not np.isreal(p1) and np.isreal(p).sum() == 1
              and np.isreal(z).sum() == 1):
            z1_idx = _nearest_idx(z, p1, "complex")
            z1 = z[z1_idx]
            z = np.delete(z, z1_idx)
            sos[si] = _single_zpksos([z1, z1.conj()], [p1, p1.conj()], 1)
        else:
            if np.isreal(p1):
                prealidx = np.flatnonzero(np.isreal(p))
                p2_idx = prealidx[idx_worst(p[prealidx])]
                p2 = p[p2_idx]
                p = np.delete(p, p2_idx)
            else:
                p2 = p1.conj()
            if len(z) > 0:
                z1_idx = _nearest_idx(z, p1, "any")
                z1 = z[z1_idx]
                z = np.delete(z, z1_idx)
                if not np.isreal(z1):
                    sos[si] = _single_zpksos([z1, z1.conj()], [p1, p2], 1)
                elif len(z) > 0:
                    z2_idx = _nearest_idx(z, p1, "real")
                    z2 = z[z2_idx]
                    z = np.delete(z, z2_idx)
                    sos[si] = _single_zpksos([z1, z2], [p1, p2], 1)
                else:
                    sos[si] = _single_zpksos([z1], [p1, p2], 1)
            else:
                sos[si] = _single_zpksos([], [p1, p2], 1)
    sos[0][:3] *= k
    return sos


_BTYPE = {"lowpass": "lowpass", "low": "lowpass", "lp": "lowpass", "l": "lowpass",
          "highpass": "highpass", "high": "highpass", "hp": "highpass", "h": "highpass",
          "bandpass": "bandpass", "band": "bandpass", "pass": "bandpass", "bp": "bandpass",
          "bandstop": "bandstop", "stop": "bandstop", "bands": "bandstop", "bs": "bandstop"}


def cheby1(N: int, rp: float, Wn: Any, btype: str = "low", analog: bool = False,
           output: str = "ba", fs: Optional[float] = None) -> Union[np.ndarray, Tuple[Any, ...]]:
    """scipy's ``cheby1``: an order-``N`` Chebyshev type I filter with ``rp`` dB of passband
    ripple, as ``'ba'``, ``'zpk'`` or ``'sos'`` (scipy's ``iirfilter`` steps)."""
    N = operator.index(N)
    Wn = np.asarray(Wn, dtype=np.float64)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if np.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    if btype not in _BTYPE:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    band = _BTYPE[btype]
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    z, p, k = cheb1ap(N, rp)
    if not analog:
        if np.any(Wn <= 0) or np.any(Wn >= 1):
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fsd = 2.0
        warped = 2 * fsd * np.tan(np.pi * Wn / fsd)
    else:
        warped = Wn
    if band in ("lowpass", "highpass"):
        if Wn.size != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or highpass filter")
        w = float(np.reshape(warped, ()))
        z, p, k = (lp2lp_zpk if band == "lowpass" else lp2hp_zpk)(z, p, k, wo=w)
    else:
        try:
            bw = float(warped[1] - warped[0])
            wo = float(np.sqrt(warped[0] * warped[1]))
        except IndexError as e:
            raise ValueError("Wn must specify start and stop frequencies for bandpass or bandstop filter") from e
        z, p, k = (lp2bp_zpk if band == "bandpass" else lp2bs_zpk)(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = bilinear_zpk(z, p, k, fs=2.0)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return zpk2tf(z, p, k)
    return zpk2sos(z, p, k, analog=analog)
