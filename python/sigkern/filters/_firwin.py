"""Windowed-sinc FIR design (C: ``sk_firwin_bands``; Rust: ``src/kernels/filter/firwin.rs``):
``scipy.signal``'s :func:`firwin` with every option."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from .. import _args as A
from .._args import CARRAY, F64
from .._errors import error
from .._lib import cfunc, ffi, lib
from ..spectral._window import _window_params_spec
from ._common import _fb

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray

__all__ = ["firwin"]

_firwin_bands = cfunc("sk_firwin_bands")
_PASS_ZERO = {
    "lowpass": lib.SK_PASS_ZERO_LOWPASS,
    "highpass": lib.SK_PASS_ZERO_HIGHPASS,
    "bandpass": lib.SK_PASS_ZERO_BANDPASS,
    "bandstop": lib.SK_PASS_ZERO_BANDSTOP,
}


def _kaiser_beta_for(numtaps: int, width: float) -> float:
    """scipy.signal.kaiser_beta(kaiser_atten(numtaps, width)), ``width`` relative to Nyquist."""
    a = 2.285 * (numtaps - 1) * np.pi * width + 7.95
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        ret: float = 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
        return ret
    return 0.0


def firwin(
    numtaps: int,
    cutoff: ArrayLike,
    *,
    width: Optional[float] = None,
    window: ArrayLike = "hamming",
    pass_zero: Union[bool, str] = True,
    scale: bool = True,
    fs: Optional[float] = None,
) -> FloatArray:
    """Windowed-sinc linear-phase FIR design, like ``scipy.signal.firwin`` with every option
    (C: ``sk_firwin_bands``, equal to scipy within about 1e-14 of the largest tap).

    Parameters
    ----------
    numtaps : int
        Number of taps (>= 1; odd when the filter passes the Nyquist frequency, as in scipy).
    cutoff : float or 1-D array_like
        Band edges in the units of ``fs`` (without ``fs``: relative to Nyquist), strictly
        increasing, strictly between 0 and Nyquist; any number of them (multi-band filters).
    width : float, optional
        Transition width: if given, a Kaiser window with scipy's
        ``kaiser_beta(kaiser_atten(numtaps, width / nyq))`` replaces ``window``.
    window : str, tuple or float, default "hamming"
        Any window of :func:`sigkern.get_window` (scipy's names and parameters; symmetric form).
    pass_zero : bool or {"lowpass", "highpass", "bandpass", "bandstop"}, default True
        True: DC is in the first pass band; the names also check the number of cutoffs.
    scale : bool, default True
        Unit gain at DC, Nyquist or the centre of the first pass band, as scipy.
    fs : float, optional
        Sampling frequency.

    Returns
    -------
    taps : ndarray, shape (numtaps,), float64

    Examples
    --------
    >>> h = sigkern.firwin(63, 1000.0, fs=48000.0)
    >>> h = sigkern.firwin(101, [300.0, 3400.0], pass_zero=False, window=("kaiser", 8.0), fs=16000.0)
    """
    func = "firwin"
    nt = A.index(numtaps, func, "numtaps")
    if nt < 1:
        raise ValueError(f"{func}: numtaps must be at least 1, got {nt}")
    c = np.ascontiguousarray(np.atleast_1d(np.asarray(cutoff, dtype=np.float64)))
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"{func}: cutoff must be a 1-D list of at least one frequency, got {cutoff!r}")
    if isinstance(pass_zero, str):
        pz = _PASS_ZERO.get(pass_zero)
        if pz is None:
            raise ValueError(  # (scipy's words: its tests match them)
                f"Parameter pass_zero={pass_zero!r} not in (True, False, 'bandpass', 'lowpass', "
                f"'highpass', 'bandstop') ({func})"
            )
    elif isinstance(pass_zero, (bool, np.bool_, int, np.integer)):
        pz = lib.SK_PASS_ZERO_TRUE if bool(pass_zero) else lib.SK_PASS_ZERO_FALSE
    else:
        raise ValueError(  # (scipy's words: its tests match them)
            f"Parameter pass_zero={pass_zero!r} not in (True, False, 'bandpass', 'lowpass', "
            f"'highpass', 'bandstop') ({func})"
        )
    if isinstance(fs, np.ndarray) and fs.ndim > 0:
        raise ValueError(f"{func}: Sampling frequency fs must be a single scalar, got {fs!r}")
    if isinstance(pass_zero, str):  # (scipy's checks and words, before the C call's)
        if pass_zero in ("lowpass", "highpass") and c.size != 1:
            raise ValueError(f"{func}: cutoff must have one element if pass_zero=={pass_zero!r}, "
                             f"got {c.shape}")
        if pass_zero in ("bandpass", "bandstop") and c.size <= 1:
            raise ValueError(f"{func}: cutoff must have at least two elements if "
                             f"pass_zero=={pass_zero!r}, got {c.shape}")
    fsv = 2.0 if fs is None else A.rate(fs, func, "fs")
    if width is not None:
        kind, params = lib.SK_WINDOW_KAISER, np.array([_kaiser_beta_for(nt, float(width) / (fsv / 2))])
    else:
        kind, params = _window_params_spec(window, func)
    taps = np.empty(nt, np.float64)
    st = _firwin_bands(_fb(CARRAY[F64], c), kind, _fb(CARRAY[F64], params) if params.size else ffi.NULL,
                       pz, 1 if scale else 0, fsv, _fb(CARRAY[F64], taps, True), c.size, params.size, nt)
    if st:
        raise error(st, "sk_firwin_bands")
    return taps
