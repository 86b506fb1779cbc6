"""IIR filter design (C: ``sk_iir_zpk``, ``sk_iir_sos``, ``sk_iirfilter_zpk``,
``sk_iirfilter_sos``, ``sk_zpk2sos``, ``sk_rbj_biquad``; Rust: ``src/kernels/filter/design.rs``,
``src/kernels/filter/iirproto.rs``): ``scipy.signal``'s :func:`butter`, :func:`cheby1`,
:func:`cheby2`, :func:`ellip`, :func:`bessel`, :func:`iirfilter`, :func:`zpk2sos` and the Audio
EQ Cookbook's :func:`rbj_biquad`."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Optional, Tuple, cast

import numpy as np

from .. import _args as A
from .._args import CARRAY, F64
from .._errors import error
from .._lib import cfunc, ffi, lib
from ._common import _fb

if TYPE_CHECKING:
    from .._typing import ArrayLike, BesselNorm, Btype, F64Array, FloatArray, IirFtype, IirOutput, RbjKind

__all__ = ["butter", "cheby1", "cheby2", "ellip", "bessel", "iirfilter", "zpk2sos", "rbj_biquad"]

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
    output: IirOutput = "ba",
    fs: Optional[float] = None,
) -> Any:
    """Butterworth filter design, ``scipy.signal.butter`` (C: ``sk_iir_zpk``, ``sk_iir_sos``;
    equal to scipy's within about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64 (0 is the identity filter, as in scipy).
    Wn : float or pair of floats
        Corner frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop). Digital: in
        the units of ``fs`` (without ``fs``, normalised to the Nyquist frequency, strictly
        between 0 and 1); analog: rad/s.
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
        scipy's aliases are accepted too ("low", "high", "band", "stop", "lp", "hp", "bp", "bs").
    analog : bool, default False
        Design an analog filter (``Wn`` in rad/s, ``fs`` not allowed).
    output : {"ba", "zpk", "sos"}, default "ba"
        "sos": ``(n_sections, 6)`` float64 sections (the form to filter with: :func:`sosfilt`,
        :class:`Biquad`). "ba": numerator and denominator polynomials (scipy's ``zpk2tf``;
        numerically poor for high orders, as in scipy). "zpk": zeros, poles, gain.
    fs : float, optional
        Sampling frequency of a digital filter.

    Returns
    -------
    sos : ndarray, shape (n_sections, 6), float64 — for ``output="sos"``
    (b, a) : tuple of ndarray, float64 — for ``output="ba"``
    (z, p, k) : zeros, poles (complex) and gain — for ``output="zpk"``

    Raises
    ------
    ValueError
        scipy's checks: unknown ``btype`` or ``output``, a wrong number of frequencies,
        frequencies outside (0, 1) (digital; outside (0, fs/2) with ``fs``), unordered edges, a
        bad order (also above 64).

    Examples
    --------
    >>> sos = sigkern.butter(8, 1000.0, "low", fs=48000.0, output="sos")
    >>> sos.shape
    (4, 6)
    >>> b, a = sigkern.butter(2, [0.1, 0.4], "bandpass")
    """
    return _iirfilter(lib.SK_IIR_BUTTER, "butter", N, None, None, Wn, btype, analog, output, fs)


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


# ---------------------------------------------------------------------------------------------
# The IIR family (C: sk_iir_zpk, sk_iir_sos, sk_zpk2sos): scipy's iirfilter steps in the core.

_butter_sections = cfunc("sk_butter_sections")
_butter_sos = cfunc("sk_butter_sos")
_iir_roots = cfunc("sk_iir_roots")
_iir_zpk = cfunc("sk_iir_zpk")
_iir_sos = cfunc("sk_iir_sos")
_iirf_zpk = cfunc("sk_iirfilter_zpk")
_iirf_sos = cfunc("sk_iirfilter_sos")
_BESSEL = (lib.SK_IIR_BESSEL_PHASE, lib.SK_IIR_BESSEL_DELAY, lib.SK_IIR_BESSEL_MAG)
#: scipy's ``filter_dict`` names → prototype
_FTYPES = {
    "butter": lib.SK_IIR_BUTTER, "butterworth": lib.SK_IIR_BUTTER,
    "cauer": lib.SK_IIR_ELLIP, "elliptic": lib.SK_IIR_ELLIP, "ellip": lib.SK_IIR_ELLIP,
    "bessel": lib.SK_IIR_BESSEL_PHASE, "bessel_phase": lib.SK_IIR_BESSEL_PHASE,
    "bessel_delay": lib.SK_IIR_BESSEL_DELAY, "bessel_mag": lib.SK_IIR_BESSEL_MAG,
    "cheby1": lib.SK_IIR_CHEBY1, "chebyshev1": lib.SK_IIR_CHEBY1, "chebyshevi": lib.SK_IIR_CHEBY1,
    "cheby2": lib.SK_IIR_CHEBY2, "chebyshev2": lib.SK_IIR_CHEBY2, "chebyshevii": lib.SK_IIR_CHEBY2,
}
_zpk2sos_c = cfunc("sk_zpk2sos")
_C = CARRAY[F64]
_PAIRING = {"nearest": lib.SK_PAIRING_NEAREST, "keep_odd": lib.SK_PAIRING_KEEP_ODD,
            "minimal": lib.SK_PAIRING_MINIMAL}


def _poly(zeros: Any) -> Any:
    """scipy's ``_polyutils.poly`` (numpy's ``poly`` of a 1-D root list, by convolution)."""
    seq = np.atleast_1d(np.asarray(zeros))
    if seq.shape[0] == 0:
        return np.asarray(1.0, dtype=np.real(seq).dtype)
    a = np.ones((1,), dtype=seq.dtype)
    one = np.ones_like(seq[0])
    for zero in seq:
        a = np.convolve(a, np.stack((one, -zero)), mode="full")
    if np.iscomplexobj(a):
        roots = np.asarray(seq, dtype=np.complex128)
        if np.all(np.sort(np.imag(roots)) == np.sort(np.imag(np.conj(roots)))):
            a = np.real(a).copy()
    return a


def _zpk2tf(z: Any, p: Any, k: Any) -> Tuple[F64Array, F64Array]:
    """scipy's ``zpk2tf`` for 1-D roots: ``b = k·poly(z)``, ``a = poly(p)``."""
    z = np.atleast_1d(np.asarray(z))
    p = np.asarray(p)
    kk = np.asarray(k, dtype=np.result_type(np.real(z), np.real(p), k))
    if kk.dtype.kind in "iu":
        kk = kk.astype(np.float64)
    b = np.multiply(np.atleast_1d(kk), _poly(z))
    a = np.atleast_1d(np.asarray(_poly(p)))
    return b, a


