"""IIR filter design (C: ``sk_butter_sos``, ``sk_rbj_biquad``; Rust:
``src/kernels/filter/design.rs``): ``scipy.signal``'s :func:`butter` and the Audio EQ Cookbook's
:func:`rbj_biquad`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Tuple, Union, cast

import numpy as np

from .. import _args as A
from .._args import CARRAY, F64
from .._errors import error
from .._lib import cfunc, ffi, lib
from ._common import _fb

if TYPE_CHECKING:
    from .._typing import ArrayLike, Btype, F64Array, FilterOutput, FloatArray, RbjKind

__all__ = ["butter", "rbj_biquad"]

_butter_sections = cfunc("sk_butter_sections")
_butter_sos = cfunc("sk_butter_sos")
_rbj = cfunc("sk_rbj_biquad")
_BTYPES = {
    "lowpass": lib.SK_BAND_LOWPASS,
    "low": lib.SK_BAND_LOWPASS,
    "lp": lib.SK_BAND_LOWPASS,
    "l": lib.SK_BAND_LOWPASS,
    "highpass": lib.SK_BAND_HIGHPASS,
    "high": lib.SK_BAND_HIGHPASS,
    "hp": lib.SK_BAND_HIGHPASS,
    "h": lib.SK_BAND_HIGHPASS,
    "bandpass": lib.SK_BAND_BANDPASS,
    "band": lib.SK_BAND_BANDPASS,
    "pass": lib.SK_BAND_BANDPASS,
    "bp": lib.SK_BAND_BANDPASS,
    "bandstop": lib.SK_BAND_BANDSTOP,
    "stop": lib.SK_BAND_BANDSTOP,
    "bands": lib.SK_BAND_BANDSTOP,
    "bs": lib.SK_BAND_BANDSTOP,
}
_TWO_EDGES = (lib.SK_BAND_BANDPASS, lib.SK_BAND_BANDSTOP)


def butter(
    N: int,
    Wn: ArrayLike,
    btype: Btype = "low",
    analog: bool = False,
    output: FilterOutput = "ba",
    fs: Optional[float] = None,
) -> Union[F64Array, Tuple[F64Array, F64Array]]:
    """Digital Butterworth filter design, like ``scipy.signal.butter`` (C: ``sk_butter_sos``,
    equal to scipy's ``output='sos'`` within about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64 (0 is the identity filter, as in scipy).
    Wn : float or pair of floats
        Corner frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop), in the units
        of ``fs``; without ``fs``, normalised to the Nyquist frequency (strictly between 0 and 1).
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
        scipy's aliases are accepted too ("low", "high", "band", "stop", "lp", "hp", "bp", "bs").
    analog : bool, default False
        Only digital filters: ``True`` raises ``NotImplementedError``.
    output : {"ba", "sos"}, default "ba"
        "sos": ``(n_sections, 6)`` float64 sections (the form to filter with: :func:`sosfilt`,
        :class:`Biquad`). "ba": numerator and denominator polynomials, float64 1-D, multiplied
        out from the sections (numerically poor for high orders, as in scipy). "zpk" raises
        ``NotImplementedError``.
    fs : float, optional
        Sampling frequency.

    Returns
    -------
    sos : ndarray, shape (n_sections, 6), float64 — for ``output="sos"``
    (b, a) : tuple of ndarray, float64 — for ``output="ba"`` (``a[0] == 1``)

    Raises
    ------
    ValueError
        Unknown ``btype``, a wrong number of frequencies, a bad order;
        :class:`BadArgumentError` for frequencies outside (0, fs/2) or unordered edges.
    NotImplementedError
        ``analog=True`` or ``output="zpk"``.

    Examples
    --------
    >>> sos = sigkern.butter(8, 1000.0, "low", fs=48000.0, output="sos")
    >>> sos.shape
    (4, 6)
    >>> b, a = sigkern.butter(2, [0.1, 0.4], "bandpass")
    """
    func = "butter"
    if analog:
        raise NotImplementedError(f"{func}: only digital filters (analog=False) are supported")
    if output not in ("ba", "sos"):
        if cast(object, output) == "zpk":  # (a value outside the Literal type)
            raise NotImplementedError(
                f"{func}: output='zpk' is not supported; use output='sos' (recommended) or 'ba'"
            )
        raise ValueError(f"{func}: output must be 'ba' or 'sos', got {output!r}")
    try:
        band = _BTYPES[btype.lower()] if isinstance(btype, str) else None
    except KeyError:
        band = None
    if band is None:
        raise ValueError(
            f"{func}: unknown btype {btype!r}; use 'lowpass', 'highpass', 'bandpass' or 'bandstop'"
        )
    order = A.index(N, func, "N")
    if not 0 <= order <= 64:
        raise ValueError(f"{func}: N must be between 0 and 64, got {order}")
    w = np.atleast_1d(np.asarray(Wn, dtype=np.float64))
    if w.ndim != 1 or w.size != (2 if band in _TWO_EDGES else 1):
        want = "two frequencies [low, high]" if band in _TWO_EDGES else "one frequency"
        raise ValueError(f"{func}: btype {btype!r} needs {want} in Wn, got {Wn!r}")
    f1 = float(w[0])
    f2 = float(w[1]) if w.size == 2 else 0.0
    fsv = 2.0 if fs is None else A.rate(fs, func, "fs")
    nsec = _butter_sections(order, band)
    sos = np.empty((nsec, 6), np.float64)
    cnt = ffi.new("size_t *")
    st = _butter_sos(order, band, f1, f2, fsv, _fb(CARRAY[F64], sos, True), cnt, sos.size)
    if st:
        raise error(st, "sk_butter_sos")
    if output == "sos":
        return sos
    b = np.ones(1)
    a = np.ones(1)
    for s in sos:
        b = np.convolve(b, s[:3])
        a = np.convolve(a, s[3:])
    m = (2 * order + 1) if band in _TWO_EDGES else (order + 1)
    return b[:m], a[:m]


_RBJ = {
    "lowpass": lib.SK_RBJ_LOWPASS,
    "highpass": lib.SK_RBJ_HIGHPASS,
    "bandpass": lib.SK_RBJ_BANDPASS,
    "notch": lib.SK_RBJ_NOTCH,
    "allpass": lib.SK_RBJ_ALLPASS,
    "peaking": lib.SK_RBJ_PEAKING,
    "lowshelf": lib.SK_RBJ_LOWSHELF,
    "highshelf": lib.SK_RBJ_HIGHSHELF,
}


def rbj_biquad(kind: RbjKind, fs: float, f0: float, q: float, gain_db: float = 0.0) -> FloatArray:
    """One RBJ "Audio EQ Cookbook" biquad as a ``(1, 6)`` SOS array (C: ``sk_rbj_biquad``),
    normalised so ``a0 == 1``: ready for :func:`sosfilt`, :class:`Biquad` or scipy.

    Parameters
    ----------
    kind : {"lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "lowshelf", "highshelf"}
        "bandpass" has 0 dB peak gain.
    fs : float
        Sampling rate (> 0).
    f0 : float
        Centre/corner frequency, strictly between 0 and ``fs/2``.
    q : float
        Quality factor (> 0; the cookbook's shelf Q for the shelves).
    gain_db : float, default 0.0
        Gain of "peaking" and the shelves (finite, ``|gain_db| <= 600``; checked but unused by
        the other kinds).

    Returns
    -------
    sos : ndarray, shape (1, 6), float64

    Raises
    ------
    ValueError
        Unknown ``kind``; :class:`BadArgumentError` for parameters out of range.

    Examples
    --------
    >>> sos = sigkern.rbj_biquad("peaking", 48000.0, 1000.0, 0.7, gain_db=6.0)
    >>> sos.shape
    (1, 6)
    """
    k = _RBJ.get(kind.lower() if isinstance(kind, str) else None)
    if k is None:
        raise ValueError(f"rbj_biquad: unknown kind {kind!r}; use one of {', '.join(_RBJ)}")
    sos = np.empty((1, 6), np.float64)
    st = _rbj(k, A.rate(fs, "rbj_biquad", "fs"), float(f0), float(q), float(gain_db), _fb(CARRAY[F64], sos, True))
    if st:
        raise error(st, "sk_rbj_biquad")
    return sos