def _fs_opt(fs: Any) -> Optional[float]:
    """scipy's ``_validate_fs(fs, allow_none=True)``."""
    if fs is None:
        return None
    if not np.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(cast(Any, fs))


def _iirfilter(kind: Optional[int], func: str, N: Any, rp: Any, rs: Any, Wn: Any, btype: Any,
               analog: bool, output: Any, fs: Any, ftype: str = "") -> Any:
    """scipy's ``iirfilter`` checks (in its order, with its messages), the design in C.
    ``kind`` None: ``ftype`` names no prototype (scipy's error at its place in the order)."""
    w = np.asarray(Wn, dtype=np.float64)
    fsv = _fs_opt(fs)
    if not isinstance(btype, str) or not isinstance(output, str):
        raise ValueError(f"{func}: btype and output must be strings, got {btype!r} and {output!r}")
    bt, out = btype.lower(), output.lower()
    if fsv is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        w = w / (fsv / 2)
    if np.any(w <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if w.size > 1 and not w.flat[0] < w.flat[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    band = _BTYPES.get(bt)
    if band is None:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    if kind is None:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    if out not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    if kind == lib.SK_IIR_CHEBY1 and rp is None:
        raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I filter.")
    if kind == lib.SK_IIR_CHEBY2 and rs is None:
        raise ValueError("stopband attenuation (rs) must be provided to design an Chebyshev II filter.")
    if kind == lib.SK_IIR_ELLIP and (rs is None or rp is None):
        raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
    try:
        order = operator.index(N)
    except TypeError:
        order = -1
    if order < 0 or order != N:
        raise ValueError("Filter order must be a nonnegative integer")
    bessel = kind in _BESSEL
    limit = 84 if bessel else 64
    if order > limit:
        why = " (scipy's besselap fails to find the Bessel polynomial's zeros above 84)" if bessel else ""
        raise ValueError(f"{func}: N must be between 0 and {limit}{why}, got {order}")
    if not analog and (np.any(w <= 0) or np.any(w >= 1)):
        if fsv is not None:
            raise ValueError(
                f"Digital filter critical frequencies must be 0 < Wn < fs/2 (fs={fsv} -> fs/2={fsv / 2})"
            )
        raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
    if band in _TWO_EDGES:
        if w.size < 2:
            raise ValueError("Wn must specify start and stop frequencies for bandpass or bandstop filter")
    elif w.size != 1:
        raise ValueError("Must specify a single critical frequency Wn for lowpass or highpass filter")
    w1 = float(w.flat[0])
    w2 = float(w.flat[1]) if band in _TWO_EDGES else 0.0
    rpv = 0.0 if rp is None else float(rp)
    rsv = 0.0 if rs is None else float(rs)
    roots = _iir_roots(order, band)
    an = 1 if analog else 0
    if out == "sos" and kind == lib.SK_IIR_BUTTER and not analog:
        # sk_butter_sos: the same design (bit for bit) with Wn normalised to fs = 2
        sos = np.empty((_butter_sections(order, band), 6), np.float64)
        cnt = ffi.new("size_t *")
        st = _butter_sos(order, band, w1, w2, 2.0, _fb(_C, sos, True), cnt, sos.size)
        if st:
            raise error(st, "sk_butter_sos")
        return sos[: cnt[0]]
    if out == "sos":
        sos = np.empty((max(1, (roots + 1) // 2), 6), np.float64)
        cnt = ffi.new("size_t *")
        st = _iirf_sos(kind, order, rpv, rsv, band, w1, w2, an, _fb(_C, sos, True), cnt, sos.size)
        if st:
            raise error(st, "sk_iirfilter_sos")
        return sos[: cnt[0]]
    z = np.empty(max(roots, 1), np.complex128)
    p = np.empty(max(roots, 1), np.complex128)
    nz, npp, kk = ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("double *")
    st = _iirf_zpk(kind, order, rpv, rsv, band, w1, w2, an, _fb(_C, z.view(np.float64), True),
                   _fb(_C, p.view(np.float64), True), z.size, nz, npp, kk)
    if st:
        raise error(st, "sk_iirfilter_zpk")
    zs, ps = z[: nz[0]].copy(), p[: npp[0]].copy()
    if kind not in (lib.SK_IIR_CHEBY2, lib.SK_IIR_ELLIP) and band not in _TWO_EDGES:
        zs = zs.real.copy()  # scipy's zeros are real arrays on this path (none, 0 or -1)
    # scipy's gain is a numpy float64 except where its steps only multiply Python floats (an
    # analog low/band-pass from a prototype whose gain is a float: Butterworth, elliptic,
    # Bessel, or order 0)
    plain = analog and band in (lib.SK_BAND_LOWPASS, lib.SK_BAND_BANDPASS) and (
        kind in (lib.SK_IIR_BUTTER, lib.SK_IIR_ELLIP) + _BESSEL or order == 0)
    k: Any = float(kk[0]) if plain else np.float64(kk[0])
    if out == "zpk":
        return zs, ps, k
    return _zpk2tf(zs, ps, k)


def cheby1(
    N: int,
    rp: float,
    Wn: ArrayLike,
    btype: Btype = "low",
    analog: bool = False,
    output: IirOutput = "ba",
    fs: Optional[float] = None,
) -> Any:
    """Chebyshev type I filter design, ``scipy.signal.cheby1`` (C: ``sk_iir_zpk``,
    ``sk_iir_sos``; equal to scipy's to about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64.
    rp : float
        Pass-band ripple in dB (>= 0).
    Wn : float or pair of floats
        Critical frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop): where the
        gain first drops below ``-rp``. Digital: in the units of ``fs`` (without ``fs``,
        normalised to the Nyquist frequency, between 0 and 1); analog: rad/s.
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
        scipy's aliases are accepted too.
    analog : bool, default False
        Design an analog filter (``Wn`` in rad/s, ``fs`` not allowed).
    output : {"ba", "zpk", "sos"}, default "ba"
        Numerator/denominator, zeros/poles/gain, or second-order sections.
    fs : float, optional
        Sampling frequency of a digital filter.

    Returns
    -------
    (b, a), (z, p, k) or sos
        As scipy: ``b``, ``a`` float64 1-D; ``z``, ``p`` 1-D (``p`` complex), ``k`` a float;
        ``sos`` of shape ``(n_sections, 6)``.

    Raises
    ------
    ValueError
        scipy's checks (order, frequencies, band type, output, ripple).

    Examples
    --------
    >>> sos = sigkern.cheby1(4, 1.0, 0.3, output="sos")
    >>> sos.shape
    (2, 6)
    """
    return _iirfilter(lib.SK_IIR_CHEBY1, "cheby1", N, rp, None, Wn, btype, analog, output, fs)


def cheby2(
    N: int,
    rs: float,
    Wn: ArrayLike,
    btype: Btype = "low",
    analog: bool = False,
    output: IirOutput = "ba",
    fs: Optional[float] = None,
) -> Any:
    """Chebyshev type II filter design, ``scipy.signal.cheby2`` (C: ``sk_iir_zpk``,
    ``sk_iir_sos``; equal to scipy's to about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64.
    rs : float
        Stop-band attenuation in dB (>= 0).
    Wn : float or pair of floats
        Critical frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop): where the
        gain first reaches ``-rs``. Units as :func:`cheby1`.
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
    analog : bool, default False
    output : {"ba", "zpk", "sos"}, default "ba"
    fs : float, optional

    Returns
    -------
    (b, a), (z, p, k) or sos
        As :func:`cheby1`; the zeros are complex.

    Raises
    ------
    ValueError
        scipy's checks.

    Examples
    --------
    >>> z, p, k = sigkern.cheby2(3, 40.0, 0.25, output="zpk")
    >>> len(z), len(p)
    (3, 3)
    """
    return _iirfilter(lib.SK_IIR_CHEBY2, "cheby2", N, None, rs, Wn, btype, analog, output, fs)


def ellip(
    N: int,
    rp: float,
    rs: float,
    Wn: ArrayLike,
    btype: Btype = "low",
    analog: bool = False,
    output: IirOutput = "ba",
    fs: Optional[float] = None,
) -> Any:
    """Elliptic (Cauer) filter design, ``scipy.signal.ellip`` (C: ``sk_iirfilter_zpk``,
    ``sk_iirfilter_sos``; scipy's ``ellipap`` step by step, equal to scipy's to about 1e-12
    relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64.
    rp : float
        Pass-band ripple in dB (>= 0; > 0 for a design of order >= 1).
    rs : float
        Stop-band attenuation in dB (>= 0; > 0 for a design of order >= 2).
    Wn : float or pair of floats
        Critical frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop): where the
        gain first drops below ``-rp``. Units as :func:`cheby1`.
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
    analog : bool, default False
    output : {"ba", "zpk", "sos"}, default "ba"
    fs : float, optional

    Returns
    -------
    (b, a), (z, p, k) or sos
        As :func:`cheby1`; the zeros are complex.

    Raises
    ------
    ValueError
        scipy's checks; :class:`BadArgumentError` (a ``ValueError``) where scipy's design fails
        too ("Cannot design a filter with given rp and rs", or a ripple of exactly 0, where
        scipy divides by zero).

    Examples
    --------
    >>> sos = sigkern.ellip(4, 0.5, 60.0, 0.25, output="sos")
    >>> sos.shape
    (2, 6)
    """
    return _iirfilter(lib.SK_IIR_ELLIP, "ellip", N, rp, rs, Wn, btype, analog, output, fs)


def bessel(
    N: int,
    Wn: ArrayLike,
    btype: Btype = "low",
    analog: bool = False,
    output: IirOutput = "ba",
    norm: BesselNorm = "phase",
    fs: Optional[float] = None,
) -> Any:
    """Bessel–Thomson filter design, ``scipy.signal.bessel`` (C: ``sk_iirfilter_zpk``,
    ``sk_iirfilter_sos``; scipy's ``besselap``: its starting points, Aberth iteration, Newton
    polishing and normalisations; equal to scipy's to about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 84 (scipy's own limit: its ``besselap`` fails to find the Bessel
        polynomial's zeros above 84; sigkern raises ``ValueError`` there).
    Wn : float or pair of floats
        Critical frequency or band edges (meaning set by ``norm``). Units as :func:`butter`.
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
    analog : bool, default False
    output : {"ba", "zpk", "sos"}, default "ba"
    norm : {"phase", "delay", "mag"}, default "phase"
        "phase": the phase response reaches its midpoint at ``Wn``; "delay": group delay
        ``1/Wn`` in the pass band; "mag": gain -3 dB at ``Wn``.
    fs : float, optional

    Returns
    -------
    (b, a), (z, p, k) or sos
        As :func:`butter` (no finite analog zeros).

    Raises
    ------
    ValueError
        scipy's checks (an unknown ``norm`` is scipy's "not a valid basic IIR filter").

    Examples
    --------
    >>> b, a = sigkern.bessel(4, 0.2)
    >>> len(a)
    5
    """
    ftype = "bessel_" + str(norm)
    return _iirfilter(_FTYPES.get(ftype), "bessel", N, None, None, Wn, btype, analog, output, fs, ftype)


def iirfilter(
    N: int,
    Wn: ArrayLike,
    rp: Optional[float] = None,
    rs: Optional[float] = None,
    btype: Btype = "band",
    analog: bool = False,
    ftype: IirFtype = "butter",
    output: IirOutput = "ba",
    fs: Optional[float] = None,
) -> Any:
    """IIR design from an analog prototype, ``scipy.signal.iirfilter`` (C:
    ``sk_iirfilter_zpk``, ``sk_iirfilter_sos``).

    Parameters
    ----------
    N : int
        Order, 0 to 64 (Bessel prototypes: 0 to 84, as :func:`bessel`).
    Wn : float or pair of floats
        Critical frequency or band edges; units as :func:`butter`.
    rp, rs : float, optional
        Pass-band ripple and stop-band attenuation in dB, for the prototypes that use them
        (cheby1: ``rp``; cheby2: ``rs``; elliptic: both).
    btype : {"bandpass", "lowpass", "highpass", "bandstop"}, default "band"
    analog : bool, default False
    ftype : str, default "butter"
        scipy's names: "butter"/"butterworth", "cheby1"/"chebyshev1"/"chebyshevi",
        "cheby2"/"chebyshev2"/"chebyshevii", "ellip"/"elliptic"/"cauer",
        "bessel"/"bessel_phase"/"bessel_delay"/"bessel_mag".
    output : {"ba", "zpk", "sos"}, default "ba"
    fs : float, optional

    Returns
    -------
    (b, a), (z, p, k) or sos
        As the design functions.

    Raises
    ------
    ValueError
        scipy's checks and messages (unknown ``ftype``, a missing ``rp``/``rs``, ...).

    Examples
    --------
    >>> sos = sigkern.iirfilter(4, [0.1, 0.3], rs=60, ftype="cheby2", output="sos")
    >>> sos.shape
    (4, 6)
    """
    kind = _FTYPES.get(ftype) if isinstance(ftype, str) else None
    return _iirfilter(kind, "iirfilter", N, rp, rs, Wn, btype, analog, output, fs, str(ftype))


def zpk2sos(z: ArrayLike, p: ArrayLike, k: ArrayLike, pairing: Optional[str] = None, *,
            analog: bool = False) -> F64Array:
    """Second-order sections from zeros, poles and gain, ``scipy.signal.zpk2sos`` (C:
    ``sk_zpk2sos``), every pairing of scipy's (default ``'nearest'`` for digital filters,
    ``'minimal'`` for analog ones).

    Parameters
    ----------
    z, p : array_like
        Zeros and poles (complex ones in conjugate pairs).
    k : float or array_like of one element
        Gain (real).
    pairing : {None, "nearest", "keep_odd", "minimal"}, optional
        None: the default of ``analog``.
    analog : bool, default False
        The roots are of an analog filter (then ``pairing`` must be ``"minimal"`` or None and
        ``len(z) <= len(p)``).

    Returns
    -------
    sos : ndarray, shape (n_sections, 6), float64

    Raises
    ------
    ValueError
        scipy's checks (pairing, analog pairing, complex gain, unmatched conjugates, more
        zeros than poles for ``'minimal'``); :class:`BadArgumentError` (a ``ValueError``) where
        scipy's pairing runs out of real zeros (scipy raises ``IndexError`` there).

    Examples
    --------
    >>> z, p, k = sigkern.butter(4, 0.2, output="zpk")
    >>> sigkern.zpk2sos(z, p, k).shape
    (2, 6)
    """
    za = np.atleast_1d(np.asarray(z)).astype(np.complex128).ravel()
    pa = np.atleast_1d(np.asarray(p)).astype(np.complex128).ravel()
    if pairing is None:
        pairing = "minimal" if analog else "nearest"
    valid = ["nearest", "keep_odd", "minimal"]
    if pairing not in valid:
        raise ValueError(f"pairing must be one of {valid}, not {pairing}")
    if analog and pairing != "minimal":
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    kv = np.asarray(k)
    if kv.size != 1:
        raise ValueError(f"zpk2sos: k must be a single gain, got shape {kv.shape}")
    if za.size == 0 and pa.size == 0:
        kk = float(np.real(kv.reshape(())))
        return np.asarray([[kk, 0.0, 0.0, 1.0, 0.0, 0.0]] if not analog else [[0.0, 0.0, kk, 0.0, 0.0, 1.0]],
                          dtype=np.float64)
    minimal = pairing == "minimal"
    if minimal and pa.size < za.size:
        raise ValueError("for analog zpk2sos conversion, must have len(p)>=len(z)")
    if not np.isreal(kv.reshape(())):
        raise ValueError("k must be real")
    n = (pa.size + 1) // 2 if minimal else (max(pa.size, za.size) + 1) // 2
    sos = np.empty((n, 6), np.float64)
    cnt = ffi.new("size_t *")
    st = _zpk2sos_c(_fb(_C, za.view(np.float64)), za.size, _fb(_C, pa.view(np.float64)), pa.size,
                    float(np.real(kv.reshape(()))), _PAIRING[pairing], 1 if analog else 0, _fb(_C, sos, True), cnt,
                    sos.size)
    if st:
        raise error(st, "sk_zpk2sos")
    return sos
